/**
 * The gateway core: every feature's use cases wired to the ports. Both hosts (Electron and the
 * headless CLI) build it through compose.ts; transports (HTTP, IPC) call only this object.
 */
import { Authenticator, type LockoutPolicy } from './merchants/authenticator.js';
import { Merchants } from './merchants/merchants.js';
import { Partners } from './merchants/partners.js';
import { PaymentMethods } from './payment-methods/payment-methods.js';
import { Idempotency } from './idempotency/idempotency.js';
import { Mandates } from './mandates/mandates.js';
import { OperationLocks } from './locks.js';
import { Operations } from './idempotency/operation-runner.js';
import { DEFAULT_PAYMENT_SETTINGS, Payments, type PaymentSettings } from './payments/payments.js';
import type { Clock, Ids, Logger, QrCodes, Vault } from './kernel.js';
import type { Processor } from './payments/ports.js';
import type { Store } from './unit-of-work.js';
import type { CentreUnit } from './centre/ports.js';
import type { CheckoutsUnit } from './checkouts/ports.js';
import type { DashboardUnit } from './dashboard/ports.js';
import type { IdempotencyUnit } from './idempotency/ports.js';
import type { InvoicesUnit } from './invoices/ports.js';
import type { MailUnit } from './mail/ports.js';
import type { MandatesUnit } from './mandates/ports.js';
import type { MerchantsUnit } from './merchants/ports.js';
import type { NetworkTokensUnit } from './network-tokens/ports.js';
import type { PaymentMethodsUnit } from './payment-methods/ports.js';
import type { PaymentsUnit } from './payments/ports.js';
import type { PostbacksUnit } from './postbacks/ports.js';
import type { ReceiptsUnit } from './receipts/ports.js';
import type { ReportsUnit } from './reports/ports.js';
import type { SettingsUnit } from './settings/ports.js';
import type { StaffUnit } from './staff/ports.js';
import type { TillUnit } from './till-attempts/ports.js';
import type { TillsUnit } from './tills/ports.js';
import type { TransactionsUnit } from './transactions/ports.js';
import { Scheduler } from './scheduler.js';
import { DEFAULT_DELIVERY_SETTINGS, PostbackDelivery, type DeliverySettings, type PostbackSender } from './postbacks/delivery.js';
import { Postbacks } from './postbacks/postbacks.js';
import { PostbackBackOffice } from './postbacks/back-office.js';
import { Staff } from './staff/staff.js';
import { DayReports } from './reports/day-reports.js';
import { Checkouts } from './checkouts/checkouts.js';
import { NetworkTokens } from './network-tokens/network-tokens.js';
import { Invoices } from './invoices/invoices.js';
import { InvoicePayments } from './invoices/invoice-payments.js';
import { TransactionQueries } from './transactions/queries.js';
import { TransactionExport } from './transactions/export.js';
import { TillAttempts } from './till-attempts/attempts.js';
import { Tills } from './tills/tills.js';
import { Instances } from './instances.js';
import { Centre } from './centre/centre.js';
import { CentreAwayError, type CentreConnection } from './centre/ports.js';
import { TillLink } from './centre/till-link.js';

/** A gateway without a way to reach a centre: joining answers that the centre does not answer. */
const NO_CENTRE: CentreConnection = {
  join: () => Promise.reject(new CentreAwayError('this gateway cannot reach a centre')),
  heartbeat: () => Promise.reject(new CentreAwayError('no centre')),
  replica: () => Promise.reject(new CentreAwayError('no centre')),
  forward: () => Promise.reject(new CentreAwayError('no centre')),
  fence: () => Promise.reject(new CentreAwayError('no centre')),
  pay: () => Promise.reject(new CentreAwayError('no centre')),
  relay: () => Promise.reject(new CentreAwayError('no centre')),
};
import { DEFAULT_MAIL_QUEUE_SETTINGS, MailQueue, type MailQueueSettings } from './mail/mail-queue.js';
import type { Mailer, SmtpMailerFactory } from './mail/ports.js';
import type { ReceiptPrinter } from './receipts/ports.js';
import { merchantMailer } from './mail/merchant-mailer.js';
import { BackOfficeSettings } from './settings/back-office-settings.js';
import { Receipts } from './receipts/receipts.js';
import { DEFAULT_PRINT_QUEUE_SETTINGS, ReceiptPrintQueue, type PrintQueueSettings } from './receipts/print-queue.js';
import { Dashboard } from './dashboard/dashboard.js';
import { hostTimeZone } from './dashboard/periods.js';

/**
 * One unit of work as the database adapters implement it: every feature's view at once
 * (db/repositories.ts). Each feature is handed the same store typed with its own view only.
 */
export type GatewayUnit = CentreUnit &
  CheckoutsUnit &
  DashboardUnit &
  IdempotencyUnit &
  InvoicesUnit &
  MailUnit &
  MandatesUnit &
  MerchantsUnit &
  NetworkTokensUnit &
  PaymentMethodsUnit &
  PaymentsUnit &
  PostbacksUnit &
  ReceiptsUnit &
  ReportsUnit &
  SettingsUnit &
  StaffUnit &
  TillUnit &
  TillsUnit &
  TransactionsUnit;

