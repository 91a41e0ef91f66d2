/**
 * Mailer adapters (decisions.md D11): SMTP through nodemailer when a host is configured, else the
 * local test outbox (the queue marks the e-mail `sent` with `test_outbox` set, and GET /rest/emails
 * shows it with a preview). Never throws; the SMTP password never reaches an error message.
 */
import nodemailer from 'nodemailer';
import type { MailMessage, MailResult, Mailer } from '../core/ports.js';

/** Keeps every message in the local test outbox (the e-mail row itself). */
export const testOutboxMailer: Mailer = {
  send: async (): Promise<MailResult> => ({ kind: 'test_outbox' }),
};

export interface SmtpOptions {
  host: string;
  port: number;
  /** `implicit`: TLS from the first byte (465); `starttls`: upgrade, required; `none`: plain (local relays). */
  security: 'implicit' | 'starttls' | 'none';
  user: string | null;
  password: string | null;
  from: string;
}

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
        await transport.sendMail({ from: message.from ?? options.from, to: message.to, subject: message.subject, text: message.text });
        return { kind: 'sent' };
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        return { kind: 'failed', message: options.password ? text.split(options.password).join('[redacted]') : text };
      }
    },
  };
}
