/**
 * Staff login for the whole app: login and PIN (default) or password. The session is a cookie the
 * page cannot read. The gateway's status shows here too, so a till knows its gateway runs.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { JoinShop } from '../tills/join-shop.js';
import { tillsClient, type JoinSummary } from '../tills/tills-client.js';
import { useSession } from '../session-store.js';
import { LockIcon } from '../ui/icons.js';
import { GatewayStatusView } from '../shell/gateway-page.js';
import { SecretField } from '../ui/secret-field.js';
import { useT } from '../ui/i18n.js';
import { useAutoFocus } from '../ui/use-keys.js';

export function LoginScreen() {
  const login = useSession((s) => s.login);
  const notice = useSession((s) => s.notice);
  const [name, setName] = useState('');
  const [method, setMethod] = useState<'pin' | 'password'>('pin');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const loginRef = useAutoFocus<HTMLInputElement>();
  const t = useT();
  // A brand-new desktop that chose "join a shop's gateway" asks for it before anyone can log in.
  const [joining, setJoining] = useState(false);
  const [joined, setJoined] = useState<JoinSummary | null>(null);
  useEffect(() => {
    void tillsClient
      .setup()
      .then((state) => setJoining(state.can_join))
      .catch(() => undefined);
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!name.trim() || !secret) {
      setProblem(t('login.missing', { method }));
      return;
    }
    setBusy(true);
    setProblem(null);
    const result = await login(method === 'pin' ? { login: name.trim(), pin: secret } : { login: name.trim(), password: secret });
    setSecret('');
    setBusy(false);
    if (!result.ok) setProblem(result.message);
  };

  if (joining) {
    return (
      <JoinShop
        onJoined={(summary) => {
          setJoined(summary);
          setJoining(false);
        }}
      />
    );
  }

  return (
    <div className="login-wrap">
      <section className="panel login-panel" aria-labelledby="login-title">
        <div className="login-icon" aria-hidden="true">
          <LockIcon size={40} />
        </div>
        <h1 id="login-title">{t('login.title')}</h1>
        <p className="login-lead">{t('login.lead')}</p>
        {joined && (
          <p className="login-notice" role="status">
            {t('login.joined', { till: joined.till_name, tillId: joined.till_id, shop: joined.merchant_name })}
          </p>
        )}
        {notice && <p className="login-notice">{notice}</p>}
        <form onSubmit={(event) => void submit(event)} noValidate>
          <label className="field">
            <span className="field-label">{t('login.login')}</span>
            <input
              ref={loginRef}
              className="input"
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </label>
          <SecretField method={method} secret={secret} onMethod={setMethod} onSecret={setSecret} legend={t('login.with')} />
          <p className="form-problem" role="alert">
            {problem ?? ''}
          </p>
          <button type="submit" className="button button-primary button-lg button-block" aria-disabled={busy}>
            {t(busy ? 'login.busy' : 'login.submit')}
          </button>
        </form>
        <div className="login-status">
          <GatewayStatusView />
        </div>
      </section>
    </div>
  );
}
