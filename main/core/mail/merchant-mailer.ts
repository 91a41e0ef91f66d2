/**
 * The mailer of the mail queue: a merchant's e-mail goes through the SMTP server its admin set in
 * the back office (docs/decisions.md "Back office: settings, staff and audit"), read at each send
 * so a change applies to the next e-mail; without one, through the host's mailer (settings.json's
 * SMTP server, else the local test outbox). Never throws, like every Mailer.
 */
import type { MailMessage, MailResult, Mailer, SmtpMailerFactory, SmtpServer } from './ports.js';

export function merchantMailer(
  hostMailer: Mailer,
  serverOf: (merchantId: string) => Promise<SmtpServer | undefined>,
  smtpMailer: SmtpMailerFactory | undefined,
): Mailer {
  return {
    async send(message: MailMessage): Promise<MailResult> {
      let server: SmtpServer | undefined;
      try {
        server = message.merchantId && smtpMailer ? await serverOf(message.merchantId) : undefined;
      } catch (error) {
        return {
          kind: 'failed',
          message: `the SMTP settings could not be read: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      return server && smtpMailer ? smtpMailer(server).send(message) : hostMailer.send(message);
    },
  };
}
