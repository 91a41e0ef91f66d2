/**
 * The invoice e-mails' durable queue and the mailer (decisions.md D11), and the merchants' own SMTP
 * servers. Adapters: db/ and main/infra (nodemailer).
 */
import type { EmailStatus, InvoiceEmailType, InvoiceLocale } from '../../../contract/constants.js';
import type { QueueClaim } from '../kernel.js';
import type { KernelUnit } from '../unit-of-work.js';
import type { ReceiptRepository } from '../receipts/ports.js';

/** A merchant's SMTP server as set in the back office (migration 20); the password sealed. */
export interface SmtpSettingsRecord {
  merchantId: string;
  host: string;
  port: number;
  security: 'starttls' | 'implicit' | 'none';
  user: string | null;
  passwordSealed: string | null;
  mailFrom: string;
  updatedAt: string;
}

export interface SmtpSettingsRepository {
  get(merchantId: string): Promise<SmtpSettingsRecord | undefined>;
  save(record: SmtpSettingsRecord): Promise<void>;
}

/** One invoice e-mail of the durable mail queue (migration 0010). */
export interface EmailRecord {
  id: string;
  merchantId: string;
  invoiceId: number;
  emailType: InvoiceEmailType;
  locale: InvoiceLocale;
  recipient: string;
  sender: string | null;
  subject: string;
  bodyText: string;
  status: EmailStatus;
  attempts: number;
  nextAttemptAt: string;
  sentAt: string | null;
  lastError: string | null;
  /** Kept in the local test outbox (no SMTP server configured) instead of being sent. */
  testOutbox: boolean;
  createdAt: string;
}

export interface EmailRepository {
  insert(record: EmailRecord): Promise<void>;
  get(id: string): Promise<EmailRecord | undefined>;
  /** Claims up to `limit` queued e-mails due at `now` under no live claim, oldest first (as OutboxRepository.claimDue). */
  claimDue(now: string, claim: QueueClaim, limit: number): Promise<EmailRecord[]>;
  /** Gives a claimed e-mail back unsent (if the claim is still `claimedBy`'s). */
  release(id: string, claimedBy: string): Promise<void>;
  /** Records the outcome of an attempt and clears the claim, only while `claimedBy` holds it; false when the claim was lost. */
  settle(
    id: string,
    claimedBy: string,
    change: Pick<EmailRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'sentAt' | 'lastError' | 'testOutbox'>,
  ): Promise<boolean>;
  /** The invoice's most recent e-mail. */
  latestForInvoice(invoiceId: number): Promise<EmailRecord | undefined>;
  /** The invoice's e-mails, newest first. */
  listForInvoice(invoiceId: number): Promise<EmailRecord[]>;
}

/** An outgoing message as handed to the mailer. */
export interface MailMessage {
  /** Whose e-mail it is: its SMTP settings apply (the host's when it has none). */
  merchantId?: string;
  from: string | null;
  to: string;
  subject: string;
  text: string;
}

/** `response`: the SMTP server's answer to the message (e.g. `250 2.0.0 Ok: queued`), when known. */
export type MailResult = { kind: 'sent'; response?: string } | { kind: 'test_outbox' } | { kind: 'failed'; message: string };

/** How to reach an SMTP server (the host's settings, or a merchant's from the back office). */
export interface SmtpServer {
  host: string;
  port: number;
  /** `implicit`: TLS from the first byte (465); `starttls`: upgrade, required; `none`: plain (local relays). */
  security: 'implicit' | 'starttls' | 'none';
  user: string | null;
  password: string | null;
  from: string;
}

/** Makes a Mailer for an SMTP server (nodemailer in main/infra). */
export type SmtpMailerFactory = (server: SmtpServer) => Mailer;

/** Sends one message (SMTP, or the local test outbox); never throws. */
export interface Mailer {
  send(message: MailMessage): Promise<MailResult>;
}

/** An invoice as an invoice e-mail needs it (the invoices feature owns them). */
export interface MailedInvoice {
  /** An inactive invoice's queued e-mails are not sent. */
  active: boolean;
}

/** The mail feature's view of a unit of work: e-mails and SMTP settings, receipt e-mails' queue, an invoice's merchant. */
export interface MailUnit extends KernelUnit {
  emails: EmailRepository;
  smtpSettings: SmtpSettingsRepository;
  receipts: Pick<ReceiptRepository, 'claimDueEmails' | 'settleEmail' | 'releaseEmail'>;
  invoices: { get(id: number): Promise<MailedInvoice | undefined> };
}
