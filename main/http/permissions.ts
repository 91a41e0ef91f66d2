/**
 * What each staff role may call (decisions.md D9). API credentials (merchant) may call every API
 * route; staff sessions only what their role allows. A cashier's refund needs a manager approval.
 */
import type { StaffRole } from '../../contract/constants.js';

type RouteKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} ${string}`;

const CASHIER: readonly RouteKey[] = [
  'POST /rest/payment',
  'POST /rest/authorize',
  'POST /rest/capture',
  'POST /rest/reverse',
  'POST /rest/refund',
  'GET /rest/transactions',
  'GET /rest/transactions/:transaction_id',
  'GET /rest/transactions/:transaction_id/log',
  'GET /rest/transactions/:transaction_id/refunds',
];

/** Routes no staff role may call through a session (credentials management stays with API keys and admins). */
const ADMIN_ONLY: readonly RouteKey[] = ['POST /rest/webhook_key/rotate'];

/** Actions a cashier may only do with a manager's approval token. */
export const NEEDS_APPROVAL: Partial<Record<RouteKey, string>> = { 'POST /rest/refund': 'refund' };

/** Actions that go to the audit log when staff do them. */
export const AUDITED: Partial<Record<RouteKey, string>> = {
  'POST /rest/refund': 'refund',
  'POST /rest/reverse': 'void',
  'POST /rest/capture': 'capture',
  // Every change of an invoice (decisions.md "Back office: invoices"); subject: the invoice number.
  'POST /rest/invoices': 'invoice_create',
  'PUT /rest/invoices/:invoice_number': 'invoice_update',
  'PATCH /rest/invoices/:invoice_number': 'invoice_update',
  'PUT /rest/invoices/:invoice_number/status_change': 'invoice_status',
  'DELETE /rest/invoices/:invoice_number': 'invoice_delete',
  'POST /rest/invoices/:invoice_number/payment_plan': 'invoice_plan_create',
  'DELETE /rest/invoices/:invoice_number/payment_plan': 'invoice_plan_cancel',
  'POST /rest/invoices/:invoice_number/reminder': 'invoice_reminder',
  // Network tokens (decisions.md "Back office: network tokens and checkouts"); subject: the token id.
  // Reading the token data is audited by the core (token_reveal), before the data leaves.
  'POST /v2/network_tokens': 'token_create',
  'POST /v2/network_tokens/:id/cryptogram': 'token_cryptogram',
  'DELETE /v2/network_tokens/:id': 'token_archive',
  'POST /v2/network_tokens/:id/simulate': 'token_simulate',
  // Postbacks by staff through the API (the back office's /ui routes audit in their unit of work:
  // decisions.md "Back office: postbacks and outbox"); subject: the event id.
  'POST /rest/postbacks/:event_id/resend': 'postback_resend',
  'POST /rest/postbacks/resend_failed': 'postback_resend_failed',
  'POST /rest/webhook_key/rotate': 'webhook_key_rotate',
};

export function routeKey(method: string, url: string): RouteKey {
  return `${method.toUpperCase()} ${url}` as RouteKey;
}

export function roleMay(role: StaffRole, key: RouteKey): boolean {
  if (role === 'admin') return true;
  if (role === 'back_office') return !ADMIN_ONLY.includes(key);
  return CASHIER.includes(key);
}
