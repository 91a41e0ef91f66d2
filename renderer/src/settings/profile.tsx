/**
 * Settings -> Profile (admin): the merchant's name, default currency and language. The gateway
 * checks every field and names each problem; the change is audited (profile_update).
 */
import { useCallback, useState, type FormEvent } from 'react';
import { MERCHANT_LANGUAGES } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { useSession } from '../session-store.js';
import { formatDateTime } from '../ui/format.js';
import { translate, useT } from '../ui/i18n.js';
import { LocalLinkWarning } from '../ui/local-link-warning.js';
import { settingsClient, type MerchantProfile } from './settings-client.js';
import { CurrencyField, LanguageField } from './currency-field.js';
import { focusFirst, FormProblem, Pending, problemsOf, SettingField, useLoaded, type Problems } from './settings-parts.js';

type Field = 'name' | 'currency' | 'language';
const FIELDS: Record<Field, MessageId> = { name: 'settings.field.name', currency: 'common.currency', language: 'common.language' };

export function ProfileSettings() {
  const t = useT();
  const read = useCallback(() => settingsClient.profile(), []);
  const { data, problem, load, setData } = useLoaded(read, 'settings.profile.loadFailed');
  return (
    <section className="card settings-form" aria-labelledby="profile-title">
      <h2 id="profile-title">{t('settings.profile.title')}</h2>
      {data ? <ProfileForm profile={data} onSaved={setData} /> : <Pending problem={problem} retry={() => void load()} />}
    </section>
  );
}

function ProfileForm({ profile, onSaved }: { profile: MerchantProfile; onSaved: (profile: MerchantProfile) => void }) {
  const t = useT();
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
    if (!name.trim()) local.name = t('settings.profile.nameMissing');
    if (!/^[A-Za-z]{3}$/.test(currency.trim())) local.currency = t('settings.currencyInvalid');
    setProblems(local);
    setSaved('');
    if (Object.keys(local).length) return focusFirst('profile', local);
    setBusy(true);
    try {
      const next = await settingsClient.saveProfile({ name: name.trim(), currency: currency.trim().toUpperCase(), language });
      onSaved(next);
      setSaved(t('settings.profile.saved'));
      // The till and the screens take the merchant's name, currency and language from the session: as answered.
      useSession.setState((state) =>
        state.session
          ? {
              session: {
                ...state.session,
                merchant: { ...state.session.merchant, name: next.name, currency: next.currency, language: next.language },
              },
            }
          : {},
      );
    } catch (error) {
      const found = problemsOf(error, translate('settings.profile.notSaved'), FIELDS);
      setProblems(found);
      focusFirst('profile', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void save(event)} noValidate aria-describedby="profile-note">
      <p className="field-note" id="profile-note">
        {t('settings.profile.note', { merchantId: profile.merchant_id, since: formatDateTime(profile.created_at) })}
      </p>
      <dl className="facts">
        <dt>{t('settings.profile.linksBase')}</dt>
        <dd className="cell-mono">{profile.customer_links_base}</dd>
        <dt>{t('settings.profile.timeZone')}</dt>
        <dd>
          {timeZone ?? t('settings.profile.timeZoneComputer')} <span className="muted">{t('settings.profile.timeZoneNote')}</span>
        </dd>
      </dl>
      <LocalLinkWarning url={profile.customer_links_base} />
      <FormProblem text={problems.form} />
      <SettingField id="profile-name" label={t('settings.field.name')} problem={problems.name}>
        {(props) => (
          <input
            {...props}
            className="input"
            value={name}
            maxLength={120}
            autoComplete="organization"
            onChange={(e) => {
              setName(e.target.value);
              clear('name');
            }}
          />
        )}
      </SettingField>
      <CurrencyField
        form="profile"
        label={t('settings.profile.currency')}
        note={t('settings.profile.currencyNote')}
        value={currency}
        problem={problems.currency}
        onChange={(value) => {
          setCurrency(value);
          clear('currency');
        }}
      />
      <LanguageField
        form="profile"
        languages={MERCHANT_LANGUAGES}
        label={t('settings.profile.language')}
        value={language}
        problem={problems.language}
        onChange={(value) => {
          setLanguage(value);
          clear('language');
        }}
      />
      <div className="settings-row-actions">
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          {busy ? t('common.saving') : t('settings.profile.save')}
        </button>
        <span className="settings-message" role="status">
          {saved}
        </span>
      </div>
    </form>
  );
}
