/** What the centre and the joined till need from storage (issue 26, parts 1 and 2; migration 29), and the till's connection to its centre. */
import type { ForwardEntry, HeartbeatAnswer, JoinAnswer, Replica, StoreLimits, TillReport } from '../../../contract/api/centre.js';
import type { PaymentRequest } from '../../../contract/api/payments.js';
import type { TillDayRecord } from '../reports/ports.js';
import type { Answer } from '../errors.js';
import type { IdempotencyUnit } from '../idempotency/ports.js';
import type { CredentialRepository, MerchantRepository } from '../merchants/ports.js';
import type { EventRepository, RefundRepository, TransactionRepository } from '../payments/ports.js';
import type { ReportsUnit } from '../reports/ports.js';
import type { StaffRepository } from '../staff/ports.js';
import type { TillLinkRecord, TillRepository } from '../tills/ports.js';

export type { TillDayRecord } from '../reports/ports.js';
export type { TillLinkRecord } from '../tills/ports.js';

/** A pairing code of the centre, by its SHA-256. */
export interface TillInviteRecord {
  codeHash: string;
  merchantId: string;
  tillId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface CentreRepository {
  insertInvite(invite: TillInviteRecord): Promise<void>;
  /** An unused, unexpired code, read only (the join's cheap check before any slow work). */
  openInvite(codeHash: string, now: string): Promise<boolean>;
  /** Uses an unused, unexpired code (one conditional update); the invite, or undefined. */
  useInvite(codeHash: string, now: string): Promise<TillInviteRecord | undefined>;
  /** Records the till's link, replacing an earlier one of the same till; the replaced link's credential id. */
  link(record: TillLinkRecord): Promise<string | undefined>;
  linkByCredential(credentialId: string): Promise<TillLinkRecord | undefined>;
  links(merchantId: string): Promise<TillLinkRecord[]>;
  seen(merchantId: string, tillId: string, at: string, version: string, report: TillReport): Promise<void>;
  forwarded(merchantId: string, tillId: string, at: string): Promise<void>;
  /** The store-and-forward limits of a joined till; false when it is not joined. */
  setLimits(merchantId: string, tillId: string, limits: StoreLimits): Promise<boolean>;
  /** Puts a forwarded decline on the "Needs attention" list; false when it is there already. */
  recordDecline(record: ForwardedDeclineRecord): Promise<boolean>;
  /** Marks it handled (one conditional update); false when unknown or handled already. */
  handleDecline(merchantId: string, transactionId: string, at: string, staffId: string | null): Promise<boolean>;
  /** Records a day a joined till closed and the entries it counted (D19); false when that day is recorded already. */
  recordTillDay(record: TillDayRecord, entryKeys: readonly string[]): Promise<boolean>;
  /** The last day of the till the centre has recorded. */
  latestTillDay(merchantId: string, tillId: string): Promise<TillDayRecord | undefined>;
  tillDay(merchantId: string, tillId: string, sequence: number): Promise<TillDayRecord | undefined>;
  /** Newest first. */
  tillDays(merchantId: string, tillId: string, limit: number, offset: number): Promise<TillDayRecord[]>;
  countTillDays(merchantId: string, tillId: string): Promise<number>;
}

/** A stored sale the bank declined when its till forwarded it (migration 30). */
export interface ForwardedDeclineRecord {
  transactionId: string;
  merchantId: string;
  tillId: string;
  staffId: string | null;
  orderId: string | null;
  amountMinor: number;
  currency: string;
  cardBrand: string | null;
  cardLastFour: string | null;
  message: string | null;
  storedAt: string;
  forwardedAt: string;
}

/** The centre this gateway is joined to, as a till. */
export interface CentreLinkRecord {
  centreUrl: string;
  /** SHA-256 of the centre's certificate (colon hex), pinned at the join; null for plain HTTP on loopback. */
  fingerprint: string | null;
  merchantId: string;
  tillId: string;
  apiKey: string;
  apiPasswordSealed: string;
  limits: StoreLimits;
  joinedAt: string;
  replicaDigest: string | null;
  /** How far the till has applied the centre's ledger of its sales (0 at the join). */
  ledgerCursor: number;
  /** The shop's till ids, from the centre's last replica (a stored sale may not name another, D20). */
  shopTillIds: readonly string[];
}

/** A card-present sale stored while the centre could not be reached. */
export interface StoredPaymentRecord {
  seq: number;
  transactionId: string;
  merchantId: string;
  tillId: string;
  staffId: string | null;
  orderId: string;
  amountMinor: number;
  currency: string;
  cardBrand: string | null;
  cardLastFour: string | null;
  /** The payment request (card data included), sealed by the data key; null once forwarded. */
  requestSealed: string | null;
  storedAt: string;
  forwardedAt: string | null;
  /** How it ended at the centre (3 completed, 6 declined, ...). */
  outcomeStatusCode: number | null;
  outcomeMessage: string | null;
  /** When the till's cashier saw a forwarded decline. */
  seenAt: string | null;
}

export interface TillJournalRepository {
  link(): Promise<CentreLinkRecord | undefined>;
  saveLink(record: CentreLinkRecord): Promise<void>;
  setLimits(limits: StoreLimits): Promise<void>;
  setReplicaDigest(digest: string): Promise<void>;
  /** How far this till has applied its centre's ledger of its sales (D19). */
  setLedgerCursor(cursor: number): Promise<void>;
  /** Appends a stored payment; its seq is the next number. */
  store(record: Omit<StoredPaymentRecord, 'seq'>): Promise<number>;
  /** The oldest payments not forwarded yet, in seq order. */
  unforwarded(limit: number): Promise<StoredPaymentRecord[]>;
  /** Count, oldest and totals per currency of what is not forwarded yet. */
  pending(): Promise<{ count: number; oldestAt: string | null; totals: Array<{ currency: string; amountMinor: number }> }>;
  /** Records the centre's outcome and drops the request's card data; false when it was recorded already. */
  settle(seq: number, at: string, statusCode: number, message: string | null): Promise<boolean>;
  byTransaction(transactionId: string): Promise<StoredPaymentRecord | undefined>;
  /** Forwarded payments the centre declined that the till has not shown yet. */
  unseenDeclines(): Promise<StoredPaymentRecord[]>;
  markSeen(seq: number, at: string): Promise<void>;
  /** Puts the centre's replica in place: the merchant (with `webhookKeySealed` when new), its API credentials and staff. */
  /** The shop's till ids, from the centre's last replica (D20). */
  setShopTills(tillIds: readonly string[]): Promise<void>;
  /** A payment passed on to the centre without an answer (may be charged there): never stored. */
  markUnsettled(key: string, at: string, requestSealed: string, staffId: string | null): Promise<void>;
  clearUnsettled(key: string): Promise<void>;
  isUnsettled(key: string): Promise<boolean>;
  /** The sealed request and cashier of a sale sent without an answer. */
  unsettled(key: string): Promise<{ requestSealed: string | null; staffId: string | null } | undefined>;
}

/** How a sale sent to the centre ended there, when its answer was lost (POST /centre/fence). */
export type CentreFence = { state: 'in_flight' } | { state: 'not_run' } | { state: 'processed'; answer: Answer };

// ---- the till's connection to its centre (main/infra/centre-connection.ts) ----

/** The centre did not answer (network, timeout, 5xx): the till stores meanwhile. */
export class CentreAwayError extends Error {
  override name = 'CentreAwayError';
  /** The request may have reached the centre before the answer was lost. */
  constructor(
    message: string,
    readonly maybeDelivered = false,
  ) {
    super(message);
  }
}

/** The centre answered with a refusal (a revoked credential, an unknown pairing code): said as it is. */
export class CentreRefusedError extends Error {
  override name = 'CentreRefusedError';
  constructor(
    message: string,
    /** What the refusal was: the pairing code or address unknown there, or refused for its fields. */
    readonly reason: 'not_found' | 'refused',
    readonly errors: Array<{ field: string; message: string }>,
  ) {
    super(message);
  }
}

/** The till's credential at its centre, and where the centre is. */
export interface CentreAccess {
  url: string;
  fingerprint: string | null;
  apiKey: string;
  apiPassword: string;
}

/** The calls a till makes to its centre (main/infra/centre-connection.ts); CentreAwayError when it does not answer. */
export interface CentreConnection {
  join(url: string, code: string, version: string): Promise<{ answer: JoinAnswer; fingerprint: string | null }>;
  heartbeat(access: CentreAccess, report: TillReport): Promise<HeartbeatAnswer>;
  replica(access: CentreAccess): Promise<Replica>;
  forward(
    access: CentreAccess,
    entries: ForwardEntry[],
  ): Promise<{ results: Array<{ seq: number; transaction_id: string; status_code: number; message: string | null; refused?: string }> }>;
  /** POST /centre/fence: how a sale sent with this key ended there (its key fenced). */
  fence(access: CentreAccess, key: string): Promise<CentreFence>;
  /** POST /rest/payment at the centre; its answer as it came (its kind and body). */
  pay(
    access: CentreAccess,
    request: PaymentRequest,
    idempotencyKey: string | undefined,
    staffId: string | null,
    repeatConfirmed: boolean,
  ): Promise<Answer>;
  /** Passes a request on to the centre as it came (POS software's own credentials); the answer as it came. */
  relay(access: CentreAccess, request: RelayedRequest): Promise<RelayedAnswer>;
}

export interface RelayedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RelayedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * The centre feature's view of a unit of work: its pairing codes, links, forwarded declines and
 * tills' days (as a centre), its journal (as a till); the records of a till's sales it keeps
 * (payments), the tills, staff and credentials a join or a replica names, and the ledger a till
 * closes its days by.
 */
export interface CentreUnit extends IdempotencyUnit, ReportsUnit {
  centre: CentreRepository;
  journal: TillJournalRepository;
  merchants: Pick<MerchantRepository, 'get' | 'keepReplica'>;
  credentials: Pick<CredentialRepository, 'insert' | 'revoke' | 'listByMerchant' | 'keepReplica'>;
  transactions: Pick<TransactionRepository, 'getById' | 'insert' | 'transition' | 'addRefund' | 'recentForOrder'>;
  events: Pick<EventRepository, 'append'>;
  refunds: Pick<RefundRepository, 'insert' | 'listByTransaction'>;
  tills: Pick<TillRepository, 'get' | 'insert' | 'listByMerchant'>;
  staff: Pick<StaffRepository, 'get' | 'listByMerchant' | 'keepReplica'>;
  tillAttempts: { open(merchantId: string, tillId: string): Promise<object | undefined> };
}
