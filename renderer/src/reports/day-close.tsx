/**
 * Close the day at the till: the open day's running figures (X report), closing it with a Z report
 * (a manager closes; a cashier needs the manager's login and PIN or password, like a refund), and
 * the till's past Z reports. Every report prints on A4 (reports.css), opens as a PDF in the browser
 * and shows the 42-column lines a receipt printer prints.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import type { DayReport, FigureRow, ReceiptLines } from '../../../contract/api/reports.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { ApiError } from '../api/transport.js';
import { useSession } from '../session-store.js';
import { formatMoney, formatNumber } from '../till-screen/money.js';
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
import { useTill } from '../till-screen/till-store.js';
import { translate, useT, type MessageValues } from '../ui/i18n.js';
import { NO_VALUE } from '../sales/sales-store.js';

const when = (iso: string | null, none = NO_VALUE) => (iso ? formatDateTime(iso) : none);

/** Card brands by their names (data); one the gateway does not know is "Other cards". */
const BRANDS: Readonly<Record<string, string>> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };
/** How cards were read, in the screens' language (the gateway's entry_mode values). */
const ENTRY_MODES: Readonly<Record<string, MessageId>> = {
  contactless: 'reports.entry.contactless',
  chip: 'reports.entry.chip',
  swipe: 'reports.entry.swipe',
  manual: 'reports.entry.manual',
  unknown: 'reports.entry.unknown',
};

const brandLabel = (brand: string, t: Translate) => BRANDS[brand] ?? (brand === 'unknown' ? t('reports.brand.other') : brand);
const entryLabel = (mode: string, t: Translate) => {
  const id = ENTRY_MODES[mode];
  return id ? t(id) : mode;
};

/** A message with <strong> parts. */
function Rich({ id, values }: { id: MessageId; values?: MessageValues }) {
  return <FormattedMessage id={id} values={{ ...values, strong: (chunks: ReactNode[]) => <strong>{chunks}</strong> }} />;
}

