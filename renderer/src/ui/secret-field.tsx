/**
 * "PIN or password" as staff give it: a two-way choice and one masked field (digits only for a
 * PIN). Used by the login screen and by a manager's approval at the till.
 */
import { useId } from 'react';

export type SecretMethod = 'pin' | 'password';

interface SecretFieldProps {
  method: SecretMethod;
  secret: string;
  onMethod: (method: SecretMethod) => void;
  onSecret: (secret: string) => void;
  /** Legend of the choice, e.g. "Log in with". */
  legend: string;
  /** Prefix of the field's label, e.g. "Manager" gives "Manager PIN". */
  whose?: string;
  /** Browser autofill hint for the password (the current user's own password, or nobody's). */
  passwordAutoComplete?: 'current-password' | 'off';
}

export function SecretField({ method, secret, onMethod, onSecret, legend, whose, passwordAutoComplete = 'current-password' }: SecretFieldProps) {
  const group = useId();
  const label = `${whose ? `${whose} ` : ''}${method === 'pin' ? 'PIN' : 'password'}`;
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
              {option === 'pin' ? 'PIN' : 'Password'}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="field">
        <span className="field-label">{label.charAt(0).toUpperCase() + label.slice(1)}</span>
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
