/**
 * Merchants, their API credentials and channels, the lock-out counters of authentication, and
 * merchant management (partners, shops, terminals; decisions.md D15). Adapter: db/.
 */

import type { Replica } from '../../../contract/api/centre.js';
import type { ChannelLanguage, MerchantLanguage } from '../../../contract/constants.js';
import type { KernelUnit } from '../unit-of-work.js';

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
  /** The shop's language (migrations 20, 33): its staff screens' and receipts'; new channels start with it where invoices speak it. Absent: en. */
  language?: MerchantLanguage;
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
  language: ChannelLanguage;
  senderEmail: string | null;
  createdAt: string;
  /** The number invoices answer as `channel_id` (assigned by the database on insert). */
  publicId?: number;
}

export interface MerchantRepository {
  insert(merchant: MerchantRecord): Promise<void>;
  /** Replaces the webhook key; the previous one stays valid until `previousUntil`. */
  rotateWebhookKey(id: string, sealed: string, previousSealed: string, previousUntil: string): Promise<void>;
  get(id: string): Promise<MerchantRecord | undefined>;
  list(): Promise<MerchantRecord[]>;
  /** Gives the merchant to a partner (or to none). */
  setPartner(id: string, partnerId: string | null): Promise<void>;
  /** The merchant's profile: name, default currency and language. */
  updateProfile(id: string, profile: { name: string; currency: string; language: MerchantLanguage }): Promise<void>;
  /** A joined till keeps its centre's copy of the merchant (name and currency; the webhook key only when new). */
  keepReplica(merchant: Replica['merchant'], webhookKeySealed: string): Promise<void>;
}

export interface CredentialRepository {
  insert(credential: CredentialRecord): Promise<void>;
  findActiveByApiKey(apiKey: string): Promise<CredentialRecord | undefined>;
  /** A merchant's API credentials (revoked ones too), oldest first. */
  listByMerchant(merchantId: string): Promise<CredentialRecord[]>;
  get(id: string): Promise<CredentialRecord | undefined>;
  /** Revokes a credential; false when it was revoked already. */
  revoke(id: string, at: string): Promise<boolean>;
  /** A joined till keeps its centre's copy of the merchant's credentials: those it leaves out are revoked at `at`. */
  keepReplica(merchantId: string, credentials: Replica['credentials'], at: string): Promise<void>;
}

export interface ChannelRepository {
  insert(channel: ChannelRecord): Promise<void>;
  findByUrlName(urlName: string): Promise<ChannelRecord | undefined>;
  listByMerchant(merchantId: string): Promise<ChannelRecord[]>;
  /** Changes a channel's name, currency, language and sender (its url_name stays). */
  update(channel: ChannelRecord): Promise<void>;
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

/** A till as the merchants feature creates a shop's first one (the tills feature owns the table). */
export interface FirstTill {
  merchantId: string;
  tillId: string;
  name: string;
  createdAt: string;
  retiredAt: null;
}

/** The merchants feature's view of a unit of work: its tables, and the first till of a new shop. */
export interface MerchantsUnit extends KernelUnit {
  merchants: MerchantRepository;
  credentials: CredentialRepository;
  channels: ChannelRepository;
  authFailures: AuthFailureRepository;
  partners: PartnerRepository;
  shops: ShopRepository;
  tills: { insert(till: FirstTill): Promise<boolean> };
}