/** Which report a label names: a Z report, this till's X report, or another till's (a manager's view). */
function reportKind(report: DayReport): { report: 'z' | 'x' | 'xOf'; sequence: number; till: string } {
  return { report: report.report === 'z' ? 'z' : otherTill(report) ? 'xOf' : 'x', sequence: report.sequence, till: report.terminal_id };
}

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
  const t = useT();
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
  const [slip, setSlip] = useState<{ title: string; sequence: number | null; tillId: string | undefined; lines: ReceiptLines } | null>(
    null,
  );
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
        title:
          report.report === 'z'
            ? t('reports.slip.z', { sequence: report.sequence })
            : other
              ? t('reports.slip.xOf', { till: report.terminal_id })
              : t('reports.slip.x'),
        sequence: report.report === 'z' ? report.sequence : null,
        tillId: other,
        lines,
      });
    } catch (problem) {
      useReports.setState({ error: problem instanceof Error ? problem.message : t('reports.slip.linesFailed') });
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
              {t('reports.backToDays')}
            </button>
            <ReportActions report={reading} onSlip={() => void openSlip(reading)} />
          </div>
          {justClosed === reading.sequence && (
            <p className="report-closed-note no-print" role="status">
              <CheckIcon size={20} /> {t('reports.closedNote', { sequence: reading.sequence, next: reading.sequence + 1 })}
            </p>
          )}
          <ReportSheet report={reading} />
        </>
      ) : !held ? (
        <>
          <div className="section-head no-print">
            <h2 id="day-close-title">{t('reports.dayClose.title')}</h2>
          </div>
          <p className="lead no-print">{t('reports.notATill', { manager: manager ? 'yes' : 'no' })}</p>
          {manager && <ShopDayPanel onRead={(report) => show(report)} />}
        </>
      ) : (
        <>
          <div className="section-head no-print">
            <h2 id="day-close-title">{t('reports.dayClose.title')}</h2>
            <div className="report-actions">
              <button type="button" className="button" onClick={() => void load()} aria-disabled={status === 'loading'}>
                {status === 'loading' ? t('sales.refreshing') : t('sales.refresh')}
              </button>
              {x && <ReportActions report={x} onSlip={() => void openSlip(x)} />}
              {x && (
                // No trailing "…": on a button it reads as a label cut short. The dialog asks before anything closes.
                <button type="button" className="button button-primary" onClick={() => setClosing(true)}>
                  {t('reports.closeDay', { sequence: x.sequence })}
                </button>
              )}
            </div>
          </div>
          {status === 'loading' && !x && (
            <p className="loading" role="status">
              {t('reports.loadingDay')}
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
          <pre className="receipt report-slip" aria-label={t('reports.slip.lines', { columns: slip.lines.columns })}>
            {slip.lines.lines.join('\n')}
          </pre>
          <p className={printing && !printing.ok ? 'form-problem' : 'report-print-status'} role="status">
            {printing?.message ?? ''}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-lg" onClick={() => setSlip(null)}>
              {t('common.close')}
            </button>
            <button type="button" className="button button-lg" onClick={() => window.print()}>
              {t('reports.slip.printHere')}
            </button>
            <button
              type="button"
              className="button button-primary button-lg"
              data-autofocus
              aria-disabled={printing?.busy ?? false}
              onClick={() => {
                if (printing?.busy) return;
                setPrinting({ busy: true, ok: true, message: t('reports.slip.sending') });
                reportsClient.printOnReceiptPrinter(slip.sequence, slip.tillId).then(
                  (result) => setPrinting({ busy: false, ok: result.printed, message: result.message }),
                  (error: unknown) =>
                    setPrinting({ busy: false, ok: false, message: error instanceof Error ? error.message : t('reports.slip.notPrinted') }),
                );
              }}
            >
              {t('reports.receiptPrinter')}
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
  const t = useT();
  const kind = reportKind(report);
  return (
    <div className="report-actions">
      <button type="button" className="button" onClick={() => window.print()} aria-label={t('reports.action.printA4Label', kind)}>
        {t('reports.action.printA4')}
      </button>
      {canOpenPdf && (
        <a
          className="button"
          href={pdfHref(report.report === 'z' ? report.sequence : null, otherTill(report))}
          target="_blank"
          rel="noreferrer"
          aria-label={t('reports.action.pdfLabel', kind)}
        >
          {t('reports.action.pdf')}
        </a>
      )}
      <button type="button" className="button" onClick={onSlip} aria-label={t('reports.action.printerLabel', kind)}>
        {t('reports.receiptPrinter')}
      </button>
    </div>
  );
}

/** One report as a sheet: header facts, totals per currency, then per card brand, entry mode and cashier. */
function ReportSheet({ report }: { report: DayReport }) {
  const t = useT();
  const closed = report.report === 'z';
  return (
    <article className="day-report" aria-labelledby="day-report-title">
      <header className="report-header">
        <div>
          <p className="report-shop">{report.shop_name}</p>
          <h2 id="day-report-title" className="report-title">
            {closed ? t('reports.title.z', { sequence: report.sequence }) : t('reports.sheet.daySoFar', { sequence: report.sequence })}
          </h2>
          <p className={closed ? 'badge badge-ok report-kind' : 'badge badge-wait report-kind'}>
            {closed ? t('reports.sheet.closedBadge') : t('reports.sheet.openBadge')}
          </p>
          {report.stored_sales?.provisional && <p className="badge badge-wait report-kind">{t('reports.sheet.provisional')}</p>}
        </div>
        <dl className="report-facts">
          <dt>{t('reports.fact.till')}</dt>
          <dd>{report.terminal_id}</dd>
          <dt>{t('reports.fact.opened')}</dt>
          <dd>{when(report.opened_at, t('reports.firstDayOfTill'))}</dd>
          {closed ? (
            <>
              <dt>{t('reports.fact.closed')}</dt>
              <dd>{when(report.closed_at)}</dd>
              <dt>{t('reports.fact.closedBy')}</dt>
              <dd>{report.closed_by?.name ?? NO_VALUE}</dd>
              {report.approved_by && (
                <>
                  <dt>{t('reports.fact.approvedBy')}</dt>
                  <dd>{report.approved_by.name}</dd>
                </>
              )}
            </>
          ) : (
            <>
              <dt>{t('reports.fact.taken')}</dt>
              <dd>{when(report.generated_at)}</dd>
            </>
          )}
          <dt>{t('reports.fact.lastSale')}</dt>
          <dd>{when(report.last_sale_at)}</dd>
        </dl>
      </header>

      {report.totals.length === 0 ? (
        <p className="muted report-empty">{t('reports.sheet.empty', { closed: closed ? 'yes' : 'no' })}</p>
      ) : (
        <>
          <div className="report-totals">
            {report.totals.map((total) => (
              <dl
                key={total.currency}
                className="totals-row report-totals-row"
                aria-label={t('sales.totalsIn', { currency: total.currency })}
              >
                <div className="total">
                  <dt>{t('common.approved')}</dt>
                  <TotalValue text={formatMoney(total.approved.amount, total.currency)} />
                  <dd className="total-count">{t('reports.count.sales', { count: total.approved.count })}</dd>
                </div>
                <div className="total">
                  <dt>{t('reports.figure.refunded')}</dt>
                  <TotalValue text={formatMoney(total.refunded.amount, total.currency)} />
                  <dd className="total-count">{t('reports.count.refunds', { count: total.refunded.count })}</dd>
                </div>
                <div className="total total-net">
                  <dt>{t('reports.figure.net')}</dt>
                  <TotalValue text={formatMoney(total.net, total.currency)} />
                  <dd className="total-count">{t('reports.netNote')}</dd>
                </div>
                <div className="total total-muted">
                  <dt>{t('common.declined')}</dt>
                  <TotalValue text={formatMoney(total.declined.amount, total.currency)} />
                  <dd className="total-count">{t('reports.count.declines', { count: total.declined.count })}</dd>
                </div>
              </dl>
            ))}
          </div>
          <FigureTable
            title={t('reports.byBrand')}
            first={t('reports.brand')}
            rows={report.by_card_brand.map((r) => ({ key: `${r.card_brand}-${r.currency}`, label: brandLabel(r.card_brand, t), row: r }))}
          />
          <FigureTable
            title={t('reports.byEntry')}
            first={t('reports.entry')}
            rows={report.by_entry_mode.map((r) => ({ key: `${r.entry_mode}-${r.currency}`, label: entryLabel(r.entry_mode, t), row: r }))}
          />
          <FigureTable
            title={t('reports.byCashier')}
            first={t('reports.cashier')}
            rows={report.by_cashier.map((r) => ({
              key: `${r.staff_id ?? 'api'}-${r.currency}`,
              label: r.staff_id === null ? t('reports.cashier.api') : r.name,
              row: r,
            }))}
          />
        </>
      )}
      {report.stored_sales && <StoredSalesSection stored={report.stored_sales} closed={closed} />}
      <p className="report-footer">
        {closed
          ? t('reports.sheet.footerZ', { sequence: report.sequence, till: report.terminal_id, closed: when(report.closed_at) })
          : t('reports.sheet.footerX', { till: report.terminal_id, taken: when(report.generated_at) })}
      </p>
    </article>
  );
}

function FigureTable({
  title,
  first,
  rows,
}: {
  title: string;
  first: string;
  rows: Array<{ key: string; label: string; row: FigureRow }>;
}) {
  const t = useT();
  return (
    <section className="report-section">
      <h3>{title}</h3>
      <table className="report-table">
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col">{t('common.currency')}</th>
            <th scope="col" className="num">
              {t('common.approved')}
            </th>
            <th scope="col" className="num">
              {t('common.declined')}
            </th>
            <th scope="col" className="num">
              {t('reports.figure.refunded')}
            </th>
            <th scope="col" className="num">
              {t('reports.figure.net')}
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

/** `× 3`: how many sales, declines or refunds an amount sums. */
const timesCount = (count: number) => `× ${count}`;

function FigureCell({ amount, count, currency }: { amount: number; count: number; currency: string }) {
  return (
    <td className="num">
      <span className="cell-main">{formatNumber(amount, currency)}</span>
      <span className="cell-sub">{timesCount(count)}</span>
    </td>
  );
}

function PastDays() {
  const t = useT();
  const days = useReports((s) => s.days);
  const status = useReports((s) => s.status);
  const read = useReports((s) => s.read);
  return (
    <section className="report-section past-days no-print" aria-labelledby="past-days-title">
      <h3 id="past-days-title">{t('reports.past.title')}</h3>
      {days.length === 0 && status === 'ready' ? (
        <p className="muted">{t('reports.past.empty')}</p>
      ) : (
        <table className="report-table report-days">
          <caption className="visually-hidden">{t('reports.past.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('reports.past.number')}</th>
              <th scope="col">{t('reports.fact.opened')}</th>
              <th scope="col">{t('reports.fact.closed')}</th>
              <th scope="col">{t('reports.fact.closedBy')}</th>
              <th scope="col" className="num">
                {t('reports.figure.net')}
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('sales.table.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.sequence} data-sequence={day.sequence}>
                <td>
                  <span className="cell-main">{t('reports.past.z', { sequence: day.sequence })}</span>
                </td>
                <td>{when(day.opened_at, t('reports.firstDay'))}</td>
                <td>{when(day.closed_at)}</td>
                <td>
                  <span className="cell-main">{day.closed_by.name}</span>
                  {day.approved_by && <span className="cell-sub">{t('reports.past.approvedBy', { name: day.approved_by.name })}</span>}
                </td>
                <td className="num nowrap">
                  {day.totals.length === 0 ? (
                    <span className="muted">{t('reports.past.noSales')}</span>
                  ) : (
                    day.totals.map((total) => (
                      <span key={total.currency} className="cell-main">
                        {formatMoney(total.net, total.currency)}
                      </span>
                    ))
                  )}
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => void read(day.sequence)}
                    aria-label={t('reports.past.openLabel', { sequence: day.sequence })}
                  >
                    {t('reports.past.open')}
                  </button>
                  {canOpenPdf && (
                    <a
                      className="button button-small"
                      href={pdfHref(day.sequence)}
                      target="_blank"
                      rel="noreferrer"
                      aria-label={t('reports.action.pdfLabel', { report: 'z', sequence: day.sequence, till: '' })}
                    >
                      {t('reports.action.pdf')}
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
    if (error.status === 403 && error.errors.some((e) => e.field === 'login')) return translate('sales.approval.wrong');
    if (error.status === 403 && error.errors.some((e) => e.field === 'X-Manager-Approval')) return translate('sales.approval.refused');
    if (error.status === 403) return translate('reports.close.notManager');
    if (error.status === 429) return translate('sales.approval.tooMany', { seconds: error.retryAfterSeconds ?? 60 });
    if (error.status === 400) return translate('sales.approval.invalid');
  }
  if (error instanceof ApiError && error.kind === 'network') return translate('reports.close.noAnswer');
  return error instanceof Error ? error.message : translate('reports.close.failed');
}

/** Confirms closing the day; a cashier brings a manager's approval. */
function CloseDayDialog({ day, onClose }: { day: DayReport; onClose: (closed: DayReport | null) => void }) {
  const t = useT();
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
      setProblem(t('sales.approval.missing', { method }));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const token = cashier
        ? await reportsClient.approveClose(
            method === 'pin' ? { login: login.trim(), pin: secret } : { login: login.trim(), password: secret },
          )
        : undefined;
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
    <Modal title={t('reports.closeDay', { sequence: day.sequence })} onClose={() => onClose(null)} busy={busy} className="modal-narrow">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p>
          <Rich id="reports.close.lead" values={{ sequence: day.sequence, next: day.sequence + 1 }} />
        </p>
        {day.stored_sales?.provisional && (
          <p className="form-warning" role="note">
            <Rich id="reports.close.stored" values={{ sales: sumText(day.stored_sales.pending) }} />
          </p>
        )}
        <dl className="close-facts">
          <div className="close-facts-row">
            <dt>{t('reports.fact.opened')}</dt>
            <dd>{when(day.opened_at, t('reports.firstDayOfTill'))}</dd>
          </div>
          {day.totals.length === 0 ? (
            <div className="close-facts-row">
              <dt>{t('reports.close.sales')}</dt>
              <dd>{t('reports.close.none')}</dd>
            </div>
          ) : (
            day.totals.map((total) => (
              <div key={total.currency} className="close-facts-row">
                <dt>{t('reports.close.net', { currency: total.currency })}</dt>
                <dd>
                  {t('reports.close.netLine', {
                    net: formatMoney(total.net, total.currency),
                    sales: total.approved.count,
                    refunds: total.refunded.count,
                  })}
                </dd>
              </div>
            ))
          )}
        </dl>
        {cashier && (
          <fieldset className="approval">
            <legend>{t('sales.approval.legend')}</legend>
            <label className="field">
              <span className="field-label">{t('sales.approval.login')}</span>
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
              legend={t('sales.approval.with')}
              manager
              passwordAutoComplete="off"
            />
          </fieldset>
        )}
        <p className="form-problem" role="alert">
          {problem ?? ''}
        </p>
        <div className="modal-actions">
          <button
            type="button"
            className="button button-lg"
            onClick={() => onClose(null)}
            disabled={busy}
            data-autofocus={cashier ? undefined : true}
          >
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
            {busy ? t('reports.close.busy') : t('reports.close.submit', { approve: cashier ? 'yes' : 'no', sequence: day.sequence })}
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
  return translate('reports.sum', { count, amounts: sums.map((s) => formatMoney(s.amount, s.currency)).join(' + ') });
}

/**
 * A joined till's sales stored while the shop's gateway was away: counted as taken above; the report
 * is provisional while any has not been sent, and names those the bank declined when they were.
 */
function StoredSalesSection({ stored, closed }: { stored: NonNullable<DayReport['stored_sales']>; closed: boolean }) {
  const t = useT();
  return (
    <section className="report-stored" aria-labelledby="report-stored-title">
      <h3 id="report-stored-title">{t('reports.stored.title')}</h3>
      <ul>
        {stored.pending.length > 0 && (
          <li>
            <Rich id="reports.stored.pending" values={{ sales: sumText(stored.pending), report: closed ? 'z' : 'x' }} />
          </li>
        )}
        {stored.forwarded.length > 0 && <li>{t('reports.stored.forwarded', { sales: sumText(stored.forwarded) })}</li>}
        {stored.declined_when_forwarded.length > 0 && (
          <li className="report-stored-declined">{t('reports.stored.declined', { sales: sumText(stored.declined_when_forwarded) })}</li>
        )}
      </ul>
    </section>
  );
}
