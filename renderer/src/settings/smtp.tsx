/**
 * Settings -> E-mail (SMTP) (admin): the SMTP server invoice and receipt e-mails go through (host,
 * port, security, user, from address) and its password, which is write-only: the screen says only
 * whether one is set, and an empty field keeps it. "Send a test e-mail" sends through the saved
 * server and shows the server's answer: its acceptance or the error in its words.
 */
import { useCallback, useState, type FormEvent } from 'react';
import { SMTP_SECURITY } from '../../../contract/constants.js';
import { isEmailAddress } from '../../../contract/text-rules.js';
import { formatDateTime } from '../ui/format.js';
import { adminClient, type SmtpSettings, type SmtpTestResult } from './admin-client.js';
import { focusFirst, FormProblem, Pending, problemsOf, SettingField, useLoaded, type Problems } from './settings-parts.js';

type Field = 'host' | 'port' | 'security' | 'user' | 'password' | 'from';
const FIELDS: Record<Field, string> = { host: 'host', port: 'port', security: 'security', user: 'user', password: 'password', from: 'from address' };
const SECURITY_NAMES: Record<string, string> = { starttls: 'STARTTLS (required)', implicit: 'TLS from the start (port 465)', none: 'None (local relay only)' };

export function SmtpSettingsScreen() {
  const read = useCallback(() => adminClient.smtp(), []);
  const { data, problem, load, setData } = useLoaded(read, 'The SMTP settings');
  return (
    <>
      <section className="card settings-form" aria-labelledby="smtp-title">
        <h2 id="smtp-title">E-mail (SMTP)</h2>
        <p className="lead">Invoice and receipt e-mails go through this server. Without one they stay in the local test outbox.</p>
        {data ? <SmtpForm settings={data} onSaved={setData} /> : <Pending problem={problem} retry={() => void load()} />}
      </section>
      {data && <SmtpTest configured={data.configured} />}
    </>
  );
}

function SmtpForm({ settings, onSaved }: { settings: SmtpSettings; onSaved: (settings: SmtpSettings) => void }) {
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
    if (!host.trim()) local.host = 'Give the SMTP server, e.g. smtp.example.com.';
    const portNumber = Number(port);
    if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) local.port = 'Port must be a whole number from 1 to 65535.';
    if (!from.trim()) local.from = 'Give a from address, e.g. Shop <billing@shop.example>.';
    setProblems(local);
    setSaved('');
    if (Object.keys(local).length) return focusFirst('smtp', local);
    setBusy(true);
    try {
      const next = await adminClient.saveSmtp({
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
      setSaved('SMTP settings saved.');
    } catch (error) {
      const found = problemsOf(error, 'The SMTP settings were not saved', FIELDS);
      setProblems(found);
      focusFirst('smtp', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void save(event)} noValidate>
      <FormProblem text={problems.form} />
      <SettingField id="smtp-host" label="Host" problem={problems.host}>
        {(props) => <input {...props} className="input" value={host} maxLength={253} autoComplete="off" spellCheck={false} placeholder="smtp.example.com" onChange={(e) => {
                setHost(e.target.value);
                clear('host');
              }} />}
      </SettingField>
      <SettingField id="smtp-port" label="Port" problem={problems.port} note="587 for STARTTLS, 465 for TLS from the start">
        {(props) => <input {...props} className="input input-short" inputMode="numeric" value={port} maxLength={5} autoComplete="off" onChange={(e) => {
                setPort(e.target.value.replace(/\D/g, ''));
                clear('port');
              }} />}
      </SettingField>
      <SettingField id="smtp-security" label="Security" problem={problems.security}>
        {(props) => (
          <select {...props} className="input" value={security} onChange={(e) => {
                setSecurity(e.target.value);
                clear('security');
              }}>
            {SMTP_SECURITY.map((s) => (
              <option key={s} value={s}>
                {SECURITY_NAMES[s]}
              </option>
            ))}
          </select>
        )}
      </SettingField>
      <SettingField id="smtp-user" label="User" optional problem={problems.user} note="Empty: the server takes e-mail without a login">
        {(props) => <input {...props} className="input" value={user} maxLength={254} autoComplete="off" spellCheck={false} onChange={(e) => {
                setUser(e.target.value);
                clear('user');
              }} />}
      </SettingField>
      <SettingField
        id="smtp-password"
        label="Password"
        optional
        problem={problems.password}
        note={settings.password_set ? 'A password is set. Type a new one to change it; empty keeps it.' : 'No password is set.'}
      >
        {(props) => (
          <input {...props} className="input" type="password" value={password} maxLength={1024} autoComplete="new-password" placeholder={settings.password_set ? 'Set (hidden)' : 'Not set'} onChange={(e) => {
                setPassword(e.target.value);
                clear('password');
              }} />
        )}
      </SettingField>
      {settings.password_set && (
        <label className="check">
          <input type="checkbox" checked={removePassword} disabled={password !== ''} onChange={(e) => setRemovePassword(e.target.checked)} /> Remove the saved password
        </label>
      )}
      <SettingField id="smtp-from" label="From address" problem={problems.from} note="Channels with their own sender e-mail use theirs">
        {(props) => <input {...props} className="input" value={from} maxLength={254} autoComplete="off" spellCheck={false} placeholder="Shop <billing@shop.example>" onChange={(e) => {
                setFrom(e.target.value);
                clear('from');
              }} />}
      </SettingField>
      <p className="field-note">{settings.updated_at ? `Last changed ${formatDateTime(settings.updated_at)}.` : 'Not set yet: e-mails go to the local test outbox.'}</p>
      <div className="settings-row-actions">
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          {busy ? 'Saving…' : 'Save SMTP settings'}
        </button>
        <span className="settings-message" role="status">
          {saved}
        </span>
      </div>
    </form>
  );
}

function SmtpTest({ configured }: { configured: boolean }) {
  const [to, setTo] = useState('');
  const [problems, setProblems] = useState<Problems<'to'>>({});
  const clear = (field: 'to') => setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SmtpTestResult | null>(null);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<'to'> = {};
    if (!isEmailAddress(to.trim())) local.to = 'Give the e-mail address the test goes to.';
    setProblems(local);
    setResult(null);
    if (local.to) return focusFirst('smtp-test', local);
    setBusy(true);
    try {
      setResult(await adminClient.testSmtp(to.trim()));
    } catch (error) {
      const found = problemsOf(error, 'The test e-mail was not sent', { to: 'address' });
      setProblems(found);
      focusFirst('smtp-test', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card settings-form" aria-labelledby="smtp-test-title">
      <h2 id="smtp-test-title">Send a test e-mail</h2>
      <p className="field-note">Through the saved server{configured ? '' : ' (save the settings above first)'}. The server's answer is shown below.</p>
      <form onSubmit={(event) => void send(event)} noValidate>
        <FormProblem text={problems.form} />
        <SettingField id="smtp-test-to" label="Send to" problem={problems.to}>
          {(props) => <input {...props} className="input" type="email" value={to} maxLength={254} autoComplete="email" spellCheck={false} onChange={(e) => {
                setTo(e.target.value);
                clear('to');
              }} />}
        </SettingField>
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          {busy ? 'Sending…' : 'Send a test e-mail'}
        </button>
      </form>
      <div role="status" aria-live="polite">
        {result && (
          <>
            <p className={result.accepted ? 'settings-message' : 'settings-message settings-message-problem'}>
              {result.accepted ? 'The server accepted the test e-mail:' : 'The server did not take the test e-mail:'}
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
