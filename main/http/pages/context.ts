/** Request helpers the hosted pages share: language, links, same-origin checks, HTML replies. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../../core/gateway.js';
import { contentSecurityPolicy } from './layout.js';
import { chooseLanguage, translator, type Lang, type Translate } from './i18n.js';
import { field, type FormBody } from './forms.js';

export interface HostedPagesOptions {
  /** The gateway's public base URL (the pages also accept their own request origin). */
  publicUrl?: () => string;
}

export interface PagesDeps {
  gateway: Gateway;
  options: HostedPagesOptions;
}

export interface PageRequest {
  lang: Lang;
  t: Translate;
  /** The same page in another language (a GET link). */
  languageHref: (lang: Lang) => string;
  /** A path of ours with the page's language kept. */
  link: (path: string) => string;
}

export function queryOf(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}

export function bodyOf(request: FastifyRequest): FormBody {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as FormBody) : {};
}

/** Language from ?lang= (or a posted lang field), then the session's locale, then Accept-Language. */
export function pageRequest(request: FastifyRequest, locale: string | null | undefined): PageRequest {
  const query = queryOf(request);
  const requested = typeof query.lang === 'string' ? query.lang : field(bodyOf(request), 'lang');
  const lang = chooseLanguage(requested, locale, request.headers['accept-language']);
  const path = request.url.split('?')[0] ?? '/';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key !== 'lang' && typeof value === 'string' && /^[a-z_]{1,20}$/.test(key)) params.set(key, value.slice(0, 100));
  }
  return {
    lang,
    t: translator(lang),
    languageHref: (code) => {
      const next = new URLSearchParams(params);
      next.set('lang', code);
      return `${path}?${next.toString()}`;
    },
    link: (target) => withLang(target, lang),
  };
}

export function withLang(path: string, lang: Lang): string {
  const url = new URL(path, 'http://local');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}`;
}

export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function publicOrigin(deps: PagesDeps): string | undefined {
  try {
    return deps.options.publicUrl ? new URL(deps.options.publicUrl()).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a POST comes from our own page. A customer's answer (pay, approve, cancel) is taken only
 * then; a form another site auto-submits (the postform integration) just shows the page.
 */
export function fromOwnPage(request: FastifyRequest, deps: PagesDeps): boolean {
  // Sec-Fetch-Site is set by the browser itself (scripts cannot forge it); older clients fall back to Origin.
  const site = request.headers['sec-fetch-site'];
  if (site === 'same-origin') return true;
  if (site !== undefined && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === requestOrigin(request) || origin === publicOrigin(deps);
}

/**
 * Where to send the customer after a step: our next page (its path holds the payment's own
 * unguessable id, `ownPrefix`, or is one of `ownPaths`, e.g. the invoice pay page the payment came
 * from) as a relative path on the host the customer is using, with the language kept; anything
 * else (the merchant's success/error URL) as given.
 */
export function nextLocation(target: string, ownPrefix: string, lang: Lang, ownPaths: readonly string[] = []): string {
  try {
    const url = new URL(target);
    if (url.pathname.startsWith(ownPrefix) || ownPaths.includes(url.pathname)) return withLang(`${url.pathname}${url.search}`, lang);
    return url.toString();
  } catch {
    return withLang(ownPrefix, lang);
  }
}

export function sendHtml(
  reply: FastifyReply,
  status: number,
  body: string,
  formTargets: Array<string | null | undefined> = [],
): FastifyReply {
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Content-Security-Policy', contentSecurityPolicy(formTargets))
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'same-origin')
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()')
    .send(body);
}

export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('Cache-Control', 'no-store').header('Referrer-Policy', 'same-origin').redirect(location, 303);
}
