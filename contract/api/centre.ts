/**
 * Tills joined to a centre (issue 26, parts 1 and 2; docs/decisions.md "Tills joined to a centre").
 * A centre is an ordinary gateway; a till is a gateway joined to it with a one-time pairing code. The
 * till sends everything to the centre while it answers, and stores card-present sales while it does
 * not, under limits the centre sets, forwarding them once it answers again. These are the shapes of
 * the centre's /centre routes (the till's own credential) and of the till's link status.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Str, StringEnum, StringIn } from './common.js';
import { TransactionIdParams } from './transactions.js';
import { PaymentRequestSchema } from './payments.js';
import type { DayReport } from './reports.js';
import type { SchemasOf } from './operation-schemas.js';

/**
 * What a till may store while the centre is away, in the merchant's currency where an amount: a
 * payment's most, the total per currency, how many, how old the oldest may get. A limit of 0 turns
 * storing off.
 */
export const StoreLimitsSchema = Type.Object({
  per_payment: Type.Number({ minimum: 0, description: 'the most one stored payment may be (default 100.00)' }),
  total_per_currency: Type.Number({
    minimum: 0,
    description: 'the most all stored payments of one currency may add up to (default 1,000.00)',
  }),
  count: Type.Integer({ minimum: 0, description: 'how many payments may be stored (default 200)' }),
  age_hours: Type.Number({ minimum: 0, description: 'how old the oldest stored payment may get (default 24)' }),
});
export type StoreLimits = Static<typeof StoreLimitsSchema>;

/** The pairing code an admin gives a till (`gateway till invite`, Settings -> Tills). */
export const TillInviteSchema = Type.Object({
  code: Type.String({
    description: 'one-time, valid 24 hours; for a centre on HTTPS it ends with its certificate fingerprint, which the till pins',
  }),
  till_id: Type.String(),
  merchant_id: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
});
export type TillInvite = Static<typeof TillInviteSchema>;

export const JoinRequestSchema = Type.Object(
  {
    code: Str(200, 'the pairing code'),
    till_version: Str(40, "the joining gateway's version"),
  },
  { additionalProperties: false },
);
export type JoinRequest = Static<typeof JoinRequestSchema>;

/** What a till gets at its join: who it is, its own credential (shown this once), the limits. */
export const JoinAnswerSchema = Type.Object({
  merchant_id: Type.String(),
  merchant_name: Type.String(),
  currency: Type.String(),
  till_id: Type.String(),
  till_name: Type.String(),
  api_key: Type.String(),
  api_password: Type.String({ description: "the till's own credential at the centre; shown this once" }),
  limits: StoreLimitsSchema,
});
export type JoinAnswer = Static<typeof JoinAnswerSchema>;

/**
 * One day a joined till closed (its Z report), as the centre books it (D19): the till closes its
 * own day, and the centre counts each of the till's sales and refunds in the day the till counted it.
 */
export const ClosedTillDaySchema = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1 }),
    closed_at: Type.String({ format: 'date-time' }),
    centre_cursor: Type.Integer({
      minimum: 0,
      description:
        "how far the till had applied the centre's ledger of its sales when it closed: every entry up to there is in this day or an earlier one",
    }),
    entries: Type.Array(Str(80), { maxItems: 100_000, description: 'the sales (transaction ids) and refunds (refund ids) the day counts' }),
    report: Type.Unknown({
      description: 'the Z report as the till closed it (a DayReport, as GET /ui/reports/z/{sequence} answers at the till)',
    }),
  },
  { additionalProperties: false },
);
/** A day as the till sends it; its report is a DayReport (the request schema leaves it unchecked). */
export type ClosedTillDay = Omit<Static<typeof ClosedTillDaySchema>, 'report'> & { report: DayReport };

/**
 * A money entry of the centre's ledger of a till's sales (a sale taken or declined, a refund), for
 * the till to keep its copy complete: a refund made at the centre, a sale whose answer never reached
 * the till. Amounts in the currency's decimals.
 */
