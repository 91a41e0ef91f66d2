/** What the tills use case needs from storage (issue 26, part 0). */
import type { StoreLimits, TillReport } from '../../../contract/api/centre.js';
import type { KernelUnit } from '../unit-of-work.js';
import type { MerchantRepository, ShopRepository } from '../merchants/ports.js';

/** The screen that has a till open. */
export interface TillHold {
  sessionId: string;
  /**
   * The SHA-256 (hex) of the claim the gateway gave that screen (docs/decisions.md "Several tills"):
   * the screen is known by it, never by an id of its own. A hold from before claims has the screen's
   * own id here, which no claim hashes to.
   */
  claimHash: string | null;
  staffId: string | null;
  heldAt: string;
  seenAt: string;
}

export interface TillRecord {
  merchantId: string;
  tillId: string;
  name: string;
  createdAt: string;
  retiredAt: string | null;
  holder: TillHold | null;
}

export interface TillRepository {
  listByMerchant(merchantId: string): Promise<TillRecord[]>;
  get(merchantId: string, tillId: string): Promise<TillRecord | undefined>;
  /**
   * Whether the merchant has an active till of that id that sells on this gateway: not retired, and
   * not a till joined to it from another computer (that one's sales come only through its own
   * credential, D19).
   */
  sellsHere(merchantId: string, tillId: string): Promise<boolean>;
  /** False when the merchant has a till of that id already. */
  insert(record: Omit<TillRecord, 'holder'>): Promise<boolean>;
  rename(merchantId: string, tillId: string, name: string): Promise<boolean>;
  /** Retires an active till and lets go of its screen; false when there is none. */
  retire(merchantId: string, tillId: string, at: string): Promise<boolean>;
  /**
   * The screen takes the active till of this gateway: when nobody holds it, when this session already
   * does, when `presented` is the hash of the hold's claim (the same screen, after a reload or a new
   * login), when its holder was last seen before `staleBefore`, or with `force`. Conditional: false
   * when another screen holds it, or it is retired, unknown or joined from another computer.
   * The hold keeps its claim when this session holds it and presented it (without `force`); else it
   * gets `hold.claimHash`.
   */
  take(merchantId: string, tillId: string, hold: TillHold, presented: string | null, staleBefore: string, force: boolean): Promise<boolean>;
  /** The till this session's screen holds, if it sells on this gateway (not one joined from another computer). */
  heldBy(sessionId: string): Promise<TillRecord | undefined>;
  /** Lets go of every till the session holds, but `keep`. */
  release(sessionId: string, keep?: string): Promise<void>;
}

/** A till joined to this centre, with its own API credential. */
export interface TillLinkRecord {
  merchantId: string;
  tillId: string;
  credentialId: string;
  joinedAt: string;
  lastSeenAt: string | null;
  lastForwardAt: string | null;
  version: string | null;
  report: TillReport | null;
  limits: StoreLimits;
}

/**
 * The tills feature's view of a unit of work: its tills, the merchant and shops they belong to, and
 * what the tills list shows of other features' records, each through a narrow port of its own.
 */
export interface TillsUnit extends KernelUnit {
  tills: TillRepository;
  merchants: Pick<MerchantRepository, 'get'>;
  shops: Pick<ShopRepository, 'get' | 'terminals' | 'assignTerminal'>;
  staff: { listByMerchant(merchantId: string): Promise<ReadonlyArray<{ id: string; displayName: string }>> };
  centre: {
    links(merchantId: string): Promise<TillLinkRecord[]>;
    latestTillDay(merchantId: string, tillId: string): Promise<{ sequence: number } | undefined>;
  };
  dayReports: {
    latestZ(merchantId: string, tillId: string): Promise<{ sequence: number; toSeq: number; closedAt: string } | undefined>;
    watermark(merchantId: string, tillId: string): Promise<number>;
  };
  tillAttempts: { open(merchantId: string, tillId: string): Promise<object | undefined> };
}
