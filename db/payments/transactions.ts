/** Transactions and their events: rows, list queries (one index per filter), inserts. */
import { OTHER_TERMINALS_BOOK } from '../../contract/constants.js';
import { preparedOnce, type Dialect, type SqlDatabase } from '../sql.js';
import { optStr, str, type Row } from '../rows.js';
import { createTransactionMovements } from './repositories.js';
import { AMOUNT_SCALED_SQL } from '../migrations/0016-transaction-search.js';
import { branchCountSql, branchPageSql, type Branch } from '../list-filter.js';
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

export function transactionToRow(t: TransactionRecord): Row {
  const row: Row = {};
  for (const [field, column] of transactionColumns) row[column] = t[field];
  row.details = JSON.stringify(t.details);
  // Who took the sale, from the details, in a column of its own: the back office filters by it (migration 31).
  row.staff_id = t.details.staff_id ?? null;
  return row;
}

function transactionFromRow(r: Row): TransactionRecord {
  const t: Record<string, unknown> = {};
  for (const [field, column] of transactionColumns) t[field] = r[column] ?? null;
  t.details = JSON.parse(str(r.details)) as TransactionDetails;
  t.recurring = r.recurring === 1 ? 1 : 0;
  return t as unknown as TransactionRecord;
}

function eventFromRow(r: Row): EventRecord {
  return {
    id: str(r.id),
    transactionId: str(r.transaction_id),
    type: str(r.type),
    status: r.status as number,
    amountMinor: r.amount_minor as number,
    executionDate: optStr(r.execution_date),
    message: optStr(r.message),
    createdAt: str(r.created_at),
  };
}

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
function transactionBranches(merchantId: string, filter: TransactionFilter, dialect: Dialect = 'sqlite'): Branch[] {
  const where = ['merchant_id = ?'];
  const params: unknown[] = [merchantId];
  const add = (term: string, ...values: unknown[]) => {
    where.push(term);
    params.push(...values);
  };
  if (filter.orderId !== undefined) add('order_id = ?', filter.orderId);
  if (filter.cardLastFour !== undefined) add('card_last_four = ?', filter.cardLastFour);
  // A till's sales; `*`: card-present sales of no till (other terminals).
  if (filter.tillId === OTHER_TERMINALS_BOOK) add("payment_type = 'cardpos' AND till_id IS NULL");
  else if (filter.tillId !== undefined) add('till_id = ?', filter.tillId);
  if (filter.staffId !== undefined) add('staff_id = ?', filter.staffId);
  if (filter.currency !== undefined) add('currency = ?', filter.currency);
  // Where the status list's term and values are, for one branch per status (PostgreSQL, below).
  const statusAt = { term: where.length, param: params.length };
  if (filter.statusCodes?.length) add(`status_code IN (${filter.statusCodes.map(() => '?').join(', ')})`, ...filter.statusCodes);
  const types = filter.paymentTypes ?? [];
  if (types.length) add(`payment_type IN (${types.map(() => '?').join(', ')})`, ...types);
  const amount = filter.amountScaled;
  if (amount?.exact !== undefined) add(`${AMOUNT_SCALED_SQL} = ?`, amount.exact);
  // A range is checked on the rows the other filters read (unary +: not through the amount index,
  // which would read the whole range and sort it).
  if (amount?.min !== undefined) add(`+${AMOUNT_SCALED_SQL} >= ?`, amount.min);
  if (amount?.max !== undefined) add(`+${AMOUNT_SCALED_SQL} <= ?`, amount.max);
  if (filter.from !== undefined) add('created_at >= ?', filter.from);
  // Keyset paging: a seek to the previous page's last row in the index, not a walk past the rows
  // before. Only the tighter of `to` and the keyset is given: with both, SQLite starts at `to`.
  const after = filter.after;
  if (after !== undefined && (filter.to === undefined || after.createdAt <= filter.to))
    add('(created_at, id) < (?, ?)', after.createdAt, after.id);
  else if (filter.to !== undefined) add('created_at <= ?', filter.to);

  const indexed = (index: string | undefined) => (index ? `transactions INDEXED BY ${index}` : 'transactions');
  if (filter.search !== undefined) {
    const { id, orderId, cardLastFour } = filter.search;
    const terms: Array<[string, string, string | undefined]> = [];
    // The primary key answers an id by itself.
    if (id !== undefined) terms.push(['id = ?', id, undefined]);
    terms.push(['order_id = ?', orderId, 'transactions_merchant_order']);
    if (cardLastFour !== undefined) terms.push(['card_last_four = ?', cardLastFour, 'transactions_merchant_last_four']);
    if (filter.search.invoiceNumber !== undefined)
      terms.push(['invoice_number = ?', filter.search.invoiceNumber, 'transactions_merchant_invoice']);
    if (filter.search.tillId !== undefined) terms.push(['till_id = ?', filter.search.tillId, 'transactions_merchant_till']);
    // Another equality on the same index column (order_id or card_last_four also given) reads that
    // index the same way; the branch then needs no hint.
    return terms.map(([term, value, index]) => ({
      source: indexed(
        filter.orderId !== undefined ||
          filter.cardLastFour !== undefined ||
          amount?.exact !== undefined ||
          filter.tillId !== undefined ||
          filter.staffId !== undefined
          ? undefined
          : index,
      ),
      where: [...where, term],
      params: [...params, value],
    }));
  }
  if (filter.orderId !== undefined) return [{ source: indexed('transactions_merchant_order'), where, params }];
  if (filter.staffId !== undefined) return [{ source: indexed('transactions_merchant_staff'), where, params }];
  if (filter.tillId !== undefined && filter.tillId !== OTHER_TERMINALS_BOOK)
    return [{ source: indexed('transactions_merchant_till'), where, params }];
  if (filter.cardLastFour !== undefined) return [{ source: indexed('transactions_merchant_last_four'), where, params }];
  if (amount?.exact !== undefined) return [{ source: indexed('transactions_merchant_amount'), where, params }];
  if (types.length === 1) return [{ source: indexed('transactions_merchant_type'), where, params }];
  if (types.length > 1) {
    // One ordered read of the type index per payment type (it also holds status and currency).
    const typeTerm = where.findIndex((term) => term.startsWith('payment_type IN'));
    const typeParams = params.indexOf(types[0]);
    return types.map((type) => ({
      source: indexed('transactions_merchant_type'),
      where: where.map((term, i) => (i === typeTerm ? 'payment_type = ?' : term)),
      params: [...params.slice(0, typeParams), type, ...params.slice(typeParams + types.length)],
    }));
  }
  const statuses = filter.statusCodes ?? [];
  if (dialect === 'postgres' && statuses.length > 1) {
    // PostgreSQL reads a list of statuses within a time range from the status index and sorts the
    // matches (measured at 1M rows: up to 9.6 ms). One ordered read of the status index per
    // status, merged in order, needs no sort and reads at most a page from each.
    return statuses.map((status) => ({
      source: 'transactions',
      where: where.map((term, i) => (i === statusAt.term ? 'status_code = ?' : term)),
      params: [...params.slice(0, statusAt.param), status, ...params.slice(statusAt.param + statuses.length)],
    }));
  }
  return [{ source: 'transactions', where, params }];
}

