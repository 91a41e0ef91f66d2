/**
 * Beside a link for a customer (pay link, checkout, receipt QR): a warning when the link names this
 * computer only (127.0.0.1, localhost), which no customer's phone can open, with the setting that
 * fixes it (contract/links.ts; contract's localOnlyLinkWarning says the same in English for the
 * headless start and the docs).
 */
import { isLocalOnlyUrl, PUBLIC_URL_SETTING } from '../../../contract/links.js';
import { useT } from './i18n.js';

/** Scheme, host and port of the link (`http://127.0.0.1:8420`), or the link itself when it is no absolute URL. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export function LocalLinkWarning({ url }: { url: string }) {
  const t = useT();
  if (!isLocalOnlyUrl(url)) return null;
  return (
    <p className="link-warning" role="note">
      {t('ui.link.localOnly', { origin: originOf(url), env: PUBLIC_URL_SETTING.env, file: PUBLIC_URL_SETTING.file })}
    </p>
  );
}
