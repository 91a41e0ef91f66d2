/**
 * One page of a server-paged list (the API's `metadata`: page, per page, total): a problem with
 * "Try again", the table (ui/data-table.tsx) and the pager whose links the screen makes.
 */
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import type { PageMetadata } from '../../../contract/api/common.js';
import { DataTable } from './data-table.js';
import { useT } from './i18n.js';
import { Pager } from './pager.js';

interface PagedTableProps<Row> {
  caption: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column value types differ per column
  columns: ColumnDef<Row, any>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  loading: boolean;
  error: string | null;
  retry: () => void;
  empty: ReactNode;
  metadata: PageMetadata | undefined;
  pagerLabel: string;
  link: (page: number, text: string, rel: 'prev' | 'next') => ReactNode;
  /** Rows with nothing to focus: the table's scrolling region takes the keyboard. */
  keyboardScroll?: boolean;
}

export function PagedTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  error,
  retry,
  empty,
  metadata,
  pagerLabel,
  link,
  keyboardScroll = false,
}: PagedTableProps<Row>) {
  const t = useT();
  const first = metadata ? (metadata.current_page - 1) * metadata.per_page : 0;
  return (
    <>
      {error && (
        <p className="form-problem" role="alert">
          {/* The space between the problem and its button is JSX text on one line. */}
          {error}{' '}
          <button type="button" className="button button-small" onClick={retry}>
            {t('common.retry')}
          </button>
        </p>
      )}
      <DataTable
        caption={caption}
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        total={rows.length}
        hasMore={false}
        loading={loading}
        loadMore={() => undefined}
        empty={empty}
        height="calc(100vh - 330px)"
        keyboardScroll={keyboardScroll}
      />
      {metadata && (
        <Pager
          label={pagerLabel}
          page={metadata.current_page}
          pages={metadata.total_pages}
          from={rows.length ? first + 1 : 0}
          to={first + rows.length}
          count={metadata.total_items}
          link={link}
        />
      )}
    </>
  );
}
