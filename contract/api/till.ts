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

/** `GET /ui/terminal`: this till's simulated terminal and the till's settings. */
export const TerminalConfigSchema = Type.Object(
  {
    terminal_id: Type.String(),
    type: Type.String({ description: 'softpos' }),
    attended: Type.Boolean(),
    capabilities: Type.Array(Type.String()),
    cvm_limit: Type.Number({
      description:
        "contactless payments above this amount (merchant currency) need the PIN: the cardpos cvm_limit of this till's terminal (its shop's setting, else the merchant's, else the default)",
    }),
    pin_key: Type.Object(
      { zone_id: Type.String(), key_id: Type.String(), key_hex: Type.String() },
      { description: "the Test environment's published PIN key; a production terminal keeps its key in hardware" },
    ),
    idle_lock_seconds: Type.Integer(),
    confirm_above: Type.Number({
      description: 'above this amount (merchant currency) the till asks for confirmation before the card prompt',
    }),
  },
  { title: 'Till terminal' },
);
export type TerminalConfig = Static<typeof TerminalConfigSchema>;

/** The till operations (contract/operation-table.ts). */
export const tillOperations = {
  'till.terminal': { response: { 200: TerminalConfigSchema } },
  'till.attempt': { response: { 200: CurrentTillAttemptSchema } },
  'till.beginAttempt': { body: TillAttemptInputSchema, response: { 200: TillAttemptSchema, 201: TillAttemptSchema } },
  'till.resolveAttempt': { response: { 200: TillResolutionSchema } },
} as const satisfies SchemasOf<'till'>;