export const LedgerEntrySchema = Type.Object({
  seq: Type.Integer({ minimum: 1 }),
  kind: StringEnum(['sale', 'refund'] as const),
  transaction_id: Type.String(),
  order_id: Nullable(Type.String()),
  currency: Type.String(),
  sale_amount: Type.Number(),
  status_code: Type.Integer({ description: "the sale's status now" }),
  message: Nullable(Type.String()),
  card_brand: Nullable(Type.String()),
  card_last_four: Nullable(Type.String()),
  entry_mode: Nullable(Type.String()),
  terminal_id: Nullable(Type.String()),
  staff_id: Nullable(Type.String()),
  authorization_code: Nullable(Type.String()),
  sold_at: Type.String({ format: 'date-time' }),
  refund: Type.Optional(
    Type.Object({
      refund_id: Type.String(),
      amount: Type.Number(),
      merchant_reference: Nullable(Type.String()),
      created_at: Type.String({ format: 'date-time' }),
    }),
  ),
});
export type LedgerEntry = Static<typeof LedgerEntrySchema>;

/** What a till tells the centre every few seconds (POST /centre/heartbeat). */
export const TillReportSchema = Type.Object(
  {
    version: Str(40),
    stored: Type.Object({
      count: Type.Integer({ minimum: 0 }),
      oldest_at: Nullable(Type.String({ format: 'date-time' })),
      totals: Type.Array(Type.Object({ currency: Str(3), amount: Type.Number() })),
    }),
    open_attempt: Type.Boolean(),
    day: Type.Optional(
      Type.Object({
        sequence: Type.Integer({ minimum: 1, description: "the number of the till's next close (Z report)" }),
        opened_at: Nullable(Type.String({ format: 'date-time' }), { description: 'its last close' }),
        open: Type.Boolean({ description: 'something was sold or refunded since' }),
      }),
    ),
    ledger_cursor: Type.Optional(
      Type.Integer({ minimum: 0, description: "how far the till has applied the centre's ledger of its sales" }),
    ),
    days: Type.Optional(
      Type.Array(ClosedTillDaySchema, {
        maxItems: 10,
        description: 'the days it closed that the centre has not recorded yet, oldest first',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TillReport = Static<typeof TillReportSchema>;

export const HeartbeatAnswerSchema = Type.Object({
  limits: StoreLimitsSchema,
  /** Changes whenever the staff or API credentials change: the till then fetches /centre/replica. */
  replica_digest: Type.String(),
  days_recorded: Type.Optional(Type.Integer({ minimum: 0, description: "the last of the till's days the centre has recorded" })),
  ledger: Type.Optional(
    Type.Object({
      cursor: Type.Integer({
        minimum: 0,
        description: 'the position the entries reach: the till reports it back once it has applied them',
      }),
      entries: Type.Array(LedgerEntrySchema),
    }),
  ),
});
export type HeartbeatAnswer = Static<typeof HeartbeatAnswerSchema>;

/**
 * What a till keeps of the merchant to let staff log in and POS software authenticate while the
 * centre is away (D20): the API credentials POS software uses (revoked ones marked), the staff who
 * may log in at a till (cashiers and managers, active), with their (scrypt) hashes, never a clear
 * secret, and the shop's till ids (a sale may name only its own). What is not in it is gone at the
 * till: the till applies deletions too. The till keeps the staff hashes sealed under its data key.
 */
export const ReplicaSchema = Type.Object({
  digest: Type.String(),
  merchant: Type.Object({ merchant_id: Type.String(), name: Type.String(), currency: Type.String(), created_at: Type.String() }),
  till_ids: Type.Array(Type.String(), { description: "the shop's tills: a sale at a till may not name another's id" }),
  credentials: Type.Array(
    Type.Object({
      credential_id: Type.String(),
      api_key: Type.String(),
      password_hash: Type.String(),
      created_at: Type.String(),
      revoked_at: Nullable(Type.String()),
    }),
  ),
  staff: Type.Array(
    Type.Object({
      staff_id: Type.String(),
      login: Type.String(),
      display_name: Type.String(),
      role: Type.String(),
      password_hash: Type.String(),
      pin_hash: Nullable(Type.String()),
      created_at: Type.String(),
      disabled_at: Nullable(Type.String()),
    }),
  ),
});
export type Replica = Static<typeof ReplicaSchema>;

/** One stored payment as the till forwards it: its journal number, the id it got at the till, the request. */
export const ForwardEntrySchema = Type.Object(
  {
    seq: Type.Integer({ minimum: 1 }),
    transaction_id: Type.String({ format: 'uuid' }),
    stored_at: Type.String({ format: 'date-time' }),
    staff_id: Nullable(Type.String()),
    request: PaymentRequestSchema,
  },
  { additionalProperties: false },
);
export type ForwardEntry = Static<typeof ForwardEntrySchema>;

export const ForwardRequestSchema = Type.Object(
  { entries: Type.Array(ForwardEntrySchema, { minItems: 1, maxItems: 50 }) },
  { additionalProperties: false },
);
export type ForwardRequest = Static<typeof ForwardRequestSchema>;

/** How each forwarded payment ended at the centre; the same answer however often it is sent. */
export const ForwardResultSchema = Type.Object({
  seq: Type.Integer(),
  transaction_id: Type.String(),
  status_code: Type.Integer({ description: '3 completed, 6 declined, 11 error' }),
  status: Type.String(),
  message: Nullable(Type.String()),
  /** Not forwarded: its id conflicts with a sale the centre has (which, it does not say), or the entry is not one a till may forward. */
  refused: Type.Optional(Type.String()),
});
export type ForwardResult = Static<typeof ForwardResultSchema>;
export const ForwardAnswerSchema = Type.Object({ results: Type.Array(ForwardResultSchema) });
export type ForwardAnswer = Static<typeof ForwardAnswerSchema>;

/**
 * A till asks how a sale it sent to the centre ended, when the answer was lost (POST /centre/fence):
 * the centre fences the key (a request with it that has not arrived yet never runs afterwards) and
 * says whether it ran. The key is the till's own (`till:<till id>:<key>`).
 */
export const FenceRequestSchema = Type.Object(
  { idempotency_key: Str(300, 'the key the till sent the sale with, as the centre got it') },
  { additionalProperties: false },
);
export type FenceRequest = Static<typeof FenceRequestSchema>;
export const FenceAnswerSchema = Type.Object({
  state: Type.Union([Type.Literal('in_flight'), Type.Literal('not_run'), Type.Literal('processed')], {
    description: 'in_flight: still running at the centre, ask again; not_run: never ran and now never will; processed: the answer it got',
  }),
  status: Type.Optional(Type.Integer({ description: 'processed: the HTTP status of its answer' })),
  body: Type.Optional(Type.Unknown({ description: 'processed: its answer' })),
});
export type FenceAnswer = Static<typeof FenceAnswerSchema>;

const MoneyTotal = Type.Object({ currency: Type.String(), amount: Type.Number() });

/** A stored sale the centre declined when it was forwarded: the cashier must see it (and settle it with the customer). */
export const ForwardedDeclineSchema = Type.Object({
  transaction_id: Type.String(),
  order_id: Type.String(),
  amount: Type.Number(),
  currency: Type.String(),
  card_brand: Nullable(Type.String()),
  card_last_four: Nullable(Type.String()),
  staff_id: Nullable(Type.String()),
  stored_at: Type.String({ format: 'date-time' }),
  forwarded_at: Type.String({ format: 'date-time' }),
  message: Nullable(Type.String({ description: 'the decline as the centre answered it, e.g. "51 Insufficient funds"' })),
});
export type ForwardedDecline = Static<typeof ForwardedDeclineSchema>;

/**
 * `GET /ui/till/link`: this gateway's link to its centre, as the cashier screen shows it: whether the
 * centre answers, what is stored here (count, totals, the oldest and when it reaches the age limit),
 * and the forwarded declines the cashier has not seen yet.
 */
export const TillLinkStatusSchema = Type.Object({
  joined: Type.Boolean({ description: 'false: an ordinary gateway (not a till of a centre)' }),
  state: StringIn(['unlinked', 'online', 'away']),
  since: Nullable(Type.String({ format: 'date-time' })),
  reason: Nullable(Type.String({ description: 'away: why (what the last try answered)' })),
  centre_url: Nullable(Type.String()),
  till_id: Nullable(Type.String()),
  limits: Nullable(StoreLimitsSchema),
  stored: Type.Object({
    count: Type.Integer(),
    totals: Type.Array(MoneyTotal),
    oldest_at: Nullable(Type.String({ format: 'date-time' })),
    age_limit_at: Nullable(
      Type.String({ format: 'date-time', description: 'when the oldest stored sale reaches the age limit: no sale is stored after it' }),
    ),
  }),
  declines: Type.Array(ForwardedDeclineSchema),
});
export type TillLinkStatus = Static<typeof TillLinkStatusSchema>;

/** `POST /test/clock` (a gateway started with `--sim-clock movable` only): moves its clock forward. */
export const AdvanceClockRequestSchema = Type.Object(
  { advance_seconds: Type.Number({ minimum: 0, maximum: 30 * 24 * 3600, description: 'how far to move the clock forward' }) },
  { additionalProperties: false },
);
export const ClockAnswerSchema = Type.Object({ now: Type.String({ format: 'date-time' }), offset_seconds: Type.Number() });

export const HandledDeclineSchema = Type.Object({ transaction_id: Type.String(), handled_at: Type.String({ format: 'date-time' }) });
export type HandledDecline = Static<typeof HandledDeclineSchema>;

/** `PUT /ui/tills/{till_id}/limits`: a joined till's store-and-forward limits (admin). */
export const StoreLimitsRequestSchema = Type.Object(
  {
    per_payment: Type.Number({ minimum: 0, maximum: 1_000_000, description: 'the most one stored payment may be; 0 turns storing off' }),
    total_per_currency: Type.Number({
      minimum: 0,
      maximum: 100_000_000,
      description: 'the most all stored payments of one currency may add up to',
    }),
    count: Type.Integer({ minimum: 0, maximum: 100_000, description: 'how many payments may be stored' }),
    age_hours: Type.Number({ minimum: 0, maximum: 720, description: 'how old the oldest stored payment may get' }),
  },
  { additionalProperties: false },
);
export const TillLimitsSchema = Type.Object({ till_id: Type.String(), limits: StoreLimitsSchema });

/** `GET /ui/setup`: whether this gateway has a shop yet, or is a till of a shop's gateway (no login needed). */
export const SetupStateSchema = Type.Object({
  has_shop: Type.Boolean({ description: 'a merchant exists here (its own, or the replica of a centre)' }),
  joined: Type.Boolean({ description: "this gateway is a till of a shop's gateway" }),
  centre_url: Nullable(Type.String()),
  till_id: Nullable(Type.String()),
  can_join: Type.Boolean({
    description: "no shop and no centre yet, and asked from this computer: the first screen offers to join a shop's gateway",
  }),
});
export type SetupState = Static<typeof SetupStateSchema>;

/** `POST /ui/setup/join`: the desktop's first start, "join a shop's gateway" (a brand-new gateway, from this computer only). */
export const SetupJoinRequestSchema = Type.Object(
  {
    centre: Str(300, "the shop's gateway's address, e.g. https://backoffice.local:8420"),
    code: Str(200, "the pairing code from Settings -> Tills on the shop's gateway"),
  },
  { additionalProperties: false },
);
export type SetupJoinRequest = Static<typeof SetupJoinRequestSchema>;
export const JoinSummarySchema = Type.Object({
  centre_url: Type.String(),
  merchant_id: Type.String(),
  merchant_name: Type.String(),
  till_id: Type.String(),
  till_name: Type.String(),
  fingerprint: Nullable(Type.String()),
  limits: StoreLimitsSchema,
});
export type JoinSummary = Static<typeof JoinSummarySchema>;

/** The centre operations (contract/operation-table.ts). */
export const centreOperations = {
  'centre.heartbeat': { body: TillReportSchema, response: { 200: HeartbeatAnswerSchema } },
  'centre.replica': { response: { 200: ReplicaSchema } },
  'centre.fence': { body: FenceRequestSchema, response: { 200: FenceAnswerSchema } },
  'centre.forward': { body: ForwardRequestSchema, response: { 200: ForwardAnswerSchema } },
  'centre.join': { body: JoinRequestSchema, response: { 200: JoinAnswerSchema } },
  'centre.handleForwardedDecline': { params: TransactionIdParams, response: { 200: HandledDeclineSchema } },
  'centre.tillLink': { response: { 200: TillLinkStatusSchema } },
  'centre.seeDecline': { params: TransactionIdParams, response: { 200: TillLinkStatusSchema } },
  'centre.setup': { response: { 200: SetupStateSchema } },
  'centre.joinShop': { body: SetupJoinRequestSchema, response: { 200: JoinSummarySchema } },
  'centre.advanceClock': { body: AdvanceClockRequestSchema, response: { 200: ClockAnswerSchema } },
} as const satisfies SchemasOf<'centre'>;
