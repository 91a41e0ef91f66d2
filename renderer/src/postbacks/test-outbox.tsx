/**
 * The Test environment's outbox (`#/postbacks/outbox`): every e-mail and postback the gateway sent,
 * newest first, a page at a time, by kind; the item chosen (`?item=`) is previewed beside the list:
 * an e-mail as its HTML in a sandboxed frame (no script, nothing loaded from anywhere), a postback
 * attempt as its body pretty-printed with the headers it was signed with. Outside the Test
 * environment the gateway has no outbox and the screen says so.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo, useRef } from 'react';
import { TEST_OUTBOX_KINDS, type TestOutboxKind } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { FilterBar } from '../ui/detail-parts.js';
import { Fact } from '../ui/facts.js';
import { formatDateTimeSeconds } from '../ui/format.js';
import { useT } from '../ui/i18n.js';
import { SelectFilter } from '../ui/list-filters.js';
import { PagedTable } from '../ui/paged-table.js';
import { toneClass } from '../ui/tags.js';
import { HeadersTable } from './postback-detail.js';
import { answerText, ATTEMPT_OUTCOME_TONES, prettyJson } from './postback-format.js';
import { PostbacksNav, useEnvironment } from './postbacks-nav.js';
import type { TestOutboxDetail, TestOutboxItem } from './postbacks-client.js';
import { useOutboxItem, useOutboxList } from './postbacks-store.js';

const KIND_LABELS: Record<TestOutboxKind, MessageId> = { email: 'postbacks.outbox.emails', postback: 'postbacks.outbox.postbacks' };
const column = createColumnHelper<TestOutboxItem>();

function outcomeTag(t: Translate, item: TestOutboxItem) {
  if (item.kind === 'email')
    return (
      <span className={toneClass('ok')}>
        {t(item.outcome === 'test_outbox' ? 'postbacks.outbox.keptHere' : 'postbacks.outbox.sentBySmtp')}
      </span>
    );
  return (
    <span className={toneClass(ATTEMPT_OUTCOME_TONES[item.outcome] ?? 'off')}>
      {answerText(t, item.http_status, t(item.outcome === 'refused' ? 'postbacks.refused' : 'postbacks.noAnswer'))}
    </span>
  );
}

export function TestOutboxScreen() {
  const search = useSearch({ from: '/postbacks/outbox' });
  const navigate = useNavigate({ from: '/postbacks/outbox' });
  const environment = useEnvironment((s) => s.environment);
  const { status, list, error, load } = useOutboxList();
  const t = useT();
  const listSearch = useMemo(
    () => ({ ...(search.kind ? { kind: search.kind } : {}), ...(search.page ? { page: search.page } : {}) }),
    [search.kind, search.page],
  );

  useEffect(() => {
    if (environment === 'test') void load(listSearch);
  }, [load, listSearch, environment]);

  const columns = useMemo(
    () => [
      column.accessor('at', {
        header: t('postbacks.outbox.sent'),
        cell: (info) => <span className="nowrap">{formatDateTimeSeconds(info.getValue())}</span>,
      }),
      column.accessor('title', {
        header: t('postbacks.outbox.what'),
        cell: (info) => {
          const item = info.row.original;
          return (
            <Link
              to="/postbacks/outbox"
              search={{ ...search, item: item.item_id }}
              className="row-link"
              aria-label={t('postbacks.outbox.rowLabel', { kind: item.kind, title: item.title, date: formatDateTimeSeconds(item.at) })}
              aria-current={search.item === item.item_id ? 'true' : undefined}
            >
              {item.title}
            </Link>
          );
        },
      }),
      // With a preview beside it the list is narrower: the preview says where it went.
      ...(search.item
        ? []
        : [
            column.accessor('to', {
              header: t('postbacks.outbox.to'),
              cell: (info) => <span className="receiver-cell">{info.getValue()}</span>,
            }),
          ]),
      column.accessor('outcome', { header: t('postbacks.outbox.outcome'), cell: (info) => outcomeTag(t, info.row.original) }),
    ],
    [search, t],
  );

  const head = (
    <div className="page-head">
      <h1 id="outbox-title">{t('postbacks.nav.outbox')}</h1>
      <PostbacksNav current="outbox" />
    </div>
  );
  if (environment !== 'test') {
    return (
      <section className="test-outbox" aria-labelledby="outbox-title">
        {head}
        <p className={environment === null ? 'loading' : 'lead'} role="status">
          {t(environment === null ? 'common.loading' : 'postbacks.outbox.notTest')}
        </p>
      </section>
    );
  }

  const rows = status === 'ready' && list ? list.data_set : [];
  const kindOptions = TEST_OUTBOX_KINDS.map((value) => ({ value, label: t(KIND_LABELS[value]) }));
  return (
    <section className="test-outbox" aria-labelledby="outbox-title">
      {head}
      <p className="lead">{t('postbacks.outbox.lead')}</p>
      <FilterBar label={t('postbacks.outbox.filters')} active={search.kind !== undefined} onClear={() => void navigate({ search: {} })}>
        <SelectFilter
          label={t('postbacks.list.kind')}
          value={search.kind}
          anyLabel={t('postbacks.outbox.anyKind')}
          options={kindOptions}
          onChange={(value) => void navigate({ search: value ? { kind: value } : {} })}
        />
      </FilterBar>
      <div className="outbox-layout">
        <div className="outbox-list">
          <PagedTable
            caption={t('postbacks.outbox.caption')}
            columns={columns}
            rows={rows}
            rowKey={(row) => row.item_id}
            loading={status === 'loading' || status === 'idle'}
            error={error}
            retry={() => void load(listSearch)}
            empty={search.kind ? t('postbacks.outbox.emptyKind', { kind: search.kind }) : t('postbacks.outbox.empty')}
            metadata={list?.metadata}
            pagerLabel={t('postbacks.outbox.pages')}
            link={(target, text, rel) => (
              <Link
                to="/postbacks/outbox"
                search={{ ...(search.kind ? { kind: search.kind } : {}), page: target > 1 ? target : undefined }}
                className="button button-quiet"
                rel={rel}
              >
                {text}
              </Link>
            )}
          />
        </div>
        {search.item && <OutboxPreview itemId={search.item} onClose={() => void navigate({ search: { ...search, item: undefined } })} />}
      </div>
    </section>
  );
}

function OutboxPreview({ itemId, onClose }: { itemId: string; onClose: () => void }) {
  const { status, detail, error, load } = useOutboxItem();
  const t = useT();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    void load(itemId);
  }, [load, itemId]);
  const item = detail?.item.item_id === itemId ? detail : null;
  // Below the list on a narrow window: bring the preview into view once it is there.
  useEffect(() => {
    const top = ref.current?.getBoundingClientRect().top;
    if (item && top !== undefined && top > window.innerHeight - 120) ref.current?.scrollIntoView({ block: 'start' });
  }, [item]);
  return (
    <section ref={ref} className="card outbox-preview" aria-labelledby="preview-title">
      <div className="card-head">
        <h2 id="preview-title">
          {t(item ? (item.email ? 'postbacks.outbox.email' : 'postbacks.outbox.attempt') : 'postbacks.outbox.preview')}
        </h2>
        <button type="button" className="button button-small button-quiet" onClick={onClose}>
          {t('postbacks.outbox.closePreview')}
        </button>
      </div>
      {!item ? (
        <p className={status === 'failed' ? 'form-problem' : 'loading'} role={status === 'failed' ? 'alert' : 'status'}>
          {status === 'failed' ? error : t('common.loading')}
        </p>
      ) : item.email ? (
        <EmailPreview detail={item} email={item.email} />
      ) : item.postback ? (
        <PostbackPreview detail={item} postback={item.postback} />
      ) : null}
    </section>
  );
}

function EmailPreview({ detail, email }: { detail: TestOutboxDetail; email: NonNullable<TestOutboxDetail['email']> }) {
  const t = useT();
  const time = formatDateTimeSeconds(detail.item.at);
  return (
    <>
      <dl className="facts detail-facts">
        <Fact label={t('postbacks.outbox.from')}>{email.from ?? t('postbacks.outbox.gatewaySender')}</Fact>
        <Fact label={t('postbacks.outbox.to')}>{email.to}</Fact>
        <Fact label={t('postbacks.outbox.subject')}>{email.subject}</Fact>
        <Fact label={t('postbacks.outbox.sent')}>
          {t(detail.item.outcome === 'test_outbox' ? 'postbacks.outbox.sentKept' : 'postbacks.outbox.sentSmtp', { time })}
        </Fact>
        <Fact label={t('postbacks.list.kind')}>
          {t(email.source === 'invoice' ? 'postbacks.outbox.invoiceEmail' : 'postbacks.outbox.receiptEmail')}
        </Fact>
      </dl>
      {/* The message as HTML in a frame that may do nothing: no script, no form, no navigation, its own origin. */}
      <iframe className="email-frame" sandbox="" srcDoc={email.html} title={t('postbacks.outbox.emailFrame', { subject: email.subject })} />
    </>
  );
}

