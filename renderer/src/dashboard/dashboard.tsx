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
import { FormattedMessage } from 'react-intl';
import type { Attention, Dashboard, DashboardBucket, MoneySum, PaymentTypeFigures } from '../../../contract/api/dashboard.js';
import { DASHBOARD_PERIODS, type DashboardPeriod } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { useSession } from '../session-store.js';
import { maskedCard, NO_VALUE } from '../sales/sales-store.js';
import { formatMoney } from '../till-screen/money.js';
import { paymentTypeLabel } from '../transactions/transaction-format.js';
import { currentLocale, useT } from '../ui/i18n.js';
import { CheckIcon, WarningIcon } from '../ui/icons.js';
import { BarChart, ChartKey, type BarPart } from './bar-chart.js';
import { dashboardClient } from './dashboard-client.js';
import { useDashboard } from './dashboard-store.js';

const PERIOD_NAMES: Record<DashboardPeriod, MessageId> = {
  today: 'dashboard.period.today',
  '7d': 'dashboard.period.7d',
  month: 'dashboard.period.month',
};

const typeName = paymentTypeLabel;

// Colours with at least 3:1 contrast on white (WCAG 1.4.11), told apart by the key and the table too.
const COLORS = { volume: '#0f4c81', approved: '#1b7f3b', declined: '#b3261e', other: '#6b7785' } as const;

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
/** One Intl format per style and language of the screens, made once. */
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(style: string, make: (locale: string) => F): F {
  const locale = currentLocale();
  const key = `${style}|${locale}`;
  let format = formats.get(key) as F | undefined;
  if (!format) {
    format = make(locale);
    formats.set(key, format);
  }
  return format;
}

/** A count, grouped in the screens' language: `1,234`, `1.234`. */
const count = (n: number) => cached('count', (locale) => new Intl.NumberFormat(locale)).format(n);
/** A chart axis' number: `1.2K`, `1,2 Tsd.`. */
const compact = (n: number) =>
  cached('compact', (locale) => new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 })).format(n);
const rate = (value: number | null) =>
  value === null
    ? NO_VALUE
    : cached(
        'percent',
        (locale) => new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      ).format(value);

/** A calendar date (YYYY-MM-DD) as a name: `Mon 16 Nov`. */
const dayName = (date: Date) =>
  cached('day', (locale) => new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })).format(
    date,
  );
const shortDayName = (date: Date) =>
  cached('shortDay', (locale) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' })).format(date);
function calendarDate(local: string): Date {
  const [year = 1970, month = 1, day = 1] = local.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day));
}
/** Under a bar: `16 Nov` or `13:00`. */
const axisLabel = (bucket: DashboardBucket, unit: Dashboard['bucket']) =>
  unit === 'hour' ? bucket.local_start.slice(11, 16) : shortDayName(calendarDate(bucket.local_start));
/** In a table or the pointed bar's line: `Mon 16 Nov` or `13:00–14:00`. */
function bucketName(bucket: DashboardBucket, unit: Dashboard['bucket']): string {
  if (unit === 'day') return dayName(calendarDate(bucket.local_start));
  const hour = Number(bucket.local_start.slice(11, 13));
  return `${bucket.local_start.slice(11, 16)}–${String((hour + 1) % 24).padStart(2, '0')}:${bucket.local_start.slice(14, 16)}`;
}

const moneyOf = (sums: readonly MoneySum[], currency: string) => sums.find((s) => s.currency === currency);
const moneyList = (sums: readonly MoneySum[]) => (sums.length ? sums.map((s) => formatMoney(s.amount, s.currency)).join(', ') : NO_VALUE);

export function DashboardScreen() {
  const t = useT();
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
        <h1 id="dashboard-title">{t('dashboard.title')}</h1>
        <nav className="period-switch" aria-label={t('dashboard.period')}>
          {DASHBOARD_PERIODS.map((p) => (
            <Link
              key={p}
              to="/dashboard"
              search={(previous) => ({ ...previous, period: p })}
              className="period-link"
              aria-current={p === period ? 'page' : undefined}
            >
              {t(PERIOD_NAMES[p])}
            </Link>
          ))}
        </nav>
        <p
          className="dashboard-updated"
          aria-live="polite"
          title={figures ? t('dashboard.timeZone', { zone: figures.time_zone }) : undefined}
        >
          {loading === period
            ? t('dashboard.updating')
            : figures
              ? t('dashboard.asOf', { time: timeIn(figures.generated_at, figures.time_zone) })
              : ''}
        </p>
        <button type="button" className="button" onClick={() => void load(period)} disabled={loading === period}>
          {t('sales.refresh')}
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
            {t('dashboard.loading')}
          </p>
        )
      )}
    </section>
  );
}

