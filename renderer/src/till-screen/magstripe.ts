/**
 * Magnetic stripe input from a USB "keyboard wedge" reader: the reader types the card's tracks as
 * keystrokes, far faster than a person, usually followed by Enter:
 *   track 1  `%B4111111111111111^DOE/JANE^30121010000000000000?`
 *   track 2  `;4111111111111111=30121010000000000000?`
 * `parseSwipe` reads what one swipe typed; `createWedgeDetector` picks such a burst out of the key
 * stream so it never lands in the keypad. Plain TypeScript without DOM or Node APIs, so the unit
 * tests run it as is. Track data is card data: nothing here logs or keeps it after a swipe.
 */
import { luhnValid } from '../../../contract/cards.js';

export interface SwipedCard {
  pan: string;
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
  /** The three-digit service code (a first digit 2 or 6 means the card has a chip). */
  serviceCode: string;
  /** Card holder from track 1, e.g. `JANE DOE`; absent when only track 2 was read. */
  holderName?: string;
  /** Track 2 exactly as read (`;PAN=YYMM...?`), when the reader delivered it. */
  track2?: string;
  /** The track the card data came from (track 2 when both were read). */
  source: 'track1' | 'track2';
}

export type SwipeResult = { ok: true; card: SwipedCard } | { ok: false; reason: 'unreadable' | 'invalid_card' };

const TRACK1 = /%B(\d{12,19})\^([^^?]{0,26})\^(\d{2})(\d{2})(\d{3})[^?]*\?/;
const TRACK2 = /;(\d{12,19})=(\d{2})(\d{2})(\d{3})[0-9]*\?/;

/** `DOE/JANE` → `JANE DOE`; other names are trimmed as they are. */
function holderName(raw: string): string | undefined {
  const name = raw.trim();
  if (!name) return undefined;
  const slash = name.indexOf('/');
  if (slash < 0) return name;
  const surname = name.slice(0, slash).trim();
  const given = name.slice(slash + 1).trim();
  return [given, surname].filter(Boolean).join(' ') || undefined;
}

function expiry(yy: string, mm: string): { expiryYear: number; expiryMonth: number } | undefined {
  const month = Number(mm);
  if (!(month >= 1 && month <= 12)) return undefined;
  return { expiryYear: 2000 + Number(yy), expiryMonth: month };
}

/** Reads one swipe's text (track 1, track 2, or both in either order). */
export function parseSwipe(text: string): SwipeResult {
  const raw = text.trim();
  const t2 = TRACK2.exec(raw);
  const t1 = TRACK1.exec(raw);
  // Nothing readable: a bad read (`;E?`), a damaged stripe or not a card at all.
  if (!t1 && !t2) return { ok: false, reason: 'unreadable' };
  if (t2) {
    const [whole, pan = '', yy = '', mm = '', serviceCode = ''] = t2;
    const date = expiry(yy, mm);
    if (!date || !luhnValid(pan)) return { ok: false, reason: 'invalid_card' };
    const name = t1 && t1[1] === pan ? holderName(t1[2] ?? '') : undefined;
    return { ok: true, card: { pan, ...date, serviceCode, track2: whole, source: 'track2', ...(name ? { holderName: name } : {}) } };
  }
  const [, pan = '', rawName = '', yy = '', mm = '', serviceCode = ''] = t1 ?? [];
  const date = expiry(yy, mm);
  if (!date || !luhnValid(pan)) return { ok: false, reason: 'invalid_card' };
  const name = holderName(rawName);
  return { ok: true, card: { pan, ...date, serviceCode, source: 'track1', ...(name ? { holderName: name } : {}) } };
}

/** What the detector does with one key: let it through to the page, or keep it (part of a swipe). */
export type WedgeDecision = 'pass' | 'swallow';

export interface WedgeDetectorOptions {
  /** A swipe was read (successfully or not). */
  onSwipe: (result: SwipeResult) => void;
  /** Longest pause between two keys of one burst; a person typing is slower. Default 100 ms. */
  maxGapMs?: number;
  /** Longest burst; anything longer is not a card. Default 256 characters. */
  maxLength?: number;
}

export interface WedgeDetector {
  /** Feeds one keydown: `key` as in KeyboardEvent.key, `time` in milliseconds. */
  feed: (key: string, time: number) => WedgeDecision;
  /**
   * Called on a timer: ends a burst that stopped after `?` without Enter (readers configured without
   * a suffix), or drops one that stopped half way. Returns true when it ended a burst.
   */
  flush: (time: number) => boolean;
  /** Forgets a burst under way. */
  reset: () => void;
  /** True while a burst is being collected. */
  readonly capturing: boolean;
}

/** Keys a wedge reader may send around the characters (shift for % ^ ? and the like). */
const IGNORED_KEYS = new Set(['Shift', 'CapsLock', 'Alt', 'AltGraph', 'Control', 'Meta', 'Dead', 'Unidentified']);

/**
 * A burst starts with `%` or `;`, continues with keys less than `maxGapMs` apart and ends with `?`
 * followed by Enter (or by silence, see `flush`). Keys of a burst are swallowed; a burst that turns
 * out to be slow typing is dropped and the slow key passes.
 */
export function createWedgeDetector(options: WedgeDetectorOptions): WedgeDetector {
  const maxGap = options.maxGapMs ?? 100;
  const maxLength = options.maxLength ?? 256;
  let buffer = '';
  let last = 0;
  let capturing = false;

  const reset = () => {
    buffer = '';
    capturing = false;
  };
  const finish = () => {
    const text = buffer;
    reset();
    options.onSwipe(parseSwipe(text));
  };

  return {
    get capturing() {
      return capturing;
    },
    reset,
    feed(key, time) {
      if (capturing && time - last > maxGap) reset();
      if (!capturing) {
        if (key !== '%' && key !== ';') return 'pass';
        capturing = true;
        buffer = key;
        last = time;
        return 'swallow';
      }
      last = time;
      if (key === 'Enter') {
        if (buffer.endsWith('?')) finish();
        else reset();
        return 'swallow';
      }
      if (IGNORED_KEYS.has(key)) return 'swallow';
      if (key.length !== 1) {
        // An arrow or function key in the middle: not a reader.
        reset();
        return 'pass';
      }
      buffer += key;
      if (buffer.length > maxLength) reset();
      return 'swallow';
    },
    flush(time) {
      if (!capturing || time - last <= maxGap) return false;
      if (buffer.endsWith('?')) {
        finish();
        return true;
      }
      reset();
      return false;
    },
  };
}
