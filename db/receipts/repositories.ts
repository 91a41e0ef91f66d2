/** Receipt links, receipt e-mails, receipt printers and their auto-print jobs (migration 0013). */
import { optStr, type Row } from '../rows.js';
import type { SqlDatabase } from '../sql.js';
import { byDueOrder, claimSql } from '../postbacks/repositories.js';
import type {
  ReceiptEmailRecord,
  ReceiptLinkRecord,
  ReceiptPrintJobRecord,
  ReceiptPrinterRecord,
  ReceiptRepository,
} from '../../main/core/receipts/ports.js';
import type { RefundRecord } from '../../main/core/payments/ports.js';

const optNum = (v: unknown): number | null => (v === null || v === undefined ? null : (v as number));

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

function linkFromRow(r: Row): ReceiptLinkRecord {
  return {
    token: r.token as string,
    merchantId: r.merchant_id as string,
    receiptId: r.receipt_id as string,
    transactionId: r.transaction_id as string,
    createdAt: r.created_at as string,
  };
}

function emailFromRow(r: Row): ReceiptEmailRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    receiptId: r.receipt_id as string,
    transactionId: r.transaction_id as string,
    locale: r.locale as string,
    recipient: r.recipient as string,
    subject: r.subject as string,
    bodyText: r.body_text as string,
    status: r.status as ReceiptEmailRecord['status'],
    attempts: r.attempts as number,
    nextAttemptAt: r.next_attempt_at as string,
    sentAt: optStr(r.sent_at),
    lastError: optStr(r.last_error),
    testOutbox: r.test_outbox === 1,
    createdAt: r.created_at as string,
  };
}

function printerFromRow(r: Row): ReceiptPrinterRecord {
  return {
    merchantId: r.merchant_id as string,
    connection: r.connection as ReceiptPrinterRecord['connection'],
    host: optStr(r.host),
    port: optNum(r.port),
    device: optStr(r.device),
    charactersPerLine: r.characters_per_line as number,
    autoPrint: r.auto_print === 1,
    updatedAt: r.updated_at as string,
  };
}

function jobFromRow(r: Row): ReceiptPrintJobRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    receiptId: r.receipt_id as string,
    status: r.status as ReceiptPrintJobRecord['status'],
    attempts: r.attempts as number,
    nextAttemptAt: r.next_attempt_at as string,
    lastError: optStr(r.last_error),
    printedAt: optStr(r.printed_at),
    createdAt: r.created_at as string,
  };
}

