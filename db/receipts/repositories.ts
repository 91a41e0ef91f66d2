/**
 * Receipt links, receipt e-mails, receipt printers and their auto-print jobs (migration 0013).
 * Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts.
 */
import { sql, type Selectable } from 'kysely';
import { optStr, type Row } from '../rows.js';
import { dialects, type SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { emailSettle, queueClaim, queueRelease } from '../queue-claim.js';
import { typed, rowPlaces } from '../typed-sql.js';
import type {
  ReceiptEmailRecord,
  ReceiptLinkRecord,
  ReceiptPrintJobRecord,
  ReceiptPrinterRecord,
  ReceiptRepository,
} from '../../main/core/receipts/ports.js';
import type { RefundRecord } from '../../main/core/payments/ports.js';

function refundFromRow(r: Row): RefundRecord {
  return {
    id: r.id as string,
    transactionId: r.transaction_id as string,
    merchantId: r.merchant_id as string,
    amountMinor: r.amount_minor as number,
    statusCode: r.status_code as 0 | 1 | 2,
    merchantRefundId: optStr(r.merchant_refund_id),
    merchantReference: optStr(r.merchant_reference),
    executionDate: optStr(r.execution_date),
    processorReference: optStr(r.processor_reference),
    createdAt: r.created_at as string,
  };
}

function linkFromRow(r: Selectable<Database['receipt_links']>): ReceiptLinkRecord {
  return {
    token: r.token,
    merchantId: r.merchant_id,
    receiptId: r.receipt_id,
    transactionId: r.transaction_id,
    createdAt: r.created_at,
  };
}

function emailFromRow(r: Selectable<Database['receipt_emails']>): ReceiptEmailRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    receiptId: r.receipt_id,
    transactionId: r.transaction_id,
    locale: r.locale,
    recipient: r.recipient,
    subject: r.subject,
    bodyText: r.body_text,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    sentAt: r.sent_at,
    lastError: r.last_error,
    testOutbox: r.test_outbox === 1,
    createdAt: r.created_at,
  };
}

function printerFromRow(r: Selectable<Database['receipt_printers']>): ReceiptPrinterRecord {
  return {
    merchantId: r.merchant_id,
    connection: r.connection,
    host: r.host,
    port: r.port,
    device: r.device,
    charactersPerLine: r.characters_per_line,
    autoPrint: r.auto_print === 1,
    updatedAt: r.updated_at,
  };
}

function jobFromRow(r: Selectable<Database['receipt_print_jobs']>): ReceiptPrintJobRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    receiptId: r.receipt_id,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    printedAt: r.printed_at,
    createdAt: r.created_at,
  };
}

type EmailInsert = Omit<Database['receipt_emails'], 'claimed_by' | 'claim_until'>;
type JobSettle = Pick<Database['receipt_print_jobs'], 'id' | 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'printed_at'>;

