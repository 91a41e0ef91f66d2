/**
 * The till's card attempts (decisions.md D16): the attempt the till records before it sends a
 * payment, and how an open attempt ended. A sale whose outcome is unknown is never charged again
 * before the gateway says how it ended.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, RefTo } from './common.js';
import { TransactionSchema } from './transactions.js';
import type { SchemasOf } from './operation-schemas.js';

export const TillAttemptSchema = Type.Object({
  attempt_id: Type.String(),
  order_id: Type.String(),
  idempotency_key: Type.String(),
  amount: Type.Number(),
  currency: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type TillAttempt = Static<typeof TillAttemptSchema>;

export const CurrentTillAttemptSchema = Type.Object({ attempt: Nullable(TillAttemptSchema) });

export const TillAttemptInputSchema = Type.Object(
  // Types only: the core names every bad value at once.
  {
    order_id: Type.String({ description: '1 to 100 printable characters; one sale, one order id' }),
    idempotency_key: Type.String({ description: 'the Idempotency-Key of the POST /rest/payment about to be sent' }),
    amount: Type.Number(),
    currency: Type.String({ description: 'ISO 4217' }),
  },
  { additionalProperties: false },
);
export type TillAttemptInput = Static<typeof TillAttemptInputSchema>;

export const TillResolutionSchema = Type.Union(
  [
    Type.Object({ state: Type.Literal('none') }),
    Type.Object({ state: Type.Literal('in_progress'), attempt: TillAttemptSchema }),
    Type.Object({ state: Type.Literal('approved'), attempt: TillAttemptSchema, transaction: RefTo(TransactionSchema) }),
    Type.Object({ state: Type.Literal('not_charged'), attempt: TillAttemptSchema, transaction: Nullable(RefTo(TransactionSchema)) }),
  ],
  {
    description:
      'none: no open attempt; in_progress: ask again; approved: the sale was charged (never charge it again); not_charged: nothing was charged',
  },
);
/** How the till's open attempt ended; approved and not_charged close it. */
export type TillResolution = Static<typeof TillResolutionSchema>;

/** The till attempts' operations (contract/operation-table.ts). */
export const tillAttemptsOperations = {
  'till-attempts.current': { response: { 200: CurrentTillAttemptSchema } },
  'till-attempts.begin': { body: TillAttemptInputSchema, response: { 200: TillAttemptSchema, 201: TillAttemptSchema } },
  'till-attempts.resolve': { response: { 200: TillResolutionSchema } },
} as const satisfies SchemasOf<'till-attempts'>;
