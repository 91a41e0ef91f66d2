/**
 * Today's sales at this till: the card-present sales and refunds of the till's open day (since its
 * last Z report), each with its cashier and refunds, and totals per currency. The list and the totals
 * come from the gateway in one answer, from the same entries as the X report, so they agree with it
 * to the cent (D19); nothing is summed here. A manager may look at another till or the whole shop.
 */
import { create } from 'zustand';
import type { DaySale, DaySales } from '../../../contract/api/reports.js';
import { asCardBrand, type CardBrand } from '../../../contract/cards.js';
import { caller } from '../api/call.js';
import { ApiError, defaultTransport } from '../api/transport.js';
import { useSession } from '../session-store.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { BRAND_NAMES, type CardRead } from '../till-screen/reader.js';
import { translate } from '../ui/i18n.js';

type EntryMode = CardRead['entry'];

/** The card of a sale as the gateway recorded it, so it survives a reload of the window. */
export interface SaleCard {
  brand: CardBrand;
  lastFour: string;
  entry: EntryMode | undefined;
}

export function saleCard(sale: Pick<DaySale, 'card_brand' | 'card_last_four' | 'entry_mode'>): SaleCard | null {
  if (!sale.card_last_four) return null;
  const entry = sale.entry_mode && sale.entry_mode in ENTRY_MESSAGES ? (sale.entry_mode as EntryMode) : undefined;
  return { brand: asCardBrand(sale.card_brand), lastFour: sale.card_last_four, entry };
}

/** How the card was read, in the screens' language. */
export const ENTRY_MESSAGES: Record<CardRead['entry'], MessageId> = {
  contactless: 'reports.entry.contactless',
  chip: 'reports.entry.chip',
  swipe: 'reports.entry.swipe',
};

/** A card's brand as a name: the brand's own (Visa), or "Card" for one the gateway does not know. */
export function brandName(brand: CardBrand, t: Translate = translate): string {
  return brand === 'unknown' ? t('common.card') : BRAND_NAMES[brand];
}

/** What a cell shows for a value the gateway does not have (no order id, no card). */
export const NO_VALUE = '—';

/** A card as receipts print it: `Visa •••• 1111`, or `•••• 1111` without its brand. */
export function maskedCard(lastFour: string, brand?: string): string {
  return brand ? `${brand} •••• ${lastFour}` : `•••• ${lastFour}`;
}

export interface SaleRow {
  tx: DaySale;
  card: SaleCard | null;
  /** Refunded so far (on any day), in the sale's currency. */
  refunded: number;
  /** What a refund may still take back. */
  refundable: number;
  /** Its refunds counted in this day (each has its own receipt). */
  refunds: DaySale['refunds'];
}

export interface CurrencyTotals {
  currency: string;
  sales: number;
  taken: number;
  refunded: number;
  net: number;
  declined: number;
}

/** Whose day is shown: this screen's till, another till (a manager), or the whole shop (a manager). */
export type SalesView = { kind: 'own' } | { kind: 'till'; tillId: string } | { kind: 'shop' };

interface SalesState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  view: SalesView;
  day: DaySales | null;
  rows: SaleRow[];
  totals: CurrencyTotals[];
  error: string | null;
  load: (view?: SalesView) => Promise<void>;
}

const call = caller(defaultTransport());

function queryOf(view: SalesView): { terminal_id?: string; scope?: string } {
  if (view.kind === 'shop') return { scope: 'shop' };
  if (view.kind === 'till') return { terminal_id: view.tillId };
  return {};
}

export function totalsOf(day: DaySales): CurrencyTotals[] {
  return day.totals.map((t) => ({
    currency: t.currency,
    sales: t.approved.count,
    taken: t.approved.amount,
    refunded: t.refunded.amount,
    net: t.net,
    declined: t.declined.count,
  }));
}

export const useSales = create<SalesState>()((set, get) => ({
  status: 'idle',
  view: { kind: 'own' },
  day: null,
  rows: [],
  totals: [],
  error: null,
  load: async (view = get().view) => {
    set({ status: 'loading', error: null, view });
    try {
      const day = await call('reports.sales', { query: queryOf(view) });
      const rows = day.sales.map((tx): SaleRow => ({
        tx,
        card: saleCard(tx),
        refunded: tx.refunded,
        refundable: tx.refundable,
        refunds: tx.refunds,
      }));
      set({ status: 'ready', day, rows, totals: totalsOf(day) });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'api' && error.status === 401) {
        useSession.getState().ended();
        return;
      }
      set({ status: 'failed', error: error instanceof Error ? error.message : translate('sales.loadFailed') });
    }
  },
}));
