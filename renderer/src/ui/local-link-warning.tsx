/**
 * Beside a link for a customer (pay link, checkout, receipt QR): a warning when the link names this
 * computer only (127.0.0.1, localhost), which no customer's phone can open, with the setting that
 * fixes it (contract/links.ts).
 */
import { isLocalOnlyUrl, localOnlyLinkWarning } from '../../../contract/links.js';

export function LocalLinkWarning({ url }: { url: string }) {
  if (!isLocalOnlyUrl(url)) return null;
  return (
    <p className="link-warning" role="note">
      {localOnlyLinkWarning(url)}
    </p>
  );
}
