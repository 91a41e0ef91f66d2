/**
 * Network tokens (back office and admin): the list with the API's filters (status, network, created
 * between two days) and its pages, all of it in the URL. Each row shows the network, the status, the
 * last four digits of the token number and of the card, when it was created and last refreshed, and
 * links to its token.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo } from 'react';
import { NETWORK_TOKEN_STATUSES, TOKEN_NETWORKS } from '../../../contract/constants.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatDateTime } from '../ui/format.js';
import { FilterBar } from '../ui/detail-parts.js';
import { DayRangeFilter, SelectFilter } from '../ui/list-filters.js';
import { useT } from '../ui/i18n.js';
import { filtered } from '../ui/list-search.js';
import { PagedTable } from '../ui/paged-table.js';
import { lastFour, NETWORK_NAMES, networkName, TOKEN_STATUS_NAMES, tokenStatusClass } from './token-format.js';
import type { TokenListSearch } from './token-search.js';
import type { BackOfficeToken } from './network-tokens-client.js';
import { useTokenList } from './tokens-store.js';

const column = createColumnHelper<BackOfficeToken>();

/** Nothing to show in a cell. */
const NONE = '—';

const columnsFor = (t: Translate) => [
  column.accessor('token_last_four', {
    header: t('tokens.field.token'),
    cell: (info) => (
      <Link
        to="/network-tokens/$id"
        params={{ id: info.row.original.id }}
        className="row-link"
        aria-label={t('tokens.list.rowLabel', { digits: info.getValue() })}
      >
        {lastFour(info.getValue())}
      </Link>
    ),
  }),
  column.accessor('network', { header: t('tokens.field.network'), cell: (info) => networkName(info.getValue()) }),
  column.accessor('status', {
    header: t('common.status'),
    cell: (info) => <span className={tokenStatusClass(info.getValue())}>{t(TOKEN_STATUS_NAMES[info.getValue()])}</span>,
  }),
  column.accessor('card_last_four', { header: t('common.card'), cell: (info) => lastFour(info.getValue()) }),
  column.accessor('card_holder', {
    header: t('tokens.field.holder'),
    cell: (info) => info.getValue() ?? <span className="muted">{NONE}</span>,
  }),
  column.accessor('created_at', { header: t('tokens.field.created'), cell: (info) => formatDateTime(info.getValue()) }),
  column.accessor('last_token_refresh', {
    header: t('tokens.field.refreshed'),
    cell: (info) =>
      info.getValue() ? formatDateTime(info.getValue() as string) : <span className="muted">{t('tokens.field.never')}</span>,
  }),
];

export function TokenListScreen() {
  const search = useSearch({ from: '/network-tokens/' });
  const navigate = useNavigate({ from: '/network-tokens/' });
  const { status, list, error, load } = useTokenList();
  const t = useT();
  const columns = useMemo(() => columnsFor(t), [t]);

  useEffect(() => {
    void load(search);
  }, [load, search]);

  const filter = (change: Partial<TokenListSearch>) => void navigate({ search: filtered(search, change) });
  const isFiltered = Object.keys(search).some((key) => key !== 'page');
  const rows = status === 'ready' && list ? list.data_set : [];
  const statusOptions = useMemo(() => NETWORK_TOKEN_STATUSES.map((value) => ({ value, label: t(TOKEN_STATUS_NAMES[value]) })), [t]);
  const networkOptions = useMemo(() => TOKEN_NETWORKS.map((value) => ({ value, label: NETWORK_NAMES[value] })), []);

  return (
    <section className="tokens" aria-labelledby="tokens-title">
      <div className="page-head">
        <h1 id="tokens-title">{t('tokens.list.title')}</h1>
        <Link to="/network-tokens/new" className="button button-primary">
          {t('tokens.list.new')}
        </Link>
      </div>
      <FilterBar label={t('tokens.list.filters')} active={isFiltered} onClear={() => void navigate({ search: {} })}>
        <SelectFilter
          label={t('common.status')}
          value={search.status}
          anyLabel={t('ui.filters.anyStatus')}
          options={statusOptions}
          onChange={(value) => filter({ status: value })}
        />
        <SelectFilter
          label={t('tokens.field.network')}
          value={search.network}
          anyLabel={t('tokens.list.anyNetwork')}
          options={networkOptions}
          onChange={(value) => filter({ network: value })}
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
        caption={t('tokens.list.caption')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        loading={status === 'loading' || status === 'idle'}
        error={error}
        retry={() => void load(search)}
        empty={t(isFiltered ? 'tokens.list.emptyFiltered' : 'tokens.list.empty')}
        metadata={list?.metadata}
        pagerLabel={t('tokens.list.pages')}
        link={(target, text, rel) => (
          <Link
            to="/network-tokens"
            search={{ ...search, page: target > 1 ? target : undefined }}
            className="button button-quiet"
            rel={rel}
          >
            {text}
          </Link>
        )}
      />
    </section>
  );
}
