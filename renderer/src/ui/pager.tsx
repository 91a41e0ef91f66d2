/**
 * Previous / next page of a server-paged list, with where the page sits ("51–100 of 230"). The
 * pages are links (the page number lives in the URL), made by the screen: `link(page, label, rel)`.
 */
import type { ReactNode } from 'react';

interface PagerProps {
  /** Names the navigation, e.g. "Pages of invoices". */
  label: string;
  page: number;
  pages: number;
  /** The first and last row of this page (1-based) and the total. */
  from: number;
  to: number;
  count: number;
  link: (page: number, text: string, rel: 'prev' | 'next') => ReactNode;
}

export function Pager({ label, page, pages, from, to, count, link }: PagerProps) {
  if (count === 0) return null;
  const off = (text: string) => (
    <span className="button button-quiet pager-off" aria-disabled="true">
      {text}
    </span>
  );
  return (
    <nav className="pager" aria-label={label}>
      <p className="pager-text" role="status">
        {from > 0 ? `${from}–${to} of ${count}` : `Nothing on page ${page} of ${pages}`}
      </p>
      {page > 1 ? link(Math.min(page - 1, pages), 'Previous page', 'prev') : off('Previous page')}
      <span className="pager-page">
        Page {page} of {pages}
      </span>
      {page < pages ? link(page + 1, 'Next page', 'next') : off('Next page')}
    </nav>
  );
}
