/**
 * Invoices (back office and admin): the list with the API's filters (channel, status, created
 * between two days) and its pagination (50 a page, `pagination` of GET /rest/invoices), all of it in
 * the URL, so a reload, a bookmark or back/forward keep the place. Each row links to its invoice.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useId, useMemo } from 'react';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../contract/constants.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatMoney } from '../till-screen/money.js';
import { NO_VALUE } from '../transactions/transaction-format.js';
import { DataTable } from '../ui/data-table.js';
import { useT } from '../ui/i18n.js';
import { Pager } from '../ui/pager.js';
import { toneClass } from '../ui/tags.js';
import { channelText, customerName, formatDateTime, STATUS_NAMES, statusClass } from './invoice-format.js';
import type { InvoiceListSearch } from './invoice-search.js';
import type { InvoiceReply } from './invoices-client.js';
import { useInvoiceChannels, useInvoiceList } from './invoices-store.js';

const column = createColumnHelper<InvoiceReply>();

function useColumns(channelNames: Map<number, string> | null, t: Translate) {
  return useMemo(
    () => [
      column.accessor((row) => row.invoice.debt_claim_number, {
        id: 'number',
        header: t('invoices.list.number'),
        cell: (info) => (
          <Link to="/invoices/$number" params={{ number: info.getValue() }} className="row-link">
            {info.getValue()}
          </Link>
        ),
      }),
      column.accessor((row) => customerName(row.invoice) ?? row.invoice.email ?? '', {
        id: 'customer',
        header: t('invoices.customer'),
        cell: (info) => info.getValue() || <span className="muted">{NO_VALUE}</span>,
      }),
      column.accessor((row) => row.invoice.amount, {
        id: 'amount',
        header: t('common.amount'),
        meta: { className: 'num' },
        cell: (info) => formatMoney(info.getValue(), info.row.original.invoice.currency),
      }),
      column.accessor((row) => row.invoice.status, {
        id: 'status',
        header: t('common.status'),
        cell: (info) => <InvoiceTags reply={info.row.original} />,
      }),
      column.accessor((row) => row.invoice.last_email, {
        id: 'email',
        header: t('invoices.email'),
        cell: (info) => {
          const email = info.getValue();
          return email ? (
            t('invoices.list.emailState', { type: email.email_type, status: email.status })
          ) : (
            <span className="muted">{t('invoices.list.noEmail')}</span>
          );
        },
      }),
      ...(channelNames && channelNames.size > 1
        ? [
            column.accessor((row) => channelNames.get(row.invoice.channel_id) ?? String(row.invoice.channel_id), {
              id: 'channel',
              header: t('invoices.channel'),
            }),
          ]
        : []),
      column.accessor((row) => row.invoice.created_at, {
        id: 'created',
        header: t('invoices.created'),
        cell: (info) => formatDateTime(info.getValue()),
      }),
    ],
    [channelNames, t],
  );
}

/** The status, and inactive / expired beside it: explicit words, colour only as a second cue. */
export function InvoiceTags({ reply }: { reply: InvoiceReply }) {
  const { status, active, expired } = reply.invoice;
  const t = useT();
  return (
    <span className="inv-tags">
      <span className={statusClass(status)}>{t(STATUS_NAMES[status])}</span>
      {!active && <span className={toneClass('off')}>{t('invoices.inactive')}</span>}
      {expired && <span className={toneClass('off')}>{t('invoices.expired')}</span>}
    </span>
  );
}

