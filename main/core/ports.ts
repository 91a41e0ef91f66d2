/**
 * What the core needs from outside. Adapters (db/, main/processor, main/http, main/electron)
 * implement these; the core never imports an adapter. Repositories are async so that a
 * PostgreSQL adapter can implement them unchanged; the SQLite adapter resolves synchronously.
 */
import type { CentreRepository, TillJournalRepository } from './centre/ports.js';
import type { InstanceRepository, TillRepository } from './tills/ports.js';
import type {
  CheckoutStatus,
  EmailStatus,
  ExpiryUnit,
  InvoiceEmailType,
  InvoiceLocale,
  InvoiceStatus,
  MethodCapabilityName,
  NetworkTokenStatus,
  PlanStatus,
  StaffRole,
  SUBSCRIPTION_STATUSES,
} from '../../contract/constants.js';
import type { TransactionResponse } from '../../contract/api/payments.js';
import type { Reply } from './errors.js';

export interface Clock {
  now(): Date;
}

export interface Ids {
  /** Time-ordered unique id (UUIDv7): appends to B-trees instead of scattering. */
  newId(): string;
  /** Random bytes as base64url text, for secrets. */
  randomToken(bytes: number): string;
}

/** Symmetric encryption at rest (decisions.md D13): AES-256-GCM under the data key. */
export interface Vault {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** Keyed one-way fingerprint (HMAC) for finding equal secrets without storing them, e.g. a card. */
  fingerprint(plaintext: string): string;
}

export interface Logger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

// ---- records ---------------------------------------------------------------------------------

export interface MerchantRecord {
  id: string;
  name: string;
  /** Webhook key, sealed by the Vault. */
  webhookKeySealed: string;
  /** Previous webhook key, valid until `previousWebhookKeyUntil` (rotation grace of 24 h). */
  previousWebhookKeySealed: string | null;
  previousWebhookKeyUntil: string | null;
  /** Merchant currency (CVM limit, defaults). */
  currency: string;
  createdAt: string;
  /** The partner who manages this merchant (decisions.md D15); absent or null: none. */
  partnerId?: string | null;
  /** The merchant's default language (migration 20); new channels start with it. Absent: en. */
  language?: 'en' | 'de' | 'pt';
}

export type CredentialKind = 'merchant' | 'partner';

export interface CredentialRecord {
  id: string;
  merchantId: string | null;
  kind: CredentialKind;
  apiKey: string;
  /** scrypt hash text: scrypt$N$r$p$salt$hash */
  passwordHash: string;
  createdAt: string;
  revokedAt: string | null;
  /** A partner credential's partner (kind `partner`). */
  partnerId?: string | null;
}

export interface ChannelRecord {
  id: string;
  merchantId: string;
  urlName: string;
  name: string;
  currency: string;
  language: 'en' | 'de' | 'pt';
  senderEmail: string | null;
  createdAt: string;
  /** The number invoices answer as `channel_id` (assigned by the database on insert). */
  publicId?: number;
}

export interface IdempotencyRecord {
  merchantId: string;
  key: string;
  fingerprint: string;
  reply: Reply;
  createdAt: string;
  expiresAt: string;
  /** A claim's own id (a record whose reply status is 0), so its request removes only its own claim. */
  claimId?: string | null;
}

export interface MandateRecord {
  id: string;
  merchantId: string;
  reference: string;
  paymentType: 'dd' | 'dd_b2b';
  recurring: boolean;
  firstName: string | null;
  lastName: string | null;
  accountHolder: string;
  /** IBAN, sealed by the Vault. */
  ibanSealed: string;
  ibanLastFour: string;
  bic: string | null;
  email: string | null;
  mandateDate: string;
  createdAt: string;
}

/** Where a started transaction sends its customer (the API's `client_action` and `action_data`). */
export type ClientAction = Required<Pick<TransactionResponse, 'client_action' | 'action_data'>>;

/** The customer step a started transaction waits for: the hosted card page, 3-D Secure, or an approval page. */
export type AwaitedStep = 'card' | '3ds' | 'approval';

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** What a card-present payment's terminal and chip said (receipts, day reports, the entry mode column). */
export interface PosDetails {
  entry_mode: CardEntryMode;
  /** The request's terminal; db/migrations/0014 and the day report read `terminal.id` from the stored JSON. */
  terminal: { id: string | null; type: string | null; attended: boolean | null; capabilities: string[] };
  aid?: string;
  application_label?: string;
  /** `online_pin` when the bank checked a PIN block (a wrong one declines): the receipt says "PIN verified". */
  cvm?: 'online_pin';
}

/** A subscription change above the current amount, waiting for the customer's approval. */
export interface PendingRevision {
  amount_minor: number;
  subscription_plan_id?: string;
}

/**
 * Per-type data of a transaction beside its columns: never card data. Every field is optional; a
 * transaction has those its type and its history set. Stored as one JSON object whose keys are
 * these names (the `details` column): the SQL of the day report and of migration 0014 reads
 * `$.pos.entry_mode`, `$.pos.terminal.id` and `$.staff_id` from it, so the names are the stored keys.
 */
export interface TransactionDetails {
  // ---- the request ----
  /** Customer fields of the request (first_name, email, country, ...), as sent. */
  customer?: Record<string, string>;
  /** Wallet authorizations: the event the merchant captures on (SHIPPING, DELIVERY, ...). */
  wallet_capture_event?: string;
  /** Card-present payments: entry mode, terminal, chip application, verification. */
  pos?: PosDetails;
  /** The staff member who took a till sale (the day report counts it for them). */
  staff_id?: string;
  /** A sale a till stored while its centre was away, forwarded later (issue 26): where and when it was taken. */
  stored?: { till_id: string; seq: number; stored_at: string };
  /** The shop whose payment-method setting applied (its terminal's shop at the time, D15). */
  shop_id?: string;
  // ---- customer steps ----
  /** Set while the transaction is started and waits for the customer; removed when the step ends. */
  awaiting?: AwaitedStep;
  /** Where to send the customer for the awaited step; answered while the transaction is started. */
  client_action?: ClientAction;
  // ---- the processor's answers ----
  /** Approval code of an approved card authorization (responses, receipts). */
  authorization_code?: string;
  /** The network's (or payout's) reference; follow-ups send it to the processor, postbacks show it. */
  external_transaction_id?: string;
  /** A contactless payment declined for online PIN (1A): the till inserts the card when true. */
  pin_required?: { insert_card: boolean };
  /** The network token (D12) whose cryptogram paid. */
  network_token_id?: string;
  // ---- direct debits and payouts ----
  /** Last four of the debited or credited IBAN. */
  iban_last_four?: string;
  /** A payout's recipient as sent (names, address, e-mail, account holder), plus `payer_of` and `account_reference` when it pays back an a2a payer. */
  recipient?: Record<string, string>;
  // ---- wallet, a2a and bank approvals (postback fields) ----
  wallet_activity_reference?: string;
  wallet_account_reference?: string;
  remittance_info?: string;
  /** Sent in postbacks when present; this gateway does not set it yet. */
  payer_location?: string;
  // ---- wallet subscriptions ----
  subscription_plan_id?: string;
  subscription_status?: SubscriptionStatus;
  /** The subscription's amount after revisions; absent: the transaction's amount. */
  subscription_amount_minor?: number;
  pending_revision?: PendingRevision;
  // ---- links to the feature that started the payment ----
  /** The checkout session (its customer page) the payment belongs to. */
  checkout_id?: string;
  /** What the customer entered on the checkout page. */
  checkout_customer?: Record<string, string>;
  /** The invoice (its number) the pay page started the payment for, and the instalment. */
  invoice_id?: number;
  instalment?: number;
}

