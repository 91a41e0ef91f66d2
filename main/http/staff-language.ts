/**
 * The language the gateway answers a staff member's request in (D21), for what it renders itself
 * for staff: the X/Z report's PDF and receipt printer lines. The same choice as the screens make
 * (contract/i18n/languages.ts staffLanguage): the staff member's own language (kept with their
 * account), else the shop's (Settings), else the computer's (the request's Accept-Language), else
 * English.
 */
import type { FastifyRequest } from 'fastify';
import { staffLanguage, type StaffLanguage } from '../../contract/i18n/languages.js';
import type { Gateway } from '../core/gateway.js';

/** The language tags of an Accept-Language header, best first (by q, then in the order given); q=0 left out. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The staff language of `request`: its staff member's own, else their shop's, else Accept-Language's, else English. */
export async function requestStaffLanguage(gateway: Gateway, request: FastifyRequest): Promise<StaffLanguage> {
  const principal = request.principal;
  const staffId = principal?.staff?.id;
  const merchantId = principal?.merchantId;
  const { own, shop } = await gateway.store.read(async (r) => ({
    own: staffId ? (await r.staff.get(staffId))?.language : undefined,
    shop: merchantId ? (await r.merchants.get(merchantId))?.language : undefined,
  }));
  return staffLanguage({ own, shop, computer: acceptedLanguages(request.headers['accept-language']) });
}
