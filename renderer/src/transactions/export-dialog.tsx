/**
 * CSV export of the list's filters: the dialog keeps the filters, lets the user choose the date
 * range, the time zone of the file's timestamps and its columns, then streams the file from the
 * gateway with a progress bar (rows and bytes received, of the rows the gateway counted) and a
 * Cancel that stops it. The finished file is offered for download under the gateway's name. The
 * days of the range are days in the chosen time zone.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { DEFAULT_EXPORT_COLUMNS, EXPORT_COLUMNS, type ExportColumn } from '../../../contract/transaction-list.js';
import { currentLocale, useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import type { Till } from '../tills/tills-client.js';
import { useRichT } from './rich-text.js';
import { staffName, tillChoiceName, useSalePlaces, type StaffName } from './sale-places.js';
import { formatBytes, paymentTypeLabel, statusLabel } from './transaction-format.js';
import { apiQuery, listOf, type TransactionListSearch } from './transaction-search.js';
import { transactionsClient, type ExportProgress, type ExportResult } from './transactions-client.js';
import { problemText } from './transactions-store.js';
import { shopTimeZone } from '../ui/format.js';

interface ExportDialogProps {
  search: TransactionListSearch;
  onClose: () => void;
}

/** The file's times by default in the shop's time zone (the one its screens show), else this computer's. */
function browserTimeZone(): string {
  return shopTimeZone() ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
}

function timeZones(): string[] {
  const supported = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([browserTimeZone(), 'UTC', ...supported])];
}

/**
 * The columns' names in the dialog: the contract's (EXPORT_COLUMN_LABELS), but short enough for a
 * cell of the grid and in the screens' language; the file's own header keeps the column's code
 * (till_id, cashier), a machine format. Taken at: when a card-present sale was taken, for one a
 * till stored while the shop's gateway was away when the till stored it; Forwarded: when such a
 * sale reached the gateway.
 */
const COLUMN_MESSAGES: Readonly<Record<ExportColumn, MessageId>> = {
  transaction_id: 'transactions.transactionId',
  created_at: 'transactions.created',
  updated_at: 'transactions.lastChange',
  status_code: 'transactions.column.statusCode',
  status: 'common.status',
  payment_type: 'transactions.paymentType',
  amount: 'common.amount',
  currency: 'common.currency',
  captured_amount: 'transactions.amounts.captured',
  refunded_amount: 'transactions.amounts.refunded',
  included_fees: 'transactions.amounts.fees',
  order_id: 'transactions.orderId',
  card_brand: 'transactions.column.cardBrand',
  card_last_four: 'transactions.filter.cardLastFour',
  entry_mode: 'transactions.column.entryMode',
  till_id: 'transactions.till',
  cashier: 'transactions.cashier',
  taken_at: 'transactions.column.takenAt',
  forwarded_at: 'transactions.column.forwardedAt',
  message: 'transactions.column.message',
  merchant_reference: 'transactions.column.merchantReference',
  additional_transaction_data: 'transactions.column.additionalData',
  recurring: 'transactions.recurring',
  parent_id: 'transactions.parent',
  sepa_mandate: 'transactions.sepaMandate',
};

/** `A or B`, as the screens' language lists choices. */
function either(items: readonly string[]): string {
  return new Intl.ListFormat(currentLocale(), { type: 'disjunction' }).format(items);
}

/** The filters besides the days, in words. */
function filterWords(
  search: TransactionListSearch,
  tills: readonly Till[],
  staff: Readonly<Record<string, StaffName>>,
  t: Translate,
): string[] {
  const words: string[] = [];
  if (search.q) words.push(t('transactions.export.filter.search', { text: search.q }));
  if (search.status)
    words.push(
      t('transactions.export.filter.status', { statuses: either(listOf(search.status).map((code) => statusLabel(Number(code)))) }),
    );
  if (search.type) words.push(t('transactions.export.filter.type', { types: either(listOf(search.type).map(paymentTypeLabel)) }));
  if (search.currency) words.push(t('transactions.export.filter.currency', { currency: search.currency }));
  if (search.amount) words.push(t('transactions.export.filter.amount', { amount: search.amount }));
  if (search.amount_min && search.amount_max)
    words.push(t('transactions.export.filter.amountBetween', { min: search.amount_min, max: search.amount_max }));
  else if (search.amount_min) words.push(t('transactions.export.filter.amountMin', { min: search.amount_min }));
  else if (search.amount_max) words.push(t('transactions.export.filter.amountMax', { max: search.amount_max }));
  if (search.card) words.push(t('transactions.export.filter.card', { lastFour: search.card }));
  if (search.order_id) words.push(t('transactions.export.filter.order', { order: search.order_id }));
  if (search.till) words.push(t('transactions.export.filter.till', { till: tillChoiceName(tills, search.till) }));
  if (search.cashier) words.push(t('transactions.export.filter.cashier', { name: staffName(staff, search.cashier) }));
  return words;
}

