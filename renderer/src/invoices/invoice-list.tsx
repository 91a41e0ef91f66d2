/**
 * Invoices (back office and admin): the list with the API's filters (channel, status, created
 * between two days) and its pagination (50 a page, `pagination` of GET /rest/invoices), all of it in
 * the URL, so a reload, a bookmark or back/forward keep the place. Each row links to its invoice.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useId, useMemo } from 'react';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../contract/constants.js';
import { formatMoney } from '../till/money.js';
import { DataTable } from '../ui/data-table.js';
import { Pager } from '../ui/pager.js';
import { toneClass } from '../ui/tags.js';
import { customerName, EMAIL_STATUS_NAMES, EMAIL_TYPE_NAMES, formatDateTime, STATUS_NAMES, statusClass } from './invoice-format.js';
import type { InvoiceListSearch } from './invoice-search.js';
import type { InvoiceReply } from './invoices-client.js';
import { useInvoiceChannels, useInvoiceList } from './invoices-store.js';

const column = createColumnHelper<InvoiceReply>();

function useColumns(channelNames: Map<number, string> | null) {
  return useMemo(
    () => [
      column.accessor((row) => row.invoice.debt_claim_number, {
        id: 'number',
        header: 'Number',
        cell: (info) => (
          <Link to="/invoices/$number" params={{ number: info.getValue() }} className="row-link">
            {info.getValue()}
          </Link>
        ),
      }),
      column.accessor((row) => customerName(row.invoice) ?? row.invoice.email ?? '', {
        id: 'customer',
        header: 'Customer',
        cell: (info) => info.getValue() || <span className="muted">—</span>,
      }),
      column.accessor((row) => row.invoice.amount, {
        id: 'amount',
        header: 'Amount',
        meta: { className: 'num' },
        cell: (info) => formatMoney(info.getValue(), info.row.original.invoice.currency),
      }),
      column.accessor((row) => row.invoice.status, {
        id: 'status',
        header: 'Status',
        cell: (info) => <InvoiceTags reply={info.row.original} />,
      }),
      column.accessor((row) => row.invoice.last_email, {
        id: 'email',
        header: 'E-mail',
        cell: (info) => {
          const email = info.getValue();
          return email ? `${EMAIL_TYPE_NAMES[email.email_type]} ${EMAIL_STATUS_NAMES[email.status].toLowerCase()}` : <span className="muted">None sent</span>;
        },
      }),
      ...(channelNames && channelNames.size > 1
        ? [column.accessor((row) => channelNames.get(row.invoice.channel_id) ?? String(row.invoice.channel_id), { id: 'channel', header: 'Channel' })]
        : []),
      column.accessor((row) => row.invoice.created_at, { id: 'created', header: 'Created', cell: (info) => formatDateTime(info.getValue()) }),
    ],
    [channelNames],
  );
}

/** The status, and inactive / expired beside it: explicit words, colour only as a second cue. */
export function InvoiceTags({ reply }: { reply: InvoiceReply }) {
  const { status, active, expired } = reply.invoice;
  return (
    <span className="inv-tags">
      <span className={statusClass(status)}>{STATUS_NAMES[status]}</span>
      {!active && <span className={toneClass('off')}>Inactive</span>}
      {expired && <span className={toneClass('off')}>Expired</span>}
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

  useEffect(() => {
    void loadChannels();
  }, [loadChannels]);
  useEffect(() => {
    void load(search);
  }, [load, search]);

  const channelNames = useMemo(() => new Map(channels.map((c) => [c.channel_id, c.name])), [channels]);
  const columns = useColumns(channelNames);
  /** A filter changed: back to its first page. */
  const filter = (change: Partial<InvoiceListSearch>) => {
    const next: InvoiceListSearch = { ...search, ...change };
    delete next.page;
    for (const key of Object.keys(next) as Array<keyof InvoiceListSearch>) if (next[key] === undefined || next[key] === '') delete next[key];
    void navigate({ search: next });
  };
  const filtered = Object.keys(search).some((key) => key !== 'page');
  const pagination = list?.pagination;
  const rows = status === 'ready' && list ? list.invoices : [];

  return (
    <section className="invoices" aria-labelledby="invoices-title">
      <div className="page-head">
        <h1 id="invoices-title">Invoices</h1>
        <Link to="/invoices/new" className="button button-primary">
          New invoice
        </Link>
      </div>
      <form className="filters" role="search" aria-label="Filter invoices" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label className="field-label" htmlFor={ids.channel}>
            Channel
          </label>
          <select id={ids.channel} className="input" value={search.url_name ?? ''} onChange={(event) => filter({ url_name: event.target.value || undefined })}>
            <option value="">All channels</option>
            {channels.map((c) => (
              <option key={c.url_name} value={c.url_name}>
                {c.name} ({c.url_name})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.status}>
            Status
          </label>
          <select id={ids.status} className="input" value={search.status ?? ''} onChange={(event) => filter({ status: (event.target.value || undefined) as InvoiceStatus | undefined })}>
            <option value="">Any status</option>
            {INVOICE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_NAMES[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.from}>
            Created from
          </label>
          <input id={ids.from} className="input" type="date" value={search.created_at_from ?? ''} max={search.created_at_to} onChange={(event) => filter({ created_at_from: event.target.value || undefined })} />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.to}>
            Created to
          </label>
          <input id={ids.to} className="input" type="date" value={search.created_at_to ?? ''} min={search.created_at_from} onChange={(event) => filter({ created_at_to: event.target.value || undefined })} />
        </div>
        {filtered && (
          <button type="button" className="button button-quiet" onClick={() => void navigate({ search: {} })}>
            Clear filters
          </button>
        )}
      </form>
      {error && (
        <p className="form-problem" role="alert">
          {error}{' '}
          <button type="button" className="button button-small" onClick={() => void load(search)}>
            Try again
          </button>
        </p>
      )}
      <DataTable
        caption="Invoices, newest first"
        columns={columns}
        rows={rows}
        rowKey={(row) => String(row.invoice.id)}
        total={rows.length}
        hasMore={false}
        loading={status === 'loading' || status === 'idle'}
        loadMore={() => undefined}
        empty={filtered ? 'No invoice matches these filters.' : 'No invoices yet. Create the first with New invoice.'}
        height="calc(100vh - 330px)"
      />
      {pagination && (
        <Pager
          label="Pages of invoices"
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
