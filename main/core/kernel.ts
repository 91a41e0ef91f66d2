/**
 * The shared kernel of the core: what every feature may need from outside (time, ids, sealing,
 * logging, scheduled tasks, operation locks, queue claims, QR codes, the audit log's entries) and
 * the storage failure every unit of work can meet. Features keep their own records and repository
 * ports beside their use cases (main/core/<feature>/ports.ts).
 */
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

/** QR code rendering (an adapter: the `qrcode` package in main/infra). */
export interface QrCodes {
  /** `data:image/png;base64,...` of a QR code holding `text`, `width` pixels wide. */
  pngDataUrl(text: string, width: number): Promise<string>;
}

/**
 * A unit of work could not be stored: the disk is full, the data directory is read-only, or the
 * file system failed. Nothing of the unit was written; the gateway answers 503 and works again by
 * itself once the storage does. Store adapters throw it; `reason` says which in plain words.
 */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
  constructor(readonly reason: 'full' | 'read_only' | 'io') {
    super(
      reason === 'full'
        ? 'the disk of the data directory is full'
        : reason === 'read_only'
          ? 'the data directory is read-only'
          : 'the data directory cannot be written',
    );
  }
}

/** A queue row claimed by one instance until `claimUntil` (outbox, mail queue; migration 22). */
export interface QueueClaim {
  /** Who holds the claim: an instance's id and its claim batch. */
  claimedBy: string;
  /** ISO 8601: when the lease ends and another instance may take the row over. */
  claimUntil: string;
}

/** One entry of the audit log: who changed what, approved by whom; every feature that changes settings, staff or money writes them. */
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

/** The audit log (a kernel table every feature appends to; the staff feature's viewer reads it). */
export interface AuditLog {
  record(record: AuditRecord): Promise<void>;
}

/**
 * A postback queued for a merchant's URL: features that change a transaction, a token or a checkout
 * append one in the unit of the change; the postbacks feature delivers, retries and shows them.
 */
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

/** An outbox record as the core queues it: the database numbers it within its subject. */
export type NewOutboxRecord = Omit<OutboxRecord, 'sequence'>;

/** The outbox as the features that queue postbacks see it. */
export interface Outbox {
  /**
   * Queues a record with the next sequence number of its subject (transaction, token, checkout),
   * numbered in the same statement that inserts it (no read of the last number first); the unique
   * (subject_type, subject_id, sequence) refuses a number given twice.
   */
  append(record: NewOutboxRecord): Promise<void>;
}

/** The gateway processes on the database and when each was last seen (migration 28). */
export interface InstanceRepository {
  /** Records (or refreshes) this instance. */
  beat(id: string, now: string): Promise<void>;
  /** This instance stops. */
  remove(id: string): Promise<void>;
  /** Forgets every instance but `keep` (SQLite at start: no other process can hold the data). */
  removeOthers(keep: string): Promise<void>;
  /** Whether an instance was seen at or after `since`. */
  alive(id: string, since: string): Promise<boolean>;
  /** Whether an instance has beaten at all (and not stopped cleanly). */
  known(id: string): Promise<boolean>;
}
