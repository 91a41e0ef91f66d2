/**
 * The back office's list: a real <table> (TanStack Table for the columns) whose rows are
 * virtualized (TanStack Virtual: only the rows on screen are in the DOM, so 100,000 rows scroll
 * smoothly) and loaded from the server a page at a time as the user scrolls (the browser never
 * holds a whole table). Screens give the columns, the rows loaded so far and `loadMore`.
 *
 * Accessibility: a caption names the table, `aria-rowcount`/`aria-rowindex` tell assistive
 * technology where a row sits in the whole list; a row's first cell should hold a link to the
 * row's own URL (its detail, class `row-link`), so keyboard users Tab to it and deep links work.
 * A click anywhere else on such a row opens the same link: a mouse convenience, the link stays the
 * one way in for the keyboard and assistive technology.
 */
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { useT } from './i18n.js';

/** What keeps its own click inside a row: links, buttons, form fields and their labels. */
const ROW_CONTROLS = 'a, button, input, select, textarea, label, summary, [role="button"], [role="checkbox"], [role="menuitem"]';

/** A plain click on a row, away from its controls, follows the row's link (through the router, as the link's own click would). */
function openRowLink(event: MouseEvent<HTMLTableSectionElement>): void {
  if (event.button !== 0 || event.defaultPrevented || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (!(event.target instanceof Element) || event.target.closest(ROW_CONTROLS)) return;
  // A click that ends a drag over text selects it (to copy an order id), it does not navigate.
  if (!(window.getSelection()?.isCollapsed ?? true)) return;
  event.target.closest('tr')?.querySelector<HTMLAnchorElement>('a.row-link')?.click();
}

export interface DataTableProps<Row> {
  /** Names the table for assistive technology (shown as a visually hidden caption). */
  caption: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column value types differ per column
  columns: ColumnDef<Row, any>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** All rows of the list, when the server told; else rows so far (+1 while there are more). */
  total?: number | null;
  hasMore: boolean;
  loading: boolean;
  loadMore: () => void;
  /** Shown instead of the table when the list is empty and not loading. */
  empty: ReactNode;
  /** Estimated row height in px (rows may be taller; they are measured). */
  rowHeight?: number;
  /** Height of the scroll area; default fills the screen below the filters. */
  height?: string;
  /** Rows with nothing to focus (no links): the scroll area itself takes the keyboard, named by the caption. */
  keyboardScroll?: boolean;
}

/** Rows before the end at which the next page is asked for. */
const PREFETCH_ROWS = 30;

export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  total,
  hasMore,
  loading,
  loadMore,
  empty,
  rowHeight = 52,
  height = 'calc(100vh - 260px)',
  keyboardScroll = false,
}: DataTableProps<Row>) {
  const t = useT();
  const table = useReactTable({ data: rows as Row[], columns, getCoreRowModel: getCoreRowModel(), getRowId: (row) => rowKey(row) });
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (hasMore && !loading && last >= tableRows.length - PREFETCH_ROWS) loadMore();
  }, [last, hasMore, loading, tableRows.length, loadMore]);

  if (rows.length === 0 && !loading && !hasMore) return <div className="data-empty">{empty}</div>;

  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;
  const rowCount = total ?? rows.length + (hasMore ? 1 : 0);
  const columnCount = table.getVisibleLeafColumns().length;
  return (
    <div
      className="data-table-wrap"
      ref={scrollRef}
      style={{ maxHeight: height }}
      // Rows without links or buttons: the scrolling region itself takes the keyboard (arrows, Page Down).
      {...(keyboardScroll ? { tabIndex: 0, role: 'region', 'aria-label': caption } : { tabIndex: -1 })}
    >
      <table className="data-table" aria-rowcount={rowCount + 1}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} aria-rowindex={1}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={(header.column.columnDef.meta as { className?: string } | undefined)?.className}>
                  {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody onClick={openRowLink}>
          {padTop > 0 && (
            <tr aria-hidden="true" className="data-spacer">
              <td colSpan={columnCount} style={{ height: padTop }} />
            </tr>
          )}
          {items.map((item) => {
            const row = tableRows[item.index];
            if (!row) return null;
            return (
              <tr key={row.id} data-index={item.index} ref={virtualizer.measureElement} aria-rowindex={item.index + 2} data-row-id={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={(cell.column.columnDef.meta as { className?: string } | undefined)?.className}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden="true" className="data-spacer">
              <td colSpan={columnCount} style={{ height: padBottom }} />
            </tr>
          )}
        </tbody>
      </table>
      <p className="data-status" role="status">
        {loading ? t('common.loading') : t(hasMore ? 'ui.table.more' : 'ui.table.rows', { count: rows.length })}
      </p>
    </div>
  );
}
