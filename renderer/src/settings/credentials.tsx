/**
 * Settings -> API credentials (admin): the API keys POS software uses with HTTP Basic, when each was
 * made and revoked (never a password). New credentials show their password once with Copy; revoking
 * asks first, and from then on the credentials answer 401.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { formatDateTime } from '../ui/format.js';
import { translate, useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import { CopyValue } from '../ui/copy-value.js';
import { toneClass } from '../ui/tags.js';
import { settingsClient, type ApiCredential, type CreatedApiCredential } from './settings-client.js';
import { hidden, Pending, useLoaded, useRich } from './settings-parts.js';

const mono = (chunks: ReactNode[]) => <span className="mono">{chunks}</span>;

export function CredentialSettings() {
  const t = useT();
  const rich = useRich();
  const read = useCallback(() => settingsClient.credentials(), []);
  const { data, problem, load } = useLoaded(read, 'settings.credentials.loadFailed');
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiCredential | null>(null);
  const [message, setMessage] = useState('');

  return (
    <section className="card" aria-labelledby="credentials-title">
      <div className="page-head">
        <h2 id="credentials-title">{t('settings.section.credentials')}</h2>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          {t('settings.credentials.new')}
        </button>
      </div>
      <p className="lead">{t('settings.credentials.lead')}</p>
      <p className="settings-message" role="status">
        {message}
      </p>
      {!data ? (
        <Pending problem={problem} retry={() => void load()} />
      ) : (
        <table className="settings-table">
          <caption className="visually-hidden">{t('settings.credentials.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('settings.credentials.apiKey')}</th>
              <th scope="col">{t('settings.created')}</th>
              <th scope="col">{t('common.status')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('settings.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((credential) => (
              <tr key={credential.credential_id}>
                <td className="mono">{credential.api_key}</td>
                <td>{formatDateTime(credential.created_at)}</td>
                <td>
                  {credential.revoked_at ? (
                    <span className={toneClass('off')}>
                      {t('settings.credentials.revokedAt', { when: formatDateTime(credential.revoked_at) })}
                    </span>
                  ) : (
                    <span className={toneClass('ok')}>{t('settings.active')}</span>
                  )}
                </td>
                <td>
                  {!credential.revoked_at && (
                    <button type="button" className="button button-small button-danger" onClick={() => setRevoking(credential)}>
                      {rich('settings.credentials.revoke', { apiKey: credential.api_key, hidden })}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {creating && (
        <CreateCredentialDialog
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setMessage(t('settings.credentials.created', { apiKey: created.api_key }));
            void load();
          }}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={t('settings.credentials.revokeTitle')}
          keepLabel={t('settings.credentials.keep')}
          confirmLabel={t('settings.credentials.revokeConfirm')}
          busyLabel={t('settings.credentials.revoking')}
          what={t('settings.credentials.revokeWhat')}
          run={() => settingsClient.revokeCredential(revoking.credential_id)}
          onClose={() => setRevoking(null)}
          onDone={(revoked) => {
            setRevoking(null);
            setMessage(t('settings.credentials.revoked', { apiKey: revoked.api_key }));
            void load();
          }}
        >
          <p>{rich('settings.credentials.revokeBody', { apiKey: revoking.api_key, mono })}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function CreateCredentialDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (created: CreatedApiCredential) => void }) {
  const t = useT();
  const action = useAction();
  const [created, setCreated] = useState<CreatedApiCredential | null>(null);
  const create = async () => {
    const made = await action.run(translate('settings.credentials.createWhat'), () => settingsClient.createCredential());
    if (made) {
      setCreated(made);
      onCreated(made);
    }
  };
  return (
    <Modal
      title={created ? t('settings.credentials.new') : t('settings.credentials.createTitle')}
      onClose={onClose}
      busy={action.busy}
      className={created ? 'modal-wide' : 'modal-narrow'}
    >
      {created ? (
        <>
          <p className="once-warning">{t('settings.credentials.once')}</p>
          <CopyValue label={t('settings.credentials.apiKey')} value={created.api_key} />
          <CopyValue label={t('settings.credentials.apiPassword')} value={created.api_password} />
          <p className="field-note">{t('settings.credentials.basicNote')}</p>
        </>
      ) : (
        <p>{t('settings.credentials.createBody')}</p>
      )}
      <Problem text={action.problem} />
      <Actions>
        {created ? (
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            {t('common.close')}
          </button>
        ) : (
          <>
            <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
              {t('common.cancel')}
            </button>
            <button type="button" className="button button-primary" onClick={() => void create()} disabled={action.busy} data-autofocus>
              {action.busy ? t('settings.credentials.creating') : t('settings.credentials.create')}
            </button>
          </>
        )}
      </Actions>
    </Modal>
  );
}
