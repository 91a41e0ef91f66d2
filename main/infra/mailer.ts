/**
 * Mailer adapters (decisions.md D11). The SMTP adapter needs nodemailer, which is not installed
 * yet; until it is, every e-mail goes to the local test outbox: the queue marks it `sent` with
 * `test_outbox` set, and GET /rest/emails shows it with a preview.
 */
import type { MailResult, Mailer } from '../core/ports.js';

/** Keeps every message in the local test outbox (the e-mail row itself). */
export const testOutboxMailer: Mailer = {
  send: async (): Promise<MailResult> => ({ kind: 'test_outbox' }),
};
