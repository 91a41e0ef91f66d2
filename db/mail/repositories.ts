/** The durable invoice mail queue (migration 0010). */
import { optStr, type Row } from '../rows.js';
import type { SqlDatabase } from '../sql.js';
import { byDueOrder, claimSql } from '../postbacks/repositories.js';
import type { EmailRecord, EmailRepository } from '../../main/core/mail/ports.js';

function emailFromRow(r: Row): EmailRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    invoiceId: r.invoice_id as number,
    emailType: r.email_type as EmailRecord['emailType'],
    locale: r.locale as EmailRecord['locale'],
    recipient: r.recipient as string,
    sender: optStr(r.sender),
    subject: r.subject as string,
    bodyText: r.body_text as string,
    status: r.status as EmailRecord['status'],
    attempts: r.attempts as number,
    nextAttemptAt: r.next_attempt_at as string,
    sentAt: optStr(r.sent_at),
    lastError: optStr(r.last_error),
    testOutbox: r.test_outbox === 1,
    createdAt: r.created_at as string,
  };
}

export function createEmailRepository(db: SqlDatabase): EmailRepository {
  const s = {
    insert: db.prepare(
      `INSERT INTO emails (id, merchant_id, invoice_id, email_type, locale, recipient, sender, subject, body_text, status, attempts,
         next_attempt_at, sent_at, last_error, test_outbox, created_at)
       VALUES (@id, @merchantId, @invoiceId, @emailType, @locale, @recipient, @sender, @subject, @bodyText, @status, @attempts,
         @nextAttemptAt, @sentAt, @lastError, @testOutbox, @createdAt)`,
    ),
    claimDue: db.prepare(claimSql('emails', "status = 'queued'")),
    release: db.prepare('UPDATE emails SET claimed_by = NULL, claim_until = NULL WHERE id = ? AND claimed_by = ?'),
    settle: db.prepare(
      `UPDATE emails SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt, sent_at = @sentAt,
         last_error = @lastError, test_outbox = @testOutbox, claimed_by = NULL, claim_until = NULL WHERE id = @id AND claimed_by = @claimedBy`,
    ),
    get: db.prepare('SELECT * FROM emails WHERE id = ?'),
    latest: db.prepare('SELECT * FROM emails WHERE invoice_id = ? ORDER BY created_at DESC, id DESC LIMIT 1'),
    list: db.prepare('SELECT * FROM emails WHERE invoice_id = ? ORDER BY created_at DESC, id DESC'),
  };
  return {
    insert: async (record) => void (db.touch?.('mail'), await s.insert.run({ ...record, testOutbox: record.testOutbox ? 1 : 0 })),
    get: async (id) => {
      const row = (await s.get.get(id)) as Row | undefined;
      return row ? emailFromRow(row) : undefined;
    },
    claimDue: async (now, claim, limit) => ((await s.claimDue.all({ now, limit, ...claim })) as Row[]).sort(byDueOrder).map(emailFromRow),
    release: async (id, claimedBy) => void (db.touch?.('mail'), await s.release.run(id, claimedBy)),
    settle: async (id, claimedBy, change) =>
      (db.touch?.('mail'), await s.settle.run({ ...change, id, claimedBy, testOutbox: change.testOutbox ? 1 : 0 })).changes === 1,
    latestForInvoice: async (invoiceId) => {
      const row = (await s.latest.get(invoiceId)) as Row | undefined;
      return row ? emailFromRow(row) : undefined;
    },
    listForInvoice: async (invoiceId) => ((await s.list.all(invoiceId)) as Row[]).map(emailFromRow),
  };
}