/** `13:05 CET`: the time in the shop's time zone, named. */
function timeIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(currentLocale(), {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** `Tue 14:05`: a time within the next or last days, in the shop's time zone. */
function whenIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(currentLocale(), {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

function Figures({ figures, currency, onChanged }: { figures: Dashboard; currency: string | undefined; onChanged: () => void }) {
  const t = useT();
  const shopCurrency = useSession((s) => s.session?.merchant.currency ?? 'EUR');
  const unit = figures.bucket;
  const { period } = figures;
  const decided = figures.totals.approved + figures.totals.declined;
  return (
    <>
      <NeedsAttention attention={figures.attention} timeZone={figures.time_zone} onChanged={onChanged} />
      <div className="kpis">
        <Kpi
          title={t('dashboard.kpi.volume')}
          note={
            figures.volume.length
              ? t('dashboard.kpi.volumeNote', { count: figures.volume.reduce((n, v) => n + v.count, 0) })
              : t('dashboard.kpi.noMoney')
          }
        >
          {(figures.volume.length ? figures.volume : [{ currency: shopCurrency, amount: 0, amount_minor: 0, count: 0 }]).map((v) => (
            <span key={v.currency} className="kpi-line">
              {formatMoney(v.amount, v.currency)}
            </span>
          ))}
        </Kpi>
        <Kpi
          title={t('dashboard.kpi.payments')}
          note={t('dashboard.kpi.paymentsNote', {
            approved: figures.totals.approved,
            declined: figures.totals.declined,
            other: figures.totals.other,
          })}
        >
          <span className="kpi-line">{count(figures.totals.payments)}</span>
        </Kpi>
        <Kpi
          title={t('dashboard.kpi.approvalRate')}
          note={
            figures.totals.approval_rate === null
              ? t('dashboard.kpi.noDecided')
              : t('dashboard.kpi.approvalNote', { approved: figures.totals.approved, decided })
          }
        >
          <span className="kpi-line">{rate(figures.totals.approval_rate)}</span>
        </Kpi>
        <Kpi
          title={t('dashboard.kpi.refunds')}
          note={
            figures.refunds.length
              ? t('dashboard.kpi.refundsNote', { count: figures.refunds.reduce((n, r) => n + r.count, 0) })
              : t('dashboard.kpi.noRefunds')
          }
        >
          {(figures.refunds.length ? figures.refunds : [{ currency: shopCurrency, amount: 0, amount_minor: 0, count: 0 }]).map((r) => (
            <span key={r.currency} className="kpi-line">
              {formatMoney(r.amount, r.currency)}
            </span>
          ))}
        </Kpi>
      </div>
      <div className="dashboard-grid">
        <div className="dashboard-main">
          <VolumeChart figures={figures} chosen={currency} fallback={shopCurrency} />
          <PaymentsChart figures={figures} unit={unit} />
          <TypesChart types={figures.payment_types} period={period} />
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
function ChartCard({
  title,
  controls,
  keyParts,
  chart,
  table,
  empty,
}: {
  title: string;
  controls?: ReactNode;
  keyParts?: readonly BarPart[];
  chart: ReactNode;
  table: ReactNode;
  empty?: string | null;
}) {
  const t = useT();
  const id = useId();
  const [asTable, setAsTable] = useState(false);
  return (
    <section className="chart-card" aria-labelledby={id}>
      <div className="chart-head">
        <h2 id={id}>{title}</h2>
        {controls}
        <button
          type="button"
          className="button button-small"
          aria-pressed={asTable}
          aria-label={t('dashboard.chart.asTable', { title })}
          onClick={() => setAsTable((shown) => !shown)}
        >
          {t('dashboard.chart.table')}
        </button>
      </div>
      {empty && <p className="chart-empty">{empty}</p>}
      {!asTable && keyParts && <ChartKey parts={keyParts} />}
      {!asTable && chart}
      {/* Shown, the table scrolls on its own: focusable, so the keyboard scrolls it too. */}
      <div
        className={asTable ? 'chart-table' : 'visually-hidden'}
        {...(asTable ? { tabIndex: 0, role: 'region', 'aria-labelledby': id } : {})}
      >
        {table}
      </div>
    </section>
  );
}

function VolumeChart({ figures, chosen, fallback }: { figures: Dashboard; chosen: string | undefined; fallback: string }) {
  const t = useT();
  const navigate = useNavigate({ from: '/dashboard' });
  const selectId = useId();
  const currencies = useMemo(() => {
    const all = [...figures.volume.map((v) => v.currency)];
    for (const list of [figures.refunds, ...figures.series.map((b) => b.volume)])
      for (const v of list) if (!all.includes(v.currency)) all.push(v.currency);
    return all.length ? all : [fallback];
  }, [figures, fallback]);
  const currency = chosen && currencies.includes(chosen) ? chosen : (currencies[0] ?? fallback);
  const labels = useMemo(() => figures.series.map((b) => axisLabel(b, figures.bucket)), [figures]);
  const parts = useMemo<BarPart[]>(
    () => [
      {
        label: t('dashboard.volume.in', { currency }),
        color: COLORS.volume,
        values: figures.series.map((b) => moneyOf(b.volume, currency)?.amount ?? 0),
      },
    ],
    [figures, currency, t],
  );
  const title = t('dashboard.volume.title', { unit: figures.bucket });
  return (
    <ChartCard
      title={title}
      controls={
        currencies.length > 1 ? (
          <span className="chart-control">
            <label htmlFor={selectId}>{t('common.currency')}</label>
            <select
              id={selectId}
              className="input input-compact"
              value={currency}
              onChange={(event) => void navigate({ search: (previous) => ({ ...previous, currency: event.target.value }), replace: true })}
            >
              {currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </span>
        ) : null
      }
      empty={figures.volume.length ? null : t('dashboard.volume.empty', { period: figures.period })}
      chart={
        <BarChart
          labels={labels}
          parts={parts}
          formatAxis={compact}
          describe={(i) => {
            const bucket = figures.series[i];
            if (!bucket) return '';
            const sum = moneyOf(bucket.volume, currency);
            return t('dashboard.volume.describe', {
              bucket: bucketName(bucket, figures.bucket),
              amount: formatMoney(sum?.amount ?? 0, currency),
              count: sum?.count ?? 0,
            });
          }}
        />
      }
      table={
        <table className="figures-table">
          <caption>{t('dashboard.volume.caption', { unit: figures.bucket, period: figures.period })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('dashboard.unit', { unit: figures.bucket })}</th>
              {currencies.map((c) => (
                <th key={`v${c}`} scope="col" className="num">
                  {t('dashboard.volume.column', { currency: c })}
                </th>
              ))}
              {currencies.map((c) => (
                <th key={`r${c}`} scope="col" className="num">
                  {t('dashboard.refunds.column', { currency: c })}
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

function paymentParts(list: readonly { approved: number; declined: number; other: number }[], t: Translate): BarPart[] {
  return [
    { label: t('common.approved'), color: COLORS.approved, values: list.map((b) => b.approved) },
    { label: t('common.declined'), color: COLORS.declined, values: list.map((b) => b.declined) },
    { label: t('dashboard.other'), color: COLORS.other, values: list.map((b) => b.other) },
  ];
}

function countsText(
  b: { payments: number; approved: number; declined: number; other: number; approval_rate: number | null },
  t: Translate,
): string {
  return t('dashboard.counts', {
    payments: b.payments,
    approved: b.approved,
    declined: b.declined,
    other: b.other,
    rate: b.approval_rate === null ? 'none' : rate(b.approval_rate),
  });
}

function PaymentsChart({ figures, unit }: { figures: Dashboard; unit: Dashboard['bucket'] }) {
  const t = useT();
  const labels = useMemo(() => figures.series.map((b) => axisLabel(b, unit)), [figures, unit]);
  const parts = useMemo(() => paymentParts(figures.series, t), [figures, t]);
  const title = t('dashboard.payments.title', { unit });
  return (
    <ChartCard
      title={title}
      keyParts={parts}
      chart={
        <BarChart
          labels={labels}
          parts={parts}
          whole
          formatAxis={compact}
          describe={(i) => {
            const bucket = figures.series[i];
            return bucket ? `${bucketName(bucket, unit)}: ${countsText(bucket, t)}` : '';
          }}
        />
      }
      table={
        <table className="figures-table">
          <caption>{t('dashboard.payments.caption', { unit, period: figures.period })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('dashboard.unit', { unit })}</th>
              <th scope="col" className="num">
                {t('dashboard.payments')}
              </th>
              <th scope="col" className="num">
                {t('common.approved')}
              </th>
              <th scope="col" className="num">
                {t('common.declined')}
              </th>
              <th scope="col" className="num">
                {t('dashboard.other')}
              </th>
              <th scope="col" className="num">
                {t('dashboard.approvalRate')}
              </th>
            </tr>
          </thead>
          <tbody>
            {figures.series.map((bucket) => (
              <tr key={bucket.start}>
                <th scope="row">{bucketName(bucket, unit)}</th>
                <td className="num">{count(bucket.payments)}</td>
                <td className="num">{count(bucket.approved)}</td>
                <td className="num">{count(bucket.declined)}</td>
                <td className="num">{count(bucket.other)}</td>
                <td className="num">{rate(bucket.approval_rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function TypesChart({ types, period }: { types: readonly PaymentTypeFigures[]; period: DashboardPeriod }) {
  const t = useT();
  const labels = useMemo(() => types.map((type) => typeName(type.payment_type)), [types]);
  const parts = useMemo(() => paymentParts(types, t), [types, t]);
  return (
    <ChartCard
      title={t('dashboard.types.title')}
      keyParts={parts}
      empty={types.length ? null : t('dashboard.types.empty', { period })}
      chart={
        types.length ? (
          <BarChart
            labels={labels}
            parts={parts}
            height={180}
            whole
            formatAxis={compact}
            describe={(i) => {
              const type = types[i];
              return type ? `${typeName(type.payment_type)}: ${countsText(type, t)}` : '';
            }}
          />
        ) : null
      }
      table={
        <table className="figures-table">
          <caption>{t('dashboard.types.caption', { period })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('dashboard.types.type')}</th>
              <th scope="col" className="num">
                {t('dashboard.payments')}
              </th>
              <th scope="col" className="num">
                {t('common.approved')}
              </th>
              <th scope="col" className="num">
                {t('common.declined')}
              </th>
              <th scope="col" className="num">
                {t('dashboard.volume')}
              </th>
            </tr>
          </thead>
          <tbody>
            {types.map((type) => (
              <tr key={type.payment_type}>
                <th scope="row">{typeName(type.payment_type)}</th>
                <td className="num">{count(type.payments)}</td>
                <td className="num">{count(type.approved)}</td>
                <td className="num">{count(type.declined)}</td>
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
function attentionItems(a: Attention, timeZone: string, handled: (transactionId: string) => Promise<void>, t: Translate): AttentionItem[] {
  const code = (chunks: ReactNode[]) => <code>{chunks}</code>;
  return [
    {
      key: 'forwarded_declines',
      count: a.forwarded_declines.count,
      title: a.forwarded_declines.count
        ? t('dashboard.declines.title', { count: a.forwarded_declines.count })
        : t('dashboard.declines.none'),
      help: t('dashboard.declines.help'),
      examples: a.forwarded_declines.items.map((d) => ({
        key: d.transaction_id,
        href: `#/transactions/${encodeURIComponent(d.transaction_id)}`,
        text: t('dashboard.declines.example', {
          till: d.till_id,
          staff: d.staff_name ? 'named' : 'none',
          name: d.staff_name ?? '',
          amount: formatMoney(d.amount, d.currency),
          card: maskedCard(d.card_last_four ?? '????', d.card_brand ?? t('dashboard.declines.card')),
          order: d.order_id ?? NO_VALUE,
          message: d.message ?? t('dashboard.declines.declined'),
          when: whenIn(d.stored_at, timeZone),
        }),
        action: {
          label: t('dashboard.declines.handled'),
          name: t('dashboard.declines.handledLabel', { amount: formatMoney(d.amount, d.currency), order: d.order_id ?? d.transaction_id }),
          run: () => handled(d.transaction_id),
        },
      })),
    },
    {
      key: 'authorizations_expiring',
      count: a.authorizations_expiring.count,
      title: a.authorizations_expiring.count
        ? t('dashboard.authorizations.title', { count: a.authorizations_expiring.count })
        : t('dashboard.authorizations.none'),
      help: t('dashboard.authorizations.help'),
      link: { href: '#/transactions?status=4', label: t('dashboard.authorizations.link') },
      examples: a.authorizations_expiring.items.map((tx) => ({
        key: tx.transaction_id,
        href: `#/transactions/${encodeURIComponent(tx.transaction_id)}`,
        text: t('dashboard.attention.expires', {
          what: tx.order_id ?? tx.transaction_id.slice(0, 8),
          amount: formatMoney(tx.amount, tx.currency),
          when: whenIn(tx.expires_at, timeZone),
        }),
      })),
    },
    {
      key: 'invoices_expiring',
      count: a.invoices_expiring.count,
      title: a.invoices_expiring.count ? t('dashboard.invoices.title', { count: a.invoices_expiring.count }) : t('dashboard.invoices.none'),
      help: t('dashboard.invoices.help'),
      link: { href: '#/invoices?status=pending', label: t('dashboard.invoices.link') },
      examples: a.invoices_expiring.items.map((i) => ({
        key: i.debt_claim_number,
        href: `#/invoices/${encodeURIComponent(i.debt_claim_number)}`,
        text: t('dashboard.attention.expires', {
          what: i.debt_claim_number,
          amount: formatMoney(i.amount, i.currency),
          when: whenIn(i.expires_at, timeZone),
        }),
      })),
    },
    {
      key: 'invoice_emails_failed',
      count: a.invoice_emails_failed.count,
      title: a.invoice_emails_failed.count
        ? t('dashboard.invoiceEmails.title', { count: a.invoice_emails_failed.count })
        : t('dashboard.invoiceEmails.none'),
      help: t('dashboard.invoiceEmails.help'),
      examples: a.invoice_emails_failed.items.map((e) => ({
        key: `${e.debt_claim_number}-${e.failed_at}`,
        href: `#/invoices/${encodeURIComponent(e.debt_claim_number)}`,
        text: t('dashboard.invoiceEmails.example', {
          invoice: e.debt_claim_number,
          type: e.email_type,
          when: whenIn(e.failed_at, timeZone),
        }),
      })),
    },
    {
      key: 'postbacks_failed',
      count: a.postbacks_failed.count,
      title: a.postbacks_failed.count
        ? t('dashboard.postbacksFailed.title', { count: a.postbacks_failed.count })
        : t('dashboard.postbacksFailed.none'),
      help: <Rich id="dashboard.postbacksFailed.help" values={{ call: 'POST /rest/postbacks/resend_failed', code }} />,
      link: { href: '/docs#/Postbacks', label: t('dashboard.postbacksFailed.link') },
    },
    {
      key: 'postbacks_retrying',
      count: a.postbacks_retrying.count,
      title: a.postbacks_retrying.count
        ? t('dashboard.postbacksRetrying.title', { count: a.postbacks_retrying.count })
        : t('dashboard.postbacksRetrying.none'),
      help: <Rich id="dashboard.postbacksRetrying.help" values={{ call: 'GET /rest/postbacks?state=pending', code }} />,
    },
    {
      key: 'tokens_suspended',
      count: a.tokens_suspended.count,
      title: a.tokens_suspended.count ? t('dashboard.tokens.title', { count: a.tokens_suspended.count }) : t('dashboard.tokens.none'),
      help: t('dashboard.tokens.help'),
      link: { href: '#/network-tokens?status=suspended', label: t('dashboard.tokens.link') },
    },
  ];
}

/** A message with a tag in it (`<code>`), its parts made by `values`. */
function Rich({ id, values }: { id: MessageId; values: Record<string, string | number | ((chunks: ReactNode[]) => ReactNode)> }) {
  return <FormattedMessage id={id} values={values} />;
}

function NeedsAttention({ attention, timeZone, onChanged }: { attention: Attention; timeZone: string; onChanged: () => void }) {
  const t = useT();
  const [problem, setProblem] = useState<string | null>(null);
  const handled = async (transactionId: string) => {
    try {
      await dashboardClient.declineHandled(transactionId);
      setProblem(null);
      onChanged();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : t('dashboard.attention.notHandled'));
    }
  };
  const items = attentionItems(attention, timeZone, handled, t);
  const open = items.filter((item) => item.count > 0);
  const clear = items.filter((item) => item.count === 0);
  // The count is what the list below asks to handle: each declined sale, invoice, e-mail, ... once.
  const total = open.reduce((sum, item) => sum + item.count, 0);
  return (
    <section className="attention" aria-labelledby="attention-title">
      <h2 id="attention-title">
        {t('dashboard.attention.title')} <span className="attention-count">{t('dashboard.attention.count', { count: total })}</span>
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
                            <button
                              type="button"
                              className="button button-small attention-action"
                              aria-label={example.action.name}
                              onClick={() => void example.action?.run()}
                            >
                              {example.action.label}
                            </button>
                          )}
                        </li>
                      ))}
                      {item.count > item.examples.length && (
                        <li className="muted">{t('dashboard.attention.more', { count: item.count - item.examples.length })}</li>
                      )}
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
          <summary>
            {open.length
              ? t('dashboard.attention.someClear', { count: clear.length })
              : t('dashboard.attention.allClear', { count: clear.length })}
          </summary>
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
