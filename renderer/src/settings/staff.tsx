/**
 * Settings -> Staff (admin): the staff accounts with their role, PIN and state; a new account with
 * its role and an initial password (typed, or generated and shown once) and PIN; a reset of the
 * password or PIN (typed or generated, shown once; the member's other sessions end); disabling an
 * account after confirmation (it cannot log in and its sessions end at once).
 */
import { useCallback, useState, type FormEvent } from 'react';
import { STAFF_ROLES, type StaffSecret } from '../../../contract/constants.js';
import { ROLE_NAMES } from '../shell/areas.js';
import { useSession } from '../session-store.js';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { Actions } from '../ui/dialog-parts.js';
import { CopyValue } from '../ui/copy-value.js';
import { formatDateTime } from '../ui/format.js';
import { Modal } from '../ui/modal.js';
import { toneClass } from '../ui/tags.js';
import { adminClient, type CreatedStaff, type ResetStaffSecret, type StaffMember } from './admin-client.js';
import { focusFirst, FormProblem, Pending, problemsOf, SettingField, useLoaded, type Problems } from './settings-parts.js';

type Dialog = { kind: 'create' } | { kind: 'reset'; member: StaffMember } | { kind: 'disable'; member: StaffMember } | null;

export function StaffSettings() {
  const read = useCallback(() => adminClient.staff(), []);
  const { data, problem, load } = useLoaded(read, 'The staff');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [message, setMessage] = useState('');
  const me = useSession((s) => s.session?.staff.staff_id);

  return (
    <section className="card" aria-labelledby="staff-title">
      <div className="page-head">
        <h2 id="staff-title">Staff</h2>
        <button type="button" className="button button-primary" onClick={() => setDialog({ kind: 'create' })}>
          New staff account
        </button>
      </div>
      <p className="lead">Who may log in to this app, and as what: cashiers use the till, back office sees sales and invoices, admins also change Settings.</p>
      <p className="settings-message" role="status">
        {message}
      </p>
      {!data ? (
        <Pending problem={problem} retry={() => void load()} />
      ) : (
        <table className="settings-table">
          <caption className="visually-hidden">Staff accounts</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Login</th>
              <th scope="col">Role</th>
              <th scope="col">PIN</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((member) => (
              <tr key={member.staff_id}>
                <td>{member.display_name}</td>
                <td className="mono">{member.login}</td>
                <td>{ROLE_NAMES[member.role]}</td>
                <td>{member.has_pin ? 'Set' : <span className="muted">None</span>}</td>
                <td>{formatDateTime(member.created_at)}</td>
                <td>{member.disabled ? <span className={toneClass('off')}>Disabled</span> : <span className={toneClass('ok')}>Active</span>}</td>
                <td>
                  {!member.disabled && (
                    <div className="settings-row-actions">
                      <button type="button" className="button button-small" onClick={() => setDialog({ kind: 'reset', member })}>
                        Reset<span className="visually-hidden"> password or PIN of {member.login}</span>
                      </button>
                      {member.staff_id !== me && (
                        <button type="button" className="button button-small button-danger" onClick={() => setDialog({ kind: 'disable', member })}>
                          Disable<span className="visually-hidden"> {member.login}</span>
                        </button>
                      )}
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {dialog?.kind === 'create' && (
        <CreateStaffDialog
          onClose={() => setDialog(null)}
          onCreated={(created) => {
            setMessage(`Staff account ${created.login} created.`);
            void load();
          }}
        />
      )}
      {dialog?.kind === 'reset' && (
        <ResetDialog
          member={dialog.member}
          onClose={() => setDialog(null)}
          onReset={(reset) => {
            setMessage(`${reset.secret === 'pin' ? 'PIN' : 'Password'} of ${dialog.member.login} renewed.`);
            void load();
          }}
        />
      )}
      {dialog?.kind === 'disable' && (
        <ConfirmDialog
          title={`Disable ${dialog.member.display_name}?`}
          keepLabel="Keep the account"
          confirmLabel="Disable account"
          busyLabel="Disabling…"
          what="Disabling the account"
          run={() => adminClient.disableStaff(dialog.member.staff_id)}
          onClose={() => setDialog(null)}
          onDone={(member) => {
            setDialog(null);
            setMessage(`${member.login} is disabled: logged out everywhere and cannot log in.`);
            void load();
          }}
        >
          <p>
            {dialog.member.display_name} ({dialog.member.login}, {ROLE_NAMES[dialog.member.role]}) is logged out at once wherever they are logged in and cannot log in again. Their entries in the audit
            log stay.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

type CreateField = 'role' | 'login' | 'display_name' | 'password' | 'pin';
const CREATE_FIELDS: Record<CreateField, string> = { role: 'role', login: 'login', display_name: 'name', password: 'password', pin: 'PIN' };

function CreateStaffDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (created: CreatedStaff) => void }) {
  const [role, setRole] = useState<string>('cashier');
  const [login, setLogin] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [pin, setPin] = useState('');
  const [problems, setProblems] = useState<Problems<CreateField>>({});
  const clear = (field: CreateField) => setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ staff: CreatedStaff; generated: boolean } | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<CreateField> = {};
    if (!/^[a-z0-9][a-z0-9._-]{1,39}$/.test(login)) local.login = 'Login must be 2 to 40 lower-case letters, digits, dot, dash or underscore.';
    if (password && password.length < 8) local.password = 'Password must be at least 8 characters, or leave it empty to generate one.';
    if (pin && !/^\d{4,8}$/.test(pin)) local.pin = 'PIN must be 4 to 8 digits.';
    setProblems(local);
    if (Object.keys(local).length) return focusFirst('staff', local);
    setBusy(true);
    try {
      const made = await adminClient.createStaff({ role, login, ...(name.trim() ? { display_name: name.trim() } : {}), ...(password ? { password } : {}), ...(pin ? { pin } : {}) });
      setCreated({ staff: made, generated: !password });
      onCreated(made);
    } catch (error) {
      const found = problemsOf(error, 'The account was not created', CREATE_FIELDS);
      setProblems(found);
      focusFirst('staff', found);
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <Modal title={`Account ${created.staff.login} created`} onClose={onClose} className="modal-wide">
        {created.generated ? (
          <>
            <p className="once-warning">Shown once: give this password to {created.staff.login} now. It is not kept in readable form.</p>
            <CopyValue label="Password" value={created.staff.password} />
          </>
        ) : (
          <p>{created.staff.login} logs in with the password you gave{pin ? ' or the PIN' : ''}.</p>
        )}
        <Actions>
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            Close
          </button>
        </Actions>
      </Modal>
    );
  }

  return (
    <Modal title="New staff account" onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void create(event)} noValidate>
        <FormProblem text={problems.form} />
        <SettingField id="staff-role" label="Role" problem={problems.role}>
          {(props) => (
            <select
              {...props}
              className="input"
              value={role}
              onChange={(e) => {
                setRole(e.target.value);
                clear('role');
              }}
              data-autofocus
            >
              {STAFF_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_NAMES[r]}
                </option>
              ))}
            </select>
          )}
        </SettingField>
        <SettingField id="staff-login" label="Login" problem={problems.login} note="Lower-case letters, digits, dot, dash or underscore">
          {(props) => <input {...props} className="input" value={login} maxLength={40} autoComplete="off" spellCheck={false} onChange={(e) => {
                setLogin(e.target.value.toLowerCase());
                clear('login');
              }} />}
        </SettingField>
        <SettingField id="staff-display_name" label="Name" optional problem={problems.display_name} note="Shown in the header and the audit log; empty: the login">
          {(props) => <input {...props} className="input" value={name} maxLength={80} autoComplete="off" onChange={(e) => {
                setName(e.target.value);
                clear('display_name');
              }} />}
        </SettingField>
        <SettingField id="staff-password" label="Initial password" optional problem={problems.password} note="At least 8 characters; empty: one is generated and shown once">
          {(props) => <input {...props} className="input" type="password" value={password} maxLength={200} autoComplete="new-password" onChange={(e) => {
                setPassword(e.target.value);
                clear('password');
              }} />}
        </SettingField>
        <SettingField id="staff-pin" label="PIN" optional problem={problems.pin} note="4 to 8 digits, for the till's login">
          {(props) => <input {...props} className="input input-short" type="password" inputMode="numeric" value={pin} maxLength={8} autoComplete="new-password" onChange={(e) => {
                setPin(e.target.value.replace(/\D/g, ''));
                clear('pin');
              }} />}
        </SettingField>
        <Actions>
          <button type="button" className="button button-quiet" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" aria-disabled={busy}>
            {busy ? 'Creating…' : 'Create account'}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}

function ResetDialog({ member, onClose, onReset }: { member: StaffMember; onClose: () => void; onReset: (reset: ResetStaffSecret) => void }) {
  const [secret, setSecret] = useState<StaffSecret>('password');
  const [value, setValue] = useState('');
  const [problems, setProblems] = useState<Problems<'secret' | 'value'>>({});
  const [busy, setBusy] = useState(false);
  const [reset, setReset] = useState<ResetStaffSecret | null>(null);
  const word = secret === 'pin' ? 'PIN' : 'password';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<'value'> = {};
    if (value && secret === 'pin' && !/^\d{4,8}$/.test(value)) local.value = 'A PIN is 4 to 8 digits, or leave it empty to generate one.';
    if (value && secret === 'password' && value.length < 8) local.value = 'A password is at least 8 characters, or leave it empty to generate one.';
    setProblems(local);
    if (local.value) return focusFirst('reset', local);
    setBusy(true);
    try {
      const done = await adminClient.resetStaff(member.staff_id, secret, value || undefined);
      setReset(done);
      onReset(done);
    } catch (error) {
      const found = problemsOf(error, `The ${word} was not renewed`, { secret: 'what', value: `new ${word}` });
      setProblems(found);
      focusFirst('reset', found);
    } finally {
      setBusy(false);
    }
  };

  if (reset) {
    const name = reset.secret === 'pin' ? 'PIN' : 'Password';
    return (
      <Modal title={`${name} of ${member.login} renewed`} onClose={onClose} className="modal-wide">
        {reset.value ? (
          <>
            <p className="once-warning">Shown once: give the new {name === 'PIN' ? 'PIN' : 'password'} to {member.display_name} now.</p>
            <CopyValue label={`New ${name === 'PIN' ? 'PIN' : 'password'}`} value={reset.value} />
          </>
        ) : (
          <p>The {name === 'PIN' ? 'PIN' : 'password'} you typed is set.</p>
        )}
        <p>
          {reset.sessions_ended === 0 ? `${member.display_name} was not logged in anywhere.` : `${member.display_name} was logged out (${reset.sessions_ended} session${reset.sessions_ended === 1 ? '' : 's'}).`}
        </p>
        <Actions>
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            Close
          </button>
        </Actions>
      </Modal>
    );
  }

  return (
    <Modal title={`Reset ${member.display_name}'s password or PIN`} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <FormProblem text={problems.form ?? problems.secret} />
        <fieldset className="field">
          <legend className="field-label">What to renew</legend>
          {(['password', 'pin'] as const).map((option) => (
            <label key={option} className="check">
              <input type="radio" name="reset-secret" value={option} checked={secret === option} onChange={() => setSecret(option)} {...(option === 'password' ? { 'data-autofocus': true } : {})} />{' '}
              {option === 'pin' ? 'PIN (till login)' : 'Password'}
            </label>
          ))}
        </fieldset>
        <SettingField id="reset-value" label={`New ${word}`} optional problem={problems.value} note={`Empty: one is generated and shown once. ${member.display_name}'s sessions end.`}>
          {(props) => (
            <input
              {...props}
              className="input"
              type="password"
              inputMode={secret === 'pin' ? 'numeric' : 'text'}
              value={value}
              maxLength={secret === 'pin' ? 8 : 200}
              autoComplete="new-password"
              onChange={(e) => setValue(secret === 'pin' ? e.target.value.replace(/\D/g, '') : e.target.value)}
            />
          )}
        </SettingField>
        <Actions>
          <button type="button" className="button button-quiet" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" aria-disabled={busy}>
            {busy ? 'Renewing…' : `Renew ${word}`}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}
