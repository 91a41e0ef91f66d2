/**
 * The invoice screens' data: the merchant's channels, the list page on screen (one page of the
 * API's pagination for the filters in the URL) and the invoice being looked at with its payment
 * plan, the payments through its pay link and its e-mails. All of it is read from the gateway; a
 * change is made by the gateway and read back, never patched here.
 */
import { create } from 'zustand';
import { ApiError } from '../api/transport.js';
import { problemText, sessionEnded } from '../api/problems.js';
import { useSession } from '../session-store.js';
import { translate } from '../ui/i18n.js';
import { createListStore } from '../ui/list-store.js';
import type { InvoiceListSearch } from './invoice-search.js';
import {
  invoicesClient,
  type InvoiceChannel,
  type InvoiceEmail,
  type InvoicePayment,
  type InvoiceReply,
  type PaymentPlan,
} from './invoices-client.js';

type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';

interface ChannelsState {
  merchantId: string | null;
  status: LoadStatus;
  channels: InvoiceChannel[];
  error: string | null;
  /** Loads the channels of the logged-in merchant once (again after another merchant's login). */
  load: () => Promise<void>;
}

export const useInvoiceChannels = create<ChannelsState>()((set, get) => ({
  merchantId: null,
  status: 'idle',
  channels: [],
  error: null,
  load: async () => {
    const merchantId = useSession.getState().session?.merchant.merchant_id ?? null;
    if (get().merchantId === merchantId && (get().status === 'ready' || get().status === 'loading')) return;
    set({ merchantId, status: 'loading', error: null });
    try {
      set({ status: 'ready', channels: await invoicesClient.channels() });
    } catch (error) {
      if (sessionEnded(error)) return;
      set({ status: 'failed', error: problemText(error, translate('invoices.store.channels')) });
    }
  },
}));

export const useInvoiceList = createListStore(
  (search: InvoiceListSearch) => invoicesClient.list({ ...search, page: search.page ?? 1 }),
  () => translate('invoices.list.loadFailed'),
);

interface DetailState {
  number: string | null;
  status: LoadStatus;
  reply: InvoiceReply | null;
  plan: PaymentPlan | null;
  payments: InvoicePayment[];
  emails: InvoiceEmail[];
  error: string | null;
  /** Reads the invoice and everything around it; `quiet` keeps the screen while it reads again. */
  load: (number: string, quiet?: boolean) => Promise<void>;
  /** After a change: the invoice as the gateway answered it, then the rest read again. */
  changed: (reply: InvoiceReply | null) => Promise<void>;
}

export const useInvoiceDetail = create<DetailState>()((set, get) => ({
  number: null,
  status: 'idle',
  reply: null,
  plan: null,
  payments: [],
  emails: [],
  error: null,
  load: async (number, quiet = false) => {
    if (!quiet || get().number !== number)
      set({ number, status: 'loading', reply: null, plan: null, payments: [], emails: [], error: null });
    try {
      const [reply, plan, payments, emails] = await Promise.all([
        invoicesClient.get(number),
        invoicesClient.plan(number),
        invoicesClient.payments(number),
        invoicesClient.emails(number),
      ]);
      if (get().number === number) set({ status: 'ready', reply, plan, payments, emails, error: null });
    } catch (error) {
      if (sessionEnded(error)) return;
      if (get().number !== number) return;
      const missing = error instanceof ApiError && error.status === 404;
      set({
        status: 'failed',
        error: missing ? translate('invoices.store.missing', { number }) : problemText(error, translate('invoices.store.invoice')),
      });
    }
  },
  changed: async (reply) => {
    const number = reply?.invoice.debt_claim_number ?? get().number;
    if (reply) set({ reply, number });
    if (number) await get().load(number, true);
  },
}));
