/**
 * What the audit log keeps of a network token action by staff (decisions.md "Back office: network
 * tokens and checkouts"): the token id as the subject and a short detail. Never a card or token
 * number: at most the card's last four digits, as receipts show them (D13).
 */
import type { FastifyRequest } from 'fastify';
import type { ApiAuditAction } from '../../contract/access.js';
import type { AuditFacts } from './invoice-audit.js';

/** The subject and detail of an audited token action (`token_*`), from its request and what it answered. */
export function tokenAuditFacts(action: ApiAuditAction, request: FastifyRequest, value: unknown): AuditFacts {
  const params = request.params as { id?: string } | undefined;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const data = (value as { data?: unknown } | null | undefined)?.data as
    { id?: string; network?: string; status?: string; type?: string } | undefined;
  switch (action) {
    case 'token_create': {
      const pan = typeof body.card_number === 'string' ? body.card_number : '';
      return {
        subject: data?.id ?? null,
        detail: data ? `${String(data.network)} card ending ${pan.slice(-4)}, ${String(data.status)}` : null,
      };
    }
    case 'token_cryptogram':
      return { subject: params?.id ?? null, detail: data?.type ? `${data.type} cryptogram` : null };
    case 'token_simulate':
      return { subject: params?.id ?? null, detail: `${String(body.action)}: now ${String(data?.status)}` };
    default:
      return { subject: params?.id ?? null, detail: null };
  }
}