export interface TransactionRecord {
  id: string;
  merchantId: string;
  paymentType: string;
  /** Which request created it: payment, authorize, register, payout. */
  operation: string;
  statusCode: number;
  orderId: string | null;
  currency: string;
  amountMinor: number;
  authorizedMinor: number;
  capturedMinor: number;
  refundedMinor: number;
  reversedMinor: number;
  feesMinor: number;
  recurring: 0 | 1;
  parentId: string | null;
  sepaMandate: string | null;
  sepaMsgId: string | null;
  message: string | null;
  reasonCode: string | null;
  additionalTransactionData: string | null;
  merchantReference: string | null;
  postbackUrl: string | null;
  successUrl: string | null;
  errorUrl: string | null;
  cardBrand: string | null;
  cardLastFour: string | null;
  cardBin: string | null;
  cardExpiryMonth: number | null;
  cardExpiryYear: number | null;
  /** Stored card reference (PAN and expiry), sealed by the Vault; only for recurring use. */
  cardSealed: string | null;
  /** Vault fingerprint of the PAN (same card, same fingerprint). */
  cardFingerprint: string | null;
  /** Per-type data beside the columns (customer, wallet, pos, links): never card data. */
  details: TransactionDetails;
  /** The number of the invoice this payment pays, as it was then (invoice payments only; searchable). */
  invoiceNumber: string | null;
  createdAt: string;
  updatedAt: string;
  /** When a pending customer action or an authorization runs out (D2). */
  expiresAt: string | null;
}

export interface TransactionFilter {
  from?: string;
  to?: string;
  statusCodes?: number[];
  currency?: string;
  orderId?: string;
  paymentTypes?: string[];
  cardLastFour?: string;
  /**
   * Amount bounds in ten-thousandths of a unit of each row's currency (12.50 EUR and 12.500 KWD are
   * both 125000), so one bound fits every currency (db/migrations/0016-transaction-search.ts).
   */
  amountScaled?: { exact?: number; min?: number; max?: number };
  /** A transaction id, an order id or a card's last four: rows that have it as any of these. */
  search?: { id?: string; orderId: string; cardLastFour?: string; invoiceNumber?: string };
  /** Keyset paging: rows after this one in the list's order (created_at, id descending). */
  after?: { createdAt: string; id: string };
  limit: number;
  offset: number;
}

export interface EventRecord {
  id: string;
  transactionId: string;
  type: string;
  status: number;
  amountMinor: number;
  executionDate: string | null;
  message: string | null;
  createdAt: string;
}

export interface OutboxRecord {
  id: string;
  merchantId: string;
  /** transaction, token or checkout */
  subjectType: string;
  subjectId: string;
  /** The order id the body carries (transactions and checkouts; null for tokens): the log shows it and finds it. */
  orderId: string | null;
  sequence: number;
  url: string;
  payload: Record<string, unknown>;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  createdAt: string;
  deliveredAt?: string | null;
  lastError?: string | null;
  /** Set by a resend: the 3-day retry window restarts here instead of at createdAt. */
  retryFrom?: string | null;
  /** Attempts since the window started (creation or the last resend); picks the retry delay. */
  windowAttempts?: number;
}

export interface PostbackAttemptRecord {
  id: string;
  outboxId: string;
  attempt: number;
  httpStatus: number | null;
  outcome: 'delivered' | 'failed' | 'refused';
  error: string | null;
  durationMs: number;
  createdAt: string;
  /** The signed body as sent (migration 19; null for attempts made before it). */
  requestBody?: string | null;
  /** The headers the body was sent and signed with (migration 19; null before it). */
  requestHeaders?: Record<string, string> | null;
  /** The retry this attempt scheduled; null when none followed (delivered, refused, given up). */
  nextAttemptAt?: string | null;
}

export interface OutboxFilter {
  state?: OutboxRecord['state'];
  since?: string;
  limit: number;
}

/**
 * The back office's delivery log (decisions.md "Back office: postbacks and outbox"): by status
 * (`retrying` and `queued` are pending records with and without an attempt), kind of subject and
 * created range, newest first, a page at a time.
 */
export interface OutboxPageFilter {
  status?: 'queued' | 'retrying' | 'delivered' | 'failed';
  subjectType?: string;
  createdFrom?: string;
  createdTo?: string;
  /** The search box: records with this order id, or (`id`, a pasted id) this subject or event id. */
  search?: { orderId: string; id?: string };
}

/** "Resend all failed since": which postbacks one request queued again (migration 19). */
export interface PostbackResendRecord {
  id: string;
  merchantId: string;
  staffId: string | null;
  since: string;
  total: number;
  createdAt: string;
}

/** How far a resend has come: its postbacks attempted since it was made, and how they ended. */
export interface PostbackResendProgress {
  attempted: number;
  delivered: number;
  /** Attempted, not delivered: retrying again or failed. */
  failing: number;
}

/** One thing the gateway sent, for the Test environment's outbox: an e-mail or a postback attempt. */
export interface SentItemRecord {
  kind: 'email' | 'receipt_email' | 'postback';
  id: string;
  at: string;
  /** Recipient address or postback URL. */
  target: string;
  /** Subject of an e-mail; kind of subject of a postback (transaction, token, checkout). */
  title: string;
  /** Postbacks: the HTTP status; null for e-mails and for attempts without an answer. */
  httpStatus: number | null;
  /** E-mails: test_outbox or sent (SMTP); postbacks: delivered, failed or refused. */
  outcome: string;
  /** Postbacks: the event (outbox record) id. */
  eventId: string | null;
}

// ---- repositories ----------------------------------------------------------------------------

export interface MerchantRepository {
  insert(merchant: MerchantRecord): Promise<void>;
  /** Replaces the webhook key; the previous one stays valid until `previousUntil`. */
  rotateWebhookKey(id: string, sealed: string, previousSealed: string, previousUntil: string): Promise<void>;
  get(id: string): Promise<MerchantRecord | undefined>;
  list(): Promise<MerchantRecord[]>;
  /** Gives the merchant to a partner (or to none). */
  setPartner(id: string, partnerId: string | null): Promise<void>;
  /** The merchant's profile: name, default currency and language. */
  updateProfile(id: string, profile: { name: string; currency: string; language: 'en' | 'de' | 'pt' }): Promise<void>;
}

export interface CredentialRepository {
  insert(credential: CredentialRecord): Promise<void>;
  findActiveByApiKey(apiKey: string): Promise<CredentialRecord | undefined>;
  /** A merchant's API credentials (revoked ones too), oldest first. */
  listByMerchant(merchantId: string): Promise<CredentialRecord[]>;
  get(id: string): Promise<CredentialRecord | undefined>;
  /** Revokes a credential; false when it was revoked already. */
  revoke(id: string, at: string): Promise<boolean>;
}

export interface ChannelRepository {
  insert(channel: ChannelRecord): Promise<void>;
  findByUrlName(urlName: string): Promise<ChannelRecord | undefined>;
  listByMerchant(merchantId: string): Promise<ChannelRecord[]>;
  /** Changes a channel's name, currency, language and sender (its url_name stays). */
  update(channel: ChannelRecord): Promise<void>;
}

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

