/**
 * Links for customers (pay links, checkout and receipt pages, their QR codes) start with the
 * gateway's public URL. One that names this computer only (127.0.0.1, localhost, ::1) opens on no
 * customer's phone: the app, the headless start and the docs say so, with the setting that fixes it.
 * Node-free: the renderer and the host share it.
 */

/** The setting of the base of customer links, as each place names it. */
export const PUBLIC_URL_SETTING = { env: 'GATEWAY_PUBLIC_URL', flag: '--public-url', file: 'publicUrl' } as const;

/** Loopback names and addresses: reachable from this computer only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' ||
    bare.endsWith('.localhost') ||
    bare === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(bare) ||
    bare === '::ffff:127.0.0.1'
  );
}

/** Scheme and host of an absolute URL (`http://127.0.0.1:8420`), without the URL class (not every runtime of the contract has it). */
function originOf(url: string): { origin: string; host: string } | undefined {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(?:[^@/?#]*@)?(\[[^\]]*\]|[^/:?#]*)(:\d+)?/i.exec(url);
  if (!match?.[2]) return undefined;
  return { origin: `${(match[1] ?? '').toLowerCase()}${match[2].toLowerCase()}${match[3] ?? ''}`, host: match[2] };
}

/** Whether a customer link opens on this computer only (or is not an absolute URL at all). */
export function isLocalOnlyUrl(url: string): boolean {
  const parsed = originOf(url);
  return !parsed || isLoopbackHost(parsed.host);
}

/** What the app says beside such a link. */
export function localOnlyLinkWarning(url: string): string {
  const origin = originOf(url)?.origin ?? url;
  return `Only this computer opens links to ${origin}: a customer's phone cannot. Set the gateway's public URL (${PUBLIC_URL_SETTING.env}, or "${PUBLIC_URL_SETTING.file}" in settings.json) to an address customers reach.`;
}
