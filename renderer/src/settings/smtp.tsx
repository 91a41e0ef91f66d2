/**
 * Settings -> E-mail (SMTP) (admin): the SMTP server invoice and receipt e-mails go through (host,
 * port, security, user, from address) and its password, which is write-only: the screen says only
 * whether one is set, and an empty field keeps it. "Send a test e-mail" sends through the saved
 * server and shows the server's answer: its acceptance or the error in its words.
 */
import { useCallback, useState, type FormEvent } from 'react';
import { SMTP_SECURITY, type SmtpSecurity } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { isEmailAddress } from '../../../contract/text-rules.js';
import { formatDateTime } from '../ui/format.js';
import { translate, useT } from '../ui/i18n.js';
import { settingsClient, type SmtpSettings, type SmtpTestResult } from './settings-client.js';
import { focusFirst, FormProblem, Pending, problemsOf, SettingField, useLoaded, type Problems } from './settings-parts.js';

type Field = 'host' | 'port' | 'security' | 'user' | 'password' | 'from';
const FIELDS: Record<Field, MessageId> = {
  host: 'settings.smtp.host',
  port: 'settings.smtp.port',
  security: 'settings.smtp.security',
  user: 'settings.smtp.user',
  password: 'settings.smtp.password',
  from: 'settings.smtp.from',
};
const SECURITY_NAMES: Readonly<Record<SmtpSecurity, MessageId>> = {
  starttls: 'settings.smtp.security.starttls',
  implicit: 'settings.smtp.security.implicit',
  none: 'settings.smtp.security.none',
};
/** Examples of a server and a from address (addresses: the same in every language). */
const HOST_EXAMPLE = 'smtp.example.com';
const FROM_EXAMPLE = 'Shop <billing@shop.example>';

export function SmtpSettingsScreen() {
  const t = useT();
  const read = useCallback(() => settingsClient.smtp(), []);
  const { data, problem, load, setData } = useLoaded(read, 'settings.smtp.loadFailed');
  return (
    <>
      <section className="card settings-form" aria-labelledby="smtp-title">
        <h2 id="smtp-title">{t('settings.section.smtp')}</h2>
        <p className="lead">{t('settings.smtp.lead')}</p>
        {data ? <SmtpForm settings={data} onSaved={setData} /> : <Pending problem={problem} retry={() => void load()} />}
      </section>
      {data && <SmtpTest configured={data.configured} />}
    </>
  );
}

