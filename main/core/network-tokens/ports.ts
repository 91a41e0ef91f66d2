/**
 * Network tokens, their history and cryptograms (decisions.md D12, D13). Adapter: db/.
 */
import type { NetworkTokenStatus } from '../../../contract/constants.js';
import type { IdempotencyUnit } from '../idempotency/ports.js';

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

/** The network-tokens feature's view of a unit of work. */
export interface NetworkTokensUnit extends IdempotencyUnit {
  networkTokens: NetworkTokenRepository;
}
