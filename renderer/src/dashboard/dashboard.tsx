/**
 * The back office's start (back office and admin): today, the last 7 days or this month at a
 * glance (volume and refunds per currency, payments, approval rate, payment-type mix, charted per
 * hour or day with uPlot) and what needs attention, each item linking to where it is handled.
 * Every figure comes from one call (GET /ui/dashboard); days and hours are the shop's (its time
 * zone). The period and the volume chart's currency live in the URL. Each chart has its figures
 * as a table: read by screen readers, and shown instead of the chart with its Table button.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { Attention, Dashboard, DashboardBucket, MoneySum, PaymentTypeFigures } from '../../../contract/api/dashboard.js';
import { DASHBOARD_PERIODS, type DashboardPeriod } from '../../../contract/constants.js';
import { useSession } from '../session-store.js';
import { formatMoney } from '../till/money.js';
import { paymentTypeLabel } from '../transactions/transaction-format.js';
import { CheckIcon, WarningIcon } from '../ui/icons.js';
import { BarChart, ChartKey, type BarPart } from './bar-chart.js';
import { dashboardClient } from './dashboard-client.js';
import { useDashboard } from './dashboard-store.js';

const PERIOD_NAMES: Record<DashboardPeriod, string> = { today: 'Today', '7d': 'Last 7 days', month: 'This month' };
/** The period in a sentence: `No money taken today yet`. */
const PERIOD_PHRASES: Record<DashboardPeriod, string> = { today: 'today', '7d': 'in the last 7 days', month: 'this month' };

const typeName = paymentTypeLabel;

// Colours with at least 3:1 contrast on white (WCAG 1.4.11), told apart by the key and the table too.
const COLORS = { volume: '#0f4c81', approved: '#1b7f3b', declined: '#b3261e', other: '#6b7785' } as const;

const count = new Intl.NumberFormat('en');
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat('en', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const plural = (n: number, one: string, many = `${one}s`) => `${count.format(n)} ${n === 1 ? one : many}`;
const rate = (value: number | null) => (value === null ? '—' : percent.format(value));

/** A calendar date (YYYY-MM-DD) as a name: `Mon 16 Nov`. */
const dayFormat = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const shortDayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
function calendarDate(local: string): Date {
  const [year = 1970, month = 1, day = 1] = local.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day));
}
/** Under a bar: `16 Nov` or `13:00`. */
const axisLabel = (bucket: DashboardBucket, unit: Dashboard['bucket']) => (unit === 'hour' ? bucket.local_start.slice(11, 16) : shortDayFormat.format(calendarDate(bucket.local_start)));
/** In a table or the pointed bar's line: `Mon 16 Nov` or `13:00–14:00`. */
function bucketName(bucket: DashboardBucket, unit: Dashboard['bucket']): string {
  if (unit === 'day') return dayFormat.format(calendarDate(bucket.local_start));
  const hour = Number(bucket.local_start.slice(11, 13));
  return `${bucket.local_start.slice(11, 16)}–${String((hour + 1) % 24).padStart(2, '0')}:${bucket.local_start.slice(14, 16)}`;
}

const moneyOf = (sums: readonly MoneySum[], currency: string) => sums.find((s) => s.currency === currency);
const moneyList = (sums: readonly MoneySum[]) => (sums.length ? sums.map((s) => formatMoney(s.amount, s.currency)).join(', ') : '—');

