/**
 * Transactions (back office and admin; ux.md 11, 12): one search box for a pasted transaction id,
 * an order id, an invoice number, a card's last four or a till's id; filters for status (several),
 * payment type (several), days, till (or Other terminals), cashier, currency, amount (exact,
 * between, at least, at most), last four and order id, all in the URL, so a reload, a bookmark or
 * back/forward keep them. The list is the shared DataTable: virtualized (only the rows on screen
 * are in the page) and loaded from the gateway a page at a time as the user scrolls. A card-present
 * sale names its till and cashier and shows when it was taken (a sale a till stored while the
 * shop's gateway was away: when it was stored, and when it was forwarded). Each row links to its
 * transaction. Export CSV takes the filters along.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { TransactionStatus } from '../../../contract/codes.js';
import { OTHER_TERMINALS_BOOK, OTHER_TERMINALS_NAME, PAYMENT_TYPES } from '../../../contract/constants.js';
import { formatMoney } from '../till/money.js';
import { DataTable } from '../ui/data-table.js';
import { SearchInput, SelectFilter } from '../ui/list-filters.js';
import { ExportDialog } from './export-dialog.js';
import { FilterMenu } from './filter-menu.js';
import { placeOf, staffName, tillChoiceName, tillName, useSalePlaces, type StaffName } from './sale-places.js';
import { cardText, entryLabel, formatDateTime, formatDateTimeSeconds, formatLater, PAYMENT_TYPE_LABELS, paymentTypeLabel, STATUS_LABELS, statusLabel, statusTone } from './transaction-format.js';
import { isFiltered, listOf, type TransactionListSearch } from './transaction-search.js';
import type { Till } from '../tills/tills-client.js';
import type { Transaction } from './transactions-client.js';
import { useTransactionList } from './transactions-store.js';

const column = createColumnHelper<Transaction>();

export function StatusTag({ code, message }: { code: number; message?: string | null }) {
  const declineCode = code === TransactionStatus.declined ? /^(\w{2})\s/.exec(message ?? '')?.[1] : undefined;
  return (
    <span className={`badge badge-${statusTone(code)}`}>
      {statusLabel(code)}
      {declineCode ? ` · ${declineCode}` : ''}
    </span>
  );
}

/** Where a card-present sale was taken and by whom: its till (or Other terminals and the terminal id it sent), the cashier under it. */
function TillCell({ tx, tills, staff }: { tx: Transaction; tills: readonly Till[]; staff: Readonly<Record<string, StaffName>> }) {
  const place = placeOf(tills, tx);
  const cashier = tx.staff_id ? staffName(staff, tx.staff_id) : null;
  if (!place && !cashier) return null;
  const under = [place?.terminal, cashier].filter(Boolean).join(' · ');
  return (
    <span className="txn-till">
      {place?.name ?? ''}
      {under && (
        <span className="cell-sub" title={under}>
          {under}
        </span>
      )}
    </span>
  );
}

/** When: a card-present sale's taken time; a sale stored at a till while the gateway was away also says when it was forwarded. */
function WhenCell({ tx }: { tx: Transaction }) {
  const at = tx.taken_at ?? tx.created_at;
  const forwarded = tx.forwarded_at;
  return (
    <span className="txn-when" title={forwarded ? `Taken at the till ${formatDateTimeSeconds(at)} while the shop’s gateway was away; forwarded ${formatDateTimeSeconds(forwarded)}` : undefined}>
      <time dateTime={at}>{formatDateTime(at)}</time>
      {forwarded && (
        <span className="cell-sub">
          stored, forwarded <time dateTime={forwarded}>{formatLater(forwarded, at)}</time>
        </span>
      )}
    </span>
  );
}

