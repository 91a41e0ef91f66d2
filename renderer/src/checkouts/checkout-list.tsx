/**
 * Checkouts (back office and admin): the merchant's hosted checkout sessions, newest first, with
 * status, order, amount and the resulting transaction; filters (status, created between two days)
 * and the page in the URL. "New checkout" opens a session for a phone or e-mail order.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo } from 'react';
import { CHECKOUT_STATUSES } from '../../../contract/constants.js';
import { formatMoney } from '../till/money.js';
import { formatDateTime } from '../ui/format.js';
import { FilterBar } from '../ui/detail-parts.js';
import { DayRangeFilter, SelectFilter } from '../ui/list-filters.js';
import { filtered } from '../ui/list-search.js';
import { PagedTable } from '../ui/paged-table.js';
import { CHECKOUT_STATUS_NAMES, checkoutStatusClass } from './checkout-format.js';
import type { CheckoutListSearch } from './checkout-search.js';
import type { BackOfficeCheckout } from './checkouts-client.js';
import { useCheckoutList } from './checkouts-store.js';

const column = createColumnHelper<BackOfficeCheckout>();

const COLUMNS = [
  column.accessor('order_id', {
    header: 'Order',
    cell: (info) => (
      <Link to="/checkouts/$id" params={{ id: info.row.original.checkout_id }} className="row-link">
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor('description', { header: 'Description', cell: (info) => <span className="cell-text">{info.getValue() ?? <span className="muted">—</span>}</span> }),
  column.accessor('total_amount', { header: 'Amount', meta: { className: 'num' }, cell: (info) => formatMoney(info.getValue(), info.row.original.currency) }),
  column.accessor('status', { header: 'Status', cell: (info) => <span className={checkoutStatusClass(info.getValue())}>{CHECKOUT_STATUS_NAMES[info.getValue()]}</span> }),
  column.accessor('created_at', { header: 'Created', cell: (info) => formatDateTime(info.getValue()) }),
  column.accessor('transaction_id', {
    header: 'Transaction',
    cell: (info) => {
      const id = info.getValue();
      return id ? (
        <a href={`#/transactions/${encodeURIComponent(id)}`} className="tx-link">
          …{id.slice(-8)}<span className="visually-hidden"> (transaction of order {info.row.original.order_id})</span>
        </a>
      ) : (
        <span className="muted">None yet</span>
      );
    },
  }),
];

export function CheckoutListScreen() {
  const search = useSearch({ from: '/checkouts/' });
  const navigate = useNavigate({ from: '/checkouts/' });
  const { status, list, error, load } = useCheckoutList();

  useEffect(() => {
    void load(search);
  }, [load, search]);

  const filter = (change: Partial<CheckoutListSearch>) => void navigate({ search: filtered(search, change) });
  const isFiltered = Object.keys(search).some((key) => key !== 'page');
  const rows = status === 'ready' && list ? list.data_set : [];
  const statusOptions = useMemo(() => CHECKOUT_STATUSES.map((value) => ({ value, label: CHECKOUT_STATUS_NAMES[value] })), []);

  return (
    <section className="checkouts" aria-labelledby="checkouts-title">
      <div className="page-head">
        <h1 id="checkouts-title">Checkouts</h1>
        <Link to="/checkouts/new" className="button button-primary">
          New checkout
        </Link>
      </div>
      <FilterBar label="Filter checkouts" active={isFiltered} onClear={() => void navigate({ search: {} })}>
        <SelectFilter label="Status" value={search.status} anyLabel="Any status" options={statusOptions} onChange={(value) => filter({ status: value })} />
        <DayRangeFilter from={search.created_from} to={search.created_to} onChange={(range) => filter({ ...('from' in range ? { created_from: range.from } : {}), ...('to' in range ? { created_to: range.to } : {}) })} />
      </FilterBar>
      <PagedTable
        caption="Checkouts, newest first"
        columns={COLUMNS}
        rows={rows}
        rowKey={(row) => row.checkout_id}
        loading={status === 'loading' || status === 'idle'}
        error={error}
        retry={() => void load(search)}
        empty={isFiltered ? 'No checkout matches these filters.' : 'No checkouts yet. Open one for a phone or e-mail order with New checkout.'}
        metadata={list?.metadata}
        pagerLabel="Pages of checkouts"
        link={(target, text, rel) => (
          <Link to="/checkouts" search={{ ...search, page: target > 1 ? target : undefined }} className="button button-quiet" rel={rel}>
            {text}
          </Link>
        )}
      />
    </section>
  );
}