function PostbackPreview({ detail, postback }: { detail: TestOutboxDetail; postback: NonNullable<TestOutboxDetail['postback']> }) {
  const attempt = postback.attempt;
  const t = useT();
  return (
    <>
      <dl className="facts detail-facts">
        <Fact label={t('postbacks.outbox.to')}>
          <span className="mono">{detail.item.to}</span>
        </Fact>
        <Fact label={t('postbacks.field.postback')}>
          <Link to="/postbacks/$id" params={{ id: postback.event_id }}>
            {detail.item.title}
          </Link>
        </Fact>
        <Fact label={t('postbacks.field.attempt')}>
          {t('postbacks.outbox.attemptAt', { attempt: attempt.attempt, time: formatDateTimeSeconds(attempt.created_at) })}
        </Fact>
        <Fact label={t('postbacks.attempts.answer')}>
          <span className={toneClass(ATTEMPT_OUTCOME_TONES[attempt.outcome] ?? 'off')}>
            {answerText(t, attempt.http_status, attempt.error)}
          </span>{' '}
          {t('postbacks.outbox.answerIn', { ms: attempt.duration_ms })}
        </Fact>
      </dl>
      <pre className="json-block" tabIndex={0} aria-label={t('postbacks.outbox.bodyLabel')}>
        {attempt.body ? prettyJson(attempt.body) : t('postbacks.outbox.bodyNotKept')}
      </pre>
      {attempt.headers && <HeadersTable headers={attempt.headers} />}
    </>
  );
}