export function createReceiptRepository(db: SqlDatabase): ReceiptRepository {
  const claimDueEmails = queueClaim(db, 'receipt_emails');
  const releaseEmail = queueRelease(db, 'receipt_emails');
  const settleEmail = emailSettle(db, 'receipt_emails');
  const s = {
    // Hand-written per engine: refunds is the payments feature's table (described by its folder, not here).
    refund: db.prepare(
      dialects({
        sqlite: 'SELECT * FROM refunds WHERE id = ? AND merchant_id = ?',
        postgres: 'SELECT * FROM refunds WHERE id = $1 AND merchant_id = $2',
      }),
    ),
    insertLink: typed<Database['receipt_links']>()(db, (k, p) => k.insertInto('receipt_links').values(rowPlaces('receipt_links', p))),
    linkFor: typed<{ merchantId: string; receiptId: string }>()(db, (k, p) =>
      k.selectFrom('receipt_links').selectAll().where('merchant_id', '=', p('merchantId')).where('receipt_id', '=', p('receiptId')),
    ),
    linkByToken: typed<{ token: string }>()(db, (k, p) => k.selectFrom('receipt_links').selectAll().where('token', '=', p('token'))),
    insertEmail: typed<EmailInsert>()(db, (k, p) =>
      k.insertInto('receipt_emails').values({
        id: p('id'),
        merchant_id: p('merchant_id'),
        receipt_id: p('receipt_id'),
        transaction_id: p('transaction_id'),
        locale: p('locale'),
        recipient: p('recipient'),
        subject: p('subject'),
        body_text: p('body_text'),
        status: p('status'),
        attempts: p('attempts'),
        next_attempt_at: p('next_attempt_at'),
        sent_at: p('sent_at'),
        last_error: p('last_error'),
        test_outbox: p('test_outbox'),
        created_at: p('created_at'),
      }),
    ),
    getEmail: typed<{ id: string }>()(db, (k, p) => k.selectFrom('receipt_emails').selectAll().where('id', '=', p('id'))),
    listEmails: typed<{ merchantId: string; receiptId: string }>()(db, (k, p) =>
      k
        .selectFrom('receipt_emails')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('receipt_id', '=', p('receiptId'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    ),
    printer: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('receipt_printers').selectAll().where('merchant_id', '=', p('merchantId')),
    ),
    savePrinter: typed<Database['receipt_printers']>()(db, (k, p) =>
      k
        .insertInto('receipt_printers')
        .values(rowPlaces('receipt_printers', p))
        .onConflict((oc) =>
          oc.column('merchant_id').doUpdateSet((eb) => ({
            connection: eb.ref('excluded.connection'),
            host: eb.ref('excluded.host'),
            port: eb.ref('excluded.port'),
            device: eb.ref('excluded.device'),
            characters_per_line: eb.ref('excluded.characters_per_line'),
            auto_print: eb.ref('excluded.auto_print'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        ),
    ),
    removePrinter: typed<{ merchantId: string }>()(db, (k, p) =>
      k.deleteFrom('receipt_printers').where('merchant_id', '=', p('merchantId')),
    ),
    insertJob: typed<Database['receipt_print_jobs']>()(db, (k, p) =>
      k
        .insertInto('receipt_print_jobs')
        .values(rowPlaces('receipt_print_jobs', p))
        .onConflict((oc) => oc.column('receipt_id').doNothing()),
    ),
    getJob: typed<{ id: string }>()(db, (k, p) => k.selectFrom('receipt_print_jobs').selectAll().where('id', '=', p('id'))),
    jobFor: typed<{ receiptId: string }>()(db, (k, p) =>
      k.selectFrom('receipt_print_jobs').selectAll().where('receipt_id', '=', p('receiptId')),
    ),
    dueJobs: typed<{ now: string; limit: number }>()(db, (k, p) =>
      k
        .selectFrom('receipt_print_jobs')
        .selectAll()
        .where('status', '=', sql.lit('queued'))
        .where('next_attempt_at', '<=', p('now'))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(p('limit')),
    ),
    // Taking a job moves it out of the due ones until `until`, only if it is as it was listed.
    claimJob: typed<{ until: string; id: string; attempts: number; nextAttemptAt: string }>()(db, (k, p) =>
      k
        .updateTable('receipt_print_jobs')
        .set({ next_attempt_at: p('until') })
        .where('id', '=', p('id'))
        .where('status', '=', sql.lit('queued'))
        .where('attempts', '=', p('attempts'))
        .where('next_attempt_at', '=', p('nextAttemptAt')),
    ),
    settleJob: typed<JobSettle>()(db, (k, p) =>
      k
        .updateTable('receipt_print_jobs')
        .set({
          status: p('status'),
          attempts: p('attempts'),
          next_attempt_at: p('next_attempt_at'),
          last_error: p('last_error'),
          printed_at: p('printed_at'),
        })
        .where('id', '=', p('id')),
    ),
  };
  const one = <R, T>(row: R | undefined, map: (r: R) => T): T | undefined => (row ? map(row) : undefined);
  return {
    refund: async (merchantId, refundId) => {
      const row = (await s.refund.get(refundId, merchantId)) as Row | undefined;
      return row ? refundFromRow(row) : undefined;
    },
    insertLink: async (record) =>
      void (await s.insertLink.run({
        token: record.token,
        merchant_id: record.merchantId,
        receipt_id: record.receiptId,
        transaction_id: record.transactionId,
        created_at: record.createdAt,
      })),
    linkFor: async (merchantId, receiptId) => one(await s.linkFor.get({ merchantId, receiptId }), linkFromRow),
    linkByToken: async (token) => one(await s.linkByToken.get({ token }), linkFromRow),
    insertEmail: async (record) => (
      db.touch?.('mail'),
      void (await s.insertEmail.run({
        id: record.id,
        merchant_id: record.merchantId,
        receipt_id: record.receiptId,
        transaction_id: record.transactionId,
        locale: record.locale,
        recipient: record.recipient,
        subject: record.subject,
        body_text: record.bodyText,
        status: record.status,
        attempts: record.attempts,
        next_attempt_at: record.nextAttemptAt,
        sent_at: record.sentAt,
        last_error: record.lastError,
        test_outbox: record.testOutbox ? 1 : 0,
        created_at: record.createdAt,
      }))
    ),
    getEmail: async (id) => one(await s.getEmail.get({ id }), emailFromRow),
    claimDueEmails: async (now, claim, limit) => (await claimDueEmails(now, claim, limit)).map(emailFromRow),
    releaseEmail: async (id, claimedBy) => void (db.touch?.('mail'), await releaseEmail(id, claimedBy)),
    settleEmail: async (id, claimedBy, change) => (db.touch?.('mail'), await settleEmail(id, claimedBy, change)),
    listEmails: async (merchantId, receiptId) => (await s.listEmails.all({ merchantId, receiptId })).map(emailFromRow),
    printer: async (merchantId) => one(await s.printer.get({ merchantId }), printerFromRow),
    // A printer set up may print jobs that waited for one.
    savePrinter: async (record) => (
      db.touch?.('prints'),
      void (await s.savePrinter.run({
        merchant_id: record.merchantId,
        connection: record.connection,
        host: record.host,
        port: record.port,
        device: record.device,
        characters_per_line: record.charactersPerLine,
        auto_print: record.autoPrint ? 1 : 0,
        updated_at: record.updatedAt,
      }))
    ),
    removePrinter: async (merchantId) => void (await s.removePrinter.run({ merchantId })),
    insertPrintJob: async (record) =>
      (db.touch?.('prints'),
      await s.insertJob.run({
        id: record.id,
        merchant_id: record.merchantId,
        receipt_id: record.receiptId,
        status: record.status,
        attempts: record.attempts,
        next_attempt_at: record.nextAttemptAt,
        last_error: record.lastError,
        printed_at: record.printedAt,
        created_at: record.createdAt,
      })).changes === 1,
    getPrintJob: async (id) => one(await s.getJob.get({ id }), jobFromRow),
    printJobFor: async (receiptId) => one(await s.jobFor.get({ receiptId }), jobFromRow),
    duePrintJobs: async (now, limit) => (await s.dueJobs.all({ now, limit })).map(jobFromRow),
    claimPrintJob: async (job, until) =>
      (await s.claimJob.run({ until, id: job.id, attempts: job.attempts, nextAttemptAt: job.nextAttemptAt })).changes === 1,
    settlePrintJob: async (id, change) =>
      void (
        db.touch?.('prints'),
        await s.settleJob.run({
          id,
          status: change.status,
          attempts: change.attempts,
          next_attempt_at: change.nextAttemptAt,
          last_error: change.lastError,
          printed_at: change.printedAt,
        })
      ),
  };
}
