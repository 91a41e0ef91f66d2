/**
 * Transactions and their events: rows, list queries (one index per filter), inserts. Statements
 * built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts (db/payments/tables.ts), except
 * the list queries (below).
 */
import { sql, type Insertable, type Selectable } from 'kysely';
import { OTHER_TERMINALS_BOOK } from '../../contract/constants.js';
import { preparedOnce, type Dialect, type SqlDatabase } from '../sql.js';
import type { Row } from '../rows.js';
import type { Database } from '../schema.js';
import { typed } from '../typed-sql.js';
import { createTransactionMovements } from './repositories.js';
import { AMOUNT_SCALED_SQL } from '../migrations/0016-transaction-search.js';
import { branchCountSql, branchPageSql, compare, inList, term, written, type Branch, type Term, type WrittenSql } from '../list-filter.js';
import type {
  EventRecord,
  PaymentsUnit,
  TransactionDetails,
  TransactionFilter,
  TransactionRecord,
} from '../../main/core/payments/ports.js';

/** Field-to-column layout of the transactions table (exported for bench/seed.ts). */
export const transactionColumns = [
  ['id', 'id'],
  ['merchantId', 'merchant_id'],
  ['paymentType', 'payment_type'],
  ['operation', 'operation'],
  ['statusCode', 'status_code'],
  ['orderId', 'order_id'],
  ['currency', 'currency'],
  ['amountMinor', 'amount_minor'],
  ['authorizedMinor', 'authorized_minor'],
  ['capturedMinor', 'captured_minor'],
  ['refundedMinor', 'refunded_minor'],
  ['reversedMinor', 'reversed_minor'],
  ['feesMinor', 'fees_minor'],
  ['recurring', 'recurring'],
  ['parentId', 'parent_id'],
  ['sepaMandate', 'sepa_mandate'],
  ['sepaMsgId', 'sepa_msg_id'],
  ['message', 'message'],
  ['reasonCode', 'reason_code'],
  ['additionalTransactionData', 'additional_transaction_data'],
  ['merchantReference', 'merchant_reference'],
  ['postbackUrl', 'postback_url'],
  ['successUrl', 'success_url'],
  ['errorUrl', 'error_url'],
  ['cardBrand', 'card_brand'],
  ['cardLastFour', 'card_last_four'],
  ['cardBin', 'card_bin'],
  ['cardExpiryMonth', 'card_expiry_month'],
  ['cardExpiryYear', 'card_expiry_year'],
  ['cardSealed', 'card_sealed'],
  ['cardFingerprint', 'card_fingerprint'],
  ['details', 'details'],
  ['invoiceNumber', 'invoice_number'],
  ['tillId', 'till_id'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
  ['expiresAt', 'expires_at'],
] as const satisfies ReadonlyArray<readonly [keyof TransactionRecord, string]>;

type TransactionRow = Database['transactions'];
type EventRow = Database['transaction_events'];

/** A transaction's row; a field left undefined is NULL (as better-sqlite3 binds undefined). */
export function transactionToRow(t: TransactionRecord): TransactionRow {
  const row: Row = {};
  for (const [field, column] of transactionColumns) row[column] = t[field] ?? null;
  row.details = JSON.stringify(t.details);
  // Who took the sale, from the details, in a column of its own: the back office filters by it (migration 31).
  row.staff_id = t.details.staff_id ?? null;
  return row as TransactionRow;
}

function transactionFromRow(r: Selectable<TransactionRow>): TransactionRecord {
  const t: Record<string, unknown> = {};
  for (const [field, column] of transactionColumns) t[field] = r[column] ?? null;
  t.details = JSON.parse(r.details) as TransactionDetails;
  t.recurring = r.recurring === 1 ? 1 : 0;
  return t as unknown as TransactionRecord;
}

function eventToRow(e: EventRecord): EventRow {
  return {
    id: e.id,
    transaction_id: e.transactionId,
    type: e.type,
    status: e.status,
    amount_minor: e.amountMinor,
    execution_date: e.executionDate ?? null,
    message: e.message ?? null,
    created_at: e.createdAt,
  };
}

function eventFromRow(r: Selectable<EventRow>): EventRecord {
  return {
    id: r.id,
    transactionId: r.transaction_id,
    type: r.type,
    status: r.status,
    amountMinor: r.amount_minor,
    executionDate: r.execution_date ?? null,
    message: r.message ?? null,
    createdAt: r.created_at,
  };
}

/** An event's placeholders, by column with a suffix (one statement inserts two events). */
function eventValues<S extends '' | '0' | '1'>(
  place: (name: `${keyof EventRow & string}${S}`) => unknown,
  suffix: S,
): Insertable<EventRow> {
  const p = place as (name: `${keyof EventRow & string}${S}`) => never;
  return {
    id: p(`id${suffix}`),
    transaction_id: p(`transaction_id${suffix}`),
    type: p(`type${suffix}`),
    status: p(`status${suffix}`),
    amount_minor: p(`amount_minor${suffix}`),
    execution_date: p(`execution_date${suffix}`),
    message: p(`message${suffix}`),
    created_at: p(`created_at${suffix}`),
  };
}

type EventPair = { [K in keyof EventRow & string as `${K}0` | `${K}1`]: EventRow[K] };

/**
 * How to read the rows of a transaction list filter: one or more branches, each a table with its
 * index, a WHERE clause and its parameters, read in the list's order (created_at, id descending) from
 * its own index; several branches are merged (a UNION: a row that two match appears once).
 *
 * Without statistics SQLite rates an equality on a rare value (an order id, a card's last four, an
 * exact amount) no better than one on a status or a date range and may walk a year of history
 * instead: such a filter names its own index (measured at 1M rows: up to 0.5 s otherwise). INDEXED
 * BY also makes a query fail loudly should the index go away. An OR of rare values (the search box:
 * id, order id or last four) and a list of payment types become one branch per value, each reading
 * at most a page from its index, instead of one walk through the merchant's whole history.
 */
function transactionBranches(merchantId: string, filter: TransactionFilter, dialect: Dialect): Branch[] {
  const where: Term[] = [term`merchant_id = ${merchantId}`];
  if (filter.orderId !== undefined) where.push(term`order_id = ${filter.orderId}`);
  if (filter.cardLastFour !== undefined) where.push(term`card_last_four = ${filter.cardLastFour}`);
  // A till's sales; `*`: card-present sales of no till (other terminals).
  if (filter.tillId === OTHER_TERMINALS_BOOK) where.push(written("payment_type = 'cardpos' AND till_id IS NULL"));
  else if (filter.tillId !== undefined) where.push(term`till_id = ${filter.tillId}`);
  if (filter.staffId !== undefined) where.push(term`staff_id = ${filter.staffId}`);
  if (filter.currency !== undefined) where.push(term`currency = ${filter.currency}`);
  // Where the status list's term is, for one branch per status (PostgreSQL, below).
  const statusAt = where.length;
  if (filter.statusCodes?.length) where.push(inList('status_code', filter.statusCodes));
  const typeAt = where.length;
  const types = filter.paymentTypes ?? [];
  if (types.length) where.push(inList('payment_type', types));
  const amount = filter.amountScaled;
  if (amount?.exact !== undefined) where.push(compare(AMOUNT_SCALED_SQL, '=', amount.exact));
  // A range is checked on the rows the other filters read (unary +: not through the amount index,
  // which would read the whole range and sort it).
  if (amount?.min !== undefined) where.push(compare(`+${AMOUNT_SCALED_SQL}`, '>=', amount.min));
  if (amount?.max !== undefined) where.push(compare(`+${AMOUNT_SCALED_SQL}`, '<=', amount.max));
  if (filter.from !== undefined) where.push(term`created_at >= ${filter.from}`);
  // Keyset paging: a seek to the previous page's last row in the index, not a walk past the rows
  // before. Only the tighter of `to` and the keyset is given: with both, SQLite starts at `to`.
  const after = filter.after;
  if (after !== undefined && (filter.to === undefined || after.createdAt <= filter.to))
    where.push(term`(created_at, id) < (${after.createdAt}, ${after.id})`);
  else if (filter.to !== undefined) where.push(term`created_at <= ${filter.to}`);

  const branch = (index: string | undefined, terms: readonly Term[] = where): Branch => ({
    table: 'transactions',
    ...(index ? { index } : {}),
    where: terms,
  });
  if (filter.search !== undefined) {
    const { id, orderId, cardLastFour } = filter.search;
    const terms: Array<[Term, string | undefined]> = [];
    // The primary key answers an id by itself.
    if (id !== undefined) terms.push([term`id = ${id}`, undefined]);
    terms.push([term`order_id = ${orderId}`, 'transactions_merchant_order']);
    if (cardLastFour !== undefined) terms.push([term`card_last_four = ${cardLastFour}`, 'transactions_merchant_last_four']);
    if (filter.search.invoiceNumber !== undefined)
      terms.push([term`invoice_number = ${filter.search.invoiceNumber}`, 'transactions_merchant_invoice']);
    if (filter.search.tillId !== undefined) terms.push([term`till_id = ${filter.search.tillId}`, 'transactions_merchant_till']);
    // Another equality on the same index column (order_id or card_last_four also given) reads that
    // index the same way; the branch then needs no hint.
    const hinted =
      filter.orderId === undefined &&
      filter.cardLastFour === undefined &&
      amount?.exact === undefined &&
      filter.tillId === undefined &&
      filter.staffId === undefined;
    return terms.map(([searched, index]) => branch(hinted ? index : undefined, [...where, searched]));
  }
  if (filter.orderId !== undefined) return [branch('transactions_merchant_order')];
  if (filter.staffId !== undefined) return [branch('transactions_merchant_staff')];
  if (filter.tillId !== undefined && filter.tillId !== OTHER_TERMINALS_BOOK) return [branch('transactions_merchant_till')];
  if (filter.cardLastFour !== undefined) return [branch('transactions_merchant_last_four')];
  if (amount?.exact !== undefined) return [branch('transactions_merchant_amount')];
  if (types.length === 1) return [branch('transactions_merchant_type')];
  if (types.length > 1) {
    // One ordered read of the type index per payment type (it also holds status and currency).
    return types.map((type) =>
      branch(
        'transactions_merchant_type',
        where.map((t, i) => (i === typeAt ? term`payment_type = ${type}` : t)),
      ),
    );
  }
  const statuses = filter.statusCodes ?? [];
  if (dialect === 'postgres' && statuses.length > 1) {
    // PostgreSQL reads a list of statuses within a time range from the status index and sorts the
    // matches (measured at 1M rows: up to 9.6 ms). One ordered read of the status index per
    // status, merged in order, needs no sort and reads at most a page from each.
    return statuses.map((status) =>
      branch(
        undefined,
        where.map((t, i) => (i === statusAt ? term`status_code = ${status}` : t)),
      ),
    );
  }
  return [branch(undefined)];
}

/** The statement and values of a transaction list query (newest first) on `dialect`; exported for query-plan tests. */
export function transactionListSql(merchantId: string, filter: TransactionFilter, dialect: Dialect = 'sqlite'): WrittenSql {
  // Branches of a list of payment types or statuses cannot share a row: on PostgreSQL their UNION ALL
  // is merged in order (Merge Append), where a UNION would collect and sort them.
  const union = dialect === 'postgres' && filter.search === undefined ? ' UNION ALL ' : ' UNION ';
  return branchPageSql(dialect, transactionBranches(merchantId, filter, dialect), filter.limit, filter.offset, union);
}

/** The statement and values counting the rows of a transaction list filter (after `after`, if given). */
export function transactionCountSql(merchantId: string, filter: TransactionFilter, dialect: Dialect = 'sqlite'): WrittenSql {
  return branchCountSql(dialect, transactionBranches(merchantId, filter, dialect));
}

export function createTransactionRepositories(db: SqlDatabase): Pick<PaymentsUnit, 'transactions' | 'events'> {
  // Every statement here is built with Kysely and compiled once, here. The inserts are on the payment
  // hot path: a call only puts its values in order; they stay plain INSERTs (no RETURNING, no ON
  // CONFLICT), which PgSession sends without waiting for their answer.
  const s = {
    transactionInsert: typed<TransactionRow>()(db, (k, p) =>
      k
        .insertInto('transactions')
        .values(
          Object.fromEntries([
            ...transactionColumns.map(([, column]) => [column, p(column)]),
            ['staff_id', p('staff_id')],
          ]) as Insertable<TransactionRow>,
        ),
    ),
    transactionGet: typed<{ merchantId: string; id: string }>()(db, (k, p) =>
      k.selectFrom('transactions').selectAll().where('merchant_id', '=', p('merchantId')).where('id', '=', p('id')),
    ),
    transactionGetById: typed<{ id: string }>()(db, (k, p) => k.selectFrom('transactions').selectAll().where('id', '=', p('id'))),
    transactionLatestForOrder: typed<{ merchantId: string; orderId: string }>()(db, (k, p) =>
      k
        .selectFrom('transactions')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('order_id', '=', p('orderId'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(sql.lit(1)),
    ),
    transactionRecentForOrder: typed<{ merchantId: string; orderId: string; since: string }>()(db, (k, p) =>
      k
        .selectFrom('transactions')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('order_id', '=', p('orderId'))
        .where('created_at', '>=', p('since'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(sql.lit(20)),
    ),
    eventInsert: typed<EventRow>()(db, (k, p) => k.insertInto('transaction_events').values(eventValues(p, ''))),
    eventPairInsert: typed<EventPair>()(db, (k, p) =>
      k.insertInto('transaction_events').values([eventValues(p, '0'), eventValues(p, '1')]),
    ),
    eventsByTransaction: typed<{ transactionId: string }>()(db, (k, p) =>
      k.selectFrom('transaction_events').selectAll().where('transaction_id', '=', p('transactionId')).orderBy('id'),
    ),
  };
  // The list and count are written per engine (db/list-filter.ts: SQLite's INDEXED BY hints), one
  // statement per text, prepared on its first use.
  const listStatement = preparedOnce(db);

  return {
    transactions: {
      insert: async (t) => void (await s.transactionInsert.run(transactionToRow(t))),
      get: async (merchantId, id) => {
        const row = await s.transactionGet.get({ merchantId, id });
        return row && transactionFromRow(row);
      },
      list: async (merchantId, filter) => {
        const { statement, params } = transactionListSql(merchantId, filter, db.dialect);
        return ((await listStatement(statement).all(...params)) as Array<Selectable<TransactionRow>>).map(transactionFromRow);
      },
      count: async (merchantId, filter) => {
        const { statement, params } = transactionCountSql(merchantId, filter, db.dialect);
        return ((await listStatement(statement).get(...params)) as { n: number }).n;
      },
      getById: async (id) => {
        const row = await s.transactionGetById.get({ id });
        return row && transactionFromRow(row);
      },
      recentForOrder: async (merchantId, orderId, since) =>
        (await s.transactionRecentForOrder.all({ merchantId, orderId, since })).map(transactionFromRow),
      latestForOrder: async (merchantId, orderId) => {
        const row = await s.transactionLatestForOrder.get({ merchantId, orderId });
        return row && transactionFromRow(row);
      },
      ...createTransactionMovements(db),
    },
    events: {
      append: async (e) => void (await s.eventInsert.run(eventToRow(e))),
      appendPair: async (a, b) =>
        void (await s.eventPairInsert.run({
          id0: a.id,
          transaction_id0: a.transactionId,
          type0: a.type,
          status0: a.status,
          amount_minor0: a.amountMinor,
          execution_date0: a.executionDate ?? null,
          message0: a.message ?? null,
          created_at0: a.createdAt,
          id1: b.id,
          transaction_id1: b.transactionId,
          type1: b.type,
          status1: b.status,
          amount_minor1: b.amountMinor,
          execution_date1: b.executionDate ?? null,
          message1: b.message ?? null,
          created_at1: b.createdAt,
        })),
      listByTransaction: async (transactionId) => (await s.eventsByTransaction.all({ transactionId })).map(eventFromRow),
    },
  };
}
