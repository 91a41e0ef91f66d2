/**
 * Settings -> Profile (admin): the merchant's name, default currency and language. The gateway
 * checks every field and names each problem; the change is audited (profile_update).
 */
import { useCallback, useState, type FormEvent } from 'react';
import { useSession } from '../session-store.js';
import { formatDateTime } from '../ui/format.js';
import { LocalLinkWarning } from '../ui/local-link-warning.js';
import { adminClient, type MerchantProfile } from './admin-client.js';
import { CurrencyField, LanguageField } from './currency-field.js';
import { focusFirst, FormProblem, Pending, problemsOf, SettingField, useLoaded, type Problems } from './settings-parts.js';

type Field = 'name' | 'currency' | 'language';
const FIELDS: Record<Field, string> = { name: 'name', currency: 'currency', language: 'language' };

export function ProfileSettings() {
  const read = useCallback(() => adminClient.profile(), []);
  const { data, problem, load, setData } = useLoaded(read, 'The profile');
  return (
    <section className="card settings-form" aria-labelledby="profile-title">
      <h2 id="profile-title">Merchant profile</h2>
      {data ? <ProfileForm profile={data} onSaved={setData} /> : <Pending problem={problem} retry={() => void load()} />}
    </section>
  );
}

function ProfileForm({ profile, onSaved }: { profile: MerchantProfile; onSaved: (profile: MerchantProfile) => void }) {
  const [name, setName] = useState(profile.name);
  const [currency, setCurrency] = useState(profile.currency);
  const [language, setLanguage] = useState<string>(profile.language);
  const [problems, setProblems] = useState<Problems<Field>>({});
  const clear = (field: Field) => setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');
  const timeZone = useSession((state) => state.session?.merchant.time_zone);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<Field> = {};
    if (!name.trim()) local.name = 'Give the merchant a name.';
    if (!/^[A-Za-z]{3}$/.test(currency.trim())) local.currency = 'Currency must be a three-letter ISO 4217 code, such as EUR.';
    setProblems(local);
    setSaved('');
    if (Object.keys(local).length) return focusFirst('profile', local);
    setBusy(true);
    try {
      const next = await adminClient.saveProfile({ name: name.trim(), currency: currency.trim().toUpperCase(), language });
      onSaved(next);
      setSaved('Profile saved.');
      // The till and the screens take the merchant's name and currency from the session: as answered.
      useSession.setState((state) => (state.session ? { session: { ...state.session, merchant: { ...state.session.merchant, name: next.name, currency: next.currency } } } : {}));
    } catch (error) {
      const found = problemsOf(error, 'The profile was not saved', FIELDS);
      setProblems(found);
      focusFirst('profile', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void save(event)} noValidate aria-describedby="profile-note">
      <p className="field-note" id="profile-note">
        Merchant {profile.merchant_id}, since {formatDateTime(profile.created_at)}. New channels start with this currency and language.
      </p>
      <dl className="facts">
        <dt>Links for customers start with</dt>
        <dd className="cell-mono">{profile.customer_links_base}</dd>
        <dt>Time zone</dt>
        <dd>
          {timeZone ?? 'this computer’s'}{' '}
          <span className="muted">(days, reports and every time on the staff screens; the first start took this computer&rsquo;s: the setting timeZone changes it)</span>
        </dd>
      </dl>
      <LocalLinkWarning url={profile.customer_links_base} />
      <FormProblem text={problems.form} />
      <SettingField id="profile-name" label="Name" problem={problems.name}>
        {(props) => <input {...props} className="input" value={name} maxLength={120} autoComplete="organization" onChange={(e) => {
                setName(e.target.value);
                clear('name');
              }} />}
      </SettingField>
      <CurrencyField form="profile" label="Default currency" note="ISO 4217, e.g. EUR" value={currency} problem={problems.currency} onChange={(value) => {
        setCurrency(value);
        clear('currency');
      }} />
      <LanguageField form="profile" label="Default language" value={language} problem={problems.language} onChange={(value) => {
        setLanguage(value);
        clear('language');
      }} />
      <div className="settings-row-actions">
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          {busy ? 'Saving…' : 'Save profile'}
        </button>
        <span className="settings-message" role="status">
          {saved}
        </span>
      </div>
    </form>
  );
}