export function createReceiptRepository(db: SqlDatabase): ReceiptRepository {
  const s = {
    refund: db.prepare('SELECT * FROM refunds WHERE id = ? AND merchant_id = ?'),
    insertLink: db.prepare(
      'INSERT INTO receipt_links (token, merchant_id, receipt_id, transaction_id, created_at) VALUES (@token, @merchantId, @receiptId, @transactionId, @createdAt)',
    ),
    linkFor: db.prepare('SELECT * FROM receipt_links WHERE merchant_id = ? AND receipt_id = ?'),
    linkByToken: db.prepare('SELECT * FROM receipt_links WHERE token = ?'),
    insertEmail: db.prepare(
      `INSERT INTO receipt_emails (id, merchant_id, receipt_id, transaction_id, locale, recipient, subject, body_text, status, attempts,
         next_attempt_at, sent_at, last_error, test_outbox, created_at)
       VALUES (@id, @merchantId, @receiptId, @transactionId, @locale, @recipient, @subject, @bodyText, @status, @attempts,
         @nextAttemptAt, @sentAt, @lastError, @testOutbox, @createdAt)`,
    ),
    getEmail: db.prepare('SELECT * FROM receipt_emails WHERE id = ?'),
    claimDueEmails: db.prepare(claimSql('receipt_emails', "status = 'queued'")),
    releaseEmail: db.prepare('UPDATE receipt_emails SET claimed_by = NULL, claim_until = NULL WHERE id = ? AND claimed_by = ?'),
    settleEmail: db.prepare(
      `UPDATE receipt_emails SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt, sent_at = @sentAt,
         last_error = @lastError, test_outbox = @testOutbox, claimed_by = NULL, claim_until = NULL WHERE id = @id AND claimed_by = @claimedBy`,
    ),
    listEmails: db.prepare('SELECT * FROM receipt_emails WHERE merchant_id = ? AND receipt_id = ? ORDER BY created_at DESC, id DESC'),
    printer: db.prepare('SELECT * FROM receipt_printers WHERE merchant_id = ?'),
    savePrinter: db.prepare(
      `INSERT INTO receipt_printers (merchant_id, connection, host, port, device, characters_per_line, auto_print, updated_at)
       VALUES (@merchantId, @connection, @host, @port, @device, @charactersPerLine, @autoPrint, @updatedAt)
       ON CONFLICT (merchant_id) DO UPDATE SET connection = excluded.connection, host = excluded.host, port = excluded.port,
         device = excluded.device, characters_per_line = excluded.characters_per_line, auto_print = excluded.auto_print,
         updated_at = excluded.updated_at`,
    ),
    removePrinter: db.prepare('DELETE FROM receipt_printers WHERE merchant_id = ?'),
    insertJob: db.prepare(
      `INSERT INTO receipt_print_jobs (id, merchant_id, receipt_id, status, attempts, next_attempt_at, last_error, printed_at, created_at)
       VALUES (@id, @merchantId, @receiptId, @status, @attempts, @nextAttemptAt, @lastError, @printedAt, @createdAt)
       ON CONFLICT (receipt_id) DO NOTHING`,
    ),
    getJob: db.prepare('SELECT * FROM receipt_print_jobs WHERE id = ?'),
    jobFor: db.prepare('SELECT * FROM receipt_print_jobs WHERE receipt_id = ?'),
    dueJobs: db.prepare(
      "SELECT * FROM receipt_print_jobs WHERE status = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?",
    ),
    // Taking a job moves it out of the due ones until `until`, only if it is as it was listed.
    claimJob: db.prepare(
      "UPDATE receipt_print_jobs SET next_attempt_at = ? WHERE id = ? AND status = 'queued' AND attempts = ? AND next_attempt_at = ?",
    ),
    settleJob: db.prepare(
      `UPDATE receipt_print_jobs SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt, last_error = @lastError,
         printed_at = @printedAt WHERE id = @id`,
    ),
  };
  const one = <T>(row: unknown, map: (r: Row) => T): T | undefined => (row ? map(row as Row) : undefined);
  return {
    refund: async (merchantId, refundId) => one(await s.refund.get(refundId, merchantId), refundFromRow),
    insertLink: async (record) => void (await s.insertLink.run(record)),
    linkFor: async (merchantId, receiptId) => one(await s.linkFor.get(merchantId, receiptId), linkFromRow),
    linkByToken: async (token) => one(await s.linkByToken.get(token), linkFromRow),
    insertEmail: async (record) => void (db.touch?.('mail'), await s.insertEmail.run({ ...record, testOutbox: record.testOutbox ? 1 : 0 })),
    getEmail: async (id) => one(await s.getEmail.get(id), emailFromRow),
    claimDueEmails: async (now, claim, limit) =>
      ((await s.claimDueEmails.all({ now, limit, ...claim })) as Row[]).sort(byDueOrder).map(emailFromRow),
    releaseEmail: async (id, claimedBy) => void (db.touch?.('mail'), await s.releaseEmail.run(id, claimedBy)),
    settleEmail: async (id, claimedBy, change) =>
      (db.touch?.('mail'), await s.settleEmail.run({ ...change, id, claimedBy, testOutbox: change.testOutbox ? 1 : 0 })).changes === 1,
    listEmails: async (merchantId, receiptId) => ((await s.listEmails.all(merchantId, receiptId)) as Row[]).map(emailFromRow),
    printer: async (merchantId) => one(await s.printer.get(merchantId), printerFromRow),
    // A printer set up may print jobs that waited for one.
    savePrinter: async (record) => void (db.touch?.('prints'), await s.savePrinter.run({ ...record, autoPrint: record.autoPrint ? 1 : 0 })),
    removePrinter: async (merchantId) => void (await s.removePrinter.run(merchantId)),
    insertPrintJob: async (record) => (db.touch?.('prints'), await s.insertJob.run(record)).changes === 1,
    getPrintJob: async (id) => one(await s.getJob.get(id), jobFromRow),
    printJobFor: async (receiptId) => one(await s.jobFor.get(receiptId), jobFromRow),
    duePrintJobs: async (now, limit) => ((await s.dueJobs.all(now, limit)) as Row[]).map(jobFromRow),
    claimPrintJob: async (job, until) => (await s.claimJob.run(until, job.id, job.attempts, job.nextAttemptAt)).changes === 1,
    settlePrintJob: async (id, change) => void (db.touch?.('prints'), await s.settleJob.run({ ...change, id })),
  };
}
