/**
 * Mailer adapters (decisions.md D11): SMTP through nodemailer when a host is configured, else the
 * local test outbox (the queue marks the e-mail `sent` with `test_outbox` set, and GET /rest/emails
 * shows it with a preview). Never throws; the SMTP password never reaches an error message.
 */
import nodemailer from 'nodemailer';
import type { MailMessage, MailResult, Mailer, SmtpServer } from '../core/mail/ports.js';

/** Keeps every message in the local test outbox (the e-mail row itself). */
export const testOutboxMailer: Mailer = {
  send: async (): Promise<MailResult> => ({ kind: 'test_outbox' }),
};

export type SmtpOptions = SmtpServer;

export function createSmtpMailer(options: SmtpOptions): Mailer {
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.security === 'implicit',
    requireTLS: options.security === 'starttls',
    ignoreTLS: options.security === 'none',
    ...(options.user ? { auth: { user: options.user, pass: options.password ?? '' } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message: MailMessage): Promise<MailResult> {
      try {
        const info = (await transport.sendMail({
          from: message.from ?? options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
        })) as { response?: unknown };
        return typeof info.response === 'string' ? { kind: 'sent', response: info.response } : { kind: 'sent' };
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        return { kind: 'failed', message: options.password ? text.split(options.password).join('[redacted]') : text };
      }
    },
  };
}
