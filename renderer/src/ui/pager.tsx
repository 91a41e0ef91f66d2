/**
 * Previous / next page of a server-paged list, with where the page sits ("51–100 of 230"). The
 * pages are links (the page number lives in the URL), made by the screen: `link(page, label, rel)`.
 */
import type { ReactNode } from 'react';
import { useT } from './i18n.js';

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
  const t = useT();
  if (count === 0) return null;
  const off = (text: string) => (
    <span className="button button-quiet pager-off" aria-disabled="true">
      {text}
    </span>
  );
  return (
    <nav className="pager" aria-label={label}>
      <p className="pager-text" role="status">
        {from > 0 ? t('ui.pager.range', { from, to, count }) : t('ui.pager.nothing', { page, pages })}
      </p>
      {page > 1 ? link(Math.min(page - 1, pages), t('ui.pager.previous'), 'prev') : off(t('ui.pager.previous'))}
      <span className="pager-page">{t('ui.pager.page', { page, pages })}</span>
      {page < pages ? link(page + 1, t('ui.pager.next'), 'next') : off(t('ui.pager.next'))}
    </nav>
  );
}
