/**
 * What a card reader hands the till (reader.ts): a card read (tap, insert or swipe) or a problem.
 * Plain data, with no DOM, so the till's transition table (till-transitions.ts) and its unit test
 * can take it.
 *
 * A `CardRead` holds the card number in memory for the PIN block and the PIN retry of one sale;
 * screens show only brand and last four, and the till store drops it when the sale ends.
 */
import type { PosCard } from '../../../contract/api/payments.js';
import type { CardBrand } from '../../../contract/cards.js';
import type { PosEntryMode } from '../../../contract/constants.js';

export interface CardRead {
  entry: Exclude<PosEntryMode, 'manual'>;
  pan: string;
  expiryMonth: number;
  expiryYear: number;
  brand: CardBrand;
  lastFour: string;
  /** `pos_data.card` as the gateway wants it for this entry mode. */
  posCard: PosCard;
  /** EMV application id and label, when the chip gave them (receipts print them). */
  aid?: string;
  applicationLabel?: string;
  holderName?: string;
  source: 'simulator' | 'keyboard-wedge';
}

export type ReaderProblem = 'removed_too_early' | 'multiple_cards' | 'unreadable' | 'invalid_card';

export type ReaderEvent = { type: 'card'; card: CardRead } | { type: 'problem'; problem: ReaderProblem };

/** The entry modes a reader reads, by their English names (screens say them with reader.ts `entryText`). */
export const ENTRY_NAMES: Record<CardRead['entry'], string> = {
  contactless: 'Contactless',
  chip: 'Chip',
  swipe: 'Swipe',
};