type Phase =
  | { kind: 'choose' }
  | { kind: 'running'; progress: ExportProgress }
  | { kind: 'done'; result: ExportResult }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

export function ExportDialog({ search, onClose }: ExportDialogProps) {
  const ids = { from: useId(), to: useId(), zone: useId(), columns: useId(), progress: useId() };
  const zones = useMemo(timeZones, []);
  const [from, setFrom] = useState(search.from ?? '');
  const [to, setTo] = useState(search.to ?? '');
  const [zone, setZone] = useState(browserTimeZone());
  const [columns, setColumns] = useState<ExportColumn[]>([...DEFAULT_EXPORT_COLUMNS]);
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const [problem, setProblem] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const download = useRef<{ url: string; name: string } | null>(null);
  const tills = useSalePlaces((state) => state.tills);
  const staff = useSalePlaces((state) => state.staff);
  const t = useT();
  const rich = useRichT();
  const words = filterWords(search, tills, staff, t);

  useEffect(
    () => () => {
      abort.current?.abort();
      if (download.current) URL.revokeObjectURL(download.current.url);
    },
    [],
  );

  const save = (result: ExportResult) => {
    if (download.current) URL.revokeObjectURL(download.current.url);
    download.current = { url: URL.createObjectURL(result.blob), name: result.filename };
    const link = document.createElement('a');
    link.href = download.current.url;
    link.download = result.filename;
    link.click();
  };

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (columns.length === 0) {
      setProblem(t('transactions.export.noColumn'));
      return;
    }
    if (from && to && from > to) {
      setProblem(t('transactions.export.daysOrder'));
      return;
    }
    setProblem(null);
    const query = apiQuery({ ...search, from: from || undefined, to: to || undefined }, zone);
    // The file's columns in the file's order (the order of the list below).
    query.set('columns', EXPORT_COLUMNS.filter((c) => columns.includes(c)).join(','));
    query.set('time_zone', zone);
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'running', progress: { rows: 0, bytes: 0, total: null } });
    try {
      const result = await transactionsClient.exportCsv(query, (progress) => setPhase({ kind: 'running', progress }), controller.signal);
      setPhase({ kind: 'done', result });
      save(result);
    } catch (error) {
      if (controller.signal.aborted) setPhase({ kind: 'cancelled' });
      else setPhase({ kind: 'failed', message: problemText(error, t('transactions.export.failed')) });
    } finally {
      abort.current = null;
    }
  };

  const toggle = (column: ExportColumn) => setColumns((was) => (was.includes(column) ? was.filter((c) => c !== column) : [...was, column]));
  const running = phase.kind === 'running';

  if (phase.kind === 'running' || phase.kind === 'done' || phase.kind === 'cancelled' || phase.kind === 'failed') {
    const progress =
      phase.kind === 'running'
        ? phase.progress
        : phase.kind === 'done'
          ? { rows: phase.result.rows, bytes: phase.result.bytes, total: phase.result.rows }
          : null;
    const total = progress?.total ?? null;
    return (
      <Modal title={t('transactions.export.title')} onClose={() => (running ? abort.current?.abort() : onClose())} className="modal-narrow">
        {progress && (
          <div className="txn-export-progress">
            <label htmlFor={ids.progress} className="field-label">
              {t(phase.kind === 'done' ? 'transactions.export.exported' : 'transactions.export.exporting')}
            </label>
            <progress id={ids.progress} max={total ?? undefined} value={total ? Math.min(progress.rows, total) : undefined} />
            <p className="txn-export-counts" role="status">
              {total !== null
                ? t('transactions.export.rowsOf', { rows: progress.rows, total, size: formatBytes(progress.bytes) })
                : t('transactions.export.rows', { rows: progress.rows, size: formatBytes(progress.bytes) })}
            </p>
          </div>
        )}
        {phase.kind === 'done' && (
          <p className="lead">
            {rich('transactions.export.saved', { file: <strong>{phase.result.filename}</strong> })}{' '}
            <a className="txn-download" href={download.current?.url} download={phase.result.filename}>
              {t('transactions.export.again')}
            </a>
          </p>
        )}
        {phase.kind === 'cancelled' && (
          <p className="lead" role="status">
            {t('transactions.export.cancelled')}
          </p>
        )}
        {phase.kind === 'failed' && (
          <p className="form-problem" role="alert">
            {phase.message}
          </p>
        )}
        <div className="modal-actions">
          {running ? (
            // The Export button that had the focus is gone: the focus goes to Cancel.
            <button type="button" className="button button-lg" autoFocus onClick={() => abort.current?.abort()}>
              {t('transactions.export.cancel')}
            </button>
          ) : (
            <>
              {phase.kind !== 'done' && (
                <button type="button" className="button button-lg" onClick={() => setPhase({ kind: 'choose' })}>
                  {t('common.back')}
                </button>
              )}
              <button type="button" className="button button-primary button-lg" autoFocus onClick={onClose}>
                {t('transactions.export.done')}
              </button>
            </>
          )}
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={t('transactions.export.title')} onClose={onClose} className="modal-wide">
      <form onSubmit={(event) => void start(event)} noValidate>
        <p className="lead txn-export-what">
          {words.length ? t('transactions.export.what', { filters: words.join(', ') }) : t('transactions.export.whatAll')}
        </p>
        <div className="txn-export-row">
          <div className="field">
            <label className="field-label" htmlFor={ids.from}>
              {t('transactions.export.fromDay')}
            </label>
            <input
              id={ids.from}
              className="input"
              type="date"
              value={from}
              max={to || undefined}
              data-autofocus
              onChange={(event) => setFrom(event.target.value)}
            />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.to}>
              {t('transactions.export.toDay')}
            </label>
            <input
              id={ids.to}
              className="input"
              type="date"
              value={to}
              min={from || undefined}
              onChange={(event) => setTo(event.target.value)}
            />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.zone}>
              {t('transactions.export.timeZone')}
            </label>
            <select
              id={ids.zone}
              className="input"
              value={zone}
              onChange={(event) => setZone(event.target.value)}
              aria-describedby={`${ids.zone}-note`}
            >
              {zones.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p id={`${ids.zone}-note`} className="field-note">
          {t('transactions.export.zoneNote')}
        </p>
        <fieldset className="txn-export-columns" aria-describedby={ids.columns}>
          <legend className="field-label">{t('transactions.export.columns')}</legend>
          <div className="txn-export-column-grid">
            {EXPORT_COLUMNS.map((c) => (
              <label key={c} className="txn-export-column">
                <input type="checkbox" checked={columns.includes(c)} onChange={() => toggle(c)} />
                <span>{t(COLUMN_MESSAGES[c])}</span>
              </label>
            ))}
          </div>
          <p id={ids.columns} className="field-note">
            {t('transactions.export.columnCount', { chosen: columns.length, count: EXPORT_COLUMNS.length })}{' '}
            <button type="button" className="link-button" onClick={() => setColumns([...EXPORT_COLUMNS])}>
              {t('transactions.export.all')}
            </button>{' '}
            <button type="button" className="link-button" onClick={() => setColumns([...DEFAULT_EXPORT_COLUMNS])}>
              {t('transactions.export.usual')}
            </button>
          </p>
        </fieldset>
        <p className="form-problem" role="alert">
          {problem ?? ''}
        </p>
        <div className="modal-actions">
          <button type="button" className="button button-lg" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary button-lg">
            {t('common.export')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
