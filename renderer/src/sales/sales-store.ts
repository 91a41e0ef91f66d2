/**
 * Today's sales at this till: card-present transactions since local midnight (a cashier's session
 * sees no further back, D9), what was refunded of each, and totals per currency.
 */
import { create } from 'zustand';
import { asCardBrand, type CardBrand } from '../../../contract/cards.js';
import { RefundStatus, TransactionStatus } from '../../../contract/codes.js';
import { fromMinorUnits, toMinorUnits } from '../../../contract/money.js';
import { ApiError, client, type Refund, type Transaction } from '../api/client.js';
import { useSession } from '../session-store.js';
import { ENTRY_NAMES, type CardRead } from '../till/reader.js';

type EntryMode = CardRead['entry'];

export function saleCard(tx: Transaction): SaleCard | null {
  if (!tx.card_last_four) return null;
  const brand = asCardBrand(tx.card_brand);
  const entry = tx.entry_mode && tx.entry_mode in ENTRY_NAMES ? (tx.entry_mode as EntryMode) : undefined;
  return { brand, lastFour: tx.card_last_four, entry };
}

/** The card of a sale as the gateway recorded it, so it survives a reload of the window. */
export interface SaleCard {
  brand: CardBrand;
  lastFour: string;
  entry: EntryMode | undefined;
}

export interface SaleRow {
  tx: Transaction;
  card: SaleCard | null;
  /** Refunded so far, in the transaction currency. */
  refunded: number;
  /** What a refund may still take back. */
  refundable: number;
  /** The sale's refunds (each has its own receipt), oldest first. */
  refunds: Refund[];
}

export interface CurrencyTotals {
  currency: string;
  sales: number;
  taken: number;
  refunded: number;
  net: number;
  declined: number;
}

interface SalesState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  rows: SaleRow[];
  totals: CurrencyTotals[];
  error: string | null;
  load: () => Promise<void>;
}

const SOLD: ReadonlySet<number> = new Set([TransactionStatus.completed, TransactionStatus.refunded, TransactionStatus.partly_refunded]);

/** A PIN request is a step inside a sale, not a sale of its own. */
function isTillTransaction(tx: Transaction): boolean {
  return tx.payment_method === 'cardpos' && tx.message !== 'request_pin';
}

export function totalsOf(rows: readonly SaleRow[]): CurrencyTotals[] {
  const byCurrency = new Map<string, { sales: number; taken: number; refunded: number; declined: number }>();
  for (const { tx, refunded } of rows) {
    const entry = byCurrency.get(tx.currency) ?? { sales: 0, taken: 0, refunded: 0, declined: 0 };
    if (SOLD.has(tx.status_code)) {
      entry.sales += 1;
      entry.taken += toMinorUnits(tx.amount, tx.currency);
      entry.refunded += toMinorUnits(refunded, tx.currency);
    } else if (tx.status_code === TransactionStatus.declined) {
      entry.declined += 1;
    }
    byCurrency.set(tx.currency, entry);
  }
  return [...byCurrency.entries()]
    .map(([currency, t]) => ({
      currency,
      sales: t.sales,
      declined: t.declined,
      taken: fromMinorUnits(t.taken, currency),
      refunded: fromMinorUnits(t.refunded, currency),
      net: fromMinorUnits(t.taken - t.refunded, currency),
    }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
}

export const useSales = create<SalesState>()((set) => ({
  status: 'idle',
  rows: [],
  totals: [],
  error: null,
  load: async () => {
    set({ status: 'loading', error: null });
    try {
      const transactions = (await client.listToday()).filter(isTillTransaction);
      const rows = await Promise.all(
        transactions.map(async (tx): Promise<SaleRow> => {
          let refunded = 0;
          let refunds: Refund[] = [];
          if (tx.status_code === TransactionStatus.refunded || tx.status_code === TransactionStatus.partly_refunded) {
            refunds = await client.refunds(tx.transaction_id);
            const minor = refunds.filter((r) => r.status_code !== RefundStatus.error).reduce((sum, r) => sum + toMinorUnits(r.amount, tx.currency), 0);
            refunded = fromMinorUnits(minor, tx.currency);
          }
          const refundable = SOLD.has(tx.status_code) ? fromMinorUnits(toMinorUnits(tx.amount, tx.currency) - toMinorUnits(refunded, tx.currency), tx.currency) : 0;
          return { tx, card: saleCard(tx), refunded, refundable, refunds };
        }),
      );
      set({ status: 'ready', rows, totals: totalsOf(rows) });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'api' && error.status === 401) {
        useSession.getState().ended();
        return;
      }
      set({ status: 'failed', error: error instanceof Error ? error.message : "Today's sales could not be loaded." });
    }
  },
}));
