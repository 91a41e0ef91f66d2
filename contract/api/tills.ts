/**
 * A shop's tills (issue 26, part 0): each till has an id (its terminal id on payments, receipts and
 * reports) and a name, and is held by one screen at a time. A screen (a browser or the desktop app)
 * takes a till for its staff session; another screen takes it only when it is free, or when its
 * user says "use it here anyway".
 */
import { Type, type Static } from '@sinclair/typebox';
import { StoreLimitsRequestSchema, StoreLimitsSchema, TillInviteSchema, TillLimitsSchema } from './centre.js';
import { Nullable, Str, StringEnum } from './common.js';
import { NoContentSchema, type SchemasOf } from './operation-schemas.js';

/** Who holds a till now: the screen's staff member and when the screen was last seen. */
export const TillHolderSchema = Type.Object({
  staff_id: Nullable(Type.String()),
  staff_name: Nullable(Type.String()),
  held_at: Type.String({ format: 'date-time' }),
  seen_at: Type.String({ format: 'date-time' }),
  this_screen: Type.Boolean({ description: 'held by the screen (and session) that asked' }),
});
export type TillHolder = Static<typeof TillHolderSchema>;

/** The till's day: which close comes next, since when it is open, whether anything happened since. */
export const TillDaySchema = Type.Object({
  sequence: Type.Integer({ description: 'the number of the next close (Z report)' }),
  opened_at: Nullable(Type.String({ format: 'date-time' }), { description: 'the last close, or null before the first' }),
  open: Type.Boolean({ description: 'something was sold or refunded since the last close' }),
});

/** How many minutes a joined till may stay silent (or hold a stored sale) before the centre warns. */
export const TILL_SILENT_WARNING_MINUTES = 15;

/** A joined till as its centre knows it from its reports (issue 26). */
export const TillRemoteSchema = Type.Object({
  joined_at: Type.String({ format: 'date-time' }),
  last_seen_at: Nullable(Type.String({ format: 'date-time' })),
  last_forward_at: Nullable(Type.String({ format: 'date-time' }), { description: 'when it last forwarded stored sales' }),
  version: Nullable(Type.String()),
  open_attempt: Type.Boolean({ description: 'a card payment whose outcome the till does not know yet' }),
  stored: Type.Object({
    count: Type.Integer(),
    totals: Type.Array(Type.Object({ currency: Type.String(), amount: Type.Number() })),
    oldest_at: Nullable(Type.String({ format: 'date-time' })),
  }),
  warning: Nullable(
    Type.String({ description: `not heard from, or holding stored sales, for more than ${TILL_SILENT_WARNING_MINUTES} minutes` }),
  ),
  limits: StoreLimitsSchema,
  books: StringEnum(['in_step', 'catching_up'], {
    description:
      "in_step: at its last report the till had forwarded every stored sale, applied every entry of this gateway's ledger of its sales and this gateway had recorded every day it closed, so its X report and this gateway's view of it agree (D19); catching_up: not yet",
  }),
});
export type TillRemote = Static<typeof TillRemoteSchema>;

export const TillSchema = Type.Object(
  {
    till_id: Type.String({ description: "the till's terminal id (pos_data.terminal.id), e.g. TILL-2" }),
    name: Type.String(),
    shop_id: Nullable(Type.String(), { description: 'the shop its terminal is assigned to' }),
    created_at: Type.String({ format: 'date-time' }),
    retired_at: Nullable(Type.String({ format: 'date-time' }), { description: 'a retired till takes no sale; its past stays' }),
    holder: Nullable(TillHolderSchema, { description: 'the screen that has the till open now, or null' }),
    day: TillDaySchema,
    remote: Nullable(TillRemoteSchema, {
      description: 'a till on another computer, joined to this gateway (its centre); null for a till of this gateway',
    }),
  },
  { title: 'Till' },
);
export type Till = Static<typeof TillSchema>;

export const TillListSchema = Type.Object({
  tills: Type.Array(TillSchema, { description: 'active tills first (by id), then retired ones when asked for' }),
  this_screen: Nullable(Type.String(), { description: "the till this session's screen holds, or null" }),
});
export type TillList = Static<typeof TillListSchema>;

export const TillListQuerySchema = Type.Object(
  { retired: Type.Optional(Type.String({ enum: ['true', 'false'], description: 'true: retired tills too (Settings)' })) },
  { additionalProperties: false },
);

export const CreateTillRequestSchema = Type.Object(
  {
    till_id: Str(40, "1 to 40 letters, digits, '-', '_' or '.', e.g. TILL-2"),
    name: Type.Optional(Str(60, "1 to 60 characters; default: the id's words (TILL-2 -> Till 2)")),
    shop_id: Type.Optional(Type.String({ description: "assigns the till's terminal to this shop" })),
  },
  { additionalProperties: false },
);
export type CreateTillRequest = Static<typeof CreateTillRequestSchema>;

export const UpdateTillRequestSchema = Type.Object(
  {
    name: Type.Optional(Str(60, '1 to 60 characters')),
    retired: Type.Optional(
      Type.Literal(true, { description: 'retire the till (not undone); refused while it has an open card attempt or an unclosed day' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateTillRequest = Static<typeof UpdateTillRequestSchema>;

export const TillIdParams = Type.Object({ till_id: Str(40) });

/**
 * A till claim: the secret the gateway gives a screen when it takes a till (docs/api.md "This
 * screen's till"). Random, base64url; the gateway keeps only its SHA-256.
 */
const tillClaim = (description: string) => Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$', description });

export const TakeTillRequestSchema = Type.Object(
  {
    till_id: Str(40),
    claim: Type.Optional(
      tillClaim(
        'the claim this screen was given when it took the till (TakenTill.claim): with it, the screen gets the till back after a reload or a new login, without take_over',
      ),
    ),
    screen_id: Type.Optional(
      Type.String({
        minLength: 8,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'accepted from older screens and ignored: a screen is known by its claim, not by an id it chooses',
      }),
    ),
    take_over: Type.Optional(
      Type.Boolean({ description: 'take the till even though another screen has it open (that screen is told so)' }),
    ),
  },
  { additionalProperties: false },
);
export type TakeTillRequest = Static<typeof TakeTillRequestSchema>;

/** The till a screen took, with the claim it keeps when the gateway gave it a new one. */
export const TakenTillSchema = Type.Composite(
  [
    TillSchema,
    Type.Object({
      claim: Nullable(
        tillClaim(
          "a new claim for this screen, replacing any it had: keep it (for this tab only) and send it with every take of this till. Null when the request carried the hold's current claim: keep that one",
        ),
      ),
    }),
  ],
  { title: 'TakenTill' },
);
export type TakenTill = Static<typeof TakenTillSchema>;

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

/** The tills' operations (contract/operation-table.ts). */
export const tillsOperations = {
  'tills.terminal': { response: { 200: TerminalConfigSchema } },
  'tills.list': { querystring: TillListQuerySchema, response: { 200: TillListSchema } },
  'tills.create': { body: CreateTillRequestSchema, response: { 201: TillSchema } },
  'tills.update': { params: TillIdParams, body: UpdateTillRequestSchema, response: { 200: TillSchema } },
  'tills.take': { body: TakeTillRequestSchema, response: { 200: TakenTillSchema } },
  'tills.release': { response: { 204: NoContentSchema } },
  'tills.setLimits': { params: TillIdParams, body: StoreLimitsRequestSchema, response: { 200: TillLimitsSchema } },
  'tills.invite': { params: TillIdParams, response: { 201: TillInviteSchema } },
} as const satisfies SchemasOf<'tills'>;
