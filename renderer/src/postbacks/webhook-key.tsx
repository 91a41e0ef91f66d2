/**
 * The webhook key on the Postbacks screen: masked, Copy (the gateway gives the key for it), and for
 * an admin Rotate, after a dialog that says the old key keeps signing for 24 hours. The rotation is
 * in the audit log; the key itself never stays on screen.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { WEBHOOK_KEY_GRACE_HOURS } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { formatDateTime } from '../ui/format.js';
import { useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import { postbacksClient, type WebhookKeyInfo } from './postbacks-client.js';

/** Nothing to show. */
const NONE = '—';

/** Whole sentences of one paragraph, each its own message, a space between them. */
const sentences = (...parts: Array<string | null | false | undefined>) => parts.filter(Boolean).join(' ');

export function WebhookKeyCard() {
  const [info, setInfo] = useState<WebhookKeyInfo | null>(null);
  const [rotating, setRotating] = useState(false);
  const [copied, setCopied] = useState('');
  const load = useAction();
  const copy = useAction();
  const t = useT();

  const read = async () => {
    const answer = await load.run(t('postbacks.key.readWhat'), () => postbacksClient.webhookKey());
    if (answer) setInfo(answer);
  };
  useEffect(() => {
    void read();
  }, []);

  const copyKey = async () => {
    setCopied('');
    const answer = await copy.run(t('postbacks.key.copyWhat'), () => postbacksClient.revealWebhookKey());
    if (!answer) return;
    try {
      await navigator.clipboard.writeText(answer.webhook_key);
      setCopied(t('postbacks.key.copied'));
    } catch {
      copy.setProblem(t('postbacks.key.noClipboard'));
    }
  };

  return (
    <section className="card webhook-key-card" aria-labelledby="webhook-key-title">
      <div className="card-head">
        <h2 id="webhook-key-title">{t('postbacks.key.title')}</h2>
        <div className="head-actions">
          <button
            type="button"
            className="button button-small"
            disabled={!info || copy.busy}
            onClick={() => void copyKey()}
            aria-label={t('postbacks.key.copyLabel')}
          >
            {t('ui.copy.copy')}
          </button>
          {info?.may_rotate && (
            <button type="button" className="button button-small button-danger-quiet" onClick={() => setRotating(true)}>
              {t('postbacks.key.rotate')}
            </button>
          )}
        </div>
      </div>
      <p className="webhook-key-value">
        <span className="mono" aria-label={t('postbacks.key.masked')}>
          {info ? info.masked : load.busy ? t('common.loading') : NONE}
        </span>
      </p>
      <p className="field-note">
        {sentences(
          t('postbacks.key.note'),
          info?.previous_key_valid_until ? t('postbacks.key.previousUntil', { date: formatDateTime(info.previous_key_valid_until) }) : null,
          info && !info.may_rotate ? t('postbacks.key.adminRotates') : null,
        )}
      </p>
      <p className="copied" role="status">
        {copied}
      </p>
      <Problem text={load.problem ?? copy.problem} />
      {rotating && (
        <RotateKeyDialog
          onClose={() => setRotating(false)}
          onDone={(until) => {
            setRotating(false);
            setCopied(t('postbacks.key.rotated', { date: formatDateTime(until) }));
            void read();
          }}
        />
      )}
    </section>
  );
}

function RotateKeyDialog({ onClose, onDone }: { onClose: () => void; onDone: (until: string) => void }) {
  const action = useAction();
  const t = useT();
  const intl = useIntl();
  const rotate = async () => {
    const answer = await action.run(t('postbacks.rotate.what'), () => postbacksClient.rotateWebhookKey());
    if (answer) onDone(answer.previous_key_valid_until);
  };
  return (
    <Modal title={t('postbacks.rotate.title')} onClose={onClose} busy={action.busy} className="modal-narrow">
      <p>{t('postbacks.rotate.new')}</p>
      <p>
        {intl.formatMessage(
          { id: 'postbacks.rotate.grace' satisfies MessageId },
          { hours: WEBHOOK_KEY_GRACE_HOURS, b: (chunks: ReactNode[]) => <strong>{chunks}</strong> },
        )}
      </p>
      <p className="field-note">{t('postbacks.rotate.audit')}</p>
      <Problem text={action.problem} />
      <Actions>
        <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy} data-autofocus>
          {t('postbacks.rotate.keep')}
        </button>
        <button type="button" className="button button-danger" onClick={() => void rotate()} disabled={action.busy}>
          {t(action.busy ? 'postbacks.rotate.busy' : 'postbacks.rotate.confirm')}
        </button>
      </Actions>
    </Modal>
  );
}
