/**
 * Settings -> API credentials (admin): the API keys POS software uses with HTTP Basic, when each was
 * made and revoked (never a password). New credentials show their password once with Copy; revoking
 * asks first, and from then on the credentials answer 401.
 */
import { useCallback, useState } from 'react';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { formatDateTime } from '../ui/format.js';
import { Modal } from '../ui/modal.js';
import { CopyValue } from '../ui/copy-value.js';
import { toneClass } from '../ui/tags.js';
import { adminClient, type ApiCredential, type CreatedApiCredential } from './admin-client.js';
import { Pending, useLoaded } from './settings-parts.js';

export function CredentialSettings() {
  const read = useCallback(() => adminClient.credentials(), []);
  const { data, problem, load } = useLoaded(read, 'The API credentials');
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiCredential | null>(null);
  const [message, setMessage] = useState('');

  return (
    <section className="card" aria-labelledby="credentials-title">
      <div className="page-head">
        <h2 id="credentials-title">API credentials</h2>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          New API credentials
        </button>
      </div>
      <p className="lead">POS software calls the gateway with an API key and its password (HTTP Basic). The password is shown once, when the credentials are made.</p>
      <p className="settings-message" role="status">
        {message}
      </p>
      {!data ? (
        <Pending problem={problem} retry={() => void load()} />
      ) : (
        <table className="settings-table">
          <caption className="visually-hidden">API credentials, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">API key</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((credential) => (
              <tr key={credential.credential_id}>
                <td className="mono">{credential.api_key}</td>
                <td>{formatDateTime(credential.created_at)}</td>
                <td>
                  {credential.revoked_at ? <span className={toneClass('off')}>Revoked {formatDateTime(credential.revoked_at)}</span> : <span className={toneClass('ok')}>Active</span>}
                </td>
                <td>
                  {!credential.revoked_at && (
                    <button type="button" className="button button-small button-danger" onClick={() => setRevoking(credential)}>
                      Revoke<span className="visually-hidden"> {credential.api_key}</span>
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
            setMessage(`API key ${created.api_key} created.`);
            void load();
          }}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title="Revoke these API credentials?"
          keepLabel="Keep them"
          confirmLabel="Revoke credentials"
          busyLabel="Revoking…"
          what="Revoking the credentials"
          run={() => adminClient.revokeCredential(revoking.credential_id)}
          onClose={() => setRevoking(null)}
          onDone={(revoked) => {
            setRevoking(null);
            setMessage(`API key ${revoked.api_key} revoked: it answers 401 from now on.`);
            void load();
          }}
        >
          <p>
            POS software using API key <span className="mono">{revoking.api_key}</span> is refused from its next request (401). This cannot be undone; make new credentials for it instead.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function CreateCredentialDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (created: CreatedApiCredential) => void }) {
  const action = useAction();
  const [created, setCreated] = useState<CreatedApiCredential | null>(null);
  const create = async () => {
    const made = await action.run('Creating the credentials', () => adminClient.createCredential());
    if (made) {
      setCreated(made);
      onCreated(made);
    }
  };
  return (
    <Modal title={created ? 'New API credentials' : 'Create API credentials?'} onClose={onClose} busy={action.busy} className={created ? 'modal-wide' : 'modal-narrow'}>
      {created ? (
        <>
          <p className="once-warning">Shown once: copy the password now. The gateway keeps only its hash; if it is lost, make new credentials.</p>
          <CopyValue label="API key" value={created.api_key} />
          <CopyValue label="API password" value={created.api_password} />
          <p className="field-note">The POS software sends them as HTTP Basic: the API key as user name, the password as password.</p>
        </>
      ) : (
        <p>New credentials for POS software to call this gateway's API as this merchant. Their password is shown once.</p>
      )}
      <Problem text={action.problem} />
      <Actions>
        {created ? (
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            Close
          </button>
        ) : (
          <>
            <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
              Cancel
            </button>
            <button type="button" className="button button-primary" onClick={() => void create()} disabled={action.busy} data-autofocus>
              {action.busy ? 'Creating…' : 'Create credentials'}
            </button>
          </>
        )}
      </Actions>
    </Modal>
  );
}
