/**
 * CSV export of the list's filters (ux.md 12): the dialog keeps the filters, lets the user choose
 * the date range, the time zone of the file's timestamps and its columns, then streams the file
 * from the gateway with a progress bar (rows and bytes received, of the rows the gateway counted)
 * and a Cancel that stops it. The finished file is offered for download under the gateway's name.
 * The days of the range are days in the chosen time zone.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { DEFAULT_EXPORT_COLUMNS, EXPORT_COLUMN_LABELS, EXPORT_COLUMNS, type ExportColumn } from '../../../contract/transaction-list.js';
import { Modal } from '../ui/modal.js';
import type { Till } from '../tills/tills-client.js';
import { staffName, tillChoiceName, useSalePlaces, type StaffName } from './sale-places.js';
import { count, formatBytes, paymentTypeLabel, statusLabel } from './transaction-format.js';
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
 * The columns' names in the dialog: the contract's, but short enough for a cell of the grid (the
 * contract's say more, for the API's readers). Taken at: when a card-present sale was taken, for
 * one a till stored while the shop's gateway was away when the till stored it; Forwarded: when
 * such a sale reached the gateway.
 */
const COLUMN_LABELS: Readonly<Record<ExportColumn, string>> = {
  ...EXPORT_COLUMN_LABELS,
  till_id: 'Till',
  cashier: 'Cashier',
  taken_at: 'Taken at (card present)',
  forwarded_at: 'Forwarded (stored sale)',
};

/** The filters besides the days, in words. */
function filterWords(search: TransactionListSearch, tills: readonly Till[], staff: Readonly<Record<string, StaffName>>): string[] {
  const words: string[] = [];
  if (search.q) words.push(`matching “${search.q}”`);
  if (search.status) words.push(`status ${listOf(search.status).map((code) => statusLabel(Number(code))).join(' or ')}`);
  if (search.type) words.push(listOf(search.type).map(paymentTypeLabel).join(' or '));
  if (search.currency) words.push(`in ${search.currency}`);
  if (search.amount) words.push(`amount ${search.amount}`);
  if (search.amount_min && search.amount_max) words.push(`amount ${search.amount_min} to ${search.amount_max}`);
  else if (search.amount_min) words.push(`amount at least ${search.amount_min}`);
  else if (search.amount_max) words.push(`amount at most ${search.amount_max}`);
  if (search.card) words.push(`card ending ${search.card}`);
  if (search.order_id) words.push(`order ${search.order_id}`);
  if (search.till) words.push(`at ${tillChoiceName(tills, search.till)}`);
  if (search.cashier) words.push(`taken by ${staffName(staff, search.cashier)}`);
  return words;
}

type Phase = { kind: 'choose' } | { kind: 'running'; progress: ExportProgress } | { kind: 'done'; result: ExportResult } | { kind: 'failed'; message: string } | { kind: 'cancelled' };

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
  const words = filterWords(search, tills, staff);

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
      setProblem('Choose at least one column.');
      return;
    }
    if (from && to && from > to) {
      setProblem('The first day must not be after the last.');
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
      else setPhase({ kind: 'failed', message: problemText(error, 'The export failed.') });
    } finally {
      abort.current = null;
    }
  };

  const toggle = (column: ExportColumn) => setColumns((was) => (was.includes(column) ? was.filter((c) => c !== column) : [...was, column]));
  const running = phase.kind === 'running';

  if (phase.kind === 'running' || phase.kind === 'done' || phase.kind === 'cancelled' || phase.kind === 'failed') {
    const progress = phase.kind === 'running' ? phase.progress : phase.kind === 'done' ? { rows: phase.result.rows, bytes: phase.result.bytes, total: phase.result.rows } : null;
    const total = progress?.total ?? null;
    return (
      <Modal title="Export CSV" onClose={() => (running ? abort.current?.abort() : onClose())} className="modal-narrow">
        {progress && (
          <div className="txn-export-progress">
            <label htmlFor={ids.progress} className="field-label">
              {phase.kind === 'done' ? 'Exported' : 'Exporting…'}
            </label>
            <progress id={ids.progress} max={total ?? undefined} value={total ? Math.min(progress.rows, total) : undefined} />
            <p className="txn-export-counts" role="status">
              {count.format(progress.rows)}
              {total !== null ? ` of ${count.format(total)}` : ''} rows · {formatBytes(progress.bytes)}
            </p>
          </div>
        )}
        {phase.kind === 'done' && (
          <p className="lead">
            <strong>{phase.result.filename}</strong> is saved to your downloads.{' '}
            <a className="txn-download" href={download.current?.url} download={phase.result.filename}>
              Download it again
            </a>
          </p>
        )}
        {phase.kind === 'cancelled' && (
          <p className="lead" role="status">
            The export was cancelled. Nothing was saved.
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
              Cancel export
            </button>
          ) : (
            <>
              {phase.kind !== 'done' && (
                <button type="button" className="button button-lg" onClick={() => setPhase({ kind: 'choose' })}>
                  Back
                </button>
              )}
              <button type="button" className="button button-primary button-lg" autoFocus onClick={onClose}>
                Done
              </button>
            </>
          )}
        </div>
      </Modal>
    );
  }

  return (
    <Modal title="Export CSV" onClose={onClose} className="modal-wide">
      <form onSubmit={(event) => void start(event)} noValidate>
        <p className="lead txn-export-what">
          {words.length ? `Transactions ${words.join(', ')}` : 'All transactions'}, newest first. Card numbers are never exported: only the brand and the last four digits.
        </p>
        <div className="txn-export-row">
          <div className="field">
            <label className="field-label" htmlFor={ids.from}>
              From day
            </label>
            <input id={ids.from} className="input" type="date" value={from} max={to || undefined} data-autofocus onChange={(event) => setFrom(event.target.value)} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.to}>
              To day
            </label>
            <input id={ids.to} className="input" type="date" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.zone}>
              Time zone
            </label>
            <select id={ids.zone} className="input" value={zone} onChange={(event) => setZone(event.target.value)} aria-describedby={`${ids.zone}-note`}>
              {zones.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p id={`${ids.zone}-note`} className="field-note">
          Days and the file&rsquo;s times are in this time zone. Leave the days empty for all time.
        </p>
        <fieldset className="txn-export-columns" aria-describedby={ids.columns}>
          <legend className="field-label">Columns</legend>
          <div className="txn-export-column-grid">
            {EXPORT_COLUMNS.map((c) => (
              <label key={c} className="txn-export-column">
                <input type="checkbox" checked={columns.includes(c)} onChange={() => toggle(c)} />
                <span>{COLUMN_LABELS[c]}</span>
              </label>
            ))}
          </div>
          <p id={ids.columns} className="field-note">
            {columns.length} of {EXPORT_COLUMNS.length} columns.{' '}
            <button type="button" className="link-button" onClick={() => setColumns([...EXPORT_COLUMNS])}>
              All
            </button>{' '}
            <button type="button" className="link-button" onClick={() => setColumns([...DEFAULT_EXPORT_COLUMNS])}>
              The usual ones
            </button>
          </p>
        </fieldset>
        <p className="form-problem" role="alert">
          {problem ?? ''}
        </p>
        <div className="modal-actions">
          <button type="button" className="button button-lg" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary button-lg">
            Export
          </button>
        </div>
      </form>
    </Modal>
  );
}
