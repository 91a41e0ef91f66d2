/**
 * Settings -> Staff (admin): the staff accounts with their role, PIN and state; a new account with
 * its role and an initial password (typed, or generated and shown once) and PIN; a reset of the
 * password or PIN (typed or generated, shown once; the member's other sessions end); disabling an
 * account after confirmation (it cannot log in and its sessions end at once).
 */
import { useCallback, useState, type FormEvent } from 'react';
import { STAFF_ROLES, type StaffSecret } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { useSession } from '../session-store.js';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { Actions } from '../ui/dialog-parts.js';
import { CopyValue } from '../ui/copy-value.js';
import { formatDateTime } from '../ui/format.js';
import { translate, useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import { toneClass } from '../ui/tags.js';
import { settingsClient, type ResetStaffSecret } from './settings-client.js';
import { staffClient, type CreatedStaff, type StaffMember } from '../staff/staff-client.js';
import {
  focusFirst,
  FormProblem,
  hidden,
  Pending,
  problemsOf,
  ROLE_NAMES,
  SettingField,
  useLoaded,
  useRich,
  type Problems,
} from './settings-parts.js';

type Dialog = { kind: 'create' } | { kind: 'reset'; member: StaffMember } | { kind: 'disable'; member: StaffMember } | null;

export function StaffSettings() {
  const t = useT();
  const rich = useRich();
  const read = useCallback(() => staffClient.list(), []);
  const { data, problem, load } = useLoaded(read, 'settings.staff.loadFailed');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [message, setMessage] = useState('');
  const me = useSession((s) => s.session?.staff.staff_id);

  return (
    <section className="card" aria-labelledby="staff-title">
      <div className="page-head">
        <h2 id="staff-title">{t('settings.section.staff')}</h2>
        <button type="button" className="button button-primary" onClick={() => setDialog({ kind: 'create' })}>
          {t('settings.staff.new')}
        </button>
      </div>
      <p className="lead">{t('settings.staff.lead')}</p>
      <p className="settings-message" role="status">
        {message}
      </p>
      {!data ? (
        <Pending problem={problem} retry={() => void load()} />
      ) : (
        <table className="settings-table">
          <caption className="visually-hidden">{t('settings.staff.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('settings.staff.name')}</th>
              <th scope="col">{t('settings.staff.login')}</th>
              <th scope="col">{t('settings.staff.role')}</th>
              <th scope="col">{t('settings.staff.pin')}</th>
              <th scope="col">{t('settings.created')}</th>
              <th scope="col">{t('settings.staff.state')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('settings.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((member) => (
              <tr key={member.staff_id}>
                <td>{member.display_name}</td>
                <td className="mono">{member.login}</td>
                <td>{t(ROLE_NAMES[member.role])}</td>
                <td>{member.has_pin ? t('settings.staff.pinSet') : <span className="muted">{t('settings.staff.pinNone')}</span>}</td>
                <td>{formatDateTime(member.created_at)}</td>
                <td>
                  {member.disabled ? (
                    <span className={toneClass('off')}>{t('settings.staff.disabled')}</span>
                  ) : (
                    <span className={toneClass('ok')}>{t('settings.active')}</span>
                  )}
                </td>
                <td>
                  {!member.disabled && (
                    <div className="settings-row-actions">
                      <button type="button" className="button button-small" onClick={() => setDialog({ kind: 'reset', member })}>
                        {rich('settings.staff.reset', { login: member.login, hidden })}
                      </button>
                      {member.staff_id !== me && (
                        <button
                          type="button"
                          className="button button-small button-danger"
                          onClick={() => setDialog({ kind: 'disable', member })}
                        >
                          {rich('settings.staff.disable', { login: member.login, hidden })}
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
            setMessage(t('settings.staff.created', { login: created.login }));
            void load();
          }}
        />
      )}
      {dialog?.kind === 'reset' && (
        <ResetDialog
          member={dialog.member}
          onClose={() => setDialog(null)}
          onReset={(reset) => {
            setMessage(t('settings.staff.renewed', { secret: reset.secret, login: dialog.member.login }));
            void load();
          }}
        />
      )}
      {dialog?.kind === 'disable' && (
        <ConfirmDialog
          title={t('settings.staff.disableTitle', { name: dialog.member.display_name })}
          keepLabel={t('settings.staff.keep')}
          confirmLabel={t('settings.staff.disableConfirm')}
          busyLabel={t('settings.staff.disabling')}
          what={t('settings.staff.disableWhat')}
          run={() => settingsClient.disableStaff(dialog.member.staff_id)}
          onClose={() => setDialog(null)}
          onDone={(member) => {
            setDialog(null);
            setMessage(t('settings.staff.disabledMessage', { login: member.login }));
            void load();
          }}
        >
          <p>
            {t('settings.staff.disableBody', {
              name: dialog.member.display_name,
              login: dialog.member.login,
              role: t(ROLE_NAMES[dialog.member.role]),
            })}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

type CreateField = 'role' | 'login' | 'display_name' | 'password' | 'pin';
const CREATE_FIELDS: Record<CreateField, MessageId> = {
  role: 'settings.staff.role',
  login: 'settings.staff.login',
  display_name: 'settings.staff.name',
  password: 'settings.staff.password',
  pin: 'settings.staff.pin',
};

function CreateStaffDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (created: CreatedStaff) => void }) {
  const t = useT();
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
    if (!/^[a-z0-9][a-z0-9._-]{1,39}$/.test(login)) local.login = t('settings.staff.loginInvalid');
    if (password && password.length < 8) local.password = t('settings.staff.passwordShort');
    if (pin && !/^\d{4,8}$/.test(pin)) local.pin = t('settings.staff.pinInvalid');
    setProblems(local);
    if (Object.keys(local).length) return focusFirst('staff', local);
    setBusy(true);
    try {
      const made = await staffClient.create({
        role,
        login,
        ...(name.trim() ? { display_name: name.trim() } : {}),
        ...(password ? { password } : {}),
        ...(pin ? { pin } : {}),
      });
      setCreated({ staff: made, generated: !password });
      onCreated(made);
    } catch (error) {
      const found = problemsOf(error, translate('settings.staff.notCreated'), CREATE_FIELDS);
      setProblems(found);
      focusFirst('staff', found);
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <Modal title={t('settings.staff.createdTitle', { login: created.staff.login })} onClose={onClose} className="modal-wide">
        {created.generated ? (
          <>
            <p className="once-warning">{t('settings.staff.createdOnce', { login: created.staff.login })}</p>
            <CopyValue label={t('settings.staff.password')} value={created.staff.password} />
          </>
        ) : (
          <p>{t('settings.staff.createdGiven', { login: created.staff.login, pin: pin ? 'yes' : 'no' })}</p>
        )}
        <Actions>
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            {t('common.close')}
          </button>
        </Actions>
      </Modal>
    );
  }

  return (
    <Modal title={t('settings.staff.new')} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void create(event)} noValidate>
        <FormProblem text={problems.form} />
        <SettingField id="staff-role" label={t('settings.staff.role')} problem={problems.role}>
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
                  {t(ROLE_NAMES[r])}
                </option>
              ))}
            </select>
          )}
        </SettingField>
        <SettingField id="staff-login" label={t('settings.staff.login')} problem={problems.login} note={t('settings.staff.loginNote')}>
          {(props) => (
            <input
              {...props}
              className="input"
              value={login}
              maxLength={40}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => {
                setLogin(e.target.value.toLowerCase());
                clear('login');
              }}
            />
          )}
        </SettingField>
        <SettingField
          id="staff-display_name"
          label={t('settings.staff.name')}
          optional
          problem={problems.display_name}
          note={t('settings.staff.nameNote')}
        >
          {(props) => (
            <input
              {...props}
              className="input"
              value={name}
              maxLength={80}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value);
                clear('display_name');
              }}
            />
          )}
        </SettingField>
        <SettingField
          id="staff-password"
          label={t('settings.staff.initialPassword')}
          optional
          problem={problems.password}
          note={t('settings.staff.passwordNote')}
        >
          {(props) => (
            <input
              {...props}
              className="input"
              type="password"
              value={password}
              maxLength={200}
              autoComplete="new-password"
              onChange={(e) => {
                setPassword(e.target.value);
                clear('password');
              }}
            />
          )}
        </SettingField>
        <SettingField id="staff-pin" label={t('settings.staff.pin')} optional problem={problems.pin} note={t('settings.staff.pinNote')}>
          {(props) => (
            <input
              {...props}
              className="input input-short"
              type="password"
              inputMode="numeric"
              value={pin}
              maxLength={8}
              autoComplete="new-password"
              onChange={(e) => {
                setPin(e.target.value.replace(/\D/g, ''));
                clear('pin');
              }}
            />
          )}
        </SettingField>
        <Actions>
          <button type="button" className="button button-quiet" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" aria-disabled={busy}>
            {busy ? t('settings.staff.creating') : t('settings.staff.create')}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}

