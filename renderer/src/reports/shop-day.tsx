/**
 * The shop's day for a manager (issue 26): every till's open day and their sum, per currency, from
 * GET /ui/reports/shop, with each till's X report one click away. Each till closes its own day.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DayReport, ShopDay } from '../../../contract/api/reports.js';
import { formatMoney } from '../till/money.js';
import { tillsClient } from '../tills/tills-client.js';
import { reportsClient } from './reports-client.js';
import { formatDateTime } from '../ui/format.js';

const when = (iso: string | null, none: string) => (iso ? formatDateTime(iso) : none);

function netText(totals: ShopDay['totals']): string {
  return totals.length ? totals.map((row) => formatMoney(row.net, row.currency)).join(' · ') : '—';
}

function salesOf(totals: ShopDay['totals']): number {
  return totals.reduce((sum, row) => sum + row.approved.count, 0);
}

export function ShopDayPanel({ onRead }: { onRead: (report: DayReport) => void }) {
  const [day, setDay] = useState<ShopDay | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(() => {
    tillsClient.shopDay().then(
      (answer) => {
        setDay(answer);
        setProblem(null);
      },
      (error: unknown) => setProblem(error instanceof Error ? error.message : "The shop's day could not be loaded."),
    );
  }, []);
  useEffect(load, [load]);

  const read = async (tillId: string) => {
    try {
      onRead(await reportsClient.xReport(tillId));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : `The X report of ${tillId} could not be loaded.`);
    }
  };

  return (
    <section className="report-section shop-day no-print" aria-labelledby="shop-day-title">
      <div className="section-head">
        <h2 id="shop-day-title">The shop&rsquo;s day</h2>
        <button type="button" className="button" onClick={load}>
          Refresh
        </button>
      </div>
      <p className="muted">Every till&rsquo;s open day since its own last Z report. Each till closes its own day.</p>
      {problem && (
        <p className="form-problem" role="alert">
          {problem}
        </p>
      )}
      {day && (
        <table className="report-table shop-day-table">
          <caption className="visually-hidden">Each till&rsquo;s open day and the shop&rsquo;s total</caption>
          <thead>
            <tr>
              <th scope="col">Till</th>
              <th scope="col">Day</th>
              <th scope="col">Open since</th>
              <th scope="col">Last sale</th>
              <th scope="col" className="num">
                Sales
              </th>
              <th scope="col" className="num">
                Net
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
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
                <td>{when(till.opened_at, 'first day')}</td>
                <td>{when(till.last_sale_at, '—')}</td>
                <td className="num">{salesOf(till.totals)}</td>
                <td className="num nowrap">{netText(till.totals)}</td>
                <td>
                  <button type="button" className="button button-quiet" aria-label={`X report of ${till.name}`} onClick={() => void read(till.till_id)}>
                    X report
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={4}>
                Whole shop
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
