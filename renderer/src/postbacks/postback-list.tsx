/**
 * Postbacks (back office and admin, `#/postbacks`): the delivery log over transactions, tokens and
 * checkouts, newest first, each with what it is about (the order id it carries; a token's id; a
 * checkout's id under its order), with a search box (an order id, or a pasted transaction, token,
 * checkout or event id), status (queued, retrying, delivered, failed), kind and created range as
 * filters and the gateway's pages, all in the URL; each row links to its postback. Above it the
 * webhook key (masked, Copy, Rotate for an admin) and "Resend all failed…".
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useId, useMemo, useState } from 'react';
import { POSTBACK_LOG_STATUSES, POSTBACK_SUBJECT_TYPES } from '../../../contract/constants.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { FilterBar } from '../ui/detail-parts.js';
import { formatDateTime } from '../ui/format.js';
import { useT } from '../ui/i18n.js';
import { DayRangeFilter, SearchInput, SelectFilter } from '../ui/list-filters.js';
import { filtered } from '../ui/list-search.js';
import { PagedTable } from '../ui/paged-table.js';
import { answerText, KIND_NAMES, kindName, POSTBACK_STATUS_NAMES, postbackStatusClass, shortId } from './postback-format.js';
import type { PostbackListSearch } from './postback-search.js';
import { PostbacksNav } from './postbacks-nav.js';
import type { BackOfficePostback } from './postbacks-client.js';
import { usePostbackList } from './postbacks-store.js';
import { ResendFailedDialog } from './resend-failed-dialog.js';
import { WebhookKeyCard } from './webhook-key.js';

const column = createColumnHelper<BackOfficePostback>();
/** Nothing to show in a cell. */
const NONE = '—';

function receiverOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return url;
  }
}

/** What a postback is about: the order id it carries, else its subject's id; a checkout's id under its order. */
function About({ postback }: { postback: BackOfficePostback }) {
  const t = useT();
  const subject = (
    <span className="postback-about">
      {kindName(t, postback.kind)}{' '}
      <span className="cell-mono" title={postback.subject_id}>
        {shortId(postback.subject_id)}
      </span>
    </span>
  );
  if (postback.order_id === null) return subject;
  return (
    <>
      <span className="postback-about" title={postback.order_id}>
        {t('postbacks.list.order', { order: postback.order_id })}
      </span>
      {postback.kind === 'checkout' && subject}
    </>
  );
}

const columnsFor = (t: Translate) => [
  column.accessor('event_id', {
    header: t('postbacks.field.postback'),
    cell: (info) => {
      const row = info.row.original;
      const kind = kindName(t, row.kind);
      const text = row.event ? t('postbacks.list.what', { kind, event: row.event }) : kind;
      const date = formatDateTime(row.created_at);
      const label =
        row.order_id !== null
          ? t('postbacks.list.rowLabelOrder', { what: text, order: row.order_id, date })
          : t('postbacks.list.rowLabel', { what: text, date });
      return (
        <>
          <Link to="/postbacks/$id" params={{ id: row.event_id }} className="row-link nowrap" aria-label={label}>
            {text}
          </Link>
          <About postback={row} />
        </>
      );
    },
  }),
  column.accessor('status', {
    header: t('common.status'),
    cell: (info) => <span className={postbackStatusClass(info.getValue())}>{t(POSTBACK_STATUS_NAMES[info.getValue()])}</span>,
  }),
  column.accessor('attempts', { header: t('postbacks.field.attempts'), cell: (info) => info.getValue() }),
  column.accessor('last_http_status', {
    header: t('postbacks.field.lastAnswer'),
    cell: (info) => {
      const row = info.row.original;
      if (row.attempts === 0) return <span className="muted">{NONE}</span>;
      return row.last_http_status !== null ? (
        answerText(t, row.last_http_status, null)
      ) : (
        <span className="muted">{t('postbacks.noAnswer')}</span>
      );
    },
  }),
  column.accessor('next_attempt_at', {
    header: t('postbacks.field.nextRetry'),
    cell: (info) => (info.getValue() ? formatDateTime(info.getValue() as string) : <span className="muted">{NONE}</span>),
  }),
  column.accessor('url', {
    header: t('postbacks.field.receiver'),
    cell: (info) => <span className="receiver-cell">{receiverOf(info.getValue())}</span>,
  }),
  column.accessor('created_at', { header: t('postbacks.field.created'), cell: (info) => formatDateTime(info.getValue()) }),
];