function useColumns(tills: readonly Till[], staff: Readonly<Record<string, StaffName>>) {
  return useMemo(
    () => [
      column.accessor('amount', {
        header: 'Amount',
        meta: { className: 'txn-amount-cell' },
        cell: (info) => (
          <Link to="/transactions/$id" params={{ id: info.row.original.transaction_id }} className="row-link txn-amount">
            {formatMoney(info.getValue(), info.row.original.currency)}
          </Link>
        ),
      }),
      column.accessor('status_code', {
        header: 'Status',
        cell: (info) => <StatusTag code={info.getValue()} message={info.row.original.message} />,
      }),
      column.accessor('payment_method', { header: 'Payment type', meta: { className: 'txn-type' }, cell: (info) => paymentTypeLabel(info.getValue()) }),
      column.display({
        id: 'card',
        header: 'Card',
        cell: (info) => {
          const tx = info.row.original;
          const card = cardText(tx.card_brand, tx.card_last_four);
          if (!card) return <span className="muted">—</span>;
          const entry = entryLabel(tx.entry_mode);
          return (
            <span className="txn-card">
              {card}
              {entry && <span className="cell-sub">{entry}</span>}
            </span>
          );
        },
      }),
      column.accessor('order_id', {
        header: 'Order',
        meta: { className: 'txn-order' },
        cell: (info) => {
          // An invoice's payment: its number, which staff know (its order id is the pay page's UUID).
          const invoice = info.row.original.invoice_number;
          if (invoice) return <span title={`Invoice ${invoice}`}>{invoice}</span>;
          const order = info.getValue();
          return order ? <span title={order}>{order}</span> : <span className="muted">—</span>;
        },
      }),
      column.display({
        id: 'till',
        header: 'Till',
        cell: (info) => <TillCell tx={info.row.original} tills={tills} staff={staff} />,
      }),
      column.accessor('created_at', { header: 'When', meta: { className: 'nowrap' }, cell: (info) => <WhenCell tx={info.row.original} /> }),
      column.accessor('transaction_id', {
        // The first eight characters; the search box finds a pasted whole id.
        header: 'Id',
        meta: { className: 'txn-id' },
        cell: (info) => (
          <span className="cell-mono" title={info.getValue()}>
            {info.getValue().slice(0, 8)}…
          </span>
        ),
      }),
    ],
    [tills, staff],
  );
}

const STATUS_CHOICES = Object.entries(STATUS_LABELS).map(([code, label]) => ({ value: code, label: `${label} (${code})`, short: label }));
const TYPE_CHOICES = PAYMENT_TYPES.map((type) => ({ value: type, label: PAYMENT_TYPE_LABELS[type] }));

/** The till filter: each till by name (retired ones after), then Other terminals; a till in the URL that is not (yet) among them by its id. */
function tillChoicesOf(tills: readonly Till[], chosen: string | undefined): Array<{ value: string; label: string }> {
  const choices = [...tills]
    .sort((a, b) => Number(a.retired_at !== null) - Number(b.retired_at !== null))
    .map((till) => ({ value: till.till_id, label: tillName(tills, till.till_id) }));
  if (chosen && chosen !== OTHER_TERMINALS_BOOK && !choices.some((c) => c.value === chosen)) choices.push({ value: chosen, label: tillChoiceName(tills, chosen) });
  choices.push({ value: OTHER_TERMINALS_BOOK, label: OTHER_TERMINALS_NAME });
  return choices;
}