export interface IdempotencyRepository {
  find(merchantId: string, key: string, now: string): Promise<IdempotencyRecord | undefined>;
  /** Writes the record, replacing what the key held (a claim, an expired record). */
  save(record: IdempotencyRecord): Promise<void>;
  /**
   * Writes `record` when the key is free or its record expired at `now`, in one statement (atomic
   * on either engine); true when written, false when a live record (a reply, a fence, an older
   * version's claim) holds it. The reply of an operation is written so, in the operation's own unit.
   */
  take(record: IdempotencyRecord, now: string): Promise<boolean>;
  /**
   * Removes the key's claim `claimId` (a record whose reply status is 0, written by versions before
   * claims moved into the operation's unit), leaving a stored reply alone.
   */
  deleteClaim(merchantId: string, key: string, claimId: string): Promise<void>;
  deleteExpired(now: string): Promise<number>;
}

/**
 * Leases on keys (migration 21): one money movement at a time per object across every gateway
 * instance on the database. A lease is taken only when no live one holds the key, and lapses at
 * `expiresAt` if its holder never releases it (the instance died).
 */
export interface OperationLockRepository {
  /** Takes the lease on `key` for `holder` when it is free or lapsed at `now`; true when taken. */
  acquire(key: string, holder: string, now: string, expiresAt: string): Promise<boolean>;
  /** Gives the lease back, if `holder` still holds it. */
  release(key: string, holder: string): Promise<void>;
}

export interface MandateRepository {
  insert(mandate: MandateRecord): Promise<void>;
  findByReference(merchantId: string, reference: string): Promise<MandateRecord | undefined>;
}

/** Details fields a change sets (to a value) or removes (null); the others keep their stored values. */
export type DetailsChange = { [K in keyof TransactionDetails]?: TransactionDetails[K] | null };

/** Fields a status change may set besides the status. */
export interface TransactionChange {
  statusCode: number;
  message?: string | null;
  reasonCode?: string | null;
  authorizedMinor?: number;
  capturedMinor?: number;
  feesMinor?: number;
  sepaMsgId?: string | null;
  cardBrand?: string | null;
  cardLastFour?: string | null;
  cardBin?: string | null;
  cardExpiryMonth?: number | null;
  cardExpiryYear?: number | null;
  cardSealed?: string | null;
  cardFingerprint?: string | null;
  /** Replaces the whole details object (a status change from an allowed status excludes any other writer). */
  details?: TransactionDetails;
  expiresAt?: string | null;
}

export interface TransactionRepository {
  insert(transaction: TransactionRecord): Promise<void>;
  get(merchantId: string, id: string): Promise<TransactionRecord | undefined>;
  /** By id alone: only for the customer-facing pages, which know the id from their URL. */
  getById(id: string): Promise<TransactionRecord | undefined>;
  list(merchantId: string, filter: TransactionFilter): Promise<TransactionRecord[]>;
  /** How many rows the filter matches (after `after`, if given; limit and offset ignored). */
  count(merchantId: string, filter: TransactionFilter): Promise<number>;
  /** Most recent transaction of an order (PIN retry). */
  latestForOrder(merchantId: string, orderId: string): Promise<TransactionRecord | undefined>;
  /** Status change guarded by the allowed source statuses; false when the row was not in one of them. */
  transition(id: string, from: readonly number[], change: TransactionChange, now: string): Promise<boolean>;
  /** Adds a capture if the sum stays within the authorization; sets the status. */
  addCapture(id: string, amountMinor: number, statusCode: number, now: string): Promise<boolean>;
  /** Adds a refund if the sum stays within the captured amount; status 7 when all is refunded, else 8. */
  addRefund(id: string, amountMinor: number, now: string): Promise<boolean>;
  /** Releases part or all of an uncaptured authorization; status 5 when nothing is left, else 4. */
  addReversal(id: string, amountMinor: number, now: string): Promise<boolean>;
  /**
   * A wallet subscription change: sets and removes details fields in one statement, only while the
   * subscription status (`details.subscription_status`) is one of `from`; false when it was not.
   */
  changeSubscription(id: string, from: readonly SubscriptionStatus[], change: DetailsChange, now: string): Promise<boolean>;
}

export interface RefundRecord {
  id: string;
  transactionId: string;
  merchantId: string;
  amountMinor: number;
  /** 0 started, 1 success, 2 error */
  statusCode: 0 | 1 | 2;
  merchantRefundId: string | null;
  merchantReference: string | null;
  executionDate: string | null;
  processorReference: string | null;
  createdAt: string;
}

export interface RefundRepository {
  insert(refund: RefundRecord): Promise<void>;
  listByTransaction(transactionId: string): Promise<RefundRecord[]>;
}