function SmtpForm({ settings, onSaved }: { settings: SmtpSettings; onSaved: (settings: SmtpSettings) => void }) {
  const t = useT();
  const [host, setHost] = useState(settings.host ?? '');
  const [port, setPort] = useState(String(settings.port));
  const [security, setSecurity] = useState<string>(settings.security);
  const [user, setUser] = useState(settings.user ?? '');
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const [from, setFrom] = useState(settings.from ?? '');
  const [problems, setProblems] = useState<Problems<Field>>({});
  const clear = (field: Field) => setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<Field> = {};
    if (!host.trim()) local.host = t('settings.smtp.hostMissing', { example: HOST_EXAMPLE });
    const portNumber = Number(port);
    if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) local.port = t('settings.smtp.portInvalid');
    if (!from.trim()) local.from = t('settings.smtp.fromMissing', { example: FROM_EXAMPLE });
    setProblems(local);
    setSaved('');
    if (Object.keys(local).length) return focusFirst('smtp', local);
    setBusy(true);
    try {
      const next = await settingsClient.saveSmtp({
        host: host.trim(),
        port: portNumber,
        security,
        user: user.trim() || null,
        ...(password ? { password } : removePassword ? { password: null } : {}),
        from: from.trim(),
      });
      setPassword('');
      setRemovePassword(false);
      onSaved(next);
      setSaved(t('settings.smtp.saved'));
    } catch (error) {
      const found = problemsOf(error, translate('settings.smtp.notSaved'), FIELDS);
      setProblems(found);
      focusFirst('smtp', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void save(event)} noValidate>
      <FormProblem text={problems.form} />
      <SettingField id="smtp-host" label={t('settings.smtp.host')} problem={problems.host}>
        {(props) => (
          <input
            {...props}
            className="input"
            value={host}
            maxLength={253}
            autoComplete="off"
            spellCheck={false}
            placeholder={HOST_EXAMPLE}
            onChange={(e) => {
              setHost(e.target.value);
              clear('host');
            }}
          />
        )}
      </SettingField>
      <SettingField id="smtp-port" label={t('settings.smtp.port')} problem={problems.port} note={t('settings.smtp.portNote')}>
        {(props) => (
          <input
            {...props}
            className="input input-short"
            inputMode="numeric"
            value={port}
            maxLength={5}
            autoComplete="off"
            onChange={(e) => {
              setPort(e.target.value.replace(/\D/g, ''));
              clear('port');
            }}
          />
        )}
      </SettingField>
      <SettingField id="smtp-security" label={t('settings.smtp.security')} problem={problems.security}>
        {(props) => (
          <select
            {...props}
            className="input"
            value={security}
            onChange={(e) => {
              setSecurity(e.target.value);
              clear('security');
            }}
          >
            {SMTP_SECURITY.map((s) => (
              <option key={s} value={s}>
                {t(SECURITY_NAMES[s])}
              </option>
            ))}
          </select>
        )}
      </SettingField>
      <SettingField id="smtp-user" label={t('settings.smtp.user')} optional problem={problems.user} note={t('settings.smtp.userNote')}>
        {(props) => (
          <input
            {...props}
            className="input"
            value={user}
            maxLength={254}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => {
              setUser(e.target.value);
              clear('user');
            }}
          />
        )}
      </SettingField>
      <SettingField
        id="smtp-password"
        label={t('settings.smtp.password')}
        optional
        problem={problems.password}
        note={settings.password_set ? t('settings.smtp.passwordSet') : t('settings.smtp.passwordNone')}
      >
        {(props) => (
          <input
            {...props}
            className="input"
            type="password"
            value={password}
            maxLength={1024}
            autoComplete="new-password"
            placeholder={settings.password_set ? t('settings.smtp.passwordHidden') : t('settings.smtp.passwordNotSet')}
            onChange={(e) => {
              setPassword(e.target.value);
              clear('password');
            }}
          />
        )}
      </SettingField>
      {settings.password_set && (
        <label className="check">
          <input
            type="checkbox"
            checked={removePassword}
            disabled={password !== ''}
            onChange={(e) => setRemovePassword(e.target.checked)}
          />{' '}
          {t('settings.smtp.removePassword')}
        </label>
      )}
      <SettingField id="smtp-from" label={t('settings.smtp.from')} problem={problems.from} note={t('settings.smtp.fromNote')}>
        {(props) => (
          <input
            {...props}
            className="input"
            value={from}
            maxLength={254}
            autoComplete="off"
            spellCheck={false}
            placeholder={FROM_EXAMPLE}
            onChange={(e) => {
              setFrom(e.target.value);
              clear('from');
            }}
          />
        )}
      </SettingField>
      <p className="field-note">
        {settings.updated_at ? t('settings.smtp.changed', { when: formatDateTime(settings.updated_at) }) : t('settings.smtp.notSetYet')}
      </p>
      <div className="settings-row-actions">
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          {busy ? t('common.saving') : t('settings.smtp.save')}
        </button>
        <span className="settings-message" role="status">
          {saved}
        </span>
      </div>
    </form>
  );
}

function SmtpTest({ configured }: { configured: boolean }) {
  const t = useT();
  const [to, setTo] = useState('');
  const [problems, setProblems] = useState<Problems<'to'>>({});
  const clear = (field: 'to') => setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SmtpTestResult | null>(null);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<'to'> = {};
    if (!isEmailAddress(to.trim())) local.to = t('settings.smtp.test.toMissing');
    setProblems(local);
    setResult(null);
    if (local.to) return focusFirst('smtp-test', local);
    setBusy(true);
    try {
      setResult(await settingsClient.testSmtp(to.trim()));
    } catch (error) {
      const found = problemsOf(error, translate('settings.smtp.test.notSent'), { to: 'settings.smtp.test.address' });
      setProblems(found);
      focusFirst('smtp-test', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card settings-form" aria-labelledby="smtp-test-title">
      <h2 id="smtp-test-title">{t('settings.smtp.test.send')}</h2>
      <p className="field-note">{t('settings.smtp.test.note', { configured: configured ? 'yes' : 'no' })}</p>
      <form onSubmit={(event) => void send(event)} noValidate>
        <FormProblem text={problems.form} />
        <SettingField id="smtp-test-to" label={t('settings.smtp.test.to')} problem={problems.to}>
          {(props) => (
            <input
              {...props}
              className="input"
              type="email"
              value={to}
              maxLength={254}
              autoComplete="email"
              spellCheck={false}
              onChange={(e) => {
                setTo(e.target.value);
                clear('to');
              }}
            />
          )}
        </SettingField>
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          {busy ? t('settings.smtp.test.sending') : t('settings.smtp.test.send')}
        </button>
      </form>
      <div role="status" aria-live="polite">
        {result && (
          <>
            <p className={result.accepted ? 'settings-message' : 'settings-message settings-message-problem'}>
              {result.accepted ? t('settings.smtp.test.accepted') : t('settings.smtp.test.refused')}
            </p>
            <p className={result.accepted ? 'settings-answer settings-answer-ok' : 'settings-answer settings-answer-bad'}>
              {result.response}
            </p>
          </>
        )}
      </div>
    </section>
  );
}
