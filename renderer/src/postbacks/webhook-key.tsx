/**
 * The webhook key on the Postbacks screen: masked, Copy (the gateway gives the key for it), and for
 * an admin Rotate, after a dialog that says the old key keeps signing for 24 hours. The rotation is
 * in the audit log; the key itself never stays on screen.
 */
import { useEffect, useState } from 'react';
import { WEBHOOK_KEY_GRACE_HOURS } from '../../../contract/constants.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { formatDateTime } from '../ui/format.js';
import { Modal } from '../ui/modal.js';
import { postbacksClient, type WebhookKeyInfo } from './postbacks-client.js';

export function WebhookKeyCard() {
  const [info, setInfo] = useState<WebhookKeyInfo | null>(null);
  const [rotating, setRotating] = useState(false);
  const [copied, setCopied] = useState('');
  const load = useAction();
  const copy = useAction();

  const read = async () => {
    const answer = await load.run('Reading the webhook key', () => postbacksClient.webhookKey());
    if (answer) setInfo(answer);
  };
  useEffect(() => {
    void read();
  }, []);

  const copyKey = async () => {
    setCopied('');
    const answer = await copy.run('Copying the webhook key', () => postbacksClient.revealWebhookKey());
    if (!answer) return;
    try {
      await navigator.clipboard.writeText(answer.webhook_key);
      setCopied('Webhook key copied.');
    } catch {
      copy.setProblem('This window may not use the clipboard: open the app on this computer to copy the key.');
    }
  };

  return (
    <section className="card webhook-key-card" aria-labelledby="webhook-key-title">
      <div className="card-head">
        <h2 id="webhook-key-title">Webhook key</h2>
        <div className="head-actions">
          <button type="button" className="button button-small" disabled={!info || copy.busy} onClick={() => void copyKey()} aria-label="Copy webhook key">
            Copy
          </button>
          {info?.may_rotate && (
            <button type="button" className="button button-small button-danger-quiet" onClick={() => setRotating(true)}>
              Rotate…
            </button>
          )}
        </div>
      </div>
      <p className="webhook-key-value">
        <span className="mono" aria-label="Webhook key, masked">
          {info ? info.masked : load.busy ? 'Loading…' : '—'}
        </span>
      </p>
      <p className="field-note">
        Receivers check each postback's signature with this key (docs: Postbacks, verifying).
        {info?.previous_key_valid_until ? ` The previous key signs too until ${formatDateTime(info.previous_key_valid_until)}.` : ''}
        {info && !info.may_rotate ? ' An admin can rotate it.' : ''}
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
            setCopied(`Rotated. The old key signs too until ${formatDateTime(until)}: update your receivers before then.`);
            void read();
          }}
        />
      )}
    </section>
  );
}

function RotateKeyDialog({ onClose, onDone }: { onClose: () => void; onDone: (until: string) => void }) {
  const action = useAction();
  const rotate = async () => {
    const answer = await action.run('Rotating the webhook key', () => postbacksClient.rotateWebhookKey());
    if (answer) onDone(answer.previous_key_valid_until);
  };
  return (
    <Modal title="Rotate the webhook key?" onClose={onClose} busy={action.busy} className="modal-narrow">
      <p>A new webhook key is made now and signs every postback from then on.</p>
      <p>
        <strong>The old key stays valid for {WEBHOOK_KEY_GRACE_HOURS} hours:</strong> until then each postback carries two signatures, one with each key, so receivers that still have the
        old key keep accepting them. The checksum uses the new key at once. Give your receivers the new key within {WEBHOOK_KEY_GRACE_HOURS} hours.
      </p>
      <p className="field-note">The rotation is written to the audit log under your name.</p>
      <Problem text={action.problem} />
      <Actions>
        <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy} data-autofocus>
          Keep the current key
        </button>
        <button type="button" className="button button-danger" onClick={() => void rotate()} disabled={action.busy}>
          {action.busy ? 'Rotating…' : 'Rotate key'}
        </button>
      </Actions>
    </Modal>
  );
}
