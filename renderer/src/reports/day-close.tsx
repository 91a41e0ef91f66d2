/**
 * Close the day at the till: the open day's running figures (X report), closing it with a Z report
 * (a manager closes; a cashier needs the manager's login and PIN or password, like a refund), and
 * the till's past Z reports. Every report prints on A4 (reports.css), opens as a PDF in the browser
 * and shows the 42-column lines a receipt printer prints.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { DayReport, FigureRow, ReceiptLines } from '../../../contract/api/reports.js';
import { ApiError } from '../api/client.js';
import { useSession } from '../session-store.js';
import { formatMoney, formatNumber } from '../till/money.js';
import { TotalValue } from '../ui/fit-text.js';
import { CheckIcon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { SecretField, type SecretMethod } from '../ui/secret-field.js';
import { pdfHref, reportsClient } from './reports-client.js';
import { ShopDayPanel } from './shop-day.js';
import { TillGate } from '../tills/till-gate.js';
import { useThisTill } from '../tills/this-till-store.js';
import { useReports } from './reports-store.js';
import { formatDateTime } from '../ui/format.js';
import { useTill } from '../till/till-store.js';

const when = (iso: string | null, none = '—') => (iso ? formatDateTime(iso) : none);

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover', unknown: 'Other cards' };
const ENTRY_MODES: Record<string, string> = { contactless: 'Contactless', chip: 'Chip', swipe: 'Swipe', manual: 'Keyed in', unknown: 'Unknown' };

/** PDFs open from the gateway's own origin; inside the desktop window the app talks through the bridge instead. */
const canOpenPdf = typeof window !== 'undefined' && !window.tillgate;

/** Close the day for this screen's till; a manager also sees the shop's day, with or without a till here. */
export function DayClose() {
  return (
    <TillGate optional>
      <DayCloseScreen />
    </TillGate>
  );
}

