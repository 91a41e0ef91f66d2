/**
 * The checkout calls of the back office (main/http/routes/checkout-back-office.ts): the merchant's
 * sessions, one session with its link's QR code and its transaction, a session for a phone or e-mail
 * order, cancelling one. Typed by the contract (contract/api/checkouts.ts); same transports and error
 * shape as api/client.ts: a refusal is an ApiError whose `errors` name each field at fault.
 */
import type { BackOfficeCheckoutDetail, BackOfficeCheckoutList, BackOfficeCheckoutRequest, CheckoutListQuery } from '../../../contract/api/checkouts.js';
import type { FieldCheck, FieldError } from '../../../contract/api/common.js';
import { defaultTransport, expectObject, type Transport } from '../api/client.js';

export type { BackOfficeCheckout, BackOfficeCheckoutDetail, BackOfficeCheckoutList, BackOfficeCheckoutRequest } from '../../../contract/api/checkouts.js';

export interface CheckoutsClient {
  list(query: CheckoutListQuery): Promise<BackOfficeCheckoutList>;
  detail(id: string): Promise<BackOfficeCheckoutDetail>;
  /** What POST /ui/checkouts would refuse in this body, field by field; empty when it would open the session. */
  check(request: BackOfficeCheckoutRequest): Promise<FieldError[]>;
  create(request: BackOfficeCheckoutRequest, idempotencyKey: string): Promise<BackOfficeCheckoutDetail>;
  cancel(id: string): Promise<BackOfficeCheckoutDetail>;
}

const DETAIL = ['checkout', 'qr_code', 'transaction'] as const;

export function createCheckoutsClient(transport: Transport = defaultTransport()): CheckoutsClient {
  const at = (id: string) => `/ui/checkouts/${encodeURIComponent(id)}`;
  return {
    async list(query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
      return expectObject<BackOfficeCheckoutList>(await transport.send({ method: 'GET', path: `/ui/checkouts?${params.toString()}` }), ['data_set', 'metadata']);
    },
    async detail(id) {
      return expectObject<BackOfficeCheckoutDetail>(await transport.send({ method: 'GET', path: at(id) }), DETAIL);
    },
    async check(request) {
      return expectObject<FieldCheck>(await transport.send({ method: 'POST', path: '/ui/checkouts/check', body: request }), ['errors']).errors;
    },
    async create(request, idempotencyKey) {
      const response = await transport.send({ method: 'POST', path: '/ui/checkouts', body: request, headers: { 'Idempotency-Key': idempotencyKey } });
      return expectObject<BackOfficeCheckoutDetail>(response, DETAIL);
    },
    async cancel(id) {
      return expectObject<BackOfficeCheckoutDetail>(await transport.send({ method: 'POST', path: `${at(id)}/cancel` }), DETAIL);
    },
  };
}

export const checkoutsClient: CheckoutsClient = createCheckoutsClient();
