/**
 * better-sqlite3 implementations of the core's repository ports. Statements are prepared once;
 * methods are async to satisfy the ports but resolve synchronously (see sqlite-store.ts).
 */
import { preparedOnce, type Dialect, type SqlDatabase } from './sql.js';
import { createPaymentRepositories, createTransactionMovements } from './payments/repositories.js';
import { createOutboxDelivery } from './postbacks/repositories.js';
import { createStaffRepository } from './staff/repositories.js';
import { createAuthFailureRepository } from './merchants/auth-failures.js';
import { createDayReportRepository } from './reports/repositories.js';
import { createCheckoutRepository } from './checkouts/repositories.js';
import { createNetworkTokenRepository } from './network-tokens/repositories.js';
import { createInstanceRepository, createTillRepository } from './tills/repositories.js';
import { createTillAttemptRepository } from './till/repositories.js';
import { createCentreRepository, createTillJournalRepository } from './centre/repositories.js';
import { createReceiptRepository } from './receipts/repositories.js';
import { createInvoiceRepository } from './invoices/repositories.js';
import { createEmailRepository } from './mail/repositories.js';
import { AMOUNT_SCALED_SQL } from './migrations/0016-transaction-search.js';
import { branchCountSql, branchPageSql, type Branch } from './list-filter.js';
import { createDashboardRepository } from './dashboard/repositories.js';
import { createMerchantManagementRepositories } from './merchants/management.js';
import type { ChannelRecord, CredentialRecord, MerchantRecord } from '../main/core/merchants/ports.js';
import type { EventRecord, TransactionDetails, TransactionFilter, TransactionRecord } from '../main/core/payments/ports.js';
import type { IdempotencyRecord } from '../main/core/idempotency/ports.js';
import type { Answer } from '../main/core/errors.js';
import { answerKindOf, httpStatusOfAnswer } from '../contract/codes.js';
import type { MandateRecord } from '../main/core/mandates/ports.js';
import type { NewOutboxRecord } from '../main/core/postbacks/ports.js';
import type { Repositories } from '../main/core/unit-of-work.js';
import type { SmtpSettingsRecord } from '../main/core/mail/ports.js';

type Row = Record<string, unknown>;

const str = (v: unknown): string => v as string;
const optStr = (v: unknown): string | null => (v === null || v === undefined ? null : (v as string));

/**
 * An idempotency record's answer in its columns: `status` keeps the HTTP status the answer is given
 * with (what it held before answers had kinds, so rows of either version read back alike), 0 for
 * an older version's claim, which has no answer.
 */
function answerFromRow(status: number, body: unknown): Answer | null {
  return status === 0 ? null : { kind: answerKindOf(status), body };
}

function statusOfAnswer(answer: Answer | null): number {
  return answer ? httpStatusOfAnswer(answer.kind, answer.body) : 0;
}

