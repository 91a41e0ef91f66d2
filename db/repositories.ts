/**
 * better-sqlite3 implementations of the core's repository ports. Statements are prepared once;
 * methods are async to satisfy the ports but resolve synchronously (see sqlite-store.ts).
 */
import type Database from 'better-sqlite3';
import { createPaymentRepositories, createTransactionMovements } from './payment-repositories.js';
import { createOutboxDelivery } from './postback-repositories.js';
import { createStaffRepository } from './staff-repositories.js';
import { createDayReportRepository } from './day-report-repositories.js';
import { createCheckoutRepository } from './checkout-repositories.js';
import { createNetworkTokenRepository } from './network-token-repositories.js';
import { createTillAttemptRepository } from './till-repositories.js';
import { createReceiptRepository } from './receipt-repositories.js';
import { createInvoiceRepository } from './invoice-repositories.js';
import { createEmailRepository } from './email-repositories.js';
import { createDashboardRepository } from './dashboard-repositories.js';
import type {
  ChannelRecord,
  CredentialRecord,
  EventRecord,
  IdempotencyRecord,
  MandateRecord,
  MerchantRecord,
  OutboxRecord,
  Repositories,
  TransactionFilter,
  TransactionRecord,
} from '../main/core/ports.js';

type Row = Record<string, unknown>;

const str = (v: unknown): string => v as string;
const optStr = (v: unknown): string | null => (v === null || v === undefined ? null : (v as string));

function merchantFromRow(r: Row): MerchantRecord {
  return {
    id: str(r.id),
    name: str(r.name),
    currency: str(r.currency),
    webhookKeySealed: str(r.webhook_key_sealed),
    previousWebhookKeySealed: optStr(r.previous_webhook_key_sealed),
    previousWebhookKeyUntil: optStr(r.previous_webhook_key_until),
    createdAt: str(r.created_at),
  };
}

function credentialFromRow(r: Row): CredentialRecord {
  return {
    id: str(r.id),
    merchantId: optStr(r.merchant_id),
    kind: r.kind as CredentialRecord['kind'],
    apiKey: str(r.api_key),
    passwordHash: str(r.password_hash),
    createdAt: str(r.created_at),
    revokedAt: optStr(r.revoked_at),
  };
}

function channelFromRow(r: Row): ChannelRecord {
  return {
    id: str(r.id),
    merchantId: str(r.merchant_id),
    urlName: str(r.url_name),
    name: str(r.name),
    currency: str(r.currency),
    language: r.language as ChannelRecord['language'],
    senderEmail: optStr(r.sender_email),
    createdAt: str(r.created_at),
    ...(typeof r.public_id === 'number' ? { publicId: r.public_id } : {}),
  };
}

function mandateFromRow(r: Row): MandateRecord {
  return {
    id: str(r.id),
    merchantId: str(r.merchant_id),
    reference: str(r.reference),
    paymentType: r.payment_type as MandateRecord['paymentType'],
    recurring: r.recurring === 1,
    firstName: optStr(r.first_name),
    lastName: optStr(r.last_name),
    accountHolder: str(r.account_holder),
    ibanSealed: str(r.iban_sealed),
    ibanLastFour: str(r.iban_last_four),
    bic: optStr(r.bic),
    email: optStr(r.email),
    mandateDate: str(r.mandate_date),
    createdAt: str(r.created_at),
  };
}

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
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
  ['expiresAt', 'expires_at'],
] as const satisfies ReadonlyArray<readonly [keyof TransactionRecord, string]>;

export function transactionToRow(t: TransactionRecord): Row {
  const row: Row = {};
  for (const [field, column] of transactionColumns) row[column] = t[field];
  row.details = JSON.stringify(t.details);
  return row;
}