function ResetDialog({
  member,
  onClose,
  onReset,
}: {
  member: StaffMember;
  onClose: () => void;
  onReset: (reset: ResetStaffSecret) => void;
}) {
  const [secret, setSecret] = useState<StaffSecret>('password');
  const [value, setValue] = useState('');
  const [problems, setProblems] = useState<Problems<'secret' | 'value'>>({});
  const [busy, setBusy] = useState(false);
  const [reset, setReset] = useState<ResetStaffSecret | null>(null);
  const t = useT();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<'value'> = {};
    if (value && secret === 'pin' && !/^\d{4,8}$/.test(value)) local.value = t('settings.staff.resetPinInvalid');
    if (value && secret === 'password' && value.length < 8) local.value = t('settings.staff.resetPasswordShort');
    setProblems(local);
    if (local.value) return focusFirst('reset', local);
    setBusy(true);
    try {
      const done = await settingsClient.resetStaff(member.staff_id, secret, value || undefined);
      setReset(done);
      onReset(done);
    } catch (error) {
      const found = problemsOf(error, translate('settings.staff.notRenewed', { secret }), {
        secret: 'settings.staff.resetWhatField',
        value: secret === 'pin' ? 'settings.staff.newPin' : 'settings.staff.newPassword',
      });
      setProblems(found);
      focusFirst('reset', found);
    } finally {
      setBusy(false);
    }
  };

  if (reset) {
    return (
      <Modal
        title={t('settings.staff.renewedTitle', { secret: reset.secret, login: member.login })}
        onClose={onClose}
        className="modal-wide"
      >
        {reset.value ? (
          <>
            <p className="once-warning">{t('settings.staff.renewedOnce', { secret: reset.secret, name: member.display_name })}</p>
            <CopyValue label={t(reset.secret === 'pin' ? 'settings.staff.newPin' : 'settings.staff.newPassword')} value={reset.value} />
          </>
        ) : (
          <p>{t('settings.staff.renewedTyped', { secret: reset.secret })}</p>
        )}
        <p>
          {reset.sessions_ended === 0
            ? t('settings.staff.notLoggedIn', { name: member.display_name })
            : t('settings.staff.loggedOut', { name: member.display_name, count: reset.sessions_ended })}
        </p>
        <Actions>
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            {t('common.close')}
          </button>
        </Actions>
      </Modal>
    );
  }

  return (
    <Modal title={t('settings.staff.resetTitle', { name: member.display_name })} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <FormProblem text={problems.form ?? problems.secret} />
        <fieldset className="field">
          <legend className="field-label">{t('settings.staff.resetWhat')}</legend>
          {(['password', 'pin'] as const).map((option) => (
            <label key={option} className="check">
              <input
                type="radio"
                name="reset-secret"
                value={option}
                checked={secret === option}
                onChange={() => setSecret(option)}
                {...(option === 'password' ? { 'data-autofocus': true } : {})}
              />{' '}
              {option === 'pin' ? t('settings.staff.resetPinOption') : t('settings.staff.password')}
            </label>
          ))}
        </fieldset>
        <SettingField
          id="reset-value"
          label={t(secret === 'pin' ? 'settings.staff.newPin' : 'settings.staff.newPassword')}
          optional
          problem={problems.value}
          note={t('settings.staff.resetNote', { name: member.display_name })}
        >
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
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" aria-disabled={busy}>
            {busy ? t('settings.staff.renewing') : t('settings.staff.renew', { secret })}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}
