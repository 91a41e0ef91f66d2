/**
 * Transactions (back office and admin): one search box for a pasted transaction id, an order id, an
 * invoice number, a card's last four or a till's id; filters for status (several), payment type
 * (several), days, till (or Other terminals), cashier, currency, amount (exact, between, at least,
 * at most), last four and order id, all in the URL, so a reload, a bookmark or back/forward keep
 * them. The list is the shared DataTable: virtualized (only the rows on screen are in the page) and
 * loaded from the gateway a page at a time as the user scrolls. A card-present sale names its till
 * and cashier and shows when it was taken (a sale a till stored while the shop's gateway was away:
 * when it was stored, and when it was forwarded). Each row links to its transaction. Export CSV
 * takes the filters along.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { TransactionStatus } from '../../../contract/codes.js';
import { OTHER_TERMINALS_BOOK, PAYMENT_TYPES } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatMoney, formatNumber } from '../till-screen/money.js';
import { DataTable } from '../ui/data-table.js';
import { useT } from '../ui/i18n.js';
import { SearchInput, SelectFilter } from '../ui/list-filters.js';
import { ExportDialog } from './export-dialog.js';
import { FilterMenu } from './filter-menu.js';
import { useRichT } from './rich-text.js';
import { otherTerminalsName, placeOf, staffName, tillChoiceName, tillName, useSalePlaces, type StaffName } from './sale-places.js';
import {
  cardText,
  entryLabel,
  formatDateTime,
  formatDateTimeSeconds,
  formatLater,
  joined,
  NO_VALUE,
  PAYMENT_TYPE_MESSAGES,
  paymentTypeLabel,
  shortId,
  STATUS_MESSAGES,
  statusLabel,
  statusTone,
} from './transaction-format.js';
import { isFiltered, listOf, type TransactionListSearch } from './transaction-search.js';
import type { Till } from '../tills/tills-client.js';
import type { Transaction } from './transactions-client.js';
import { useTransactionList } from './transactions-store.js';

const column = createColumnHelper<Transaction>();

export function StatusTag({ code, message }: { code: number; message?: string | null }) {
  const declineCode = code === TransactionStatus.declined ? /^(\w{2})\s/.exec(message ?? '')?.[1] : undefined;
  return <span className={`badge badge-${statusTone(code)}`}>{joined(statusLabel(code), declineCode)}</span>;
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
  const t = useT();
  const rich = useRichT();
  const at = tx.taken_at ?? tx.created_at;
  const forwarded = tx.forwarded_at;
  return (
    <span
      className="txn-when"
      title={
        forwarded
          ? t('transactions.list.storedTitle', { taken: formatDateTimeSeconds(at), forwarded: formatDateTimeSeconds(forwarded) })
          : undefined
      }
    >
      <time dateTime={at}>{formatDateTime(at)}</time>
      {forwarded && (
        <span className="cell-sub">
          {rich('transactions.list.storedForwarded', { time: <time dateTime={forwarded}>{formatLater(forwarded, at)}</time> })}
        </span>
      )}
    </span>
  );
}

function useColumns(tills: readonly Till[], staff: Readonly<Record<string, StaffName>>, t: Translate) {
  return useMemo(
    () => [
      column.accessor('amount', {
        header: t('common.amount'),
        meta: { className: 'txn-amount-cell' },
        cell: (info) => (
          <Link to="/transactions/$id" params={{ id: info.row.original.transaction_id }} className="row-link txn-amount">
            {formatMoney(info.getValue(), info.row.original.currency)}
          </Link>
        ),
      }),
      column.accessor('status_code', {
        header: t('common.status'),
        cell: (info) => <StatusTag code={info.getValue()} message={info.row.original.message} />,
      }),
      column.accessor('payment_method', {
        header: t('transactions.paymentType'),
        meta: { className: 'txn-type' },
        cell: (info) => paymentTypeLabel(info.getValue()),
      }),
      column.display({
        id: 'card',
        header: t('common.card'),
        cell: (info) => {
          const tx = info.row.original;
          const card = cardText(tx.card_brand, tx.card_last_four);
          if (!card) return <span className="muted">{NO_VALUE}</span>;
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
        header: t('transactions.list.order'),
        meta: { className: 'txn-order' },
        cell: (info) => {
          // An invoice's payment: its number, which staff know (its order id is the pay page's UUID).
          const invoice = info.row.original.invoice_number;
          if (invoice) return <span title={t('transactions.list.invoiceTitle', { invoice })}>{invoice}</span>;
          const order = info.getValue();
          return order ? <span title={order}>{order}</span> : <span className="muted">{NO_VALUE}</span>;
        },
      }),
      column.display({
        id: 'till',
        header: t('transactions.till'),
        cell: (info) => <TillCell tx={info.row.original} tills={tills} staff={staff} />,
      }),
      column.accessor('created_at', {
        header: t('transactions.list.when'),
        meta: { className: 'nowrap' },
        cell: (info) => <WhenCell tx={info.row.original} />,
      }),
      column.accessor('transaction_id', {
        // The first eight characters; the search box finds a pasted whole id.
        header: t('transactions.list.id'),
        meta: { className: 'txn-id' },
        cell: (info) => (
          <span className="cell-mono" title={info.getValue()}>
            {shortId(info.getValue())}
          </span>
        ),
      }),
    ],
    [tills, staff, t],
  );
}

/** The status filter's choices: each status by name and code (the button says the name only). */
function statusChoicesOf(t: Translate) {
  return Object.entries(STATUS_MESSAGES).map(([code, id]) => ({
    value: code,
    label: t('transactions.filter.statusChoice', { status: t(id), code }),
    short: t(id),
  }));
}