function merchantFromRow(r: Row): MerchantRecord {
  return {
    id: str(r.id),
    name: str(r.name),
    currency: str(r.currency),
    webhookKeySealed: str(r.webhook_key_sealed),
    previousWebhookKeySealed: optStr(r.previous_webhook_key_sealed),
    previousWebhookKeyUntil: optStr(r.previous_webhook_key_until),
    createdAt: str(r.created_at),
    partnerId: optStr(r.partner_id),
    language: (r.language as MerchantRecord['language'] | undefined) ?? 'en',
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
    partnerId: optStr(r.partner_id),
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
  ['invoiceNumber', 'invoice_number'],
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
  if (after !== undefined && (filter.to === undefined || after.createdAt <= filter.to)) add('(created_at, id) < (?, ?)', after.createdAt, after.id);
  else if (filter.to !== undefined) add('created_at <= ?', filter.to);

  const indexed = (index: string | undefined) => (index ? `transactions INDEXED BY ${index}` : 'transactions');
  if (filter.search !== undefined) {
    const { id, orderId, cardLastFour } = filter.search;
    const terms: Array<[string, string, string | undefined]> = [];
    // The primary key answers an id by itself.
    if (id !== undefined) terms.push(['id = ?', id, undefined]);
    terms.push(['order_id = ?', orderId, 'transactions_merchant_order']);
    if (cardLastFour !== undefined) terms.push(['card_last_four = ?', cardLastFour, 'transactions_merchant_last_four']);
    if (filter.search.invoiceNumber !== undefined) terms.push(['invoice_number = ?', filter.search.invoiceNumber, 'transactions_merchant_invoice']);
    // Another equality on the same index column (order_id or card_last_four also given) reads that
    // index the same way; the branch then needs no hint.
    return terms.map(([term, value, index]) => ({
      source: indexed(filter.orderId !== undefined || filter.cardLastFour !== undefined || amount?.exact !== undefined ? undefined : index),
      where: [...where, term],
      params: [...params, value],
    }));
  }
  if (filter.orderId !== undefined) return [{ source: indexed('transactions_merchant_order'), where, params }];
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
export function transactionListSql(merchantId: string, filter: TransactionFilter, dialect: Dialect = 'sqlite'): { sql: string; params: unknown[] } {
  // Branches of a list of payment types or statuses cannot share a row: on PostgreSQL their UNION ALL
  // is merged in order (Merge Append), where a UNION would collect and sort them.
  const union = dialect === 'postgres' && filter.search === undefined ? ' UNION ALL ' : ' UNION ';
  return branchPageSql(transactionBranches(merchantId, filter, dialect), filter.limit, filter.offset, union);
}

/** The SQL and parameters counting the rows of a transaction list filter (after `after`, if given). */
export function transactionCountSql(merchantId: string, filter: TransactionFilter): { sql: string; params: unknown[] } {
  return branchCountSql(transactionBranches(merchantId, filter));
}

export function createRepositories(db: SqlDatabase): Repositories {
  const s = {
    merchantInsert: db.prepare(
      `INSERT INTO merchants (id, name, currency, webhook_key_sealed, previous_webhook_key_sealed, previous_webhook_key_until, created_at, partner_id, language)
       VALUES (@id, @name, @currency, @webhookKeySealed, @previousWebhookKeySealed, @previousWebhookKeyUntil, @createdAt, @partnerId, @language)`,
    ),
    merchantGet: db.prepare('SELECT * FROM merchants WHERE id = ?'),
    merchantRotate: db.prepare(
      'UPDATE merchants SET webhook_key_sealed = ?, previous_webhook_key_sealed = ?, previous_webhook_key_until = ? WHERE id = ?',
    ),
    merchantList: db.prepare('SELECT * FROM merchants ORDER BY created_at, id'),
    merchantSetPartner: db.prepare('UPDATE merchants SET partner_id = ? WHERE id = ?'),
    merchantProfile: db.prepare('UPDATE merchants SET name = @name, currency = @currency, language = @language WHERE id = @id'),
    credentialsByMerchant: db.prepare('SELECT * FROM credentials WHERE merchant_id = ? ORDER BY created_at, id'),
    credentialGet: db.prepare('SELECT * FROM credentials WHERE id = ?'),
    credentialRevoke: db.prepare('UPDATE credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    channelUpdate: db.prepare('UPDATE channels SET name = @name, currency = @currency, language = @language, sender_email = @senderEmail WHERE id = @id'),
    smtpGet: db.prepare('SELECT * FROM smtp_settings WHERE merchant_id = ?'),
    smtpSave: db.prepare(
      // "user" quoted: a reserved word in PostgreSQL (there, bare, it is the session's user).
      `INSERT INTO smtp_settings (merchant_id, host, port, security, "user", password_sealed, mail_from, updated_at)
       VALUES (@merchantId, @host, @port, @security, @user, @passwordSealed, @mailFrom, @updatedAt)
       ON CONFLICT (merchant_id) DO UPDATE SET host = excluded.host, port = excluded.port, security = excluded.security, "user" = excluded."user",
         password_sealed = excluded.password_sealed, mail_from = excluded.mail_from, updated_at = excluded.updated_at`,
    ),
    credentialInsert: db.prepare(
      `INSERT INTO credentials (id, merchant_id, kind, api_key, password_hash, created_at, revoked_at, partner_id)
       VALUES (@id, @merchantId, @kind, @apiKey, @passwordHash, @createdAt, @revokedAt, @partnerId)`,
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
      `INSERT INTO idempotency_keys (merchant_id, key, fingerprint, status, body, created_at, expires_at, claim_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (merchant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
         created_at = excluded.created_at, expires_at = excluded.expires_at, claim_id = excluded.claim_id`,
    ),
    idempotencyPurge: db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?'),
    // A reply takes a free key, or one whose record (a reply or a claim) has expired; never a live one.
    idempotencyTake: db.prepare(
      `INSERT INTO idempotency_keys (merchant_id, key, fingerprint, status, body, created_at, expires_at, claim_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (merchant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
         created_at = excluded.created_at, expires_at = excluded.expires_at, claim_id = excluded.claim_id
       WHERE idempotency_keys.expires_at <= ?`,
    ),
    idempotencyDeleteClaim: db.prepare('DELETE FROM idempotency_keys WHERE merchant_id = ? AND key = ? AND status = 0 AND claim_id = ?'),
    // The lease is taken when the key is free, or when the lease on it lapsed (its holder died).
    lockAcquire: db.prepare(
      `INSERT INTO operation_locks (lock_key, holder, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (lock_key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE operation_locks.expires_at <= ?`,
    ),
    lockRelease: db.prepare('DELETE FROM operation_locks WHERE lock_key = ? AND holder = ?'),
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
    eventPairInsert: db.prepare(
      `INSERT INTO transaction_events (id, transaction_id, type, status, amount_minor, execution_date, message, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    eventsByTransaction: db.prepare('SELECT * FROM transaction_events WHERE transaction_id = ? ORDER BY id'),
    // The subject's next sequence number is taken in the insert itself (the unique
    // (subject_type, subject_id, sequence) index finds the last one), never read first.
    outboxInsert: db.prepare(
      `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, order_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
       SELECT @id, @merchantId, @subjectType, @subjectId, @orderId, COALESCE(MAX(sequence), 0) + 1, @url, @payload, @state, @attempts, @nextAttemptAt, @createdAt
       FROM postback_outbox WHERE subject_type = @subjectType AND subject_id = @subjectId`,
    ),
  };
  const listStatement = preparedOnce(db);

  return {
    merchants: {
      insert: async (m) => void (await s.merchantInsert.run({ ...m, partnerId: m.partnerId ?? null, language: m.language ?? 'en' })),
      rotateWebhookKey: async (id, sealed, previousSealed, previousUntil) => void (await s.merchantRotate.run(sealed, previousSealed, previousUntil, id)),
      get: async (id) => {
        const row = (await s.merchantGet.get(id)) as Row | undefined;
        return row && merchantFromRow(row);
      },
      list: async () => ((await s.merchantList.all()) as Row[]).map(merchantFromRow),
      setPartner: async (id, partnerId) => void (await s.merchantSetPartner.run(partnerId, id)),
      updateProfile: async (id, profile) => void (await s.merchantProfile.run({ id, ...profile })),
    },
    credentials: {
      insert: async (c) => void (await s.credentialInsert.run({ ...c, partnerId: c.partnerId ?? null })),
      findActiveByApiKey: async (apiKey) => {
        const row = (await s.credentialByKey.get(apiKey)) as Row | undefined;
        return row && credentialFromRow(row);
      },
      listByMerchant: async (merchantId) => ((await s.credentialsByMerchant.all(merchantId)) as Row[]).map(credentialFromRow),
      get: async (id) => {
        const row = (await s.credentialGet.get(id)) as Row | undefined;
        return row && credentialFromRow(row);
      },
      revoke: async (id, at) => (await s.credentialRevoke.run(at, id)).changes > 0,
    },
    channels: {
      insert: async (c) => void (await s.channelInsert.run(c)),
      findByUrlName: async (urlName) => {
        const row = (await s.channelByUrlName.get(urlName)) as Row | undefined;
        return row && channelFromRow(row);
      },
      listByMerchant: async (merchantId) => ((await s.channelsByMerchant.all(merchantId)) as Row[]).map(channelFromRow),
      update: async (c) => void (await s.channelUpdate.run({ id: c.id, name: c.name, currency: c.currency, language: c.language, senderEmail: c.senderEmail })),
    },
    smtpSettings: {
      get: async (merchantId) => {
        const row = (await s.smtpGet.get(merchantId)) as Row | undefined;
        return (
          row && {
            merchantId: str(row.merchant_id),
            host: str(row.host),
            port: row.port as number,
            security: row.security as SmtpSettingsRecord['security'],
            user: optStr(row.user),
            passwordSealed: optStr(row.password_sealed),
            mailFrom: str(row.mail_from),
            updatedAt: str(row.updated_at),
          }
        );
      },
      // Mail that waited for the merchant's SMTP server may go now.
      save: async (record) => void (db.touch?.('mail'), await s.smtpSave.run(record)),
    },
    idempotency: {
      find: async (merchantId, key, now): Promise<IdempotencyRecord | undefined> => {
        const row = (await s.idempotencyFind.get(merchantId, key, now)) as Row | undefined;
        if (!row) return undefined;
        return {
          merchantId: str(row.merchant_id),
          key: str(row.key),
          fingerprint: str(row.fingerprint),
          answer: answerFromRow(row.status as number, JSON.parse(str(row.body)) as unknown),
          createdAt: str(row.created_at),
          expiresAt: str(row.expires_at),
          claimId: (row.claim_id as string | null) ?? null,
        };
      },
      save: async (r) =>
        void (await s.idempotencySave.run(r.merchantId, r.key, r.fingerprint, statusOfAnswer(r.answer), JSON.stringify(r.answer?.body ?? null), r.createdAt, r.expiresAt, r.claimId ?? null)),
      take: async (r, now) =>
        (await s.idempotencyTake.run(r.merchantId, r.key, r.fingerprint, statusOfAnswer(r.answer), JSON.stringify(r.answer?.body ?? null), r.createdAt, r.expiresAt, r.claimId ?? null, now)).changes === 1,
      deleteClaim: async (merchantId, key, claimId) => void (await s.idempotencyDeleteClaim.run(merchantId, key, claimId)),
      deleteExpired: async (now) => (await s.idempotencyPurge.run(now)).changes,
    },
    operationLocks: {
      acquire: async (key, holder, now, expiresAt) => (await s.lockAcquire.run(key, holder, expiresAt, now)).changes === 1,
      release: async (key, holder) => void (await s.lockRelease.run(key, holder)),
    },
    mandates: {
      insert: async (m: MandateRecord) => void (await s.mandateInsert.run({ ...m, recurring: m.recurring ? 1 : 0 })),
      findByReference: async (merchantId, reference) => {
        const row = (await s.mandateByReference.get(merchantId, reference)) as Row | undefined;
        return row && mandateFromRow(row);
      },
    },
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
    outbox: {
      append: async (o: NewOutboxRecord) => {
        db.touch?.('postbacks');
        await s.outboxInsert.run({ ...o, payload: JSON.stringify(o.payload) });
      },
      ...createOutboxDelivery(db),
    },
    ...createPaymentRepositories(db),
    staff: createStaffRepository(db),
    authFailures: createAuthFailureRepository(db),
    dayReports: createDayReportRepository(db),
    checkouts: createCheckoutRepository(db),
    invoices: createInvoiceRepository(db),
    emails: createEmailRepository(db),
    networkTokens: createNetworkTokenRepository(db),
    tillAttempts: createTillAttemptRepository(db),
    tills: createTillRepository(db),
    instances: createInstanceRepository(db),
    centre: createCentreRepository(db),
    journal: createTillJournalRepository(db),
    receipts: createReceiptRepository(db),
    dashboard: createDashboardRepository(db),
    ...createMerchantManagementRepositories(db),
  };
}