/** The SQL and parameters of a transaction list query (newest first); exported for query-plan tests. */
export function transactionListSql(
  merchantId: string,
  filter: TransactionFilter,
  dialect: Dialect = 'sqlite',
): { sql: string; params: unknown[] } {
  // Branches of a list of payment types or statuses cannot share a row: on PostgreSQL their UNION ALL
  // is merged in order (Merge Append), where a UNION would collect and sort them.
  const union = dialect === 'postgres' && filter.search === undefined ? ' UNION ALL ' : ' UNION ';
  return branchPageSql(transactionBranches(merchantId, filter, dialect), filter.limit, filter.offset, union);
}

/** The SQL and parameters counting the rows of a transaction list filter (after `after`, if given). */
export function transactionCountSql(merchantId: string, filter: TransactionFilter): { sql: string; params: unknown[] } {
  return branchCountSql(transactionBranches(merchantId, filter));
}

export function createTransactionRepositories(db: SqlDatabase): Pick<PaymentsUnit, 'transactions' | 'events'> {
  const s = {
    transactionInsert: db.prepare(
      `INSERT INTO transactions (${transactionColumns.map(([, c]) => c).join(', ')}, staff_id)
       VALUES (${transactionColumns.map(([, c]) => `@${c}`).join(', ')}, @staff_id)`,
    ),
    transactionGet: db.prepare('SELECT * FROM transactions WHERE merchant_id = ? AND id = ?'),
    transactionGetById: db.prepare('SELECT * FROM transactions WHERE id = ?'),
    transactionLatestForOrder: db.prepare(
      'SELECT * FROM transactions WHERE merchant_id = ? AND order_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    ),
    transactionRecentForOrder: db.prepare(
      'SELECT * FROM transactions WHERE merchant_id = ? AND order_id = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT 20',
    ),
    eventInsert: db.prepare(
      `INSERT INTO transaction_events (id, transaction_id, type, status, amount_minor, execution_date, message, created_at)
       VALUES (@id, @transactionId, @type, @status, @amountMinor, @executionDate, @message, @createdAt)`,
    ),
    eventPairInsert: db.prepare(
      `INSERT INTO transaction_events (id, transaction_id, type, status, amount_minor, execution_date, message, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    eventsByTransaction: db.prepare('SELECT * FROM transaction_events WHERE transaction_id = ? ORDER BY id'),
  };
  const listStatement = preparedOnce(db);

  return {
    transactions: {
      insert: async (t) => void (await s.transactionInsert.run(transactionToRow(t))),
      get: async (merchantId, id) => {
        const row = (await s.transactionGet.get(merchantId, id)) as Row | undefined;
        return row && transactionFromRow(row);
      },
      list: async (merchantId, filter) => {
        const { sql, params } = transactionListSql(merchantId, filter, db.dialect);
        return ((await listStatement(sql).all(...params)) as Row[]).map(transactionFromRow);
      },
      count: async (merchantId, filter) => {
        const { sql, params } = transactionCountSql(merchantId, filter);
        return ((await listStatement(sql).get(...params)) as { n: number }).n;
      },
      getById: async (id) => {
        const row = (await s.transactionGetById.get(id)) as Row | undefined;
        return row && transactionFromRow(row);
      },
      recentForOrder: async (merchantId, orderId, since) =>
        ((await s.transactionRecentForOrder.all(merchantId, orderId, since)) as Row[]).map(transactionFromRow),
      latestForOrder: async (merchantId, orderId) => {
        const row = (await s.transactionLatestForOrder.get(merchantId, orderId)) as Row | undefined;
        return row && transactionFromRow(row);
      },
      ...createTransactionMovements(db),
    },
    events: {
      append: async (e) => void (await s.eventInsert.run(e)),
      appendPair: async (a, b) =>
        void (await s.eventPairInsert.run(
          ...[a, b].flatMap((e) => [e.id, e.transactionId, e.type, e.status, e.amountMinor, e.executionDate, e.message, e.createdAt]),
        )),
      listByTransaction: async (transactionId) => ((await s.eventsByTransaction.all(transactionId)) as Row[]).map(eventFromRow),
    },
  };
}
