/**
 * A value to copy: read-only text with its own Copy button (the clipboard, or the selection where
 * the browser gives none, as on plain http over the LAN). Secrets shown once use it: a cryptogram,
 * a new API password, a generated staff password or PIN.
 */
import { useId, useRef, useState } from 'react';

export function CopyValue({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      input.current?.select();
      setCopied(document.execCommand('copy') ? 'Copied.' : 'Selected: press Ctrl+C to copy it.');
    }
  };
  return (
    <div className="field copy-value">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="copy-value-row">
        <input ref={input} id={id} className="input mono" readOnly value={value} spellCheck={false} onFocus={(event) => event.target.select()} />
        <button type="button" className="button" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          Copy
        </button>
      </div>
      <span className="copied" role="status">
        {copied}
      </span>
    </div>
  );
}

