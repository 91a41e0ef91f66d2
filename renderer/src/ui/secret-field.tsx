/**
 * "PIN or password" as staff give it: a two-way choice and one masked field (digits only for a
 * PIN). Used by the login screen and by a manager's approval at the till.
 */
import { useId } from 'react';
import { useT } from './i18n.js';

export type SecretMethod = 'pin' | 'password';

interface SecretFieldProps {
  method: SecretMethod;
  secret: string;
  onMethod: (method: SecretMethod) => void;
  onSecret: (secret: string) => void;
  /** Legend of the choice, e.g. "Log in with". */
  legend: string;
  /** The manager's PIN or password (an approval), not the user's own. */
  manager?: boolean;
  /** Browser autofill hint for the password (the current user's own password, or nobody's). */
  passwordAutoComplete?: 'current-password' | 'off';
}

export function SecretField({
  method,
  secret,
  onMethod,
  onSecret,
  legend,
  manager = false,
  passwordAutoComplete = 'current-password',
}: SecretFieldProps) {
  const group = useId();
  const t = useT();
  const label = t(manager ? 'login.secret.managerLabel' : 'login.secret.label', { method });
  return (
    <>
      <fieldset className="segmented">
        <legend className="field-label">{legend}</legend>
        <div className="segmented-options">
          {(['pin', 'password'] as const).map((option) => (
            <label key={option} className={method === option ? 'segment segment-on' : 'segment'}>
              <input
                type="radio"
                name={group}
                value={option}
                checked={method === option}
                onChange={() => {
                  onMethod(option);
                  onSecret('');
                }}
              />
              {t(option === 'pin' ? 'login.secret.pin' : 'login.secret.password')}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="field">
        <span className="field-label">{label}</span>
        <input
          className="input"
          type="password"
          name={method}
          autoComplete={method === 'pin' ? 'off' : passwordAutoComplete}
          inputMode={method === 'pin' ? 'numeric' : 'text'}
          maxLength={method === 'pin' ? 8 : 200}
          value={secret}
          onChange={(event) => onSecret(method === 'pin' ? event.target.value.replace(/\D/g, '') : event.target.value)}
        />
      </label>
    </>
  );
}
