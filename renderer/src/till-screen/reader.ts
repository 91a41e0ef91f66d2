/**
 * Card readers of the till. A `CardReader` reports what happens at the reader: a card was read (tap,
 * insert or swipe) or a problem (card removed too early, two cards at once, unreadable stripe).
 * Two readers exist:
 * - the simulated reader of the Test environment: one button per test card and entry method;
 * - the keyboard-wedge magnetic stripe reader: a USB reader that types the tracks (magstripe.ts).
 * A hardware EMV reader would be a third implementation of the same interface.
 *
 * What a reader hands over (`CardRead`, `ReaderEvent`) is plain data in card-read.ts.
 */
import { asCardBrand, cardBrand, luhnValid, type CardBrand } from '../../../contract/cards.js';
import type { PosEntryMode } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { TEST_CARDS, type TestCard } from '../../../contract/test-cards.js';
import type { CardRead, ReaderEvent } from './card-read.js';
import { createWedgeDetector, type SwipeResult } from './magstripe.js';

export { ENTRY_NAMES, type CardRead, type ReaderEvent, type ReaderProblem } from './card-read.js';

export type PresentMethod = 'tap' | 'insert' | 'swipe';

export type ReaderListener = (event: ReaderEvent) => void;

export interface CardReader {
  readonly name: string;
  /** Starts listening; returns the function that stops it. */
  subscribe(listener: ReaderListener): () => void;
}

export const BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  unknown: 'Card',
};

/** How a card was read, in the screens' words (and the receipt's): a message per entry mode. */
export const ENTRY_MESSAGES: Record<PosEntryMode, MessageId> = {
  contactless: 'till.entry.contactless',
  chip: 'till.entry.chip',
  swipe: 'till.entry.swipe',
  manual: 'till.entry.manual',
};

/** An entry mode in words (`Contactless`, `Chip`, `Swipe`, `Keyed`); one the till does not know as it came. */
export function entryText(t: Translate, entryMode: string): string {
  return entryMode in ENTRY_MESSAGES ? t(ENTRY_MESSAGES[entryMode as PosEntryMode]) : entryMode;
}

/** A card brand's name (brand names are not translated); a card of no known brand is "Card" in the language. */
export function brandText(t: Translate, brand: string | null | undefined): string {
  const known = asCardBrand(brand);
  return known === 'unknown' ? t('common.card') : BRAND_NAMES[known];
}

/** "Visa •••• 1111": brand and last four, the only digits of a card number a screen shows. */
export function maskedCard(t: Translate, brand: string | null | undefined, lastFour: string | null | undefined): string {
  return `${brandText(t, brand)} •••• ${lastFour ?? '????'}`;
}

// ---- EMV data of an inserted card ----------------------------------------------------------------

const AIDS: Partial<Record<CardBrand, { aid: string; label: string }>> = {
  visa: { aid: 'A0000000031010', label: 'VISA CREDIT' },
  mastercard: { aid: 'A0000000041010', label: 'MASTERCARD' },
};

function hexByte(n: number): string {
  return n.toString(16).padStart(2, '0').toUpperCase();
}

function tlv(tag: string, valueHex: string): string {
  return `${tag}${hexByte(valueHex.length / 2)}${valueHex}`;
}

function asciiHex(text: string): string {
  return [...text].map((c) => hexByte(c.charCodeAt(0) & 0x7f)).join('');
}

/** BER-TLV hex of what a chip gives the terminal: PAN (5A), expiry (5F24), AID (4F), label (50). */
export function emvData(
  pan: string,
  expiryYear: number,
  expiryMonth: number,
  brand: CardBrand,
): { hex: string; aid?: string; label?: string } {
  const lastDay = new Date(Date.UTC(expiryYear, expiryMonth, 0)).getUTCDate();
  const expiry = `${String(expiryYear % 100).padStart(2, '0')}${String(expiryMonth).padStart(2, '0')}${String(lastDay).padStart(2, '0')}`;
  const app = AIDS[brand];
  const hex = [
    tlv('5A', pan.length % 2 ? `${pan}F` : pan),
    tlv('5F24', expiry),
    ...(app ? [tlv('4F', app.aid), tlv('50', asciiHex(app.label))] : []),
  ].join('');
  return { hex, ...(app ? { aid: app.aid, label: app.label } : {}) };
}

/** Track 2 as the gateway takes it (at most 40 characters): `;PAN=YYMM` + service code + `?`. */
export function track2Of(pan: string, expiryYear: number, expiryMonth: number, serviceCode = '101'): string {
  return `;${pan}=${String(expiryYear % 100).padStart(2, '0')}${String(expiryMonth).padStart(2, '0')}${serviceCode}?`;
}