/** The cashier filter: the staff whose names are known, by name; one in the URL not known yet as "Staff member". */
function cashierChoicesOf(staff: Readonly<Record<string, StaffName>>, chosen: string | undefined): Array<{ value: string; label: string }> {
  const choices = Object.entries(staff)
    .map(([value, member]) => ({ value, label: member.disabled ? `${member.name} (disabled)` : member.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  if (chosen && !staff[chosen]) choices.push({ value: chosen, label: staffName(staff, chosen) });
  return choices;
}

type AmountMode = 'any' | 'equal' | 'between' | 'min' | 'max';

function amountModeOf(search: TransactionListSearch): AmountMode {
  if (search.amount) return 'equal';
  if (search.amount_min && search.amount_max) return 'between';
  if (search.amount_min) return 'min';
  if (search.amount_max) return 'max';
  return 'any';
}

const AMOUNT_TEXT = /^\d{1,9}([.,]\d{1,4})?$/;

/** The filters that take typed text: applied with Enter or Apply, checked first. */
function TextFilters({ search, apply, clear }: { search: TransactionListSearch; apply: (change: Partial<TransactionListSearch>) => void; clear: ReactNode }) {
  const ids = { currency: useId(), card: useId(), order: useId(), mode: useId(), a: useId(), b: useId(), problem: useId() };
  const [currency, setCurrency] = useState(search.currency ?? '');
  const [card, setCard] = useState(search.card ?? '');
  const [order, setOrder] = useState(search.order_id ?? '');
  const [mode, setMode] = useState<AmountMode>(amountModeOf(search));
  const [first, setFirst] = useState(search.amount ?? (mode === 'max' ? search.amount_max : search.amount_min) ?? '');
  const [second, setSecond] = useState(search.amount_max ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  // The URL changed (back/forward, Clear filters): the fields follow it.
  useEffect(() => {
    setCurrency(search.currency ?? '');
    setCard(search.card ?? '');
    setOrder(search.order_id ?? '');
    const nextMode = amountModeOf(search);
    setMode(nextMode);
    setFirst(search.amount ?? (nextMode === 'max' ? search.amount_max : search.amount_min) ?? '');
    setSecond(search.amount_max ?? '');
    setProblem(null);
  }, [search]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: string[] = [];
    const code = currency.trim().toUpperCase();
    if (code && !/^[A-Z]{3}$/.test(code)) problems.push('Currency: three letters, such as EUR.');
    if (card.trim() && !/^\d{4}$/.test(card.trim())) problems.push('Card: the last four digits.');
    const a = first.trim().replace(',', '.');
    const b = second.trim().replace(',', '.');
    if (mode !== 'any' && !AMOUNT_TEXT.test(a)) problems.push('Amount: a number such as 12.50.');
    if (mode === 'between' && !AMOUNT_TEXT.test(b)) problems.push('Amount: a second number such as 20.00.');
    if (mode === 'between' && AMOUNT_TEXT.test(a) && AMOUNT_TEXT.test(b) && Number(a) > Number(b)) problems.push('Amount: the first number must not be above the second.');
    if (problems.length) {
      setProblem(problems.join(' '));
      return;
    }
    setProblem(null);
    apply({
      currency: code || undefined,
      card: card.trim() || undefined,
      order_id: order.trim() || undefined,
      amount: mode === 'equal' ? a : undefined,
      amount_min: mode === 'between' || mode === 'min' ? a : undefined,
      amount_max: mode === 'between' ? b : mode === 'max' ? a : undefined,
    });
  };

  return (
    <form className="txn-filter-row txn-text-filters" onSubmit={submit} noValidate aria-describedby={ids.problem}>
      <div className="field txn-amount-filter">
        <label className="field-label" htmlFor={ids.mode}>
          Amount
        </label>
        <div className="txn-amount-inputs">
          <select id={ids.mode} className="input" value={mode} onChange={(event) => setMode(event.target.value as AmountMode)}>
            <option value="any">Any</option>
            <option value="equal">Equal to</option>
            <option value="between">Between</option>
            <option value="min">At least</option>
            <option value="max">At most</option>
          </select>
          {mode !== 'any' && (
            <input
              id={ids.a}
              className="input txn-amount-input"
              inputMode="decimal"
              autoComplete="off"
              aria-label={mode === 'between' ? 'Amount from' : 'Amount'}
              value={first}
              onChange={(event) => setFirst(event.target.value)}
            />
          )}
          {mode === 'between' && (
            <input id={ids.b} className="input txn-amount-input" inputMode="decimal" autoComplete="off" aria-label="Amount to" value={second} onChange={(event) => setSecond(event.target.value)} />
          )}
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.currency}>
          Currency
        </label>
        <input id={ids.currency} className="input txn-currency-input" maxLength={3} autoComplete="off" spellCheck={false} placeholder="Any" value={currency} onChange={(event) => setCurrency(event.target.value)} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.card}>
          Card last four
        </label>
        <input id={ids.card} className="input txn-card-input" inputMode="numeric" maxLength={4} autoComplete="off" placeholder="Any" value={card} onChange={(event) => setCard(event.target.value)} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.order}>
          Order id
        </label>
        <input id={ids.order} className="input txn-order-input" autoComplete="off" spellCheck={false} placeholder="Any" value={order} onChange={(event) => setOrder(event.target.value)} />
      </div>
      <button type="submit" className="button txn-apply">
        Apply
      </button>
      {/* Clear filters (every filter, not only these) at the bar's end. */}
      {clear}
      <p id={ids.problem} className="form-problem txn-filter-problem" role="alert">
        {problem ?? ''}
      </p>
    </form>
  );
}

export function TransactionListScreen() {
  const search = useSearch({ from: '/transactions/' });
  const navigate = useNavigate({ from: '/transactions/' });
  const { rows, loading, hasMore, error, show, loadMore } = useTransactionList();
  const tills = useSalePlaces((s) => s.tills);
  const staff = useSalePlaces((s) => s.staff);
  const loadPlaces = useSalePlaces((s) => s.load);
  const columns = useColumns(tills, staff);
  const ids = { search: useId(), from: useId(), to: useId() };
  const [query, setQuery] = useState(search.q ?? '');
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    show(search);
  }, [show, search]);
  useEffect(() => loadPlaces(true), [loadPlaces]);
  // The names of the cashiers in the rows (the back office learns them a person at a time).
  useEffect(() => setQuery(search.q ?? ''), [search.q]);

  /** A filter changed: a new place in the history, so Back returns to the filters before. */
  const filter = (change: Partial<TransactionListSearch>) => {
    const next: TransactionListSearch = { ...search, ...change };
    for (const key of Object.keys(next) as Array<keyof TransactionListSearch>) if (next[key] === undefined || next[key] === '') delete next[key];
    void navigate({ search: next });
  };
  const filtered = isFiltered(search);
  const tillChoices = useMemo(() => tillChoicesOf(tills, search.till), [tills, search.till]);
  const cashierChoices = useMemo(() => cashierChoicesOf(staff, search.cashier), [staff, search.cashier]);

  return (
    <section className="transactions" aria-labelledby="transactions-title">
      <div className="page-head txn-list-head">
        <h1 id="transactions-title">Transactions</h1>
        <form
          className="txn-search"
          role="search"
          aria-label="Find a transaction"
          onSubmit={(event) => {
            event.preventDefault();
            filter({ q: query.trim() || undefined });
          }}
        >
          <label className="visually-hidden" htmlFor={ids.search}>
            Transaction id, order id, invoice number, card&rsquo;s last four digits or till id
          </label>
          <SearchInput id={ids.search} className="input txn-search-input" placeholder="Find by id, order id, invoice, last four or till" value={query} onChange={setQuery} />
          <button type="submit" className="button button-primary">
            Find
          </button>
        </form>
        <button type="button" className="button" onClick={() => setExporting(true)}>
          Export CSV
        </button>
      </div>
      <div className="filters txn-filters" role="group" aria-label="Filters">
        {/* What is picked applies at once; what is typed applies with Enter or Apply. */}
        <div className="txn-filter-row">
          <FilterMenu label="Status" anyText="Any status" choices={STATUS_CHOICES} selected={listOf(search.status)} onChange={(codes) => filter({ status: codes.join(',') || undefined })} />
          <FilterMenu label="Payment type" anyText="Any type" choices={TYPE_CHOICES} selected={listOf(search.type)} onChange={(types) => filter({ type: types.join(',') || undefined })} />
          <div className="field">
            <label className="field-label" htmlFor={ids.from}>
              From
            </label>
            <input id={ids.from} className="input" type="date" value={search.from ?? ''} max={search.to} onChange={(event) => filter({ from: event.target.value || undefined })} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.to}>
              To
            </label>
            <input id={ids.to} className="input" type="date" value={search.to ?? ''} min={search.from} onChange={(event) => filter({ to: event.target.value || undefined })} />
          </div>
          {/* Where and by whom: together, on a line of their own when the window is narrow. */}
          <div className="txn-filter-group">
            <SelectFilter label="Till" anyLabel="Any till" className="txn-till-select" value={search.till} options={tillChoices} onChange={(till) => filter({ till })} />
            <SelectFilter label="Cashier" anyLabel="Any cashier" className="txn-cashier-select" value={search.cashier} options={cashierChoices} onChange={(cashier) => filter({ cashier })} />
          </div>
        </div>
        <TextFilters
          search={search}
          apply={filter}
          clear={
            filtered && (
              <button type="button" className="button button-quiet txn-clear" onClick={() => void navigate({ search: {} })}>
                Clear filters
              </button>
            )
          }
        />
      </div>
      {error && (
        <p className="form-problem" role="alert">
          {error}{' '}
          <button type="button" className="button button-small" onClick={() => {
              useTransactionList.getState().invalidate();
              show(search);
            }}>
            Try again
          </button>
        </p>
      )}
      <DataTable
        caption={filtered ? 'Transactions matching the filters, newest first' : 'Transactions, newest first'}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.transaction_id}
        hasMore={hasMore}
        loading={loading}
        loadMore={() => void loadMore()}
        empty={filtered ? 'No transaction matches these filters.' : 'No transactions yet.'}
        height="none"
      />
      {exporting && <ExportDialog search={search} onClose={() => setExporting(false)} />}
    </section>
  );
}
