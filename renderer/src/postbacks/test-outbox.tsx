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
import { TEST_OUTBOX_KINDS } from '../../../contract/constants.js';
import { FilterBar } from '../ui/detail-parts.js';
import { Fact } from '../ui/facts.js';
import { formatDateTimeSeconds } from '../ui/format.js';
import { SelectFilter } from '../ui/list-filters.js';
import { PagedTable } from '../ui/paged-table.js';
import { toneClass } from '../ui/tags.js';
import { HeadersTable } from './postback-detail.js';
import { answerText, ATTEMPT_OUTCOME_TONES, prettyJson } from './postback-format.js';
import { PostbacksNav, useEnvironment } from './postbacks-nav.js';
import type { TestOutboxDetail, TestOutboxItem } from './postbacks-client.js';
import { useOutboxItem, useOutboxList } from './postbacks-store.js';

const KIND_LABELS = { email: 'E-mails', postback: 'Postbacks' } as const;
const column = createColumnHelper<TestOutboxItem>();

function outcomeTag(item: TestOutboxItem) {
  if (item.kind === 'email') return <span className={toneClass('ok')}>{item.outcome === 'test_outbox' ? 'Kept here' : 'Sent by SMTP'}</span>;
  return <span className={toneClass(ATTEMPT_OUTCOME_TONES[item.outcome] ?? 'off')}>{answerText(item.http_status, item.outcome === 'refused' ? 'Refused' : 'No answer')}</span>;
}

export function TestOutboxScreen() {
  const search = useSearch({ from: '/postbacks/outbox' });
  const navigate = useNavigate({ from: '/postbacks/outbox' });
  const environment = useEnvironment((s) => s.environment);
  const { status, list, error, load } = useOutboxList();
  const listSearch = useMemo(() => ({ ...(search.kind ? { kind: search.kind } : {}), ...(search.page ? { page: search.page } : {}) }), [search.kind, search.page]);

  useEffect(() => {
    if (environment === 'test') void load(listSearch);
  }, [load, listSearch, environment]);

  const columns = useMemo(
    () => [
      column.accessor('at', { header: 'Sent', cell: (info) => <span className="nowrap">{formatDateTimeSeconds(info.getValue())}</span> }),
      column.accessor('title', {
        header: 'What',
        cell: (info) => {
          const item = info.row.original;
          return (
            <Link
              to="/postbacks/outbox"
              search={{ ...search, item: item.item_id }}
              className="row-link"
              aria-label={`Preview ${item.kind === 'email' ? 'e-mail' : 'postback'}: ${item.title}, ${formatDateTimeSeconds(item.at)}`}
              aria-current={search.item === item.item_id ? 'true' : undefined}
            >
              {item.title}
            </Link>
          );
        },
      }),
      // With a preview beside it the list is narrower: the preview says where it went.
      ...(search.item ? [] : [column.accessor('to', { header: 'To', cell: (info) => <span className="receiver-cell">{info.getValue()}</span> })]),
      column.accessor('outcome', { header: 'Outcome', cell: (info) => outcomeTag(info.row.original) }),
    ],
    [search],
  );

  const head = (
    <div className="page-head">
      <h1 id="outbox-title">Test outbox</h1>
      <PostbacksNav current="outbox" />
    </div>
  );
  if (environment !== 'test') {
    return (
      <section className="test-outbox" aria-labelledby="outbox-title">
        {head}
        <p className={environment === null ? 'loading' : 'lead'} role="status">
          {environment === null ? 'Loading…' : 'This gateway is not the Test environment: its e-mails and postbacks really leave, and there is no outbox to show.'}
        </p>
      </section>
    );
  }

  const rows = status === 'ready' && list ? list.data_set : [];
  const kindOptions = TEST_OUTBOX_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }));
  return (
    <section className="test-outbox" aria-labelledby="outbox-title">
      {head}
      <p className="lead">Everything the Test environment sent, newest first: e-mails (kept here when no SMTP server is set up) and every postback attempt. Choose one to preview it.</p>
      <FilterBar label="Filter the outbox" active={search.kind !== undefined} onClear={() => void navigate({ search: {} })}>
        <SelectFilter label="Kind" value={search.kind} anyLabel="E-mails and postbacks" options={kindOptions} onChange={(value) => void navigate({ search: value ? { kind: value } : {} })} />
      </FilterBar>
      <div className="outbox-layout">
        <div className="outbox-list">
          <PagedTable
            caption="Sent e-mails and postbacks, newest first"
            columns={columns}
            rows={rows}
            rowKey={(row) => row.item_id}
            loading={status === 'loading' || status === 'idle'}
            error={error}
            retry={() => void load(listSearch)}
            empty={search.kind ? `No ${search.kind === 'email' ? 'e-mail' : 'postback'} sent yet.` : 'Nothing sent yet.'}
            metadata={list?.metadata}
            pagerLabel="Pages of the outbox"
            link={(target, text, rel) => (
              <Link to="/postbacks/outbox" search={{ ...(search.kind ? { kind: search.kind } : {}), page: target > 1 ? target : undefined }} className="button button-quiet" rel={rel}>
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
        <h2 id="preview-title">{item ? (item.email ? 'E-mail' : 'Postback attempt') : 'Preview'}</h2>
        <button type="button" className="button button-small button-quiet" onClick={onClose}>
          Close preview
        </button>
      </div>
      {!item ? (
        <p className={status === 'failed' ? 'form-problem' : 'loading'} role={status === 'failed' ? 'alert' : 'status'}>
          {status === 'failed' ? error : 'Loading…'}
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
  return (
    <>
      <dl className="facts detail-facts">
        <Fact label="From">{email.from ?? 'The gateway\u2019s sender'}</Fact>
        <Fact label="To">{email.to}</Fact>
        <Fact label="Subject">{email.subject}</Fact>
        <Fact label="Sent">
          {formatDateTimeSeconds(detail.item.at)} ({detail.item.outcome === 'test_outbox' ? 'kept in this outbox: nothing left this computer' : 'sent by SMTP'})
        </Fact>
        <Fact label="Kind">{email.source === 'invoice' ? 'Invoice e-mail' : 'Receipt e-mail'}</Fact>
      </dl>
      {/* The message as HTML in a frame that may do nothing: no script, no form, no navigation, its own origin. */}
      <iframe className="email-frame" sandbox="" srcDoc={email.html} title={`E-mail preview: ${email.subject}`} />
    </>
  );
}

function PostbackPreview({ detail, postback }: { detail: TestOutboxDetail; postback: NonNullable<TestOutboxDetail['postback']> }) {
  const attempt = postback.attempt;
  return (
    <>
      <dl className="facts detail-facts">
        <Fact label="To">
          <span className="mono">{detail.item.to}</span>
        </Fact>
        <Fact label="Postback">
          <Link to="/postbacks/$id" params={{ id: postback.event_id }}>
            {detail.item.title}
          </Link>
        </Fact>
        <Fact label="Attempt">
          {attempt.attempt}, {formatDateTimeSeconds(attempt.created_at)}
        </Fact>
        <Fact label="Answer">
          <span className={toneClass(ATTEMPT_OUTCOME_TONES[attempt.outcome] ?? 'off')}>{answerText(attempt.http_status, attempt.error)}</span> in {attempt.duration_ms} ms
        </Fact>
      </dl>
      <pre className="json-block" tabIndex={0} aria-label="Postback body, pretty-printed">
        {attempt.body ? prettyJson(attempt.body) : 'Not kept (an attempt from before schema version 19).'}
      </pre>
      {attempt.headers && <HeadersTable headers={attempt.headers} />}
    </>
  );
}