export function DashboardScreen() {
  const search = useSearch({ from: '/dashboard' });
  const period: DashboardPeriod = search.period ?? 'today';
  const figures = useDashboard((s) => s.figures[period]);
  const loading = useDashboard((s) => s.loading);
  const error = useDashboard((s) => s.error);
  const load = useDashboard((s) => s.load);

  useEffect(() => {
    void load(period);
  }, [load, period]);

  return (
    <section className="dashboard" aria-labelledby="dashboard-title">
      <div className="dashboard-head">
        <h1 id="dashboard-title">Dashboard</h1>
        <nav className="period-switch" aria-label="Period">
          {DASHBOARD_PERIODS.map((p) => (
            <Link key={p} to="/dashboard" search={(previous) => ({ ...previous, period: p })} className="period-link" aria-current={p === period ? 'page' : undefined}>
              {PERIOD_NAMES[p]}
            </Link>
          ))}
        </nav>
        <p className="dashboard-updated" aria-live="polite" title={figures ? `Days and hours in the shop's time zone, ${figures.time_zone}` : undefined}>
          {loading === period ? 'Updating…' : figures ? `As of ${timeIn(figures.generated_at, figures.time_zone)}` : ''}
        </p>
        <button type="button" className="button" onClick={() => void load(period)} disabled={loading === period}>
          Refresh
        </button>
      </div>
      {error && (
        <p className="form-problem" role="alert">
          {error}
        </p>
      )}
      {figures ? (
        <Figures figures={figures} currency={search.currency} onChanged={() => void load(period)} />
      ) : (
        !error && (
          <p className="loading" role="status">
            Loading the figures…
          </p>
        )
      )}
    </section>
  );
}

/** `13:05 CET`: the time in the shop's time zone, named. */
function timeIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso));
}

function whenIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

function Figures({ figures, currency, onChanged }: { figures: Dashboard; currency: string | undefined; onChanged: () => void }) {
  const shopCurrency = useSession((s) => s.session?.merchant.currency ?? 'EUR');
  const unit = figures.bucket;
  const per = unit === 'hour' ? 'per hour' : 'per day';
  const periodName = PERIOD_PHRASES[figures.period];
  return (
    <>
      <NeedsAttention attention={figures.attention} timeZone={figures.time_zone} onChanged={onChanged} />
      <div className="kpis">
        <Kpi title="Volume" note={figures.volume.length ? `captured, from ${plural(figures.volume.reduce((n, v) => n + v.count, 0), 'payment')}` : 'No money taken yet'}>
          {(figures.volume.length ? figures.volume : [{ currency: shopCurrency, amount: 0, amount_minor: 0, count: 0 }]).map((v) => (
            <span key={v.currency} className="kpi-line">
              {formatMoney(v.amount, v.currency)}
            </span>
          ))}
        </Kpi>
        <Kpi
          title="Payments"
          note={`${count.format(figures.totals.approved)} approved · ${count.format(figures.totals.declined)} declined${figures.totals.other ? ` · ${count.format(figures.totals.other)} other` : ''}`}
        >
          <span className="kpi-line">{count.format(figures.totals.payments)}</span>
        </Kpi>
        <Kpi
          title="Approval rate"
          note={figures.totals.approval_rate === null ? 'No approved or declined payments yet' : `${count.format(figures.totals.approved)} out of ${count.format(figures.totals.approved + figures.totals.declined)} approved`}
        >
          <span className="kpi-line">{rate(figures.totals.approval_rate)}</span>
        </Kpi>
        <Kpi title="Refunds" note={figures.refunds.length ? plural(figures.refunds.reduce((n, r) => n + r.count, 0), 'refund') : 'No refunds'}>
          {(figures.refunds.length ? figures.refunds : [{ currency: shopCurrency, amount: 0, amount_minor: 0, count: 0 }]).map((r) => (
            <span key={r.currency} className="kpi-line">
              {formatMoney(r.amount, r.currency)}
            </span>
          ))}
        </Kpi>
      </div>
      <div className="dashboard-grid">
        <div className="dashboard-main">
          <VolumeChart figures={figures} chosen={currency} fallback={shopCurrency} per={per} periodName={periodName} />
          <PaymentsChart figures={figures} per={per} periodName={periodName} unit={unit} />
          <TypesChart types={figures.payment_types} periodName={periodName} />
        </div>
      </div>
    </>
  );
}

function Kpi({ title, note, children }: { title: string; note: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="kpi" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="kpi-value">{children}</p>
      <p className="kpi-note">{note}</p>
    </section>
  );
}

