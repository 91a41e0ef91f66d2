/**
 * What the core needs from outside. Adapters (db/, main/processor, main/http, main/electron)
 * implement these; the core never imports an adapter. Repositories are async so that a
 * PostgreSQL adapter can implement them unchanged; the SQLite adapter resolves synchronously.
 */
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
}

export interface IdempotencyRecord {
  merchantId: string;
  key: string;
  fingerprint: string;
  reply: Reply;
  createdAt: string;
  expiresAt: string;
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
  /** Extra per-type data (customer, wallet, pos meta): never card data. */
  details: Record<string, unknown>;
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
  sequence: number;
  url: string;
  payload: Record<string, unknown>;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  createdAt: string;
}

// ---- repositories ----------------------------------------------------------------------------

export interface MerchantRepository {
  insert(merchant: MerchantRecord): Promise<void>;
  get(id: string): Promise<MerchantRecord | undefined>;
  list(): Promise<MerchantRecord[]>;
}

export interface CredentialRepository {
  insert(credential: CredentialRecord): Promise<void>;
  findActiveByApiKey(apiKey: string): Promise<CredentialRecord | undefined>;
}

export interface ChannelRepository {
  insert(channel: ChannelRecord): Promise<void>;
  findByUrlName(urlName: string): Promise<ChannelRecord | undefined>;
  listByMerchant(merchantId: string): Promise<ChannelRecord[]>;
}

export interface IdempotencyRepository {
  find(merchantId: string, key: string, now: string): Promise<IdempotencyRecord | undefined>;
  save(record: IdempotencyRecord): Promise<void>;
  deleteExpired(now: string): Promise<number>;
}

export interface MandateRepository {
  insert(mandate: MandateRecord): Promise<void>;
  findByReference(merchantId: string, reference: string): Promise<MandateRecord | undefined>;
}

export interface TransactionRepository {
  insert(transaction: TransactionRecord): Promise<void>;
  get(merchantId: string, id: string): Promise<TransactionRecord | undefined>;
  list(merchantId: string, filter: TransactionFilter): Promise<TransactionRecord[]>;
}

export interface EventRepository {
  append(event: EventRecord): Promise<void>;
  listByTransaction(transactionId: string): Promise<EventRecord[]>;
}

export interface OutboxRepository {
  append(record: OutboxRecord): Promise<void>;
  /** Next sequence number for a subject (transaction, token, checkout). */
  nextSequence(subjectType: string, subjectId: string): Promise<number>;
}

export interface Repositories {
  merchants: MerchantRepository;
  credentials: CredentialRepository;
  channels: ChannelRepository;
  idempotency: IdempotencyRepository;
  mandates: MandateRepository;
  transactions: TransactionRepository;
  events: EventRepository;
  outbox: OutboxRepository;
}

/**
 * Units of work. `run` executes `work` atomically and resolves only after the unit is durably
 * committed; no network or file I/O may happen inside `work` (processor calls, postbacks and
 * e-mails happen outside it). `read` gives consistent reads outside any write unit.
 */
export interface Store {
  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  read<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