function transactionFromRow(r: Row): TransactionRecord {
  const t: Record<string, unknown> = {};
  for (const [field, column] of transactionColumns) t[field] = r[column] ?? null;
  t.details = JSON.parse(str(r.details)) as Record<string, unknown>;
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

/** The WHERE clause and parameters of a transaction list query; exported for query-plan tests. */
export function transactionListSql(merchantId: string, filter: TransactionFilter): { sql: string; params: unknown[] } {
  const where = ['merchant_id = ?'];
  const params: unknown[] = [merchantId];
  if (filter.orderId !== undefined) {
    where.push('order_id = ?');
    params.push(filter.orderId);
  }
  if (filter.currency !== undefined) {
    where.push('currency = ?');
    params.push(filter.currency);
  }
  if (filter.statusCodes?.length) {
    where.push(`status_code IN (${filter.statusCodes.map(() => '?').join(', ')})`);
    params.push(...filter.statusCodes);
  }
  if (filter.from !== undefined) {
    where.push('created_at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push('created_at <= ?');
    params.push(filter.to);
  }
  params.push(filter.limit, filter.offset);
  // An order has one or a few transactions, but without statistics SQLite rates an order_id
  // equality no better than a currency or status one (or a date range) and may walk a year of
  // history instead: with an order id the order index is the plan (measured at 1M rows: up to
  // 0.5 s otherwise). INDEXED BY also makes the query fail loudly should the index go away.
  const source = filter.orderId !== undefined ? 'transactions INDEXED BY transactions_merchant_order' : 'transactions';
  return {
    sql: `SELECT * FROM ${source} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    params,
  };
}

export function createRepositories(db: Database.Database): Repositories {
  const s = {
    merchantInsert: db.prepare(
      `INSERT INTO merchants (id, name, currency, webhook_key_sealed, previous_webhook_key_sealed, previous_webhook_key_until, created_at)
       VALUES (@id, @name, @currency, @webhookKeySealed, @previousWebhookKeySealed, @previousWebhookKeyUntil, @createdAt)`,
    ),
    merchantGet: db.prepare('SELECT * FROM merchants WHERE id = ?'),
    merchantRotate: db.prepare(
      'UPDATE merchants SET webhook_key_sealed = ?, previous_webhook_key_sealed = ?, previous_webhook_key_until = ? WHERE id = ?',
    ),
    merchantList: db.prepare('SELECT * FROM merchants ORDER BY created_at, id'),
    credentialInsert: db.prepare(
      `INSERT INTO credentials (id, merchant_id, kind, api_key, password_hash, created_at, revoked_at)
       VALUES (@id, @merchantId, @kind, @apiKey, @passwordHash, @createdAt, @revokedAt)`,
    ),
    credentialByKey: db.prepare('SELECT * FROM credentials WHERE api_key = ? AND revoked_at IS NULL'),
    channelInsert: db.prepare(
      `INSERT INTO channels (id, merchant_id, url_name, name, currency, language, sender_email, created_at)
       VALUES (@id, @merchantId, @urlName, @name, @currency, @language, @senderEmail, @createdAt)`,
    ),
    channelByUrlName: db.prepare('SELECT * FROM channels WHERE url_name = ?'),
    channelsByMerchant: db.prepare('SELECT * FROM channels WHERE merchant_id = ? ORDER BY created_at, id'),
    idempotencyFind: db.prepare('SELECT * FROM idempotency_keys WHERE merchant_id = ? AND key = ? AND expires_at > ?'),
    idempotencySave: db.prepare(
      `INSERT OR REPLACE INTO idempotency_keys (merchant_id, key, fingerprint, status, body, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    idempotencyPurge: db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?'),
    mandateInsert: db.prepare(
      `INSERT INTO mandates (id, merchant_id, reference, payment_type, recurring, first_name, last_name, account_holder,
         iban_sealed, iban_last_four, bic, email, mandate_date, created_at)
       VALUES (@id, @merchantId, @reference, @paymentType, @recurring, @firstName, @lastName, @accountHolder,
         @ibanSealed, @ibanLastFour, @bic, @email, @mandateDate, @createdAt)`,
    ),
    mandateByReference: db.prepare('SELECT * FROM mandates WHERE merchant_id = ? AND reference = ?'),
    transactionInsert: db.prepare(
      `INSERT INTO transactions (${transactionColumns.map(([, c]) => c).join(', ')})
       VALUES (${transactionColumns.map(([, c]) => `@${c}`).join(', ')})`,
    ),
    transactionGet: db.prepare('SELECT * FROM transactions WHERE merchant_id = ? AND id = ?'),
    transactionGetById: db.prepare('SELECT * FROM transactions WHERE id = ?'),
    transactionLatestForOrder: db.prepare(
      'SELECT * FROM transactions WHERE merchant_id = ? AND order_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    ),
    eventInsert: db.prepare(
      `INSERT INTO transaction_events (id, transaction_id, type, status, amount_minor, execution_date, message, created_at)
       VALUES (@id, @transactionId, @type, @status, @amountMinor, @executionDate, @message, @createdAt)`,
    ),
    eventsByTransaction: db.prepare('SELECT * FROM transaction_events WHERE transaction_id = ? ORDER BY id'),
    outboxInsert: db.prepare(
      `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
       VALUES (@id, @merchantId, @subjectType, @subjectId, @sequence, @url, @payload, @state, @attempts, @nextAttemptAt, @createdAt)`,
    ),
    outboxNextSequence: db.prepare(
      'SELECT COALESCE(MAX(sequence), 0) + 1 AS next FROM postback_outbox WHERE subject_type = ? AND subject_id = ?',
    ),
  };
  const listStatements = new Map<string, Database.Statement>();

  return {
    merchants: {
      insert: async (m) => void s.merchantInsert.run(m),
      rotateWebhookKey: async (id, sealed, previousSealed, previousUntil) => void s.merchantRotate.run(sealed, previousSealed, previousUntil, id),
      get: async (id) => {
        const row = s.merchantGet.get(id) as Row | undefined;
        return row && merchantFromRow(row);
      },
      list: async () => (s.merchantList.all() as Row[]).map(merchantFromRow),
    },
    credentials: {
      insert: async (c) => void s.credentialInsert.run(c),
      findActiveByApiKey: async (apiKey) => {
        const row = s.credentialByKey.get(apiKey) as Row | undefined;
        return row && credentialFromRow(row);
      },
    },
    channels: {
      insert: async (c) => void s.channelInsert.run(c),
      findByUrlName: async (urlName) => {
        const row = s.channelByUrlName.get(urlName) as Row | undefined;
        return row && channelFromRow(row);
      },
      listByMerchant: async (merchantId) => (s.channelsByMerchant.all(merchantId) as Row[]).map(channelFromRow),
    },
    idempotency: {
      find: async (merchantId, key, now): Promise<IdempotencyRecord | undefined> => {
        const row = s.idempotencyFind.get(merchantId, key, now) as Row | undefined;
        if (!row) return undefined;
        return {
          merchantId: str(row.merchant_id),
          key: str(row.key),
          fingerprint: str(row.fingerprint),
          reply: { status: row.status as number, body: JSON.parse(str(row.body)) as unknown },
          createdAt: str(row.created_at),
          expiresAt: str(row.expires_at),
        };
      },
      save: async (r) =>
        void s.idempotencySave.run(r.merchantId, r.key, r.fingerprint, r.reply.status, JSON.stringify(r.reply.body), r.createdAt, r.expiresAt),
      deleteExpired: async (now) => s.idempotencyPurge.run(now).changes,
    },
    mandates: {
      insert: async (m: MandateRecord) => void s.mandateInsert.run({ ...m, recurring: m.recurring ? 1 : 0 }),
      findByReference: async (merchantId, reference) => {
        const row = s.mandateByReference.get(merchantId, reference) as Row | undefined;
        return row && mandateFromRow(row);
      },
    },
    transactions: {
      insert: async (t) => void s.transactionInsert.run(transactionToRow(t)),
      get: async (merchantId, id) => {
        const row = s.transactionGet.get(merchantId, id) as Row | undefined;
        return row && transactionFromRow(row);
      },
      list: async (merchantId, filter) => {
        const { sql, params } = transactionListSql(merchantId, filter);
        let statement = listStatements.get(sql);
        if (!statement) {
          statement = db.prepare(sql);
          listStatements.set(sql, statement);
        }
        return (statement.all(...params) as Row[]).map(transactionFromRow);
      },
      getById: async (id) => {
        const row = s.transactionGetById.get(id) as Row | undefined;
        return row && transactionFromRow(row);
      },
      latestForOrder: async (merchantId, orderId) => {
        const row = s.transactionLatestForOrder.get(merchantId, orderId) as Row | undefined;
        return row && transactionFromRow(row);
      },
      ...createTransactionMovements(db),
    },
    events: {
      append: async (e) => void s.eventInsert.run(e),
      listByTransaction: async (transactionId) => (s.eventsByTransaction.all(transactionId) as Row[]).map(eventFromRow),
    },
    outbox: {
      append: async (o: OutboxRecord) => void s.outboxInsert.run({ ...o, payload: JSON.stringify(o.payload) }),
      nextSequence: async (subjectType, subjectId) => (s.outboxNextSequence.get(subjectType, subjectId) as { next: number }).next,
      ...createOutboxDelivery(db),
    },
    ...createPaymentRepositories(db),
    staff: createStaffRepository(db),
    dayReports: createDayReportRepository(db),
    checkouts: createCheckoutRepository(db),
    invoices: createInvoiceRepository(db),
    emails: createEmailRepository(db),
    networkTokens: createNetworkTokenRepository(db),
    tillAttempts: createTillAttemptRepository(db),
    receipts: createReceiptRepository(db),
    dashboard: createDashboardRepository(db),
  };
}