export interface CoreSettings {
  idempotencyRetentionMs: number;
  lockout: LockoutPolicy;
  payments?: Partial<PaymentSettings>;
  postbacks?: Partial<DeliverySettings>;
  /** Invoice e-mail retries (D11). */
  mail?: Partial<MailQueueSettings>;
  /** Postbacks to loopback and private addresses (docs/postbacks.md "Address policy"); default allow. */
  postbackPrivateAddresses?: 'allow' | 'deny';
  /** Auto-print retries of receipts (D16). */
  receiptPrints?: Partial<PrintQueueSettings>;
  /** The shop's time zone (IANA name) for the dashboard's days; default the host's. */
  timeZone?: string;
  /**
   * Names this instance in the claims it takes on the outbox and the mail queue (host and process,
   * e.g. `till-1:4242`), so an operator sees who holds a claim; default `gateway`.
   */
  instanceName?: string;
  /** No other process can use the database (SQLite's data-directory lock): claims of other instances are dead. */
  exclusiveDatabase?: boolean;
}

export interface CoreDeps {
  store: Store<GatewayUnit>;
  clock: Clock;
  ids: Ids;
  vault: Vault;
  logger: Logger;
  processor: Processor;
  postbackSender: PostbackSender;
  /** Base URL of the hosted pages (known once the host listens). */
  publicUrl: () => string;
  /** How a till reaches its centre (main/infra/centre-connection.ts); absent: this gateway cannot join one. */
  centreConnection?: CentreConnection;
  /** The Test environment's movable clock (`--sim-clock movable`): POST /test/clock moves it forward. */
  movableClock?: MovableClockControl;
  /** This gateway's version (a till reports it to its centre). */
  version?: string;
  /** The SHA-256 fingerprint of the certificate this gateway serves HTTPS with, or null (plain HTTP): pairing codes pin it. */
  tlsFingerprint?: () => string | null;
  /** Renders the invoices' QR codes. */
  qrCodes: QrCodes;
  settings: CoreSettings;
  /** Sends invoice e-mails (SMTP or the local test outbox): the host's mailer. */
  mailer: Mailer;
  /** Makes a mailer for a merchant's SMTP server set in the back office (absent: the host's mailer only). */
  smtpMailer?: SmtpMailerFactory;
  /** ESC/POS receipt printers (network or USB). */
  receiptPrinter: ReceiptPrinter;
}

/** Moves a Test environment's clock forward; the total offset in ms. */
export interface MovableClockControl {
  advance(ms: number): number;
}

export interface Gateway {
  readonly store: Store<GatewayUnit>;
  readonly clock: Clock;
  readonly movableClock: MovableClockControl | undefined;
  readonly logger: Logger;
  readonly merchants: Merchants;
  /** Partners, shops and terminals (D15). */
  readonly partners: Partners;
  /** The payment-method catalog and the merchants' and shops' settings (D15). */
  readonly paymentMethods: PaymentMethods;
  readonly auth: Authenticator;
  readonly idempotency: Idempotency;
  readonly operations: Operations;
  readonly transactions: TransactionQueries;
  /** CSV export of the transaction list, streamed a chunk at a time. */
  readonly transactionExport: TransactionExport;
  readonly mandates: Mandates;
  readonly payments: Payments;
  readonly scheduler: Scheduler;
  readonly postbackDelivery: PostbackDelivery;
  readonly postbacks: Postbacks;
  /** The back office's Postbacks area: the delivery log, resends, the webhook key, the Test environment's outbox. */
  readonly postbackBackOffice: PostbackBackOffice;
  readonly staff: Staff;
  /** X and Z reports: closing the day at a till (D16). */
  readonly dayReports: DayReports;
  readonly checkouts: Checkouts;
  readonly invoices: Invoices;
  /** The invoice e-mail queue (D11). */
  readonly mailQueue: MailQueue;
  /** Payment plans and the invoices' pay page payments (D11). */
  readonly invoicePayments: InvoicePayments;
  /** Network tokens and their cryptograms (D12). */
  readonly networkTokens: NetworkTokens;
  /** The tills' card attempts, resolved before a sale is charged again (D16). */
  readonly tillAttempts: TillAttempts;
  readonly tills: Tills;
  /** As a centre: pairing codes, joined tills, forwarded sales. */
  readonly centre: Centre;
  /** As a till: the centre it is joined to (unlinked: an ordinary gateway). */
  readonly tillLink: TillLink;
  /** This process among the gateway's instances (claims, beats). */
  readonly instances: Instances;
  /** Receipts rebuilt from the record: show, print, e-mail, QR link (D16). */
  readonly receipts: Receipts;
  /** Auto-print of approved card-present sales (D16). */
  readonly receiptPrints: ReceiptPrintQueue;
  /** The back office's dashboard: a period's figures and what needs attention. */
  readonly dashboard: Dashboard;
  /** The back office's Settings: profile, channels, API credentials, SMTP, the audit viewer. */
  readonly settings: BackOfficeSettings;
}

