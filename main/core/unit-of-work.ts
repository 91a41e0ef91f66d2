/**
 * The unit of work: every feature's repositories in one transaction (`Repositories`) and the store
 * that runs units of work on SQLite or PostgreSQL (`Store`). Repositories are async so that a
 * PostgreSQL adapter implements them unchanged; the SQLite adapter resolves synchronously.
 */
import type { AuthFailureRepository, ChannelRepository, CredentialRepository, MerchantRepository, PartnerRepository, ShopRepository } from './merchants/ports.js';
import type { CentreRepository, TillJournalRepository } from './centre/ports.js';
import type { CheckoutRepository } from './checkouts/ports.js';
import type { DashboardRepository } from './dashboard/ports.js';
import type { DayReportRepository } from './reports/ports.js';
import type { EmailRepository, SmtpSettingsRepository } from './mail/ports.js';
import type { EventRepository, PinSecurityRepository, RefundRepository, TransactionRepository } from './payments/ports.js';
import type { IdempotencyRepository } from './idempotency/ports.js';
import type { InstanceRepository, TillRepository } from './tills/ports.js';
import type { InvoiceRepository } from './invoices/ports.js';
import type { MandateRepository } from './mandates/ports.js';
import type { NetworkTokenRepository } from './network-tokens/ports.js';
import type { OperationLockRepository, TaskRepository } from './kernel.js';
import type { OutboxRepository } from './postbacks/ports.js';
import type { PaymentMethodSettingRepository } from './payment-methods/ports.js';
import type { ReceiptRepository } from './receipts/ports.js';
import type { StaffRepository } from './staff/ports.js';
import type { TillAttemptRepository } from './till/ports.js';

export interface Repositories {
  merchants: MerchantRepository;
  credentials: CredentialRepository;
  channels: ChannelRepository;
  /** The merchants' SMTP servers set in the back office. */
  smtpSettings: SmtpSettingsRepository;
  idempotency: IdempotencyRepository;
  operationLocks: OperationLockRepository;
  mandates: MandateRepository;
  transactions: TransactionRepository;
  events: EventRepository;
  outbox: OutboxRepository;
  refunds: RefundRepository;
  tasks: TaskRepository;
  pinSecurity: PinSecurityRepository;
  staff: StaffRepository;
  /** Lock-out counters of authentication (API keys by source, staff logins). */
  authFailures: AuthFailureRepository;
  /** The tills' ledger and their closed days (Z reports). */
  dayReports: DayReportRepository;
  checkouts: CheckoutRepository;
  invoices: InvoiceRepository;
  emails: EmailRepository;
  networkTokens: NetworkTokenRepository;
  tillAttempts: TillAttemptRepository;
  /** A shop's tills and the screens that hold them (migration 28). */
  tills: TillRepository;
  /** The gateway processes on the database (claims of one that stopped are dead). */
  instances: InstanceRepository;
  /** As a centre: pairing codes and the tills joined to it (migration 29). */
  centre: CentreRepository;
  /** As a till: the centre it is joined to, and the sales it stored while the centre was away. */
  journal: TillJournalRepository;
  /** Receipt links, receipt e-mails, the receipt printer and its auto-print jobs (D16). */
  receipts: ReceiptRepository;
  /** The dashboard's sums and needs-attention counts (read only). */
  dashboard: DashboardRepository;
  /** Partners, shops, terminals and payment-method settings (D15). */
  partners: PartnerRepository;
  shops: ShopRepository;
  paymentMethodSettings: PaymentMethodSettingRepository;
}

/**
 * Units of work. `run` executes `work` atomically and resolves only after the unit is durably
 * committed; no network or file I/O may happen inside `work` (processor calls, postbacks and
 * e-mails happen outside it). `read` gives consistent reads outside any write unit.
 */
export interface Store {
  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * A unit of work whose statements are each atomic on their own and depend on no earlier read of
   * the unit: conditional upserts and updates of one row (lock-out counters, single-use approvals,
   * leases) and claims of queue rows (`FOR UPDATE SKIP LOCKED`). On PostgreSQL it runs at READ
   * COMMITTED: units racing for one row queue on its row lock and each sees the version the one
   * before committed (PostgreSQL re-checks an UPDATE's or upsert's condition on it), and claimers
   * pass over each other's locked rows, instead of failing a serialization check and running again
   * (those retries made a burst of guesses at one lock-out bucket from two instances about twice as
   * slow, tests/db/postgres-auth.test.ts). On SQLite it is `run`. `quiet`: wakes no commit listener
   * (a claim or a lease queues nothing new).
   */
  runAtomic<T>(work: (tx: Repositories) => Promise<T>, options?: { quiet?: boolean }): Promise<T>;
  read<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /**
   * Reads that need no snapshot in common, e.g. one statement: on PostgreSQL each statement runs on
   * its own (autocommit, one round trip, no BEGIN and COMMIT); on SQLite it is `read`.
   */
  readEach<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
