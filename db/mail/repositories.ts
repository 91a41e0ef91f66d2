/** The durable invoice mail queue (migration 0010). Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts. */
import type { Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed } from '../typed-sql.js';
import { emailSettle, queueClaim, queueRelease } from '../queue-claim.js';
import type { EmailRecord, EmailRepository } from '../../main/core/mail/ports.js';

function emailFromRow(r: Selectable<Database['emails']>): EmailRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    invoiceId: r.invoice_id,
    emailType: r.email_type,
    locale: r.locale,
    recipient: r.recipient,
    sender: r.sender ?? null,
    subject: r.subject,
    bodyText: r.body_text,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    sentAt: r.sent_at ?? null,
    lastError: r.last_error ?? null,
    testOutbox: r.test_outbox === 1,
    createdAt: r.created_at,
  };
}

export function createEmailRepository(db: SqlDatabase): EmailRepository {
  const claimDue = queueClaim(db, 'emails');
  const release = queueRelease(db, 'emails');
  const settle = emailSettle(db, 'emails');
  const s = {
    insert: typed<Omit<Database['emails'], 'claimed_by' | 'claim_until'>>()(db, (k, p) =>
      k.insertInto('emails').values({
        id: p('id'),
        merchant_id: p('merchant_id'),
        invoice_id: p('invoice_id'),
        email_type: p('email_type'),
        locale: p('locale'),
        recipient: p('recipient'),
        sender: p('sender'),
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
    get: typed<{ id: string }>()(db, (k, p) => k.selectFrom('emails').selectAll().where('id', '=', p('id'))),
    latest: typed<{ invoiceId: number }>()(db, (k, p) =>
      k
        .selectFrom('emails')
        .selectAll()
        .where('invoice_id', '=', p('invoiceId'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1),
    ),
    list: typed<{ invoiceId: number }>()(db, (k, p) =>
      k.selectFrom('emails').selectAll().where('invoice_id', '=', p('invoiceId')).orderBy('created_at', 'desc').orderBy('id', 'desc'),
    ),
  };
  return {
    insert: async (r) =>
      void (
        db.touch?.('mail'),
        await s.insert.run({
          id: r.id,
          merchant_id: r.merchantId,
          invoice_id: r.invoiceId,
          email_type: r.emailType,
          locale: r.locale,
          recipient: r.recipient,
          sender: r.sender,
          subject: r.subject,
          body_text: r.bodyText,
          status: r.status,
          attempts: r.attempts,
          next_attempt_at: r.nextAttemptAt,
          sent_at: r.sentAt,
          last_error: r.lastError,
          test_outbox: r.testOutbox ? 1 : 0,
          created_at: r.createdAt,
        })
      ),
    get: async (id) => {
      const row = await s.get.get({ id });
      return row ? emailFromRow(row) : undefined;
    },
    claimDue: async (now, claim, limit) => (await claimDue(now, claim, limit)).map(emailFromRow),
    release: async (id, claimedBy) => void (db.touch?.('mail'), await release(id, claimedBy)),
    settle: async (id, claimedBy, change) => (db.touch?.('mail'), await settle(id, claimedBy, change)),
    latestForInvoice: async (invoiceId) => {
      const row = await s.latest.get({ invoiceId });
      return row ? emailFromRow(row) : undefined;
    },
    listForInvoice: async (invoiceId) => (await s.list.all({ invoiceId })).map(emailFromRow),
  };
}
