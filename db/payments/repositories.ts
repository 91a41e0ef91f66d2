/**
 * Repositories of the payments engine: guarded money movements (conditional updates that report
 * whether they applied, never read-then-write), refunds, PIN security. Statements built with Kysely
 * (db/typed-sql.ts), rows typed by db/schema.ts (db/payments/tables.ts); the arithmetic of a guarded
 * movement is written as Kysely `sql` fragments, its literals (statuses, 'authorize') stay literals.
 */
import { sql, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { byShape, typed, type Placeholders, rowPlaces } from '../typed-sql.js';
import type {
  DetailsChange,
  PinSecurityRepository,
  RefundRecord,
  RefundRepository,
  SubscriptionStatus,
  TransactionChange,
} from '../../main/core/payments/ports.js';

const changeColumns: ReadonlyArray<readonly [keyof TransactionChange, keyof Database['transactions'] & string]> = [
  ['statusCode', 'status_code'],
  ['message', 'message'],
  ['reasonCode', 'reason_code'],
  ['authorizedMinor', 'authorized_minor'],
  ['capturedMinor', 'captured_minor'],
  ['feesMinor', 'fees_minor'],
  ['sepaMsgId', 'sepa_msg_id'],
  ['cardBrand', 'card_brand'],
  ['cardLastFour', 'card_last_four'],
  ['cardBin', 'card_bin'],
  ['cardExpiryMonth', 'card_expiry_month'],
  ['cardExpiryYear', 'card_expiry_year'],
  ['cardSealed', 'card_sealed'],
  ['cardFingerprint', 'card_fingerprint'],
  ['details', 'details'],
  ['expiresAt', 'expires_at'],
];

export interface TransactionMovements {
  transition(id: string, from: readonly number[], change: TransactionChange, now: string): Promise<boolean>;
  addCapture(id: string, amountMinor: number, statusCode: number, now: string): Promise<boolean>;
  addRefund(id: string, amountMinor: number, now: string): Promise<boolean>;
  addReversal(id: string, amountMinor: number, now: string): Promise<boolean>;
  changeSubscription(id: string, from: readonly SubscriptionStatus[], change: DetailsChange, now: string): Promise<boolean>;
}

/** The values of a transition: the columns set (by name), now, id, and the statuses it may leave (from0, from1, ...). */
type TransitionParams = Record<string, unknown>;

/** The values of a subscription change: SQLite's json_set paths and values and json_remove paths, PostgreSQL's merge. */
type SubscriptionParams = Record<string, unknown>;

const statuses = (...codes: number[]) => codes.map((code) => sql.lit(code));

export function createTransactionMovements(db: SqlDatabase): TransactionMovements {
  type Amount = { id: string; amount: number; now: string };
  const s = {
    capture: typed<Amount & { status: number }>()(db, (k, p) =>
      k
        .updateTable('transactions')
        .set({ captured_minor: sql<number>`captured_minor + ${p('amount')}`, status_code: p('status'), updated_at: p('now') })
        .where('id', '=', p('id'))
        .where('status_code', 'in', statuses(3, 4))
        .where(sql<boolean>`captured_minor + ${p('amount')} <= authorized_minor`),
    ),
    refund: typed<Amount>()(db, (k, p) =>
      k
        .updateTable('transactions')
        .set({
          refunded_minor: sql<number>`refunded_minor + ${p('amount')}`,
          status_code: sql<number>`CASE WHEN refunded_minor + ${p('amount')} = captured_minor THEN 7 ELSE 8 END`,
          updated_at: p('now'),
        })
        .where('id', '=', p('id'))
        .where('status_code', 'in', statuses(3, 8))
        .where(sql<boolean>`refunded_minor + ${p('amount')} <= captured_minor`),
    ),
    // Releases reserved money that was never captured. Uncaptured: reversed (all) or still authorized
    // (part). After captures the status (completed, partly_refunded) stays: captured money is untouched.
    reversal: typed<Amount>()(db, (k, p, dialect) =>
      k
        .updateTable('transactions')
        .set({
          reversed_minor: sql<number>`reversed_minor + ${p('amount')}`,
          authorized_minor: sql<number>`authorized_minor - ${p('amount')}`,
          status_code: sql<number>`CASE WHEN status_code <> 4 THEN status_code WHEN authorized_minor - ${p('amount')} = 0 THEN 5 ELSE 4 END`,
          updated_at: p('now'),
        })
        .where('id', '=', p('id'))
        .where('status_code', 'in', statuses(3, 4, 8))
        .where('operation', '=', sql.lit('authorize'))
        // PostgreSQL would take a parameter compared with 0 alone for an integer; the amounts are bigint.
        .where(dialect === 'postgres' ? sql<boolean>`${p('amount')}::bigint > 0` : sql<boolean>`${p('amount')} > 0`)
        .where(sql<boolean>`captured_minor + ${p('amount')} <= authorized_minor`),
    ),
    // One statement per set of changed columns and number of statuses it may leave.
    transition: byShape(db, (shape: { columns: readonly string[]; from: number }, k, p: Placeholders<TransitionParams>) =>
      k
        .updateTable('transactions')
        .set({
          ...(Object.fromEntries(shape.columns.map((column) => [column, p(column)])) as Updateable<Database['transactions']>),
          updated_at: p('now') as string,
        })
        .where('id', '=', p('id') as string)
        .where(
          'status_code',
          'in',
          Array.from({ length: shape.from }, (_, i) => p(`from${i}`) as number),
        ),
    ),
    // The details JSON is changed in place by key, guarded by the subscription status it holds: one
    // statement, never the object as read written back. SQLite: json_set, json_remove. PostgreSQL:
    // the same change as jsonb, the keys set merged in and the removed ones taken out.
    subscription: byShape(db, (shape: { set: number; removed: number; from: number }, k, p: Placeholders<SubscriptionParams>, dialect) => {
      let details: RawBuilder<string>;
      if (dialect === 'postgres') {
        details = sql<string>`((details::jsonb || ${p('merged')}::jsonb) - ${p('removedKeys')}::text[])::text`;
      } else {
        details = sql<string>`details`;
        if (shape.set)
          details = sql<string>`json_set(${details}, ${sql.join(
            Array.from({ length: shape.set }, (_, i) => sql`${p(`path${i}`)}, json(${p(`value${i}`)})`),
          )})`;
        if (shape.removed)
          details = sql<string>`json_remove(${details}, ${sql.join(Array.from({ length: shape.removed }, (_, i) => p(`removed${i}`)))})`;
      }
      const status =
        dialect === 'postgres' ? sql`details::jsonb ->> 'subscription_status'` : sql`json_extract(details, '$.subscription_status')`;
      return k
        .updateTable('transactions')
        .set({ details, updated_at: p('now') as string })
        .where('id', '=', p('id') as string)
        .where(
          status,
          'in',
          Array.from({ length: shape.from }, (_, i) => p(`from${i}`)),
        );
    }),
  };

  return {
    async transition(id, from, change, now) {
      const fields = changeColumns.filter(([field]) => change[field] !== undefined);
      const params: TransitionParams = { now, id };
      for (const [field, column] of fields) params[column] = field === 'details' ? JSON.stringify(change.details) : change[field];
      from.forEach((status, i) => (params[`from${i}`] = status));
      const statement = s.transition({ columns: fields.map(([, column]) => column), from: from.length });
      return (await statement.run(params)).changes === 1;
    },
    async changeSubscription(id, from, change, now) {
      const entries = Object.entries(change).filter(([, value]) => value !== undefined);
      const set = entries.filter(([, value]) => value !== null);
      const removed = entries.filter(([, value]) => value === null);
      const params: SubscriptionParams = { now, id };
      from.forEach((status, i) => (params[`from${i}`] = status));
      if (db.dialect === 'postgres') {
        params.merged = JSON.stringify(Object.fromEntries(set));
        params.removedKeys = removed.map(([key]) => key);
        return (await s.subscription({ set: 0, removed: 0, from: from.length }).run(params)).changes === 1;
      }
      set.forEach(([key, value], i) => {
        params[`path${i}`] = `$.${key}`;
        params[`value${i}`] = JSON.stringify(value);
      });
      removed.forEach(([key], i) => (params[`removed${i}`] = `$.${key}`));
      return (await s.subscription({ set: set.length, removed: removed.length, from: from.length }).run(params)).changes === 1;
    },
    addCapture: async (id, amountMinor, statusCode, now) =>
      (await s.capture.run({ id, amount: amountMinor, status: statusCode, now })).changes === 1,
    addRefund: async (id, amountMinor, now) => (await s.refund.run({ id, amount: amountMinor, now })).changes === 1,
    addReversal: async (id, amountMinor, now) => (await s.reversal.run({ id, amount: amountMinor, now })).changes === 1,
  };
}

function refundFromRow(r: Selectable<Database['refunds']>): RefundRecord {
  return {
    id: r.id,
    transactionId: r.transaction_id,
    merchantId: r.merchant_id,
    amountMinor: r.amount_minor,
    statusCode: r.status_code,
    merchantRefundId: r.merchant_refund_id ?? null,
    merchantReference: r.merchant_reference ?? null,
    executionDate: r.execution_date ?? null,
    processorReference: r.processor_reference ?? null,
    createdAt: r.created_at,
  };
}

export function createPaymentRepositories(db: SqlDatabase): {
  refunds: RefundRepository;
  pinSecurity: PinSecurityRepository;
} {
  type Fingerprint = { merchantId: string; fingerprint: string };
  const s = {
    refundInsert: typed<Database['refunds']>()(db, (k, p) => k.insertInto('refunds').values(rowPlaces('refunds', p))),
    refundsByTransaction: typed<{ transactionId: string }>()(db, (k, p) =>
      k.selectFrom('refunds').selectAll().where('transaction_id', '=', p('transactionId')).orderBy('id'),
    ),
    pinFailure: typed<Fingerprint & { at: string }>()(db, (k, p) =>
      k.insertInto('pin_failures').values({ merchant_id: p('merchantId'), card_fingerprint: p('fingerprint'), failed_at: p('at') }),
    ),
    pinFailures: typed<Fingerprint & { since: string }>()(db, (k, p) =>
      k
        .selectFrom('pin_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('merchant_id', '=', p('merchantId'))
        .where('card_fingerprint', '=', p('fingerprint'))
        .where('failed_at', '>', p('since')),
    ),
    pinKey: typed<{ merchantId: string; zoneId: string; keyId: string }>()(db, (k, p) =>
      k
        .selectFrom('pin_keys')
        .select('key_sealed')
        .where('merchant_id', '=', p('merchantId'))
        .where('zone_id', '=', p('zoneId'))
        .where('key_id', '=', p('keyId')),
    ),
  };
  return {
    refunds: {
      insert: async (r) =>
        void (await s.refundInsert.run({
          id: r.id,
          transaction_id: r.transactionId,
          merchant_id: r.merchantId,
          amount_minor: r.amountMinor,
          status_code: r.statusCode,
          merchant_refund_id: r.merchantRefundId ?? null,
          merchant_reference: r.merchantReference ?? null,
          execution_date: r.executionDate ?? null,
          processor_reference: r.processorReference ?? null,
          created_at: r.createdAt,
        })),
      listByTransaction: async (transactionId) => (await s.refundsByTransaction.all({ transactionId })).map(refundFromRow),
    },
    pinSecurity: {
      recordFailure: async (merchantId, fingerprint, at) => void (await s.pinFailure.run({ merchantId, fingerprint, at })),
      failuresSince: async (merchantId, fingerprint, since) => (await s.pinFailures.get({ merchantId, fingerprint, since }))?.n ?? 0,
      findKey: async (merchantId, zoneId, keyId) => (await s.pinKey.get({ merchantId, zoneId, keyId }))?.key_sealed,
    },
  };
}