export interface ScheduledTask {
  id: string;
  kind: string;
  subjectId: string;
  merchantId: string;
  dueAt: string;
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

export interface TaskRepository {
  insert(task: ScheduledTask): Promise<void>;
  due(now: string, limit: number): Promise<ScheduledTask[]>;
  /**
   * Takes a due task for one runner: moves its due time from `dueAt` (as the runner read it) to
   * `until`, the end of the runner's lease. False when another runner (another instance) took it
   * first or it is no longer pending. A runner that dies leaves the task due again at `until`.
   */
  claim(id: string, dueAt: string, until: string): Promise<boolean>;
  nextDueAt(): Promise<string | undefined>;
  finish(id: string, state: 'done' | 'failed', lastError: string | null): Promise<void>;
  retry(id: string, dueAt: string, lastError: string): Promise<void>;
  /** Marks pending tasks of a subject done (e.g. an expiry after the customer finished). */
  cancelPending(subjectId: string, kind: string): Promise<void>;
}

export interface PinSecurityRepository {
  recordFailure(merchantId: string, cardFingerprint: string, at: string): Promise<void>;
  failuresSince(merchantId: string, cardFingerprint: string, since: string): Promise<number>;
  findKey(merchantId: string, zoneId: string, keyId: string): Promise<string | undefined>;
}

export interface FeeSchedule {
  percentBasisPoints: number;
  fixedMinor: number;
}

export interface EventRepository {
  append(event: EventRecord): Promise<void>;
  /** Two entries in one statement (a one-step payment's authorization and capture). */
  appendPair(first: EventRecord, second: EventRecord): Promise<void>;
  listByTransaction(transactionId: string): Promise<EventRecord[]>;
}

/** An outbox record as the core queues it: the database numbers it within its subject. */
export type NewOutboxRecord = Omit<OutboxRecord, 'sequence'>;

export interface OutboxRepository {
  /**
   * Queues a record with the next sequence number of its subject (transaction, token, checkout),
   * numbered in the same statement that inserts it (no read of the last number first); the unique
   * (subject_type, subject_id, sequence) refuses a number given twice.
   */
  append(record: NewOutboxRecord): Promise<void>;
  get(merchantId: string, id: string): Promise<OutboxRecord | undefined>;
  /**
   * Claims up to `limit` pending records that are due at `now` and under no live claim (none, or
   * its lease ended before `now`), in due order, for `claim`; returns them in due order. Run in
   * `store.claim`.
   */
  claimDue(now: string, claim: QueueClaim, limit: number): Promise<OutboxRecord[]>;
  /** Gives a claimed record back unsent (if the claim is still `claimedBy`'s). */
  release(id: string, claimedBy: string): Promise<void>;
  nextDueAt(): Promise<string | undefined>;
  listBySubject(merchantId: string, subjectType: string, subjectId: string): Promise<OutboxRecord[]>;
  list(merchantId: string, filter: OutboxFilter): Promise<OutboxRecord[]>;
  /**
   * Records the result of an attempt (delivered, pending again at `nextAttemptAt`, or failed) and
   * clears the claim, only while the record is still claimed by `claimedBy`; false (nothing
   * changed) when the claim was lost (its lease ended and another instance took it, or a resend).
   */
  settle(id: string, claimedBy: string, state: OutboxRecord['state'], nextAttemptAt: string, lastError: string | null, deliveredAt: string | null): Promise<boolean>;
  /** Queues a record again now (resend), keeping its history; clears any claim. */
  requeue(id: string, now: string): Promise<boolean>;
  appendAttempt(attempt: PostbackAttemptRecord): Promise<void>;
  listAttempts(outboxId: string): Promise<PostbackAttemptRecord[]>;
  /** The latest attempt of a record (time and HTTP status only), or undefined before the first. */
  lastAttempt(outboxId: string): Promise<Pick<PostbackAttemptRecord, 'createdAt' | 'httpStatus'> | undefined>;
  /** The back office's log: a page of the merchant's records, newest first (created_at, id). */
  page(merchantId: string, filter: OutboxPageFilter, limit: number, offset: number): Promise<OutboxRecord[]>;
  count(merchantId: string, filter: OutboxPageFilter): Promise<number>;
  /** One attempt of one of the merchant's postbacks, with its record's id. */
  getAttempt(merchantId: string, attemptId: string): Promise<PostbackAttemptRecord | undefined>;
  insertResend(record: PostbackResendRecord, outboxIds: readonly string[]): Promise<void>;
  getResend(merchantId: string, id: string): Promise<PostbackResendRecord | undefined>;
  resendProgress(resend: PostbackResendRecord): Promise<PostbackResendProgress>;
  /** The Test environment's outbox: sent e-mails (invoice and receipt) and postback attempts, newest first. */
  sentItems(merchantId: string, kind: 'email' | 'postback' | undefined, limit: number, offset: number): Promise<SentItemRecord[]>;
  countSentItems(merchantId: string, kind: 'email' | 'postback' | undefined): Promise<number>;
}


export interface StaffRecord {
  id: string;
  merchantId: string;
  login: string;
  displayName: string;
  role: StaffRole;
  passwordHash: string;
  pinHash: string | null;
  createdAt: string;
  disabledAt: string | null;
}

export interface StaffSessionRecord {
  /** SHA-256 of the session token; the token itself is only in the cookie. */
  id: string;
  staffId: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

/** A manager's single-use approval of one action at the till (migration 23). */
export interface ApprovalRecord {
  /** SHA-256 of the approval token; the token itself is only given to the till. */
  id: string;
  merchantId: string;
  action: string;
  approverId: string;
  createdAt: string;
  expiresAt: string;
}

export interface AuditRecord {
  id: string;
  merchantId: string;
  staffId: string | null;
  approvedBy: string | null;
  action: string;
  subjectId: string | null;
  detail: string | null;
  createdAt: string;
  /** The partner whose credentials made the change (merchant management). */
  partnerId?: string | null;
  /** What the subject was before and after the change (JSON-able), for changes of settings. */
  oldValue?: unknown;
  newValue?: unknown;
}

export interface StaffRepository {
  insert(staff: StaffRecord): Promise<void>;
  findByLogin(login: string): Promise<StaffRecord | undefined>;
  get(id: string): Promise<StaffRecord | undefined>;
  listByMerchant(merchantId: string): Promise<StaffRecord[]>;
  setPinHash(id: string, pinHash: string): Promise<void>;
  insertSession(session: StaffSessionRecord): Promise<void>;
  getSession(id: string): Promise<StaffSessionRecord | undefined>;
  touchSession(id: string, lastSeenAt: string): Promise<void>;
  revokeSession(id: string, at: string): Promise<void>;
  audit(record: AuditRecord): Promise<void>;
  listAudit(merchantId: string, limit: number): Promise<AuditRecord[]>;
  setPasswordHash(id: string, passwordHash: string): Promise<void>;
  disable(id: string, at: string): Promise<void>;
  /** Ends every open session of a staff member but `exceptSessionId`; returns how many ended. */
  revokeSessionsOf(staffId: string, at: string, exceptSessionId?: string): Promise<number>;
  /** One page of the audit log, newest first, and how many entries match. */
  auditPage(merchantId: string, filter: AuditFilter): Promise<{ records: AuditRecord[]; total: number }>;
  /** The actions the merchant's audit log holds, by name. */
  auditActions(merchantId: string): Promise<string[]>;
  insertApproval(approval: ApprovalRecord): Promise<void>;
  /**
   * Uses an approval of this merchant and action that is unused and not expired at `now`, in one
   * conditional update (so across instances it is used once), recording `usedFor` (the request's
   * idempotency key, or null); answers the approver's staff id, or undefined when it was not usable.
   */
  useApproval(id: string, merchantId: string, action: string, now: string, usedFor: string | null): Promise<string | undefined>;
  /** The approver of an approval already used by a request with idempotency key `usedFor`, while it has not expired. */
  approvalUsedFor(id: string, merchantId: string, action: string, now: string, usedFor: string): Promise<string | undefined>;
  /** Deletes approvals that expired before `now`; returns how many. */
  deleteExpiredApprovals(now: string): Promise<number>;
}

/** One lock-out bucket's attempts (migration 23). Times are ISO 8601 UTC. */
export interface AuthFailureRecord {
  bucket: string;
  /** Attempts of the current window, each counted when it began (a success gives its slot back). */
  count: number;
  windowStart: string;
  lockedUntil: string | null;
}

/**
 * The lock-out counters of every instance on the database. Each method is one statement, atomic on
 * its own: run them with `Store.runAtomic`.
 */
export interface AuthFailureRepository {
  /**
   * Takes one slot of a bucket that is not locked at `now`, in one conditional upsert: a new window
   * (count 1) when the bucket is new, its window began at or before `windowCutoff` or its lock is
   * over, else count + 1; the lock `lockUntil` when the count reaches `maxFailures`. Undefined when
   * the bucket is locked (nothing changes then).
   */
  take(bucket: string, now: string, windowCutoff: string, maxFailures: number, lockUntil: string): Promise<AuthFailureRecord | undefined>;
  /**
   * Gives back a slot taken at `windowStart` (the attempt succeeded): count - 1, and the lock goes
   * when the count falls below `maxFailures` again (it was that slot that locked the bucket).
   * Nothing when the bucket has begun another window since. Answers the row as it is then.
   */
  giveBack(bucket: string, windowStart: string, maxFailures: number): Promise<AuthFailureRecord | undefined>;
  get(bucket: string): Promise<AuthFailureRecord | undefined>;
  /** Deletes buckets whose window began at or before `windowCutoff` and that are not locked at `now`. */
  deleteStale(windowCutoff: string, now: string): Promise<number>;
}

/** The audit viewer's filters (each optional) and page. */
export interface AuditFilter {
  staffId?: string;
  action?: string;
  /** ISO 8601, inclusive. */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

/** A till's card attempt whose outcome the till must know before it charges again (D16). */
export interface TillAttemptRecord {
  id: string;
  merchantId: string;
  terminalId: string;
  staffId: string | null;
  orderId: string;
  idempotencyKey: string;
  amountMinor: number;
  currency: string;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
  outcome: 'approved' | 'not_charged' | null;
  transactionId: string | null;
}

export interface TillAttemptRepository {
  /** The till's open (unresolved) attempt. */
  open(merchantId: string, terminalId: string): Promise<TillAttemptRecord | undefined>;
  insert(attempt: TillAttemptRecord): Promise<void>;
  /** The same sale's next request (PIN retry, another card): a new key; only while open. */
  rekey(id: string, idempotencyKey: string, staffId: string | null, now: string): Promise<boolean>;
  /** Closes the attempt once its outcome is known; false when it was already closed. */
  resolve(id: string, outcome: 'approved' | 'not_charged', transactionId: string | null, now: string): Promise<boolean>;
}


export interface CheckoutRecord {
  id: string;
  merchantId: string;
  status: CheckoutStatus;
  orderId: string;
  currency: string;
  amountMinor: number;
  taxesMinor: number;
  shippingMinor: number;
  totalMinor: number;
  transactionId: string | null;
  successUrl: string;
  errorUrl: string;
  /** Null for a session the back office opened (a phone or e-mail order): no merchant postback. */
  postbackUrl: string | null;
  locale: string | null;
  /** The session request as given (names, flags, instructions, prefill): no card data. */
  request: Record<string, unknown>;
  /** What the customer entered on the page (collect_* fields). */
  customer: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

export interface CheckoutRepository {
  insert(record: CheckoutRecord): Promise<void>;
  get(id: string): Promise<CheckoutRecord | undefined>;
  /** Status change guarded by the allowed source statuses. */
  transition(id: string, from: readonly CheckoutStatus[], status: CheckoutStatus, now: string, change?: { transactionId?: string | null; customer?: Record<string, string> }): Promise<boolean>;
  byTransaction(transactionId: string): Promise<CheckoutRecord | undefined>;
  /** The merchant's sessions, newest first (created_at, id). */
  list(merchantId: string, filter: CheckoutFilter): Promise<CheckoutRecord[]>;
  count(merchantId: string, filter: Omit<CheckoutFilter, 'limit' | 'offset'>): Promise<number>;
}

export interface CheckoutFilter {
  status?: CheckoutStatus;
  createdFrom?: string;
  createdTo?: string;
  limit: number;
  offset: number;
}

/** QR code rendering (an adapter: the `qrcode` package in main/infra). */
export interface QrCodes {
  /** `data:image/png;base64,...` of a QR code holding `text`, `width` pixels wide. */
  pngDataUrl(text: string, width: number): Promise<string>;
}


/** An invoice (interface.md "Invoice"); `id` is assigned by the store on insert. */
export interface InvoiceRecord {
  id: number;
  uuid: string;
  merchantId: string;
  channelId: string;
  debtClaimNumber: string;
  active: boolean;
  status: InvoiceStatus;
  /** YYYY-MM-DD */
  printDate: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  email: string | null;
  phone: string | null;
  taxId: string | null;
  customerId: string | null;
  address: string | null;
  address2: string | null;
  postalCode: string | null;
  city: string | null;
  state: string | null;
  /** ISO 3166-1 alpha-2; the API answers with the English name. */
  country: string | null;
  amountMinor: number;
  currency: string;
  description: string | null;
  redirectAfterPayments: boolean;
  successUrl: string | null;
  errorUrl: string | null;
  expiresIn: number | null;
  expiresInUnit: ExpiryUnit | null;
  /** created_at + expires_in, or null when the invoice does not expire. */
  expiresAt: string | null;
  locale: InvoiceLocale | null;
  sendInitialEmail: boolean;
  initialEmailType: InvoiceEmailType | null;
  importId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** An invoice as read, with what its channel contributes to the response. */
export interface StoredInvoice extends InvoiceRecord {
  channelPublicId: number;
  channelUrlName: string;
  channelLanguage: InvoiceLocale;
}

export interface InvoiceFilter {
  channelId?: string;
  status?: InvoiceStatus;
  /** Inclusive lower bound of created_at (ISO 8601). */
  createdFrom?: string;
  /** Exclusive upper bound of created_at (ISO 8601). */
  createdBefore?: string;
  limit: number;
  offset: number;
}


export interface PaymentPlanRecord {
  id: string;
  invoiceId: number;
  status: PlanStatus;
  installments: number;
  interval: 'week' | 'month';
  createdAt: string;
  updatedAt: string;
}

/** The fields an invoice update writes; every other column keeps its stored value. */
export type InvoiceChanges = Partial<Omit<InvoiceRecord, 'id' | 'createdAt' | 'updatedAt'>> & { updatedAt: string };

/** Conditions an invoice update applies under, checked by the update statement itself. */
export interface InvoiceUpdateGuard {
  /** Only while the invoice has one of these statuses. */
  statuses?: readonly InvoiceStatus[];
  /** Only while no payment plan was ever attached to the invoice. */
  withoutPlans?: boolean;
}

export interface InvoiceRepository {
  /** Inserts and returns the stored invoice with its id. */
  insert(record: Omit<InvoiceRecord, 'id'>): Promise<StoredInvoice>;
  /**
   * Writes the given fields of an invoice in one statement (never the whole row as read before), if
   * the guard holds; answers the stored invoice, or undefined when nothing was written (no such
   * invoice, or the guard did not hold).
   */
  update(id: number, changes: InvoiceChanges, guard?: InvoiceUpdateGuard): Promise<StoredInvoice | undefined>;
  delete(id: number): Promise<void>;
  get(id: number): Promise<StoredInvoice | undefined>;
  /** Number resolution within a merchant: the active invoice with the number, else the most recently created. */
  resolve(merchantId: string, debtClaimNumber: string): Promise<StoredInvoice | undefined>;
  /** The active invoice holding a number in a channel, other than `exceptId`. */
  activeHolder(channelId: string, debtClaimNumber: string, exceptId?: number): Promise<StoredInvoice | undefined>;
  /** Deactivates every active invoice holding the number in the channel except `exceptId`; returns how many. */
  deactivateNumber(channelId: string, debtClaimNumber: string, now: string, exceptId?: number): Promise<number>;
  /** Whether any invoice (active or not) of the channel has the number. */
  numberUsed(channelId: string, debtClaimNumber: string): Promise<boolean>;
  /** Advances the channel's counter of generated numbers and returns the new value (1, 2, ...). */
  nextNumber(channelId: string): Promise<number>;
  list(merchantId: string, filter: InvoiceFilter): Promise<StoredInvoice[]>;
  count(merchantId: string, filter: Omit<InvoiceFilter, 'limit' | 'offset'>): Promise<number>;
  insertPlan(plan: PaymentPlanRecord): Promise<void>;
  plans(invoiceId: number): Promise<PaymentPlanRecord[]>;
  setPlanStatus(id: string, status: PlanStatus, now: string): Promise<void>;
  /** The invoice behind a pay link. */
  byUuid(uuid: string): Promise<StoredInvoice | undefined>;
}

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
 * A unit of work could not be stored: the disk is full, the data directory is read-only, or the
 * file system failed. Nothing of the unit was written; the gateway answers 503 and works again by
 * itself once the storage does. Store adapters throw it; `reason` says which in plain words.
 */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
  constructor(readonly reason: 'full' | 'read_only' | 'io') {
    super(reason === 'full' ? 'the disk of the data directory is full' : reason === 'read_only' ? 'the data directory is read-only' : 'the data directory cannot be written');
  }
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

/** A queue row claimed by one instance until `claimUntil` (outbox, mail queue; migration 22). */
export interface QueueClaim {
  /** Who holds the claim: an instance's id and its claim batch. */
  claimedBy: string;
  /** ISO 8601: when the lease ends and another instance may take the row over. */
  claimUntil: string;
}

// ---- processor (acquirer, networks, issuers, banks, HSM) ---------------------------------------
// The Test environment implements this with a deterministic simulator (main/processor); a
// production connector implements the same interface. Every method may reject when the
// processor is unreachable; the core answers 502 / 5001 then and changes nothing.

export type CardEntryMode = 'ecommerce' | 'contactless' | 'chip' | 'swipe' | 'manual' | 'stored' | 'devicewallet';

export interface CardData {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
  cvv?: string;
  holder?: string;
}

export interface EncryptedPin {
  format: 'ISO-0';
  /** 16 hex characters, TDES-ECB under `key`. */
  block: string;
  /** Double-length TDES key (16 bytes) named by zone_id + key_id, from the terminal key store. */
  key: Buffer;
}

export interface CardAuthorizationRequest {
  reference: string;
  card: CardData;
  entry: CardEntryMode;
  amountMinor: number;
  currency: string;
  /** Contactless payments above this need online PIN (CVM limit), in minor units. */
  cvmLimitMinor: number;
  /** True when the request is a customer-initiated e-commerce payment that passed a 3-D Secure challenge. */
  threeDSecureAuthenticated: boolean;
  pin?: EncryptedPin;
  walletCryptogram?: { cryptogram: string; eci: string };
  /** A sale its till stored while the centre was away, authorized now that it is forwarded. */
  stored?: boolean;
}

export type CardDecision =
  | { outcome: 'approved'; authorizationCode: string; networkReference: string }
  | { outcome: 'declined'; code: string; text: string }
  /** 3-D Secure challenge needed before the issuer decides (e-commerce). */
  | { outcome: 'challenge' }
  /** Soft decline 1A: online PIN needed; `insertCard` when the card must be inserted for it. */
  | { outcome: 'pin_required'; insertCard: boolean }
  /** Technical failure at the processor (status 11 error). */
  | { outcome: 'error'; text: string };

export interface DirectDebitRequest {
  reference: string;
  iban: string;
  bic: string | null;
  mandateReference: string;
  b2b: boolean;
  amountMinor: number;
  currency: string;
}

export type DirectDebitSubmission =
  | { outcome: 'accepted'; messageId: string }
  | { outcome: 'rejected'; code: string; text: string };

export type DirectDebitResult = { outcome: 'settled' } | { outcome: 'returned'; code: string; text: string };

export type RedirectMethod = 'cardecom' | 'threeds' | 'wallet' | 'a2a' | 'bankredirect' | 'register';

export interface FollowUpRequest {
  reference: string;
  networkReference: string | null;
  amountMinor: number;
  currency: string;
}

export type FollowUpResult = { outcome: 'approved'; reference: string } | { outcome: 'declined'; code: string; text: string };

export interface Processor {
  readonly name: string;
  /** `test`: the Test environment's simulator (D6), whose outbox the back office shows; absent means production. */
  readonly environment?: 'test' | 'production';
  authorizeCard(request: CardAuthorizationRequest): Promise<CardDecision>;
  capture(request: FollowUpRequest): Promise<FollowUpResult>;
  reverse(request: FollowUpRequest): Promise<FollowUpResult>;
  refund(request: FollowUpRequest): Promise<FollowUpResult>;
  /** Card credit (cardpos) or account-to-account transfer; its result arrives after the simulated delay. */
  payout(request: FollowUpRequest & { method: string }): Promise<FollowUpResult>;
  submitDirectDebit(request: DirectDebitRequest): Promise<DirectDebitSubmission>;
  /** Asked when the settlement date has come (after the simulated delay). */
  directDebitResult(request: DirectDebitRequest): Promise<DirectDebitResult>;
  /** Where the customer approves a redirect payment (wallet, a2a, bankredirect) or enters card data. */
  redirectUrl(method: RedirectMethod, reference: string): string;
  /**
   * Test environment only: the answer of a card-present payment with this card never reaches the
   * terminal (fault injection to rehearse the till's unknown-outcome screens). Absent in production.
   */
  dropsTerminalAnswer?(pan: string): boolean;
}

// ---- invoice e-mails (decisions.md D11) ---------------------------------------------------------


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
  settle(id: string, claimedBy: string, change: Pick<EmailRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'sentAt' | 'lastError' | 'testOutbox'>): Promise<boolean>;
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

// ---- network tokens (decisions.md D12, D13) -----------------------------------------------------


/** One network token (migration 0011). Card and token numbers are only held sealed. */
export interface NetworkTokenRecord {
  id: string;
  merchantId: string;
  status: NetworkTokenStatus;
  type: 'merchant';
  network: string;
  provider: string;
  /** Vault fingerprint of the card number: the same card for the same merchant. */
  cardFingerprint: string;
  /** Sealed JSON `{ pan, expiryMonth, expiryYear }`. */
  cardSealed: string;
  /** Vault fingerprint of the token number: finds the token of a payment. */
  tokenFingerprint: string;
  /** Sealed JSON `{ number, expiryMonth, expiryYear }`. */
  tokenSealed: string;
  paymentAccountReference: string;
  /** Holder and billing fields of the request (no card data). */
  billing: Record<string, string>;
  postbackUrl: string | null;
  errorCode: string | null;
  errorDetail: string | null;
  lastTokenRefresh: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NetworkTokenFilter {
  status?: NetworkTokenStatus;
  network?: string;
  createdFrom?: string;
  createdTo?: string;
  limit: number;
  offset: number;
}

/** One step of a token's status history: created, a status change, or a refresh by the token service. */
export interface NetworkTokenEventRecord {
  event: 'created' | 'status' | 'refreshed';
  status: NetworkTokenStatus;
  createdAt: string;
}

export interface CryptogramRecord {
  id: string;
  tokenId: string;
  type: 'TAVV' | 'DSRP';
  /** Keyed hash of the authentication data; the value itself is never stored. */
  hash: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface NetworkTokenRepository {
  insert(record: NetworkTokenRecord): Promise<void>;
  get(id: string): Promise<NetworkTokenRecord | undefined>;
  /** The merchant's newest token for this card among the given statuses. */
  byCard(merchantId: string, cardFingerprint: string, statuses: NetworkTokenStatus[]): Promise<NetworkTokenRecord | undefined>;
  /** The merchant's newest token with this token number (by fingerprint). */
  byTokenNumber(merchantId: string, tokenFingerprint: string): Promise<NetworkTokenRecord | undefined>;
  list(merchantId: string, filter: NetworkTokenFilter): Promise<NetworkTokenRecord[]>;
  count(merchantId: string, filter: Omit<NetworkTokenFilter, 'limit' | 'offset'>): Promise<number>;
  /**
   * Guarded status change; true when the token was in one of `from`. A change that took place adds
   * a step to the token's history: `refreshed` when `lastTokenRefresh` is given, else `status`.
   */
  transition(
    id: string,
    from: NetworkTokenStatus[],
    status: NetworkTokenStatus,
    now: string,
    change?: { errorCode?: string | null; errorDetail?: string | null; lastTokenRefresh?: string },
  ): Promise<boolean>;
  /** The token's status history, oldest first (written by insert and transition). */
  events(id: string): Promise<NetworkTokenEventRecord[]>;
  insertCryptogram(record: CryptogramRecord): Promise<void>;
  findCryptogram(tokenId: string, hash: string): Promise<CryptogramRecord | undefined>;
  /** Marks an unused cryptogram used; false when it was already used. */
  useCryptogram(id: string, now: string): Promise<boolean>;
}

// ---- closing the day at a till (X and Z reports, decisions.md D16) ------------------------------

export type DayFigureKind = 'approved' | 'declined' | 'refunded';

/**
 * One group of a till's ledger entries: what was approved (captured), declined or refunded, in
 * one currency, for one card brand, entry mode and cashier of the sale. Amounts in minor units.
 */
export interface DayLedgerGroup {
  kind: DayFigureKind;
  currency: string;
  cardBrand: string | null;
  entryMode: string | null;
  /** The staff member who took the sale; null for a sale sent with API credentials. */
  staffId: string | null;
  count: number;
  amountMinor: number;
}

/** Where a day starts and ends in a till's ledger: entries after `fromSeq` up to and including `toSeq`. */
export interface DayLedgerRange {
  fromSeq: number;
  toSeq: number;
}

export interface DaySpan {
  first: string | null;
  last: string | null;
  firstSale: string | null;
  lastSale: string | null;
}

/** The figures of a closed day exactly as they were written at the close (stored as JSON). */
export interface DayFigures {
  groups: DayLedgerGroup[];
  /** Display names of the cashiers in `groups` at the close. */
  staffNames: Record<string, string>;
  /** The shop's name at the close, for the printed report. */
  shopName: string;
  firstEntryAt: string | null;
  lastEntryAt: string | null;
  /** The first and last approved sale (absent from days closed before sales were told from refunds). */
  firstSaleAt?: string | null;
  lastSaleAt?: string | null;
}

/** A closed day of one till (migration 0014); never updated or deleted. */
export interface ZReportRecord {
  id: string;
  merchantId: string;
  terminalId: string;
  /** 1, 2, 3, ... per merchant and till. */
  sequence: number;
  fromSeq: number;
  toSeq: number;
  /** When the previous Z report closed; null for a till's first. */
  openedAt: string | null;
  closedAt: string;
  closedBy: string;
  approvedBy: string | null;
  /** The caller's idempotency key: a retried close answers with this report instead of closing again. */
  closeKey: string | null;
  figures: DayFigures;
}

export interface DayReportRepository {
  /** The till's newest ledger position (0 before its first entry): the watermark a close ends at. */
  watermark(merchantId: string, terminalId: string): Promise<number>;
  /** The ledger entries of a range, grouped for the figures (sums of minor units in SQL). */
  groups(merchantId: string, terminalId: string, range: DayLedgerRange): Promise<DayLedgerGroup[]>;
  /** Time of the first and last entry of a range. */
  /** When the range's counted entries began and ended, and its approved sales. */
  span(merchantId: string, terminalId: string, range: DayLedgerRange): Promise<DaySpan>;
  /** Sales a joined till stored in a range (its own copies), by status and currency: pending (13), forwarded, declined. */
  storedSales(merchantId: string, terminalId: string, range: DayLedgerRange): Promise<Array<{ statusCode: number; currency: string; count: number; amountMinor: number }>>;
  latestZ(merchantId: string, terminalId: string): Promise<ZReportRecord | undefined>;
  getZ(merchantId: string, terminalId: string, sequence: number): Promise<ZReportRecord | undefined>;
  findZByKey(merchantId: string, terminalId: string, closeKey: string): Promise<ZReportRecord | undefined>;
  /** Newest first. */
  listZ(merchantId: string, terminalId: string, limit: number, offset: number): Promise<ZReportRecord[]>;
  countZ(merchantId: string, terminalId: string): Promise<number>;
  insertZ(record: ZReportRecord): Promise<void>;
}

// ---- receipts (decisions.md D16: rebuilt from the gateway's record) -----------------------------

/** The customer's link to a receipt page: an unguessable token for one sale or refund. */
export interface ReceiptLinkRecord {
  token: string;
  merchantId: string;
  /** The sale's transaction id or the refund's id. */
  receiptId: string;
  transactionId: string;
  createdAt: string;
}

/** One receipt e-mail of the mail queue (migration 0013); no card data beyond brand and last four. */
export interface ReceiptEmailRecord {
  id: string;
  merchantId: string;
  receiptId: string;
  transactionId: string;
  locale: string;
  recipient: string;
  subject: string;
  bodyText: string;
  status: EmailStatus;
  attempts: number;
  nextAttemptAt: string;
  sentAt: string | null;
  lastError: string | null;
  testOutbox: boolean;
  createdAt: string;
}

/** A merchant's ESC/POS receipt printer; no row: no printer. */
export interface ReceiptPrinterRecord {
  merchantId: string;
  connection: 'network' | 'usb';
  host: string | null;
  port: number | null;
  device: string | null;
  charactersPerLine: number;
  autoPrint: boolean;
  updatedAt: string;
}

/** The automatic print of an approved sale's receipt: written in the sale's unit of work, once per sale. */
export interface ReceiptPrintJobRecord {
  id: string;
  merchantId: string;
  receiptId: string;
  status: 'queued' | 'printed' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  printedAt: string | null;
  createdAt: string;
}

export interface ReceiptRepository {
  /** A refund of the merchant (a refund receipt's record). */
  refund(merchantId: string, refundId: string): Promise<RefundRecord | undefined>;
  insertLink(record: ReceiptLinkRecord): Promise<void>;
  linkFor(merchantId: string, receiptId: string): Promise<ReceiptLinkRecord | undefined>;
  linkByToken(token: string): Promise<ReceiptLinkRecord | undefined>;
  insertEmail(record: ReceiptEmailRecord): Promise<void>;
  getEmail(id: string): Promise<ReceiptEmailRecord | undefined>;
  /** Claims up to `limit` queued e-mails due at `now` under no live claim, oldest first (as OutboxRepository.claimDue). */
  claimDueEmails(now: string, claim: QueueClaim, limit: number): Promise<ReceiptEmailRecord[]>;
  /** Gives a claimed e-mail back unsent (if the claim is still `claimedBy`'s). */
  releaseEmail(id: string, claimedBy: string): Promise<void>;
  /** Records the outcome of an attempt and clears the claim, only while `claimedBy` holds it; false when the claim was lost. */
  settleEmail(id: string, claimedBy: string, change: Pick<ReceiptEmailRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'sentAt' | 'lastError' | 'testOutbox'>): Promise<boolean>;
  /** A receipt's e-mails, newest first. */
  listEmails(merchantId: string, receiptId: string): Promise<ReceiptEmailRecord[]>;
  printer(merchantId: string): Promise<ReceiptPrinterRecord | undefined>;
  savePrinter(record: ReceiptPrinterRecord): Promise<void>;
  removePrinter(merchantId: string): Promise<void>;
  /** Inserts the sale's auto-print job; false when the receipt already has one. */
  insertPrintJob(record: ReceiptPrintJobRecord): Promise<boolean>;
  getPrintJob(id: string): Promise<ReceiptPrintJobRecord | undefined>;
  printJobFor(receiptId: string): Promise<ReceiptPrintJobRecord | undefined>;
  duePrintJobs(now: string, limit: number): Promise<ReceiptPrintJobRecord[]>;
  /**
   * Takes a due job, as it was listed, for one instance until `until` (it is not due again before
   * then): false when another instance or pass took it first. A taker that dies leaves it due again
   * at `until`.
   */
  claimPrintJob(job: Pick<ReceiptPrintJobRecord, 'id' | 'attempts' | 'nextAttemptAt'>, until: string): Promise<boolean>;
  settlePrintJob(id: string, change: Pick<ReceiptPrintJobRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'printedAt'>): Promise<void>;
}

/** Where a receipt printer is: ESC/POS over TCP (port 9100 style), or a USB printer's device file. */
export type PrinterTarget = { connection: 'network'; host: string; port: number } | { connection: 'usb'; device: string };

/** One printed line, laid out by the core for the printer's width. */
export interface PrintLine {
  text: string;
  align?: 'left' | 'center';
  bold?: boolean;
  /** Double height (the total). */
  tall?: boolean;
}

export interface PrintDocument {
  lines: PrintLine[];
}

export type PrinterOutcome = { kind: 'printed' } | { kind: 'failed'; message: string };

/** Prints on an ESC/POS receipt printer (an adapter: main/infra/receipt-printer.ts); never throws. */
export interface ReceiptPrinter {
  print(target: PrinterTarget, document: PrintDocument): Promise<PrinterOutcome>;
}

// ---- the back office's dashboard (docs/decisions.md "Dashboard") ---------------------------------

/** A stretch of time: from `from` (inclusive) to `to` (exclusive), UTC ISO 8601 instants. */
export interface TimeRange {
  from: string;
  to: string;
}

/**
 * The figures of one time range for one currency and payment type. Payment attempts (payments and
 * authorizations above 0; not account checks, payouts or PIN requests) count in the range they were
 * made in, with what became of them; refunds in the range they were made in. Sums in minor units.
 */
export interface DashboardFigureRow {
  /** Index of the range in the list asked for. */
  range: number;
  currency: string;
  paymentType: string;
  payments: number;
  approved: number;
  declined: number;
  /** Payments that took money (something captured). */
  captured: number;
  capturedMinor: number;
  refunds: number;
  refundedMinor: number;
}

export interface DashboardAttention {
  /** Postbacks whose attempts failed so far and that are retried. */
  postbacksRetrying: number;
  postbacksFailed: number;
  /** Active, unpaid invoices whose pay link expires by `until`; the soonest first. */
  invoicesExpiring: { count: number; items: Array<{ debtClaimNumber: string; expiresAt: string; amountMinor: number; currency: string }> };
  /** Invoices whose latest e-mail failed; the latest failures first. */
  invoiceEmailsFailed: { count: number; items: Array<{ debtClaimNumber: string; emailType: string; createdAt: string }> };
  tokensSuspended: number;
  /** Stored sales their till forwarded and the bank declined, not marked handled yet; the latest first. */
  forwardedDeclines: {
    count: number;
    items: Array<{
      transactionId: string;
      tillId: string;
      staffName: string | null;
      orderId: string | null;
      amountMinor: number;
      currency: string;
      cardBrand: string | null;
      cardLastFour: string | null;
      message: string | null;
      storedAt: string;
      forwardedAt: string;
    }>;
  };
  /** Authorizations still uncaptured (status 4) that expire by `until`; the soonest first. */
  authorizationsExpiring: { count: number; items: Array<{ transactionId: string; orderId: string | null; expiresAt: string; amountMinor: number; currency: string }> };
}

export interface DashboardRepository {
  /** The figures of each range (sums in SQL), one row per range, currency and payment type that has any. */
  figures(merchantId: string, ranges: readonly TimeRange[]): Promise<DashboardFigureRow[]>;
  /** What needs attention at `now`; "soon" is up to `until`; `examples` items at most per list. */
  attention(merchantId: string, now: string, until: string, examples: number): Promise<DashboardAttention>;
}

// ---- merchant management (decisions.md D15) ----------------------------------------------------

/** A reseller or POS vendor that manages merchants through the /v2 merchant-management paths. */
export interface PartnerRecord {
  id: string;
  name: string;
  createdAt: string;
}

export interface PartnerRepository {
  insert(partner: PartnerRecord): Promise<void>;
  get(id: string): Promise<PartnerRecord | undefined>;
  list(): Promise<PartnerRecord[]>;
}

/** A shop of a merchant: its terminals' payments belong to it. */
export interface ShopRecord {
  id: string;
  merchantId: string;
  name: string;
  createdAt: string;
}

export interface TerminalRecord {
  merchantId: string;
  terminalId: string;
  shopId: string;
  assignedAt: string;
}

export interface ShopRepository {
  insert(shop: ShopRecord): Promise<void>;
  get(id: string): Promise<ShopRecord | undefined>;
  listByMerchant(merchantId: string): Promise<ShopRecord[]>;
  /** The shop a terminal id of the merchant is assigned to. */
  terminal(merchantId: string, terminalId: string): Promise<TerminalRecord | undefined>;
  /** Assigns the terminal to the shop (moving it from another shop of the merchant). */
  assignTerminal(record: TerminalRecord): Promise<void>;
  /** False when the terminal was not assigned. */
  unassignTerminal(merchantId: string, terminalId: string): Promise<boolean>;
  terminals(merchantId: string): Promise<TerminalRecord[]>;
}

/** Capabilities of a payment method that settings can switch off (the contract's list). */
export type MethodCapability = MethodCapabilityName;

/**
 * One level's setting of a payment type: the merchant's (`shopId` null) or a shop's. Null (and a
 * key absent from a map) means "inherit from the level below".
 */
export interface PaymentMethodSettingRecord {
  id: string;
  merchantId: string;
  shopId: string | null;
  paymentType: string;
  enabled: boolean | null;
  currencies: string[] | null;
  countries: string[] | null;
  capabilities: Partial<Record<MethodCapability, boolean>>;
  /** Fixed fee in hundredths of a currency unit (scaled to the payment currency's exponent). */
  feeFixedMinor: number | null;
  feePercentBasisPoints: number | null;
  /** Contactless CVM limit per currency, in minor units of that currency (cardpos). */
  cvmLimitMinor: Record<string, number>;
  createdAt: string;
  updatedAt: string;
}

export interface PaymentMethodSettingRepository {
  get(merchantId: string, shopId: string | null, paymentType: string): Promise<PaymentMethodSettingRecord | undefined>;
  /** Every setting of one level (the merchant's, or a shop's). */
  listLevel(merchantId: string, shopId: string | null): Promise<PaymentMethodSettingRecord[]>;
  /** Inserts or replaces the level's setting of the type. */
  save(record: PaymentMethodSettingRecord): Promise<void>;
  /** False when the level had no setting of the type. */
  delete(merchantId: string, shopId: string | null, paymentType: string): Promise<boolean>;
}