function typeChoicesOf(t: Translate) {
  return PAYMENT_TYPES.map((type) => ({ value: type, label: t(PAYMENT_TYPE_MESSAGES[type]) }));
}

/** The till filter: each till by name (retired ones after), then Other terminals; a till in the URL that is not (yet) among them by its id. */
function tillChoicesOf(tills: readonly Till[], chosen: string | undefined): Array<{ value: string; label: string }> {
  const choices = [...tills]
    .sort((a, b) => Number(a.retired_at !== null) - Number(b.retired_at !== null))
    .map((till) => ({ value: till.till_id, label: tillName(tills, till.till_id) }));
  if (chosen && chosen !== OTHER_TERMINALS_BOOK && !choices.some((c) => c.value === chosen))
    choices.push({ value: chosen, label: tillChoiceName(tills, chosen) });
  choices.push({ value: OTHER_TERMINALS_BOOK, label: otherTerminalsName() });
  return choices;
}

/** The cashier filter: the staff whose names are known, by name; one in the URL not known yet as "Staff member". */
function cashierChoicesOf(
  staff: Readonly<Record<string, StaffName>>,
  chosen: string | undefined,
  t: Translate,
): Array<{ value: string; label: string }> {
  const choices = Object.entries(staff)
    .map(([value, member]) => ({
      value,
      label: member.disabled ? t('transactions.filter.disabledStaff', { name: member.name }) : member.name,
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
  if (chosen && !staff[chosen]) choices.push({ value: chosen, label: staffName(staff, chosen) });
  return choices;
}

const AMOUNT_MODES = ['any', 'equal', 'between', 'min', 'max'] as const;
type AmountMode = (typeof AMOUNT_MODES)[number];
const AMOUNT_MODE_MESSAGES: Record<AmountMode, MessageId> = {
  any: 'transactions.filter.any',
  equal: 'transactions.filter.equal',
  between: 'transactions.filter.between',
  min: 'transactions.filter.atLeast',
  max: 'transactions.filter.atMost',
};

function amountModeOf(search: TransactionListSearch): AmountMode {
  if (search.amount) return 'equal';
  if (search.amount_min && search.amount_max) return 'between';
  if (search.amount_min) return 'min';
  if (search.amount_max) return 'max';
  return 'any';
}

const AMOUNT_TEXT = /^\d{1,9}([.,]\d{1,4})?$/;

/** The filters that take typed text: applied with Enter or Apply, checked first. */
function TextFilters({
  search,
  apply,
  clear,
}: {
  search: TransactionListSearch;
  apply: (change: Partial<TransactionListSearch>) => void;
  clear: ReactNode;
}) {
  const t = useT();
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
    if (code && !/^[A-Z]{3}$/.test(code)) problems.push(t('transactions.filter.currencyProblem'));
    if (card.trim() && !/^\d{4}$/.test(card.trim())) problems.push(t('transactions.filter.cardProblem'));
    const a = first.trim().replace(',', '.');
    const b = second.trim().replace(',', '.');
    if (mode !== 'any' && !AMOUNT_TEXT.test(a))
      problems.push(t('transactions.filter.amountProblem', { example: formatNumber(12.5, 'EUR') }));
    if (mode === 'between' && !AMOUNT_TEXT.test(b))
      problems.push(t('transactions.filter.secondAmountProblem', { example: formatNumber(20, 'EUR') }));
    if (mode === 'between' && AMOUNT_TEXT.test(a) && AMOUNT_TEXT.test(b) && Number(a) > Number(b))
      problems.push(t('transactions.filter.amountOrderProblem'));
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
          {t('common.amount')}
        </label>
        <div className="txn-amount-inputs">
          <select id={ids.mode} className="input" value={mode} onChange={(event) => setMode(event.target.value as AmountMode)}>
            {AMOUNT_MODES.map((option) => (
              <option key={option} value={option}>
                {t(AMOUNT_MODE_MESSAGES[option])}
              </option>
            ))}
          </select>
          {mode !== 'any' && (
            <input
              id={ids.a}
              className="input txn-amount-input"
              inputMode="decimal"
              autoComplete="off"
              aria-label={mode === 'between' ? t('transactions.filter.amountFrom') : t('common.amount')}
              value={first}
              onChange={(event) => setFirst(event.target.value)}
            />
          )}
          {mode === 'between' && (
            <input
              id={ids.b}
              className="input txn-amount-input"
              inputMode="decimal"
              autoComplete="off"
              aria-label={t('transactions.filter.amountTo')}
              value={second}
              onChange={(event) => setSecond(event.target.value)}
            />
          )}
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.currency}>
          {t('common.currency')}
        </label>
        <input
          id={ids.currency}
          className="input txn-currency-input"
          maxLength={3}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('transactions.filter.anyPlaceholder')}
          value={currency}
          onChange={(event) => setCurrency(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.card}>
          {t('transactions.filter.cardLastFour')}
        </label>
        <input
          id={ids.card}
          className="input txn-card-input"
          inputMode="numeric"
          maxLength={4}
          autoComplete="off"
          placeholder={t('transactions.filter.anyPlaceholder')}
          value={card}
          onChange={(event) => setCard(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.order}>
          {t('transactions.orderId')}
        </label>
        <input
          id={ids.order}
          className="input txn-order-input"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('transactions.filter.anyPlaceholder')}
          value={order}
          onChange={(event) => setOrder(event.target.value)}
        />
      </div>
      <button type="submit" className="button txn-apply">
        {t('transactions.filter.apply')}
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
  const t = useT();
  const tills = useSalePlaces((s) => s.tills);
  const staff = useSalePlaces((s) => s.staff);
  const loadPlaces = useSalePlaces((s) => s.load);
  const columns = useColumns(tills, staff, t);
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
    for (const key of Object.keys(next) as Array<keyof TransactionListSearch>)
      if (next[key] === undefined || next[key] === '') delete next[key];
    void navigate({ search: next });
  };
  const filtered = isFiltered(search);
  // `t` among the inputs: the names follow the screens' language when it changes.
  const tillChoices = useMemo(() => tillChoicesOf(tills, search.till), [tills, search.till, t]);
  const cashierChoices = useMemo(() => cashierChoicesOf(staff, search.cashier, t), [staff, search.cashier, t]);
  const statusChoices = useMemo(() => statusChoicesOf(t), [t]);
  const typeChoices = useMemo(() => typeChoicesOf(t), [t]);

  return (
    <section className="transactions" aria-labelledby="transactions-title">
      <div className="page-head txn-list-head">
        <h1 id="transactions-title">{t('transactions.title')}</h1>
        <form
          className="txn-search"
          role="search"
          aria-label={t('transactions.search.label')}
          onSubmit={(event) => {
            event.preventDefault();
            filter({ q: query.trim() || undefined });
          }}
        >
          <label className="visually-hidden" htmlFor={ids.search}>
            {t('transactions.search.field')}
          </label>
          <SearchInput
            id={ids.search}
            className="input txn-search-input"
            placeholder={t('transactions.search.placeholder')}
            value={query}
            onChange={setQuery}
          />
          <button type="submit" className="button button-primary">
            {t('transactions.search.find')}
          </button>
        </form>
        <button type="button" className="button" onClick={() => setExporting(true)}>
          {t('transactions.export.title')}
        </button>
      </div>
      <div className="filters txn-filters" role="group" aria-label={t('transactions.filter.filters')}>
        {/* What is picked applies at once; what is typed applies with Enter or Apply. */}
        <div className="txn-filter-row">
          <FilterMenu
            label={t('common.status')}
            anyText={t('transactions.filter.anyStatus')}
            clearText={t('transactions.filter.anyStatus')}
            choices={statusChoices}
            selected={listOf(search.status)}
            onChange={(codes) => filter({ status: codes.join(',') || undefined })}
          />
          <FilterMenu
            label={t('transactions.paymentType')}
            anyText={t('transactions.filter.anyType')}
            clearText={t('transactions.filter.anyPaymentType')}
            choices={typeChoices}
            selected={listOf(search.type)}
            onChange={(types) => filter({ type: types.join(',') || undefined })}
          />
          <div className="field">
            <label className="field-label" htmlFor={ids.from}>
              {t('transactions.filter.from')}
            </label>
            <input
              id={ids.from}
              className="input"
              type="date"
              value={search.from ?? ''}
              max={search.to}
              onChange={(event) => filter({ from: event.target.value || undefined })}
            />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.to}>
              {t('transactions.filter.to')}
            </label>
            <input
              id={ids.to}
              className="input"
              type="date"
              value={search.to ?? ''}
              min={search.from}
              onChange={(event) => filter({ to: event.target.value || undefined })}
            />
          </div>
          {/* Where and by whom: together, on a line of their own when the window is narrow. */}
          <div className="txn-filter-group">
            <SelectFilter
              label={t('transactions.till')}
              anyLabel={t('transactions.filter.anyTill')}
              className="txn-till-select"
              value={search.till}
              options={tillChoices}
              onChange={(till) => filter({ till })}
            />
            <SelectFilter
              label={t('transactions.cashier')}
              anyLabel={t('transactions.filter.anyCashier')}
              className="txn-cashier-select"
              value={search.cashier}
              options={cashierChoices}
              onChange={(cashier) => filter({ cashier })}
            />
          </div>
        </div>
        <TextFilters
          search={search}
          apply={filter}
          clear={
            filtered && (
              <button type="button" className="button button-quiet txn-clear" onClick={() => void navigate({ search: {} })}>
                {t('transactions.filter.clear')}
              </button>
            )
          }
        />
      </div>
      {error && (
        <p className="form-problem" role="alert">
          {error}{' '}
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              useTransactionList.getState().invalidate();
              show(search);
            }}
          >
            {t('common.retry')}
          </button>
        </p>
      )}
      <DataTable
        caption={t(filtered ? 'transactions.list.captionFiltered' : 'transactions.list.caption')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.transaction_id}
        hasMore={hasMore}
        loading={loading}
        loadMore={() => void loadMore()}
        empty={t(filtered ? 'transactions.list.emptyFiltered' : 'transactions.list.empty')}
        height="none"
      />
      {exporting && <ExportDialog search={search} onClose={() => setExporting(false)} />}
    </section>
  );
}
