/**
 * The checkout calls of the back office (main/http/routes/checkouts/back-office.ts): the merchant's
 * sessions, one session with its link's QR code and its transaction, a session for a phone or e-mail
 * order, cancelling one. Typed by the contract (contract/api/checkouts.ts); same transports and error
 * shape as the other clients (api/call.ts, api/transport.ts): a refusal is an ApiError whose `errors` name each field at fault.
 */
import type {
  BackOfficeCheckoutDetail,
  BackOfficeCheckoutList,
  BackOfficeCheckoutRequest,
  CheckoutListQuery,
} from '../../../contract/api/checkouts.js';
import type { FieldError } from '../../../contract/api/common.js';
import { caller, filled } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type {
  BackOfficeCheckout,
  BackOfficeCheckoutDetail,
  BackOfficeCheckoutList,
  BackOfficeCheckoutRequest,
} from '../../../contract/api/checkouts.js';

export interface CheckoutsClient {
  list(query: CheckoutListQuery): Promise<BackOfficeCheckoutList>;
  detail(id: string): Promise<BackOfficeCheckoutDetail>;
  /** What POST /ui/checkouts would refuse in this body, field by field; empty when it would open the session. */
  check(request: BackOfficeCheckoutRequest): Promise<FieldError[]>;
  create(request: BackOfficeCheckoutRequest, idempotencyKey: string): Promise<BackOfficeCheckoutDetail>;
  cancel(id: string): Promise<BackOfficeCheckoutDetail>;
}

export function createCheckoutsClient(transport: Transport = defaultTransport()): CheckoutsClient {
  const call = caller(transport);
  return {
    list: (query) => call('checkouts.backOfficeList', { query: filled(query) }),
    detail: (id) => call('checkouts.backOfficeGet', { params: { checkout_id: id } }),
    check: async (request) => (await call('checkouts.check', { body: request })).errors,
    create: (request, idempotencyKey) =>
      call('checkouts.backOfficeCreate', { body: request, headers: { 'Idempotency-Key': idempotencyKey } }),
    cancel: (id) => call('checkouts.cancel', { params: { checkout_id: id } }),
  };
}

export const checkoutsClient: CheckoutsClient = createCheckoutsClient();
