/**
 * What the audit log keeps of an invoice change made by staff (decisions.md "Back office: invoices"):
 * the invoice's number as the subject and a short detail (what changed, never customer data).
 */
import type { FastifyRequest } from 'fastify';
import type { ApiAuditAction } from '../../contract/access.js';

export interface AuditFacts {
  subject: string | null;
  detail: string | null;
}

/** The subject and detail of an audited invoice action (`invoice_*`), from its request and what it answered. */
export function invoiceAuditFacts(action: ApiAuditAction, request: FastifyRequest, value: unknown): AuditFacts {
  const params = request.params as { invoice_number?: string } | undefined;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const fields = (typeof body.invoice === 'object' && body.invoice !== null ? body.invoice : {}) as Record<string, unknown>;
  switch (action) {
    case 'invoice_create': {
      const invoice = (value as { invoice?: unknown } | null | undefined)?.invoice as
        { debt_claim_number?: string; amount?: number; currency?: string } | undefined;
      return {
        subject: invoice?.debt_claim_number ?? null,
        detail: invoice ? `amount ${String(invoice.amount)} ${String(invoice.currency)}` : null,
      };
    }
    case 'invoice_update': {
      const names = Object.keys(fields).sort();
      const active = Object.hasOwn(fields, 'active') ? `; active ${String(fields.active)}` : '';
      return { subject: params?.invoice_number ?? null, detail: names.length ? `changed ${names.join(', ')}${active}` : null };
    }
    case 'invoice_status':
      return { subject: params?.invoice_number ?? null, detail: `status ${String(body.status)}` };
    case 'invoice_plan_create':
      return {
        subject: params?.invoice_number ?? null,
        detail: `${String(body.installments)} instalments, every ${String(body.interval)}`,
      };
    default:
      return { subject: params?.invoice_number ?? null, detail: null };
  }
}
