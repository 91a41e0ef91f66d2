/**
 * A value to copy: read-only text with its own Copy button (the clipboard, or the selection where
 * the browser gives none, as on plain http over the LAN). Secrets shown once use it: a cryptogram,
 * a new API password, a generated staff password or PIN.
 */
import { useId, useRef, useState } from 'react';
import { currentLocale, useT } from './i18n.js';

export function CopyValue({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState('');
  const t = useT();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(t('ui.copy.copied'));
    } catch {
      input.current?.select();
      setCopied(document.execCommand('copy') ? t('ui.copy.copied') : t('ui.copy.selected'));
    }
  };
  // English says "Copy authentication data" (the label in lower case after the verb, as it always did); the other languages keep the label as it is (German nouns keep their capital).
  const named = currentLocale().startsWith('en') ? label.toLowerCase() : label;
  return (
    <div className="field copy-value">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="copy-value-row">
        <input
          ref={input}
          id={id}
          className="input mono"
          readOnly
          value={value}
          spellCheck={false}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="button" onClick={() => void copy()} aria-label={t('ui.copy.copyNamed', { label: named })}>
          {t('ui.copy.copy')}
        </button>
      </div>
      <span className="copied" role="status">
        {copied}
      </span>
    </div>
  );
}
