/**
 * A link for a customer as text, with Copy (the clipboard, or the selection where the browser gives
 * no clipboard, as on plain http over the LAN) and Open: an invoice's pay link, a checkout's link.
 */
import { useId, useRef, useState } from 'react';
import { useT } from './i18n.js';
import { LocalLinkWarning } from './local-link-warning.js';

interface CopyLinkProps {
  url: string;
  /** The field's label, e.g. "Link for the customer". */
  label: string;
  /** What Copy says when done, e.g. "Pay link copied." */
  copied: string;
  /** The Open button's words, e.g. "Open pay page". */
  openLabel: string;
}

export function CopyLink({ url, label, copied: copiedText, openLabel }: CopyLinkProps) {
  const [copied, setCopied] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const t = useT();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(copiedText);
    } catch {
      // Plain http on the LAN has no clipboard API: select the link so Ctrl+C copies it.
      input.current?.select();
      setCopied(document.execCommand('copy') ? copiedText : t('ui.copy.selected'));
    }
  };
  return (
    <div className="paylink">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        ref={input}
        id={id}
        className="input paylink-url"
        readOnly
        rows={2}
        value={url}
        spellCheck={false}
        onFocus={(event) => event.target.select()}
      />
      <LocalLinkWarning url={url} />
      <div className="paylink-actions">
        <button type="button" className="button button-primary" onClick={() => void copy()}>
          {t('ui.copy.link')}
        </button>
        <a className="button button-quiet" href={url} target="_blank" rel="noreferrer">
          {openLabel}
        </a>
        <span className="copied" role="status">
          {copied}
        </span>
      </div>
    </div>
  );
}