export function InvoiceListScreen() {
  const search = useSearch({ from: '/invoices/' });
  const navigate = useNavigate({ from: '/invoices/' });
  const { status, list, error, load } = useInvoiceList();
  const channels = useInvoiceChannels((s) => s.channels);
  const loadChannels = useInvoiceChannels((s) => s.load);
  const ids = { channel: useId(), status: useId(), from: useId(), to: useId() };
  const t = useT();

  useEffect(() => {
    void loadChannels();
  }, [loadChannels]);
  useEffect(() => {
    void load(search);
  }, [load, search]);

  const channelNames = useMemo(() => new Map(channels.map((c) => [c.channel_id, c.name])), [channels]);
  const columns = useColumns(channelNames, t);
  /** A filter changed: back to its first page. */
  const filter = (change: Partial<InvoiceListSearch>) => {
    const next: InvoiceListSearch = { ...search, ...change };
    delete next.page;
    for (const key of Object.keys(next) as Array<keyof InvoiceListSearch>)
      if (next[key] === undefined || next[key] === '') delete next[key];
    void navigate({ search: next });
  };
  const filtered = Object.keys(search).some((key) => key !== 'page');
  const pagination = list?.pagination;
  const rows = status === 'ready' && list ? list.invoices : [];

  return (
    <section className="invoices" aria-labelledby="invoices-title">
      <div className="page-head">
        <h1 id="invoices-title">{t('invoices.title')}</h1>
        <Link to="/invoices/new" className="button button-primary">
          {t('invoices.new')}
        </Link>
      </div>
      <form className="filters" role="search" aria-label={t('invoices.list.filter')} onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label className="field-label" htmlFor={ids.channel}>
            {t('invoices.channel')}
          </label>
          <select
            id={ids.channel}
            className="input"
            value={search.url_name ?? ''}
            onChange={(event) => filter({ url_name: event.target.value || undefined })}
          >
            <option value="">{t('invoices.list.allChannels')}</option>
            {channels.map((c) => (
              <option key={c.url_name} value={c.url_name}>
                {channelText(c)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.status}>
            {t('common.status')}
          </label>
          <select
            id={ids.status}
            className="input"
            value={search.status ?? ''}
            onChange={(event) => filter({ status: (event.target.value || undefined) as InvoiceStatus | undefined })}
          >
            <option value="">{t('invoices.list.anyStatus')}</option>
            {INVOICE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(STATUS_NAMES[s])}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.from}>
            {t('invoices.list.createdFrom')}
          </label>
          <input
            id={ids.from}
            className="input"
            type="date"
            value={search.created_at_from ?? ''}
            max={search.created_at_to}
            onChange={(event) => filter({ created_at_from: event.target.value || undefined })}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.to}>
            {t('invoices.list.createdTo')}
          </label>
          <input
            id={ids.to}
            className="input"
            type="date"
            value={search.created_at_to ?? ''}
            min={search.created_at_from}
            onChange={(event) => filter({ created_at_to: event.target.value || undefined })}
          />
        </div>
        {filtered && (
          <button type="button" className="button button-quiet" onClick={() => void navigate({ search: {} })}>
            {t('invoices.list.clear')}
          </button>
        )}
      </form>
      {error && (
        <p className="form-problem" role="alert">
          {error}{' '}
          <button type="button" className="button button-small" onClick={() => void load(search)}>
            {t('common.retry')}
          </button>
        </p>
      )}
      <DataTable
        caption={t('invoices.list.caption')}
        columns={columns}
        rows={rows}
        rowKey={(row) => String(row.invoice.id)}
        total={rows.length}
        hasMore={false}
        loading={status === 'loading' || status === 'idle'}
        loadMore={() => undefined}
        empty={t(filtered ? 'invoices.list.emptyFiltered' : 'invoices.list.empty')}
        height="calc(100vh - 330px)"
      />
      {pagination && (
        <Pager
          label={t('invoices.list.pages')}
          page={pagination.page}
          pages={pagination.pages}
          from={pagination.from}
          to={pagination.to}
          count={pagination.count}
          link={(page, text, rel) => (
            <Link to="/invoices" search={{ ...search, page: page > 1 ? page : undefined }} className="button button-quiet" rel={rel}>
              {text}
            </Link>
          )}
        />
      )}
    </section>
  );
}
