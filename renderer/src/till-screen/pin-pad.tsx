/**
 * The customer's PIN pad. The digits live only in this component's state while it is open; the
 * screen shows dots, never digits; nothing logs them. OK encrypts the PIN into an ISO-0 block under
 * the terminal's key (pin-block.ts) and hands over only the block; OK and Cancel wipe the digits.
 * Keys: digits, Backspace, Delete (clear), Enter (OK), Esc (cancel).
 */
import { useState, type MouseEvent } from 'react';
import { FitLine } from '../ui/fit-text.js';
import { useT } from '../ui/i18n.js';
import { BackspaceIcon } from '../ui/icons.js';
import { useAutoFocus, useKeys } from '../ui/use-keys.js';

/** ISO-0 carries 4 to 12 PIN digits (the same bounds as pin-block.ts, which loads on demand). */
const PIN_MIN_LENGTH = 4;
const PIN_MAX_LENGTH = 12;

interface PinPadProps {
  title: string;
  amountText: string;
  cardText: string;
  triesLeft: number;
  /** Turns the PIN into the encrypted block; throws only on a malformed PIN, PAN or key. Undefined while it loads. */
  encrypt: ((pin: string) => string) | undefined;
  onSubmit: (block: string) => void;
  onCancel: () => void;
}

const DIGIT_ROWS = [
  ['1', '2', '3'],
  ['4', '5', '6'],
  ['7', '8', '9'],
] as const;
const ZERO = '0';

/** Keeps focus where it is when a key is clicked or touched, so Enter stays "OK". */
const keepFocus = (event: MouseEvent) => event.preventDefault();

export function PinPad({ title, amountText, cardText, triesLeft, encrypt, onSubmit, onCancel }: PinPadProps) {
  const [pin, setPin] = useState('');
  const [hint, setHint] = useState<string | null>(null);
  const headingRef = useAutoFocus<HTMLHeadingElement>();
  const t = useT();

  const add = (digit: string) => {
    setHint(null);
    setPin((current) => (current.length >= PIN_MAX_LENGTH ? current : current + digit));
  };
  const back = () => setPin((current) => current.slice(0, -1));
  const clear = () => {
    setPin('');
    setHint(null);
  };
  const cancel = () => {
    setPin('');
    onCancel();
  };
  const submit = () => {
    if (pin.length < PIN_MIN_LENGTH) {
      setHint(t('till.pin.tooShort', { min: PIN_MIN_LENGTH }));
      return;
    }
    if (!encrypt) {
      setHint(t('till.pin.notReady'));
      return;
    }
    let block: string;
    try {
      block = encrypt(pin);
    } catch {
      setPin('');
      setHint(t('till.pin.encryptFailed'));
      return;
    }
    setPin('');
    onSubmit(block);
  };

  useKeys((event) => {
    if (/^[0-9]$/.test(event.key)) add(event.key);
    else if (event.key === 'Backspace') back();
    else if (event.key === 'Delete') clear();
    else if (event.key === 'Enter') submit();
    else if (event.key === 'Escape') cancel();
    else return false;
    return true;
  });

  const slots = Math.max(PIN_MIN_LENGTH, pin.length);
  return (
    <section className="pin-panel" aria-labelledby="pin-title">
      <div className="pin-info">
        <h2 id="pin-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h2>
        <FitLine className="pin-amount" text={amountText} />
        <p className="pin-card">{cardText}</p>
        <p className="pin-shield">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M12 2l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V5z" fill="currentColor" />
          </svg>
          {t('till.pin.shield')}
        </p>
        <p className="pin-tries">{t('till.pin.triesLeft', { tries: triesLeft })}</p>
      </div>
      <div className="pin-entry">
        <div className="pin-dots" aria-hidden="true">
          {Array.from({ length: slots }, (_, i) => (
            <span key={i} className={i < pin.length ? 'pin-dot pin-dot-filled' : 'pin-dot'} />
          ))}
        </div>
        <p className="visually-hidden" aria-live="polite">
          {t('till.pin.entered', { count: pin.length })}
        </p>
        <p className="pin-hint" role="alert">
          {hint ?? ''}
        </p>
        <div className="pin-keys" role="group" aria-label={t('till.pin.keys')}>
          {DIGIT_ROWS.flat().map((digit) => (
            <button key={digit} type="button" className="key" onMouseDown={keepFocus} onClick={() => add(digit)}>
              {digit}
            </button>
          ))}
          <button type="button" className="key key-clear" onMouseDown={keepFocus} onClick={clear}>
            {t('till.pin.clear')}
          </button>
          <button type="button" className="key" onMouseDown={keepFocus} onClick={() => add('0')}>
            {ZERO}
          </button>
          <button type="button" className="key key-back" aria-label={t('till.keypad.back')} onMouseDown={keepFocus} onClick={back}>
            <BackspaceIcon size={30} />
          </button>
        </div>
        <div className="pin-actions">
          <button type="button" className="button button-cancel button-lg" onMouseDown={keepFocus} onClick={cancel}>
            {t('common.cancel')} <kbd>{t('till.key.esc')}</kbd>
          </button>
          <button
            type="button"
            className="button button-ok button-lg"
            aria-disabled={pin.length < PIN_MIN_LENGTH}
            onMouseDown={keepFocus}
            onClick={submit}
          >
            {t('till.pin.ok')} <kbd>{t('till.key.enter')}</kbd>
          </button>
        </div>
      </div>
    </section>
  );
}
