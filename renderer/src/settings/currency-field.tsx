/**
 * The currency and language fields Settings' forms share (profile, channels): a currency code typed
 * or picked from the gateway's currencies (ISO 4217), a language of the merchant's pages and e-mails,
 * each language by its own name (Deutsch, Hrvatski), whatever the screens' language.
 */
import { LANGUAGE_NAMES, type StaffLanguage } from '../../../contract/i18n/languages.js';
import { CurrencyOptions } from '../ui/form-fields.js';
import { SettingField } from './settings-parts.js';

interface FieldProps {
  /** The form's id prefix: the fields are `<form>-currency` and `<form>-language`. */
  form: string;
  label: string;
  value: string;
  problem: string | undefined;
  onChange: (value: string) => void;
}

export function CurrencyField({ form, label, value, problem, note, onChange }: FieldProps & { note?: string }) {
  const list = `${form}-currencies`;
  return (
    <SettingField id={`${form}-currency`} label={label} problem={problem} note={note}>
      {(props) => (
        <>
          <input
            {...props}
            className="input input-short"
            value={value}
            maxLength={3}
            list={list}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => onChange(e.target.value.toUpperCase())}
          />
          <CurrencyOptions id={list} />
        </>
      )}
    </SettingField>
  );
}

/** A language among `languages`: the shop's (MERCHANT_LANGUAGES, with Croatian) or a channel's (CHANNEL_LANGUAGES, its invoice e-mails'). */
export function LanguageField({ form, label, value, problem, onChange, languages }: FieldProps & { languages: readonly StaffLanguage[] }) {
  return (
    <SettingField id={`${form}-language`} label={label} problem={problem}>
      {(props) => (
        <select {...props} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
          {languages.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      )}
    </SettingField>
  );
}
