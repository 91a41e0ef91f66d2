/**
 * Payment endpoints (docs/api.md "Payments"): each route is its schema plus one core call. Decimals
 * arrive as JSON numbers; the core converts them to minor units.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PaymentRequest, PayoutRequest as PayoutFields, TransactionResponse } from '../../../../contract/api/payments.js';
import type { Gateway } from '../../../core/gateway.js';
import { followUpFieldErrors, paymentFieldErrors, validatePayoutRequest, type PaymentOperation } from '../../../core/payments/request.js';
import type { Operation } from '../../../core/idempotency/operation-runner.js';
import { outcomeOf, type Outcome } from '../../../core/errors.js';
import { perform, requestTill, send } from '../../api-context.js';
import type { BodyFieldCheck } from '../../errors.js';
import { route } from '../../operation-route.js';

/** A payment route's own options: its words in the document, its error statuses and its field checks. */
const post = (summary: string, description: string, errors: number[], bodyFieldErrors: BodyFieldCheck) => ({
  schema: { tags: ['Payments'], summary, description },
  errors,
  config: { bodyFieldErrors },
});

const FOLLOW_UP_ERRORS = [400, 404, 409, 422, 502];
const CREATE_ERRORS = [400, 409, 422, 502];
/** The core's checks of a body the schema rejected (errors.ts): every bad field in one answer. */
const paymentChecks =
  (kind: PaymentOperation): BodyFieldCheck =>
  (body, rejected) =>
    paymentFieldErrors(kind, body as unknown as PaymentRequest, rejected);
const payoutChecks: BodyFieldCheck = (body, rejected) => {
  const result = validatePayoutRequest(body as unknown as PayoutFields, rejected);
  return result.ok ? [] : result.errors;
};
const followUpChecks: BodyFieldCheck = (body) => followUpFieldErrors(body);
const noChecks: BodyFieldCheck = () => [];

/** A joined till's sale: the centre's answer as it came, or the stored sale's (or the refusal to store it). */
async function payAtTill(
  gateway: Gateway,
  operation: Operation,
  body: PaymentRequest,
  key: string | undefined,
  staffId: string | null,
): Promise<Outcome<TransactionResponse>> {
  const paid = await gateway.tillLink.pay(
    body,
    key,
    staffId,
    (work) => operation.commit(gateway.store, work),
    operation.context.repeatConfirmed === true,
  );
  if (!('forwarded' in paid)) return paid;
  return outcomeOf<TransactionResponse>(paid.forwarded);
}

export function paymentRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const p = gateway.payments;
  return async (app) => {
    route(
      app,
      'payments.create',
      post(
        'Create a payment',
        'Authorization and capture in one step. A decline is HTTP 200 with status_code 6 and the code in `message`.',
        CREATE_ERRORS,
        paymentChecks('payment'),
      ),
      async (request, reply) => {
        // A till joined to a centre sends the sale there, or stores it while the centre is away.
        if (gateway.tillLink.linked)
          return send(
            reply,
            await perform(gateway, request, (op) =>
              payAtTill(gateway, op, request.body, request.idempotency?.scope.key, request.principal?.staff?.id ?? null),
            ),
          );
        await requestTill(gateway, request);
        return send(reply, await perform(gateway, request, (op) => p.create(op, 'payment', request.body)));
      },
    );
    route(
      app,
      'payments.authorize',
      post(
        'Authorize without capture',
        'Reserves funds (status 4); capture or reverse later. `wallet_capture_event` only here.',
        CREATE_ERRORS,
        paymentChecks('authorize'),
      ),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.create(op, 'authorize', request.body))),
    );
    route(
      app,
      'payments.register',
      post(
        'Register a card for later charges',
        'Redirects to card entry; send the returned transaction_id later as original_transaction_id with recurring=1.',
        CREATE_ERRORS,
        paymentChecks('register'),
      ),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.create(op, 'register', request.body))),
    );
    route(
      app,
      'payments.capture',
      post(
        'Capture an authorization',
        'Full or partial; several partial captures while their sum stays within the authorization (1003 above it).',
        FOLLOW_UP_ERRORS,
        followUpChecks,
      ),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.capture(op, request.body))),
    );
    route(
      app,
      'payments.reverse',
      post(
        'Reverse an uncaptured authorization',
        'Partial reversal only for payment types that allow it.',
        FOLLOW_UP_ERRORS,
        followUpChecks,
      ),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.reverse(op, request.body))),
    );
    route(
      app,
      'payments.refund',
      post(
        'Refund a captured transaction',
        'Full or partial; several refunds while their sum stays within the captured amount (1003 above it).',
        FOLLOW_UP_ERRORS,
        followUpChecks,
      ),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.refund(op, request.body))),
    );
    route(
      app,
      'payments.payout',
      post(
        'Send an unreferenced payout',
        'cardpos (card credit) and a2a; status 2 pending, then 3 completed.',
        CREATE_ERRORS,
        payoutChecks,
      ),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.payout(op, request.body))),
    );
    route(
      app,
      'payments.cancel',
      post(
        'Cancel a wallet subscription',
        'transaction_id of the subscription setup payment. Not for authorizations: use reverse.',
        FOLLOW_UP_ERRORS,
        noChecks,
      ),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.cancelSubscription(op, request.body))),
    );
    route(
      app,
      'payments.revise',
      post(
        'Revise a wallet subscription',
        'A higher amount needs the customer to approve again: client_action redirect.',
        FOLLOW_UP_ERRORS,
        followUpChecks,
      ),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.reviseSubscription(op, request.body))),
    );
  };
}