export function PostbackListScreen() {
  const search = useSearch({ from: '/postbacks/' });
  const navigate = useNavigate({ from: '/postbacks/' });
  const { status, list, error, load } = usePostbackList();
  const [resending, setResending] = useState(false);
  const findId = useId();
  const [query, setQuery] = useState(search.q ?? '');
  const t = useT();
  const columns = useMemo(() => columnsFor(t), [t]);

  useEffect(() => {
    void load(search);
  }, [load, search]);
  // The URL changed (back/forward, Clear filters): the search box follows it.
  useEffect(() => setQuery(search.q ?? ''), [search.q]);

  const filter = (change: Partial<PostbackListSearch>) => void navigate({ search: filtered(search, change) });
  const isFiltered = Object.keys(search).some((key) => key !== 'page');
  const rows = status === 'ready' && list ? list.data_set : [];
  const statusOptions = useMemo(() => POSTBACK_LOG_STATUSES.map((value) => ({ value, label: t(POSTBACK_STATUS_NAMES[value]) })), [t]);
  const kindOptions = useMemo(() => POSTBACK_SUBJECT_TYPES.map((value) => ({ value, label: t(KIND_NAMES[value]) })), [t]);

  return (
    <section className="postbacks" aria-labelledby="postbacks-title">
      <div className="page-head">
        <h1 id="postbacks-title">{t('postbacks.title')}</h1>
        <PostbacksNav current="log" />
        <div className="head-actions">
          <button type="button" className="button" onClick={() => setResending(true)}>
            {t('postbacks.list.resendFailed')}
          </button>
        </div>
      </div>
      <WebhookKeyCard />
      <FilterBar
        label={t('postbacks.list.filters')}
        active={isFiltered}
        onClear={() => void navigate({ search: {} })}
        onSubmit={() => filter({ q: query.trim() || undefined })}
      >
        <div className="field postback-find">
          <label className="field-label" htmlFor={findId}>
            {t('postbacks.list.find')}
          </label>
          <div className="postback-find-inputs">
            <SearchInput
              id={findId}
              className="input"
              placeholder={t('postbacks.list.findPlaceholder')}
              value={query}
              onChange={setQuery}
            />
            <button type="submit" className="button">
              {t('postbacks.list.findButton')}
            </button>
          </div>
        </div>
        <SelectFilter
          label={t('common.status')}
          value={search.status}
          anyLabel={t('ui.filters.anyStatus')}
          options={statusOptions}
          onChange={(value) => filter({ status: value })}
        />
        <SelectFilter
          label={t('postbacks.list.kind')}
          value={search.kind}
          anyLabel={t('postbacks.list.anyKind')}
          options={kindOptions}
          onChange={(value) => filter({ kind: value })}
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
        caption={t('postbacks.list.caption')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.event_id}
        loading={status === 'loading' || status === 'idle'}
        error={error}
        retry={() => void load(search)}
        empty={t(search.q ? 'postbacks.list.noMatch' : isFiltered ? 'postbacks.list.emptyFiltered' : 'postbacks.list.empty')}
        metadata={list?.metadata}
        pagerLabel={t('postbacks.list.pages')}
        link={(target, text, rel) => (
          <Link to="/postbacks" search={{ ...search, page: target > 1 ? target : undefined }} className="button button-quiet" rel={rel}>
            {text}
          </Link>
        )}
      />
      {resending && <ResendFailedDialog onClose={() => setResending(false)} onDone={() => void load(search)} />}
    </section>
  );
}
