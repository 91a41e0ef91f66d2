/**
 * Where a card-present sale was taken and by whom, in words (issue 34, item 5): the shop's tills by
 * name (tills.list, retired ones too: their sales stay), "Other terminals" for a sale of no till,
 * and the names of the staff who took sales.
 *
 * The list names staff only by id (`staff_id`); the back office and admins read every name at once
 * (staff.list), so the cashier filter offers every member of staff.
 */
import { create } from 'zustand';
import { OTHER_TERMINALS_BOOK } from '../../../contract/constants.js';
import { call } from '../api/call.js';
import { useSession } from '../session-store.js';
import { tillsClient, type Till } from '../tills/tills-client.js';
import { translate } from '../ui/i18n.js';
import type { Transaction } from './transactions-client.js';

export interface StaffName {
  name: string;
  /** A disabled login (an admin's list says so): their sales stay theirs. */
  disabled?: boolean;
}

interface SalePlacesState {
  /** Whose names these are (merchant and staff member): a new login reads them again. */
  owner: string | null;
  tills: readonly Till[];
  staff: Readonly<Record<string, StaffName>>;
  /** Reads the tills and, for an admin, the staff: once per login, or again with `fresh` (the list, each time it opens). */
  load: (fresh?: boolean) => void;
  /** A name the gateway told (a transaction's detail). */
  learn: (staffId: string, name: string) => void;
}

function ownerOf(): string | null {
  const session = useSession.getState().session;
  return session ? `${session.merchant.merchant_id}/${session.staff.staff_id}` : null;
}

export const useSalePlaces = create<SalePlacesState>()((set, get) => ({
  owner: null,
  tills: [],
  staff: {},
  load: (fresh = false) => {
    const owner = ownerOf();
    if (owner === null || (get().owner === owner && !fresh)) return;
    if (get().owner !== owner) set({ owner, tills: [], staff: {} });
    const mine = () => get().owner === owner;
    void tillsClient.list({ retired: true }).then(
      (list) => {
        if (!mine()) return;
        const holders: Record<string, StaffName> = {};
        for (const till of list.tills)
          if (till.holder?.staff_id && till.holder.staff_name) holders[till.holder.staff_id] = { name: till.holder.staff_name };
        set((state) => ({ tills: list.tills, staff: { ...holders, ...state.staff } }));
      },
      // Without the tills the list shows their ids: nothing is lost but the names.
      () => undefined,
    );
    // staff.list is the back office's and an admin's (the list reaches them only).
    const role = useSession.getState().session?.staff.role;
    if (role === 'admin' || role === 'back_office') {
      void call('staff.list').then(
        (members) => {
          if (!mine()) return;
          const names: Record<string, StaffName> = {};
          for (const member of members)
            names[member.staff_id] = { name: member.display_name, ...(member.disabled ? { disabled: true } : {}) };
          set((state) => ({ staff: { ...state.staff, ...names } }));
        },
        () => undefined,
      );
    }
  },
  learn: (staffId, name) => {
    const known = get().staff[staffId];
    if (known?.name === name) return;
    set((state) => ({ staff: { ...state.staff, [staffId]: { ...known, name } } }));
  },
}));

/** A till's name from the shop's tills; its id until they are read (or when it is not among them). */
export function tillName(tills: readonly Till[], tillId: string): string {
  const till = tills.find((t) => t.till_id === tillId);
  if (!till) return tillId;
  return till.retired_at ? translate('transactions.till.retired', { name: till.name }) : till.name;
}

/** The book of card-present sales no till took (contract OTHER_TERMINALS_NAME), in the screens' language. */
export function otherTerminalsName(): string {
  return translate('transactions.otherTerminals');
}

/** Where a card-present sale was taken: its till's name, or Other terminals with the terminal id it sent; null for other payments. */
export function placeOf(
  tills: readonly Till[],
  tx: Pick<Transaction, 'payment_method' | 'till_id' | 'terminal_id'>,
): { name: string; terminal: string | null } | null {
  if (tx.till_id) return { name: tillName(tills, tx.till_id), terminal: null };
  if (tx.payment_method !== 'cardpos') return null;
  return { name: otherTerminalsName(), terminal: tx.terminal_id ?? null };
}

/** The till filter's choice in words. */
export function tillChoiceName(tills: readonly Till[], value: string): string {
  return value === OTHER_TERMINALS_BOOK ? otherTerminalsName() : tillName(tills, value);
}

/** A member of staff by name, or a placeholder while the name is not known. */
export function staffName(staff: Readonly<Record<string, StaffName>>, staffId: string): string {
  return staff[staffId]?.name ?? translate('transactions.staffMember');
}