/** The card a reader read, in the shape the till sends, for one entry method. */
export function cardRead(
  pan: string,
  expiryYear: number,
  expiryMonth: number,
  method: PresentMethod,
  source: CardRead['source'],
): CardRead {
  const brand = cardBrand(pan);
  const base = { pan, expiryYear, expiryMonth, brand, lastFour: pan.slice(-4), source };
  switch (method) {
    case 'tap':
      return { ...base, entry: 'contactless', posCard: { number: pan, expiry_month: expiryMonth, expiry_year: expiryYear } };
    case 'insert': {
      const emv = emvData(pan, expiryYear, expiryMonth, brand);
      return {
        ...base,
        entry: 'chip',
        posCard: { emv_data: emv.hex },
        ...(emv.aid ? { aid: emv.aid } : {}),
        ...(emv.label ? { applicationLabel: emv.label } : {}),
      };
    }
    case 'swipe':
      return { ...base, entry: 'swipe', posCard: { track2_data: track2Of(pan, expiryYear, expiryMonth) } };
  }
}

// ---- the simulated reader of the Test environment ------------------------------------------------

/** A test card the till's simulated reader offers (contract/test-cards.ts: the Test environment's one table). */
export type TillTestCard = TestCard & { till: NonNullable<TestCard['till']> };

/** The test cards that make sense at a till, in the table's order. */
export const TILL_TEST_CARDS: readonly TillTestCard[] = TEST_CARDS.filter((card): card is TillTestCard => card.till !== undefined);

/** Expiry of every simulated card: December of a year well ahead. */
const SIMULATED_EXPIRY = { year: 2030, month: 12 };

export interface SimulatedReader extends CardReader {
  /** Presents the till test card of this number. */
  present(pan: string, method: PresentMethod): void;
  simulateProblem(problem: 'removed_too_early' | 'multiple_cards' | 'unreadable'): void;
}

export function createSimulatedReader(): SimulatedReader {
  const listeners = new Set<ReaderListener>();
  const emit = (event: ReaderEvent) => {
    for (const listener of [...listeners]) listener(event);
  };
  return {
    name: 'Test card reader',
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    present(pan, method) {
      const card = TILL_TEST_CARDS.find((c) => c.number === pan);
      if (!card) return;
      emit({ type: 'card', card: cardRead(card.number, SIMULATED_EXPIRY.year, SIMULATED_EXPIRY.month, method, 'simulator') });
    },
    simulateProblem(problem) {
      emit({ type: 'problem', problem });
    },
  };
}

// ---- the keyboard-wedge magnetic stripe reader ---------------------------------------------------

/** A swipe as the till sends it: track 2 when read (cut to the 40 characters the gateway takes), else PAN + expiry. */
export function cardFromSwipe(result: SwipeResult): ReaderEvent {
  if (!result.ok) return { type: 'problem', problem: result.reason };
  const { pan, expiryYear, expiryMonth, serviceCode, track2, holderName } = result.card;
  if (!luhnValid(pan)) return { type: 'problem', problem: 'invalid_card' };
  const card = cardRead(pan, expiryYear, expiryMonth, 'swipe', 'keyboard-wedge');
  card.posCard = track2
    ? { track2_data: track2.length <= 40 ? track2 : track2Of(pan, expiryYear, expiryMonth, serviceCode) }
    : { number: pan, expiry_month: expiryMonth, expiry_year: expiryYear };
  if (holderName) card.holderName = holderName;
  return { type: 'card', card };
}

/**
 * Listens to the keyboard of `target` (capture phase, before any screen's shortcuts) for bursts
 * typed by a USB swipe reader; their keys never reach the page.
 */
export function createKeyboardWedgeReader(target: Window): CardReader {
  return {
    name: 'Magnetic stripe reader (USB)',
    subscribe(listener) {
      const detector = createWedgeDetector({ onSwipe: (result) => listener(cardFromSwipe(result)) });
      let timer: number | undefined;
      const onKeyDown = (event: KeyboardEvent) => {
        if (event.ctrlKey || event.metaKey || event.altKey) return;
        if (detector.feed(event.key, event.timeStamp) === 'swallow') {
          event.preventDefault();
          event.stopImmediatePropagation();
          timer ??= target.setInterval(() => {
            detector.flush(target.performance.now());
            if (!detector.capturing && timer !== undefined) {
              target.clearInterval(timer);
              timer = undefined;
            }
          }, 60);
        }
      };
      target.addEventListener('keydown', onKeyDown, { capture: true });
      return () => {
        target.removeEventListener('keydown', onKeyDown, { capture: true });
        if (timer !== undefined) target.clearInterval(timer);
        detector.reset();
      };
    },
  };
}