/** A chart with its title, key and the same figures as a table (read by screen readers; shown with Table). */
function ChartCard({ title, controls, keyParts, chart, table, empty }: { title: string; controls?: ReactNode; keyParts?: readonly BarPart[]; chart: ReactNode; table: ReactNode; empty?: string | null }) {
  const id = useId();
  const [asTable, setAsTable] = useState(false);
  return (
    <section className="chart-card" aria-labelledby={id}>
      <div className="chart-head">
        <h2 id={id}>{title}</h2>
        {controls}
        <button type="button" className="button button-small" aria-pressed={asTable} onClick={() => setAsTable((shown) => !shown)}>
          <span className="visually-hidden">{title} as a </span>Table
        </button>
      </div>
      {empty && <p className="chart-empty">{empty}</p>}
      {!asTable && keyParts && <ChartKey parts={keyParts} />}
      {!asTable && chart}
      {/* Shown, the table scrolls on its own: focusable, so the keyboard scrolls it too. */}
      <div className={asTable ? 'chart-table' : 'visually-hidden'} {...(asTable ? { tabIndex: 0, role: 'region', 'aria-labelledby': id } : {})}>
        {table}
      </div>
    </section>
  );
}

function VolumeChart({ figures, chosen, fallback, per, periodName }: { figures: Dashboard; chosen: string | undefined; fallback: string; per: string; periodName: string }) {
  const navigate = useNavigate({ from: '/dashboard' });
  const selectId = useId();
  const currencies = useMemo(() => {
    const all = [...figures.volume.map((v) => v.currency)];
    for (const list of [figures.refunds, ...figures.series.map((b) => b.volume)]) for (const v of list) if (!all.includes(v.currency)) all.push(v.currency);
    return all.length ? all : [fallback];
  }, [figures, fallback]);
  const currency = chosen && currencies.includes(chosen) ? chosen : (currencies[0] ?? fallback);
  const labels = useMemo(() => figures.series.map((b) => axisLabel(b, figures.bucket)), [figures]);
  const parts = useMemo<BarPart[]>(() => [{ label: `Volume in ${currency}`, color: COLORS.volume, values: figures.series.map((b) => moneyOf(b.volume, currency)?.amount ?? 0) }], [figures, currency]);
  const title = `Volume ${per}`;
  return (
    <ChartCard
      title={title}
      controls={
        currencies.length > 1 ? (
          <span className="chart-control">
            <label htmlFor={selectId}>Currency</label>
            <select id={selectId} className="input input-compact" value={currency} onChange={(event) => void navigate({ search: (previous) => ({ ...previous, currency: event.target.value }), replace: true })}>
              {currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </span>
        ) : null
      }
      empty={figures.volume.length ? null : `No money taken ${periodName} yet.`}
      chart={
        <BarChart
          labels={labels}
          parts={parts}
          formatAxis={(value) => compact.format(value)}
          describe={(i) => {
            const bucket = figures.series[i];
            if (!bucket) return '';
            const sum = moneyOf(bucket.volume, currency);
            return `${bucketName(bucket, figures.bucket)}: ${formatMoney(sum?.amount ?? 0, currency)} from ${plural(sum?.count ?? 0, 'payment')}`;
          }}
        />
      }
      table={
        <table className="figures-table">
          <caption>
            {title}, {periodName}: captured money and refunds per currency
          </caption>
          <thead>
            <tr>
              <th scope="col">{figures.bucket === 'hour' ? 'Hour' : 'Day'}</th>
              {currencies.map((c) => (
                <th key={`v${c}`} scope="col" className="num">
                  Volume {c}
                </th>
              ))}
              {currencies.map((c) => (
                <th key={`r${c}`} scope="col" className="num">
                  Refunds {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {figures.series.map((bucket) => (
              <tr key={bucket.start}>
                <th scope="row">{bucketName(bucket, figures.bucket)}</th>
                {currencies.map((c) => (
                  <td key={`v${c}`} className="num">
                    {formatMoney(moneyOf(bucket.volume, c)?.amount ?? 0, c)}
                  </td>
                ))}
                {currencies.map((c) => (
                  <td key={`r${c}`} className="num">
                    {formatMoney(moneyOf(bucket.refunds, c)?.amount ?? 0, c)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function paymentParts(list: readonly { approved: number; declined: number; other: number }[]): BarPart[] {
  return [
    { label: 'Approved', color: COLORS.approved, values: list.map((b) => b.approved) },
    { label: 'Declined', color: COLORS.declined, values: list.map((b) => b.declined) },
    { label: 'Other', color: COLORS.other, values: list.map((b) => b.other) },
  ];
}

function countsText(b: { payments: number; approved: number; declined: number; other: number; approval_rate: number | null }): string {
  const parts = [`${count.format(b.approved)} approved`, `${count.format(b.declined)} declined`];
  if (b.other) parts.push(`${count.format(b.other)} other`);
  return `${plural(b.payments, 'payment')} (${parts.join(', ')})${b.approval_rate === null ? '' : `, ${rate(b.approval_rate)} approved`}`;
}

function PaymentsChart({ figures, per, periodName, unit }: { figures: Dashboard; per: string; periodName: string; unit: Dashboard['bucket'] }) {
  const labels = useMemo(() => figures.series.map((b) => axisLabel(b, unit)), [figures, unit]);
  const parts = useMemo(() => paymentParts(figures.series), [figures]);
  const title = `Payments ${per}`;
  return (
    <ChartCard
      title={title}
      keyParts={parts}
      chart={
        <BarChart
          labels={labels}
          parts={parts}
          whole
          formatAxis={(value) => compact.format(value)}
          describe={(i) => {
            const bucket = figures.series[i];
            return bucket ? `${bucketName(bucket, unit)}: ${countsText(bucket)}` : '';
          }}
        />
      }
      table={
        <table className="figures-table">
          <caption>
            {title}, {periodName}
          </caption>
          <thead>
            <tr>
              <th scope="col">{unit === 'hour' ? 'Hour' : 'Day'}</th>
              <th scope="col" className="num">
                Payments
              </th>
              <th scope="col" className="num">
                Approved
              </th>
              <th scope="col" className="num">
                Declined
              </th>
              <th scope="col" className="num">
                Other
              </th>
              <th scope="col" className="num">
                Approval rate
              </th>
            </tr>
          </thead>
          <tbody>
            {figures.series.map((bucket) => (
              <tr key={bucket.start}>
                <th scope="row">{bucketName(bucket, unit)}</th>
                <td className="num">{count.format(bucket.payments)}</td>
                <td className="num">{count.format(bucket.approved)}</td>
                <td className="num">{count.format(bucket.declined)}</td>
                <td className="num">{count.format(bucket.other)}</td>
                <td className="num">{rate(bucket.approval_rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function TypesChart({ types, periodName }: { types: readonly PaymentTypeFigures[]; periodName: string }) {
  const labels = useMemo(() => types.map((t) => typeName(t.payment_type)), [types]);
  const parts = useMemo(() => paymentParts(types), [types]);
  return (
    <ChartCard
      title="Payment types"
      keyParts={parts}
      empty={types.length ? null : `No payments ${periodName} yet.`}
      chart={
        types.length ? (
          <BarChart
            labels={labels}
            parts={parts}
            height={180}
            whole
            formatAxis={(value) => compact.format(value)}
            describe={(i) => {
              const type = types[i];
              return type ? `${typeName(type.payment_type)}: ${countsText(type)}` : '';
            }}
          />
        ) : null
      }
      table={
        <table className="figures-table">
          <caption>Payment types, {periodName}: payments and captured money</caption>
          <thead>
            <tr>
              <th scope="col">Payment type</th>
              <th scope="col" className="num">
                Payments
              </th>
              <th scope="col" className="num">
                Approved
              </th>
              <th scope="col" className="num">
                Declined
              </th>
              <th scope="col" className="num">
                Volume
              </th>
            </tr>
          </thead>
          <tbody>
            {types.map((type) => (
              <tr key={type.payment_type}>
                <th scope="row">{typeName(type.payment_type)}</th>
                <td className="num">{count.format(type.payments)}</td>
                <td className="num">{count.format(type.approved)}</td>
                <td className="num">{count.format(type.declined)}</td>
                <td className="num">{moneyList(type.volume)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

interface AttentionItem {
  key: keyof Attention;
  count: number;
  title: string;
  help: ReactNode;
  link?: { href: string; label: string };
  examples?: { key: string; href: string; text: string; action?: { label: string; name: string; run: () => Promise<void> } }[];
}

/**
 * Where each item is handled. The Transactions and Invoices screens take their filters from the
 * URL (`#/transactions?status=4`, `#/invoices?status=pending`, `#/network-tokens?status=suspended`)
 * and open one object at its own path; Postbacks get their screen with the next part of the back
 * office, so until then the item says which API call handles it.
 */
function attentionItems(a: Attention, timeZone: string, handled: (transactionId: string) => Promise<void>): AttentionItem[] {
  const n = (value: number, one: string, many?: string) => plural(value, one, many);
  return [
    {
      key: 'forwarded_declines',
      count: a.forwarded_declines.count,
      title: a.forwarded_declines.count ? `${n(a.forwarded_declines.count, 'stored sale')} declined when forwarded` : 'No stored sale declined',
      help: 'A till took these while this gateway could not be reached; the customer left with the goods, and the bank declined the card afterwards. Contact the customer (the order tells who), then mark it handled.',
      examples: a.forwarded_declines.items.map((d) => ({
        key: d.transaction_id,
        href: `#/transactions/${encodeURIComponent(d.transaction_id)}`,
        text: `${d.till_id}${d.staff_name ? ` (${d.staff_name})` : ''} · ${formatMoney(d.amount, d.currency)} · ${d.card_brand ?? 'card'} •••• ${d.card_last_four ?? '????'} · order ${d.order_id ?? '—'} · ${d.message ?? 'declined'} · taken ${whenIn(d.stored_at, timeZone)}`,
        action: { label: 'Handled', name: `Mark handled: ${formatMoney(d.amount, d.currency)}, order ${d.order_id ?? d.transaction_id}`, run: () => handled(d.transaction_id) },
      })),
    },
    {
      key: 'authorizations_expiring',
      count: a.authorizations_expiring.count,
      title: a.authorizations_expiring.count ? `${n(a.authorizations_expiring.count, 'authorization')} uncaptured, expiring within 24 hours` : 'No authorization about to expire',
      help: 'Capture or release the money before the 7 days run out.',
      link: { href: '#/transactions?status=4', label: 'Authorized transactions' },
      examples: a.authorizations_expiring.items.map((t) => ({
        key: t.transaction_id,
        href: `#/transactions/${encodeURIComponent(t.transaction_id)}`,
        text: `${t.order_id ?? t.transaction_id.slice(0, 8)} · ${formatMoney(t.amount, t.currency)} · expires ${whenIn(t.expires_at, timeZone)}`,
      })),
    },
    {
      key: 'invoices_expiring',
      count: a.invoices_expiring.count,
      title: a.invoices_expiring.count ? `${n(a.invoices_expiring.count, 'invoice')} expiring within 24 hours` : 'No invoice about to expire',
      help: 'Their pay links stop working then.',
      link: { href: '#/invoices?status=pending', label: 'Pending invoices' },
      examples: a.invoices_expiring.items.map((i) => ({
        key: i.debt_claim_number,
        href: `#/invoices/${encodeURIComponent(i.debt_claim_number)}`,
        text: `${i.debt_claim_number} · ${formatMoney(i.amount, i.currency)} · expires ${whenIn(i.expires_at, timeZone)}`,
      })),
    },
    {
      key: 'invoice_emails_failed',
      count: a.invoice_emails_failed.count,
      title: a.invoice_emails_failed.count ? `${n(a.invoice_emails_failed.count, 'invoice e-mail')} failed` : 'No failed invoice e-mail',
      help: 'Check the address, then send a reminder from the invoice.',
      examples: a.invoice_emails_failed.items.map((e) => ({
        key: `${e.debt_claim_number}-${e.failed_at}`,
        href: `#/invoices/${encodeURIComponent(e.debt_claim_number)}`,
        text: `${e.debt_claim_number} · ${e.email_type} e-mail · ${whenIn(e.failed_at, timeZone)}`,
      })),
    },
    {
      key: 'postbacks_failed',
      count: a.postbacks_failed.count,
      title: a.postbacks_failed.count ? `${n(a.postbacks_failed.count, 'postback')} failed` : 'No failed postback',
      help: (
        <>
          Your shop system did not accept them in 3 days. Until the Postbacks screen comes, <code>POST /rest/postbacks/resend_failed</code> sends them again.
        </>
      ),
      link: { href: '/docs#/Postbacks', label: 'Postbacks in the API documentation' },
    },
    {
      key: 'postbacks_retrying',
      count: a.postbacks_retrying.count,
      title: a.postbacks_retrying.count ? `${n(a.postbacks_retrying.count, 'postback')} being retried` : 'No postback being retried',
      help: (
        <>
          Not accepted yet; retried for 3 days. Until the Postbacks screen comes: <code>GET /rest/postbacks?state=pending</code>.
        </>
      ),
    },
    {
      key: 'tokens_suspended',
      count: a.tokens_suspended.count,
      title: a.tokens_suspended.count ? `${n(a.tokens_suspended.count, 'network token')} suspended` : 'No suspended network token',
      help: 'Payments with them are declined until the card network resumes them.',
      link: { href: '#/network-tokens?status=suspended', label: 'Suspended network tokens' },
    },
  ];
}

function NeedsAttention({ attention, timeZone, onChanged }: { attention: Attention; timeZone: string; onChanged: () => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const handled = async (transactionId: string) => {
    try {
      await dashboardClient.declineHandled(transactionId);
      setProblem(null);
      onChanged();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'It could not be marked handled');
    }
  };
  const items = attentionItems(attention, timeZone, handled);
  const open = items.filter((item) => item.count > 0);
  const clear = items.filter((item) => item.count === 0);
  // The count is what the list below asks to handle: each declined sale, invoice, e-mail, ... once.
  const total = open.reduce((sum, item) => sum + item.count, 0);
  return (
    <section className="attention" aria-labelledby="attention-title">
      <h2 id="attention-title">
        Needs attention <span className="attention-count">{total ? plural(total, 'item') : 'nothing'}</span>
      </h2>
      <ul className="attention-list">
        {open.map((item) => (
          <li key={item.key} className={item.count ? 'attention-item attention-open' : 'attention-item'} data-kind={item.key}>
            <span className="attention-icon" aria-hidden="true">
              {item.count ? <WarningIcon size={18} /> : <CheckIcon size={18} />}
            </span>
            <div className="attention-body">
              <p className="attention-title">{item.title}</p>
              {item.count > 0 && (
                <>
                  <p className="attention-help">{item.help}</p>
                  {item.examples && item.examples.length > 0 && (
                    <ul className="attention-examples">
                      {item.examples.map((example) => (
                        <li key={example.key}>
                          <a href={example.href}>{example.text}</a>
                          {example.action && (
                            <button type="button" className="button button-small attention-action" aria-label={example.action.name} onClick={() => void example.action?.run()}>
                              {example.action.label}
                            </button>
                          )}
                        </li>
                      ))}
                      {item.count > item.examples.length && <li className="muted">and {count.format(item.count - item.examples.length)} more</li>}
                    </ul>
                  )}
                  {item.link && (
                    <a className="attention-link" href={item.link.href}>
                      {item.link.label}
                    </a>
                  )}
                </>
              )}
            </div>
          </li>
        ))}
      </ul>
      {clear.length > 0 && (
        <details className="attention-clear">
          <summary>{open.length ? `${plural(clear.length, 'more check')}: all clear` : `All ${plural(clear.length, 'check')} clear`}</summary>
          <ul className="attention-list">
            {clear.map((item) => (
              <li key={item.key} className="attention-item" data-kind={item.key}>
                <span className="attention-icon" aria-hidden="true">
                  <CheckIcon size={18} />
                </span>
                <div className="attention-body">
                  <p className="attention-title">{item.title}</p>
                </div>
              </li>
            ))}
          </ul>
        </details>
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