function DayCloseScreen() {
  const held = useThisTill((s) => s.state.name === 'held');
  const status = useReports((s) => s.status);
  const error = useReports((s) => s.error);
  const x = useReports((s) => s.x);
  const reading = useReports((s) => s.reading);
  const load = useReports((s) => s.load);
  const show = useReports((s) => s.show);
  const role = useSession((s) => s.session?.staff.role);
  const manager = role === 'back_office' || role === 'admin';
  const [closing, setClosing] = useState(false);
  const [justClosed, setJustClosed] = useState<number | null>(null);
  const [slip, setSlip] = useState<{ title: string; sequence: number | null; tillId: string | undefined; lines: ReceiptLines } | null>(null);
  const [printing, setPrinting] = useState<{ busy: boolean; message: string; ok: boolean } | null>(null);

  useEffect(() => {
    show(null);
    if (held) void load();
  }, [load, show, held]);

  const openSlip = async (report: DayReport) => {
    try {
      const other = otherTill(report);
      const lines = report.report === 'z' ? await reportsClient.zReceipt(report.sequence) : await reportsClient.xReceipt(other);
      setPrinting(null);
      setSlip({
        title: report.report === 'z' ? `Z report No. ${report.sequence} for the receipt printer` : `X report${other ? ` of ${report.terminal_id}` : ''} for the receipt printer`,
        sequence: report.report === 'z' ? report.sequence : null,
        tillId: other,
        lines,
      });
    } catch (problem) {
      useReports.setState({ error: problem instanceof Error ? problem.message : 'The receipt lines could not be loaded.' });
    }
  };

  const report = reading ?? x;
  return (
    <section className="day-close" aria-labelledby="day-close-title">
      {error && (
        <p className="form-problem" role="alert">
          {error}
        </p>
      )}
      {reading ? (
        <>
          <div className="section-head no-print">
            <button type="button" className="button" onClick={() => show(null)}>
              ← Open day and past days
            </button>
            <ReportActions report={reading} onSlip={() => void openSlip(reading)} />
          </div>
          {justClosed === reading.sequence && (
            <p className="report-closed-note no-print" role="status">
              <CheckIcon size={20} /> Day {reading.sequence} is closed. Sales from now on belong to day {reading.sequence + 1}.
            </p>
          )}
          <ReportSheet report={reading} />
        </>
      ) : !held ? (
        <>
          <div className="section-head no-print">
            <h2 id="day-close-title">Close the day</h2>
          </div>
          <p className="lead no-print">
            This screen is not a till yet, so it has no day of its own to close. Open the Till tab to choose which till it is{manager ? ', or read any till\u2019s day below' : ''}.
          </p>
          {manager && <ShopDayPanel onRead={(report) => show(report)} />}
        </>
      ) : (
        <>
          <div className="section-head no-print">
            <h2 id="day-close-title">Close the day</h2>
            <div className="report-actions">
              <button type="button" className="button" onClick={() => void load()} aria-disabled={status === 'loading'}>
                {status === 'loading' ? 'Refreshing…' : 'Refresh'}
              </button>
              {x && <ReportActions report={x} onSlip={() => void openSlip(x)} />}
              {x && (
                // No trailing "…": on a button it reads as a label cut short. The dialog asks before anything closes.
                <button type="button" className="button button-primary" onClick={() => setClosing(true)}>
                  Close day {x.sequence}
                </button>
              )}
            </div>
          </div>
          {status === 'loading' && !x && (
            <p className="loading" role="status">
              Loading the day…
            </p>
          )}
          {report && <ReportSheet report={report} />}
          <PastDays />
          {manager && <ShopDayPanel onRead={(report) => show(report)} />}
        </>
      )}
      {closing && x && (
        <CloseDayDialog
          day={x}
          onClose={(closed) => {
            setClosing(false);
            if (closed) {
              setJustClosed(closed.sequence);
              show(closed);
              void load();
            }
          }}
        />
      )}
      {slip && (
        <Modal title={slip.title} onClose={() => setSlip(null)} className="modal-receipt">
          <pre className="receipt report-slip" aria-label={`${slip.lines.columns}-column receipt lines`}>
            {slip.lines.lines.join('\n')}
          </pre>
          <p className={printing && !printing.ok ? 'form-problem' : 'report-print-status'} role="status">
            {printing?.message ?? ''}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-lg" onClick={() => setSlip(null)}>
              Close
            </button>
            <button type="button" className="button button-lg" onClick={() => window.print()}>
              Print here
            </button>
            <button
              type="button"
              className="button button-primary button-lg"
              data-autofocus
              aria-disabled={printing?.busy ?? false}
              onClick={() => {
                if (printing?.busy) return;
                setPrinting({ busy: true, ok: true, message: 'Sending to the receipt printer…' });
                reportsClient.printOnReceiptPrinter(slip.sequence, slip.tillId).then(
                  (result) => setPrinting({ busy: false, ok: result.printed, message: result.message }),
                  (error: unknown) => setPrinting({ busy: false, ok: false, message: error instanceof Error ? error.message : 'The receipt printer did not print.' }),
                );
              }}
            >
              Receipt printer
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}

/** The till of a report when it is not this screen's (a manager reading another till's open day). */
function otherTill(report: DayReport): string | undefined {
  const own = useSession.getState().terminal?.terminal_id;
  return report.terminal_id !== own ? report.terminal_id : undefined;
}

function ReportActions({ report, onSlip }: { report: DayReport; onSlip: () => void }) {
  const label = report.report === 'z' ? `Z report ${report.sequence}` : `the X report${otherTill(report) ? ` of ${report.terminal_id}` : ''}`;
  return (
    <div className="report-actions">
      <button type="button" className="button" onClick={() => window.print()} aria-label={`Print A4: ${label}`}>
        Print A4
      </button>
      {canOpenPdf && (
        <a className="button" href={pdfHref(report.report === 'z' ? report.sequence : null, otherTill(report))} target="_blank" rel="noreferrer" aria-label={`${label} as PDF`}>
          PDF
        </a>
      )}
      <button type="button" className="button" onClick={onSlip} aria-label={`${label} for the receipt printer`}>
        Receipt printer
      </button>
    </div>
  );
}

/** One report as a sheet: header facts, totals per currency, then per card brand, entry mode and cashier. */
function ReportSheet({ report }: { report: DayReport }) {
  const closed = report.report === 'z';
  return (
    <article className="day-report" aria-labelledby="day-report-title">
      <header className="report-header">
        <div>
          <p className="report-shop">{report.shop_name}</p>
          <h2 id="day-report-title" className="report-title">
            {closed ? `Z report No. ${report.sequence}` : `Day ${report.sequence} so far`}
          </h2>
          <p className={closed ? 'badge badge-ok report-kind' : 'badge badge-wait report-kind'}>
            {closed ? 'Closed day · these figures never change' : 'X report · running totals, the day is still open'}
          </p>
          {report.stored_sales?.provisional && <p className="badge badge-wait report-kind">Provisional · stored sales not yet at the shop&rsquo;s gateway</p>}
        </div>
        <dl className="report-facts">
          <dt>Till</dt>
          <dd>{report.terminal_id}</dd>
          <dt>Opened</dt>
          <dd>{when(report.opened_at, 'first day of this till')}</dd>
          {closed ? (
            <>
              <dt>Closed</dt>
              <dd>{when(report.closed_at)}</dd>
              <dt>Closed by</dt>
              <dd>{report.closed_by?.name ?? '—'}</dd>
              {report.approved_by && (
                <>
                  <dt>Approved by</dt>
                  <dd>{report.approved_by.name}</dd>
                </>
              )}
            </>
          ) : (
            <>
              <dt>Taken</dt>
              <dd>{when(report.generated_at)}</dd>
            </>
          )}
          <dt>Last sale</dt>
          <dd>{when(report.last_sale_at)}</dd>
        </dl>
      </header>

      {report.totals.length === 0 ? (
        <p className="muted report-empty">No card sales, declines or refunds {closed ? 'on this day' : 'yet today'}.</p>
      ) : (
        <>
          <div className="report-totals">
            {report.totals.map((t) => (
              <dl key={t.currency} className="totals-row report-totals-row" aria-label={`Totals in ${t.currency}`}>
                <div className="total">
                  <dt>Approved</dt>
                  <TotalValue text={formatMoney(t.approved.amount, t.currency)} />
                  <dd className="total-count">{plural(t.approved.count, 'sale')}</dd>
                </div>
                <div className="total">
                  <dt>Refunded</dt>
                  <TotalValue text={formatMoney(t.refunded.amount, t.currency)} />
                  <dd className="total-count">{plural(t.refunded.count, 'refund')}</dd>
                </div>
                <div className="total total-net">
                  <dt>Net</dt>
                  <TotalValue text={formatMoney(t.net, t.currency)} />
                  <dd className="total-count">approved − refunded</dd>
                </div>
                <div className="total total-muted">
                  <dt>Declined</dt>
                  <TotalValue text={formatMoney(t.declined.amount, t.currency)} />
                  <dd className="total-count">{plural(t.declined.count, 'decline')}</dd>
                </div>
              </dl>
            ))}
          </div>
          <FigureTable title="By card brand" first="Card brand" rows={report.by_card_brand.map((r) => ({ key: `${r.card_brand}-${r.currency}`, label: BRANDS[r.card_brand] ?? r.card_brand, row: r }))} />
          <FigureTable title="By entry mode" first="Entry mode" rows={report.by_entry_mode.map((r) => ({ key: `${r.entry_mode}-${r.currency}`, label: ENTRY_MODES[r.entry_mode] ?? r.entry_mode, row: r }))} />
          <FigureTable title="By cashier" first="Cashier" rows={report.by_cashier.map((r) => ({ key: `${r.staff_id ?? 'api'}-${r.currency}`, label: r.name, row: r }))} />
        </>
      )}
      {report.stored_sales && <StoredSalesSection stored={report.stored_sales} closed={closed} />}
      <p className="report-footer">
        {closed
          ? `Z report No. ${report.sequence} of till ${report.terminal_id}, closed ${when(report.closed_at)}. A closed day never changes.`
          : `X report of till ${report.terminal_id}, taken ${when(report.generated_at)}. Running totals: the day is not closed.`}
      </p>
    </article>
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function FigureTable({ title, first, rows }: { title: string; first: string; rows: Array<{ key: string; label: string; row: FigureRow }> }) {
  return (
    <section className="report-section">
      <h3>{title}</h3>
      <table className="report-table">
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col">Currency</th>
            <th scope="col" className="num">
              Approved
            </th>
            <th scope="col" className="num">
              Declined
            </th>
            <th scope="col" className="num">
              Refunded
            </th>
            <th scope="col" className="num">
              Net
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, label, row }) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              <td>{row.currency}</td>
              <FigureCell amount={row.approved.amount} count={row.approved.count} currency={row.currency} />
              <FigureCell amount={row.declined.amount} count={row.declined.count} currency={row.currency} />
              <FigureCell amount={row.refunded.amount} count={row.refunded.count} currency={row.currency} />
              <td className="num report-net">{formatNumber(row.net, row.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function FigureCell({ amount, count, currency }: { amount: number; count: number; currency: string }) {
  return (
    <td className="num">
      <span className="cell-main">{formatNumber(amount, currency)}</span>
      <span className="cell-sub">× {count}</span>
    </td>
  );
}

function PastDays() {
  const days = useReports((s) => s.days);
  const status = useReports((s) => s.status);
  const read = useReports((s) => s.read);
  return (
    <section className="report-section past-days no-print" aria-labelledby="past-days-title">
      <h3 id="past-days-title">Past days (Z reports)</h3>
      {days.length === 0 && status === 'ready' ? (
        <p className="muted">No day has been closed at this till yet.</p>
      ) : (
        <table className="report-table report-days">
          <caption className="visually-hidden">Closed days of this till, newest first</caption>
          <thead>
            <tr>
              <th scope="col">No.</th>
              <th scope="col">Opened</th>
              <th scope="col">Closed</th>
              <th scope="col">Closed by</th>
              <th scope="col" className="num">
                Net
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.sequence} data-sequence={day.sequence}>
                <td>
                  <span className="cell-main">Z {day.sequence}</span>
                </td>
                <td>{when(day.opened_at, 'first day')}</td>
                <td>{when(day.closed_at)}</td>
                <td>
                  <span className="cell-main">{day.closed_by.name}</span>
                  {day.approved_by && <span className="cell-sub">approved by {day.approved_by.name}</span>}
                </td>
                <td className="num nowrap">{day.totals.length === 0 ? <span className="muted">no sales</span> : day.totals.map((t) => <span key={t.currency} className="cell-main">{formatMoney(t.net, t.currency)}</span>)}</td>
                <td className="row-actions">
                  <button type="button" className="button button-small" onClick={() => void read(day.sequence)} aria-label={`Open Z report ${day.sequence}`}>
                    Open
                  </button>
                  {canOpenPdf && (
                    <a className="button button-small" href={pdfHref(day.sequence)} target="_blank" rel="noreferrer" aria-label={`Z report ${day.sequence} as PDF`}>
                      PDF
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function closeProblem(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'api') {
    if (error.status === 403 && error.errors.some((e) => e.field === 'login')) return "The manager's login, PIN or password is wrong.";
    if (error.status === 403 && error.errors.some((e) => e.field === 'X-Manager-Approval')) return 'The approval was refused or has expired. Ask the manager again.';
    if (error.status === 403) return 'This account cannot approve closing the day: it needs a back-office or admin role in this shop.';
    if (error.status === 429) return `Too many failed attempts. Try again in ${error.retryAfterSeconds ?? 60} seconds.`;
    if (error.status === 400) return "Enter the manager's login and PIN (4 to 8 digits) or password.";
  }
  if (error instanceof ApiError && error.kind === 'network') return 'The gateway did not answer. Try again: the day is never closed twice.';
  return error instanceof Error ? error.message : 'The day could not be closed.';
}

/** Confirms closing the day; a cashier brings a manager's approval. */
function CloseDayDialog({ day, onClose }: { day: DayReport; onClose: (closed: DayReport | null) => void }) {
  const cashier = useSession((s) => s.session?.staff.role === 'cashier');
  const [login, setLogin] = useState('');
  const [method, setMethod] = useState<SecretMethod>('pin');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  /** One key per dialog: a retry after a lost answer gets the day it closed, not a second one. */
  const key = useRef(crypto.randomUUID());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (cashier && (!login.trim() || (method === 'pin' ? !/^\d{4,8}$/.test(secret) : !secret))) {
      setProblem(method === 'pin' ? "Enter the manager's login and PIN (4 to 8 digits)." : "Enter the manager's login and password.");
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const token = cashier ? await reportsClient.approveClose(method === 'pin' ? { login: login.trim(), pin: secret } : { login: login.trim(), password: secret }) : undefined;
      onClose(await reportsClient.closeDay(token, key.current));
      // What the till said of the closed day's last payment is no news for the next one.
      useTill.getState().dayClosed();
    } catch (error) {
      setProblem(closeProblem(error));
      setBusy(false);
    } finally {
      setSecret('');
    }
  };

  return (
    <Modal title={`Close day ${day.sequence}`} onClose={() => onClose(null)} busy={busy} className="modal-narrow">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p>
          Closing the day prints <strong>Z report No. {day.sequence}</strong> with the figures up to now. A closed day <strong>never changes</strong>: sales and refunds from
          now on belong to day {day.sequence + 1}.
        </p>
        {day.stored_sales?.provisional && (
          <p className="form-warning" role="note">
            This till holds {sumText(day.stored_sales.pending)} stored while the shop&rsquo;s gateway was away. They stay stored and are sent when it answers; the Z report counts them as
            taken and says <strong>provisional</strong> until they have all been sent.
          </p>
        )}
        <dl className="close-facts">
          <div className="close-facts-row">
            <dt>Opened</dt>
            <dd>{when(day.opened_at, 'first day of this till')}</dd>
          </div>
          {day.totals.length === 0 ? (
            <div className="close-facts-row">
              <dt>Sales</dt>
              <dd>none</dd>
            </div>
          ) : (
            day.totals.map((t) => (
              <div key={t.currency} className="close-facts-row">
                <dt>Net {t.currency}</dt>
                <dd>
                  {formatMoney(t.net, t.currency)} ({plural(t.approved.count, 'sale')}, {plural(t.refunded.count, 'refund')})
                </dd>
              </div>
            ))
          )}
        </dl>
        {cashier && (
          <fieldset className="approval">
            <legend>Manager approval</legend>
            <label className="field">
              <span className="field-label">Manager login</span>
              <input
                className="input"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                value={login}
                data-autofocus
                onChange={(event) => {
                  setLogin(event.target.value);
                  setProblem(null);
                }}
              />
            </label>
            <SecretField
              method={method}
              secret={secret}
              onMethod={setMethod}
              onSecret={(value) => {
                setSecret(value);
                setProblem(null);
              }}
              legend="The manager approves with"
              manager
              passwordAutoComplete="off"
            />
          </fieldset>
        )}
        <p className="form-problem" role="alert">
          {problem ?? ''}
        </p>
        <div className="modal-actions">
          <button type="button" className="button button-lg" onClick={() => onClose(null)} disabled={busy} data-autofocus={cashier ? undefined : true}>
            Cancel
          </button>
          <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
            {busy ? 'Closing…' : `${cashier ? 'Approve and close' : 'Close'} day ${day.sequence}`}
          </button>
        </div>
      </form>
    </Modal>
  );
}

type CurrencySum = NonNullable<DayReport['stored_sales']>['pending'][number];

/** "3 sales (62.50 EUR)", summed per currency. */
function sumText(sums: readonly CurrencySum[]): string {
  const count = sums.reduce((n, s) => n + s.count, 0);
  return `${plural(count, 'sale')} (${sums.map((s) => formatMoney(s.amount, s.currency)).join(' + ')})`;
}

/**
 * A joined till's sales stored while the shop's gateway was away: counted as taken above; the report
 * is provisional while any has not been sent, and names those the bank declined when they were.
 */
function StoredSalesSection({ stored, closed }: { stored: NonNullable<DayReport['stored_sales']>; closed: boolean }) {
  return (
    <section className="report-stored" aria-labelledby="report-stored-title">
      <h3 id="report-stored-title">Stored while the shop&rsquo;s gateway was away</h3>
      <ul>
        {stored.pending.length > 0 && (
          <li>
            <strong>{sumText(stored.pending)} not sent yet</strong>: this {closed ? 'Z' : 'X'} report is provisional until they are; it becomes final by itself.
          </li>
        )}
        {stored.forwarded.length > 0 && <li>{sumText(stored.forwarded)} sent and approved.</li>}
        {stored.declined_when_forwarded.length > 0 && (
          <li className="report-stored-declined">
            {sumText(stored.declined_when_forwarded)} declined by the bank when sent: counted as taken above, but not paid. Ask the customer for another payment (Needs attention in the back
            office).
          </li>
        )}
      </ul>
    </section>
  );
}