export function createGateway(deps: CoreDeps): Gateway {
  const { store, clock, ids, vault, logger, settings, processor } = deps;
  const instances = new Instances(store, clock, ids, settings.instanceName ?? 'gateway', settings.exclusiveDatabase === true);
  const idempotency = new Idempotency(store, clock, settings.idempotencyRetentionMs, instances);
  const scheduler = new Scheduler(store, clock, ids, logger);
  const auth = new Authenticator(store, clock, settings.lockout);
  const locks = new OperationLocks(store, clock, ids, logger);
  const instanceName = settings.instanceName ?? 'gateway';
  const postbackDelivery = new PostbackDelivery(
    store,
    clock,
    ids,
    vault,
    deps.postbackSender,
    logger,
    { ...DEFAULT_DELIVERY_SETTINGS, ...settings.postbacks },
    instanceName,
  );
  const mandates = new Mandates(store, clock, ids, vault);
  const paymentSettings = { ...DEFAULT_PAYMENT_SETTINGS, ...settings.payments };
  const receipts = new Receipts({
    store,
    clock,
    ids,
    logger,
    qrCodes: deps.qrCodes,
    printer: deps.receiptPrinter,
    publicUrl: deps.publicUrl,
  });
  const paymentMethods = new PaymentMethods({ store, clock, ids });
  const networkTokens = new NetworkTokens({
    store,
    clock,
    ids,
    vault,
    scheduler,
    simDelayMs: () => paymentSettings.simDelayMs,
    localPostbacks: settings.postbackPrivateAddresses !== 'deny',
  });
  const payments = new Payments({
    store,
    clock,
    ids,
    vault,
    processor,
    scheduler,
    mandates,
    locks,
    logger,
    settings: paymentSettings,
    methods: paymentMethods,
    tokenCryptograms: networkTokens,
    autoPrints: (repos, merchantId) => receipts.autoPrints(store.viewOf(repos), merchantId),
    cardPresentApproved: (tx, sale) => receipts.queueAutoPrint(store.viewOf(tx), sale),
  });
  const operations = new Operations({ store, idempotency, ids, clock });
  const timeZone = settings.timeZone ?? hostTimeZone();
  const staff = new Staff(store, clock, ids, auth, timeZone, vault);
  const backOfficeSettings = new BackOfficeSettings({
    store,
    clock,
    ids,
    vault,
    auth,
    staff,
    publicUrl: deps.publicUrl,
    ...(deps.smtpMailer ? { smtpMailer: deps.smtpMailer } : {}),
  });
  const mailer = merchantMailer(deps.mailer, (merchantId) => backOfficeSettings.smtpServer(merchantId), deps.smtpMailer);
  const tillLink = new TillLink({
    store,
    clock,
    ids,
    vault,
    logger,
    connection: deps.centreConnection ?? NO_CENTRE,
    version: deps.version ?? '0.0.0',
  });
  return {
    store,
    clock,
    movableClock: deps.movableClock,
    logger,
    merchants: new Merchants(store, clock, ids, vault),
    partners: new Partners(store, clock, ids),
    paymentMethods,
    auth,
    idempotency,
    operations,
    transactions: new TransactionQueries(store),
    mandates,
    payments,
    scheduler,
    postbackDelivery,
    postbacks: new Postbacks(store, clock, vault, postbackDelivery),
    postbackBackOffice: new PostbackBackOffice({ store, clock, ids, vault, delivery: postbackDelivery, processor }),
    staff,
    transactionExport: new TransactionExport(store, clock, staff),
    dayReports: new DayReports(store, clock, ids),
    checkouts: new Checkouts({
      store,
      clock,
      ids,
      payments,
      methods: paymentMethods,
      operations,
      scheduler,
      publicUrl: deps.publicUrl,
      qrCodes: deps.qrCodes,
    }),
    invoices: new Invoices({ store, clock, ids, publicUrl: deps.publicUrl, qrCodes: deps.qrCodes }),
    mailQueue: new MailQueue(store, clock, ids, mailer, logger, { ...DEFAULT_MAIL_QUEUE_SETTINGS, ...settings.mail }, instanceName),
    invoicePayments: new InvoicePayments({
      store,
      clock,
      ids,
      payments,
      methods: paymentMethods,
      operations,
      locks,
      publicUrl: deps.publicUrl,
    }),
    networkTokens,
    tillAttempts: new TillAttempts(store, clock, ids, idempotency, tillLink),
    tills: new Tills(store, clock, ids),
    centre: new Centre({ store, clock, ids, payments, operations, idempotency, auth, fingerprint: deps.tlsFingerprint ?? (() => null) }),
    tillLink,
    instances,
    receipts,
    receiptPrints: new ReceiptPrintQueue(store, clock, receipts, deps.receiptPrinter, logger, {
      ...DEFAULT_PRINT_QUEUE_SETTINGS,
      ...settings.receiptPrints,
    }),
    dashboard: new Dashboard({ store, clock, timeZone }),
    settings: backOfficeSettings,
  };
}
