/**
 * The shop's day for a manager (issue 26): every till's open day and their sum, per currency, from
 * GET /ui/reports/shop, with each till's X report one click away. Each till closes its own day.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DayReport, ShopDay } from '../../../contract/api/reports.js';
import { formatMoney } from '../till-screen/money.js';
import { tillsClient } from '../tills/tills-client.js';
import { reportsClient } from './reports-client.js';
import { formatDateTime } from '../ui/format.js';
import { translate, useT } from '../ui/i18n.js';
import { NO_VALUE } from '../sales/sales-store.js';

const when = (iso: string | null, none: string) => (iso ? formatDateTime(iso) : none);

function netText(totals: ShopDay['totals']): string {
  return totals.length ? totals.map((row) => formatMoney(row.net, row.currency)).join(' · ') : NO_VALUE;
}

function salesOf(totals: ShopDay['totals']): number {
  return totals.reduce((sum, row) => sum + row.approved.count, 0);
}

export function ShopDayPanel({ onRead }: { onRead: (report: DayReport) => void }) {
  const t = useT();
  const [day, setDay] = useState<ShopDay | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(() => {
    tillsClient.shopDay().then(
      (answer) => {
        setDay(answer);
        setProblem(null);
      },
      (error: unknown) => setProblem(error instanceof Error ? error.message : translate('reports.shop.loadFailed')),
    );
  }, []);
  useEffect(load, [load]);

  const read = async (tillId: string) => {
    try {
      onRead(await reportsClient.xReport(tillId));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : t('reports.shop.xFailed', { till: tillId }));
    }
  };

  return (
    <section className="report-section shop-day no-print" aria-labelledby="shop-day-title">
      <div className="section-head">
        <h2 id="shop-day-title">{t('reports.shop.title')}</h2>
        <button type="button" className="button" onClick={load}>
          {t('sales.refresh')}
        </button>
      </div>
      <p className="muted">{t('reports.shop.lead')}</p>
      {problem && (
        <p className="form-problem" role="alert">
          {problem}
        </p>
      )}
      {day && (
        <table className="report-table shop-day-table">
          <caption className="visually-hidden">{t('reports.shop.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('reports.fact.till')}</th>
              <th scope="col">{t('reports.shop.day')}</th>
              <th scope="col">{t('reports.shop.openSince')}</th>
              <th scope="col">{t('reports.fact.lastSale')}</th>
              <th scope="col" className="num">
                {t('sales.total.sales')}
              </th>
              <th scope="col" className="num">
                {t('reports.figure.net')}
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('sales.table.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {day.tills.map((till) => (
              <tr key={till.till_id}>
                <th scope="row">
                  {till.name} <span className="till-badge-id">{till.till_id}</span>
                </th>
                <td>{till.sequence}</td>
                <td>{when(till.opened_at, t('reports.firstDay'))}</td>
                <td>{when(till.last_sale_at, NO_VALUE)}</td>
                <td className="num">{salesOf(till.totals)}</td>
                <td className="num nowrap">{netText(till.totals)}</td>
                <td>
                  <button
                    type="button"
                    className="button button-quiet"
                    aria-label={t('reports.shop.xOf', { till: till.name })}
                    onClick={() => void read(till.till_id)}
                  >
                    {t('reports.shop.x')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={4}>
                {t('sales.whose.shop')}
              </th>
              <td className="num">{salesOf(day.totals)}</td>
              <td className="num nowrap">{netText(day.totals)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      )}
    </section>
  );
}
