/**
 * Checkouts (back office and admin): the merchant's hosted checkout sessions, newest first, with
 * status, order, amount and the resulting transaction; filters (status, created between two days)
 * and the page in the URL. "New checkout" opens a session for a phone or e-mail order.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo } from 'react';
import { CHECKOUT_STATUSES } from '../../../contract/constants.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatMoney } from '../till-screen/money.js';
import { NO_VALUE } from '../transactions/transaction-format.js';
import { formatDateTime } from '../ui/format.js';
import { FilterBar } from '../ui/detail-parts.js';
import { useT } from '../ui/i18n.js';
import { DayRangeFilter, SelectFilter } from '../ui/list-filters.js';
import { filtered } from '../ui/list-search.js';
import { PagedTable } from '../ui/paged-table.js';
import { CHECKOUT_STATUS_NAMES, checkoutStatusClass } from './checkout-format.js';
import type { CheckoutListSearch } from './checkout-search.js';
import type { BackOfficeCheckout } from './checkouts-client.js';
import { useCheckoutList } from './checkouts-store.js';

const column = createColumnHelper<BackOfficeCheckout>();

/** The last eight characters of a transaction id, after an ellipsis. */
const idTail = (id: string) => `…${id.slice(-8)}`;

const columnsOf = (t: Translate) => [
  column.accessor('order_id', {
    header: t('checkouts.order'),
    cell: (info) => (
      <Link to="/checkouts/$id" params={{ id: info.row.original.checkout_id }} className="row-link">
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor('description', {
    header: t('checkouts.description'),
    cell: (info) => <span className="cell-text">{info.getValue() ?? <span className="muted">{NO_VALUE}</span>}</span>,
  }),
  column.accessor('total_amount', {
    header: t('common.amount'),
    meta: { className: 'num' },
    cell: (info) => formatMoney(info.getValue(), info.row.original.currency),
  }),
  column.accessor('status', {
    header: t('common.status'),
    cell: (info) => <span className={checkoutStatusClass(info.getValue())}>{t(CHECKOUT_STATUS_NAMES[info.getValue()])}</span>,
  }),
  column.accessor('created_at', { header: t('checkouts.created'), cell: (info) => formatDateTime(info.getValue()) }),
  column.accessor('transaction_id', {
    header: t('checkouts.transaction'),
    cell: (info) => {
      const id = info.getValue();
      return id ? (
        <a href={`#/transactions/${encodeURIComponent(id)}`} className="tx-link">
          {idTail(id)}
          <span className="visually-hidden"> {t('checkouts.list.transactionOf', { order: info.row.original.order_id })}</span>
        </a>
      ) : (
        <span className="muted">{t('checkouts.list.noTransaction')}</span>
      );
    },
  }),
];

export function CheckoutListScreen() {
  const search = useSearch({ from: '/checkouts/' });
  const navigate = useNavigate({ from: '/checkouts/' });
  const { status, list, error, load } = useCheckoutList();
  const t = useT();
  const columns = useMemo(() => columnsOf(t), [t]);

  useEffect(() => {
    void load(search);
  }, [load, search]);

  const filter = (change: Partial<CheckoutListSearch>) => void navigate({ search: filtered(search, change) });
  const isFiltered = Object.keys(search).some((key) => key !== 'page');
  const rows = status === 'ready' && list ? list.data_set : [];
  const statusOptions = useMemo(() => CHECKOUT_STATUSES.map((value) => ({ value, label: t(CHECKOUT_STATUS_NAMES[value]) })), [t]);

  return (
    <section className="checkouts" aria-labelledby="checkouts-title">
      <div className="page-head">
        <h1 id="checkouts-title">{t('checkouts.title')}</h1>
        <Link to="/checkouts/new" className="button button-primary">
          {t('checkouts.new')}
        </Link>
      </div>
      <FilterBar label={t('checkouts.list.filter')} active={isFiltered} onClear={() => void navigate({ search: {} })}>
        <SelectFilter
          label={t('common.status')}
          value={search.status}
          anyLabel={t('checkouts.list.anyStatus')}
          options={statusOptions}
          onChange={(value) => filter({ status: value })}
        />
        <DayRangeFilter
          from={search.created_from}
          to={search.created_to}
          onChange={(range) =>
            filter({ ...('from' in range ? { created_from: range.from } : {}), ...('to' in range ? { created_to: range.to } : {}) })
          }
        />
      </FilterBar>
      <PagedTable
        caption={t('checkouts.list.caption')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.checkout_id}
        loading={status === 'loading' || status === 'idle'}
        error={error}
        retry={() => void load(search)}
        empty={t(isFiltered ? 'checkouts.list.emptyFiltered' : 'checkouts.list.empty')}
        metadata={list?.metadata}
        pagerLabel={t('checkouts.list.pages')}
        link={(target, text, rel) => (
          <Link to="/checkouts" search={{ ...search, page: target > 1 ? target : undefined }} className="button button-quiet" rel={rel}>
            {text}
          </Link>
        )}
      />
    </section>
  );
}
