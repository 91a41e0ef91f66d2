/**
 * What the cashier sees of a joined till's centre (issue 26): while the centre is away, a banner with
 * what is stored here (count, total per currency, the oldest sale's age and the time left before the
 * age limit); while stored sales are being sent, how many are left; and each stored sale the centre
 * declined when it was forwarded, until the cashier marks it seen. Asked when the cashier's screen
 * changes and every two seconds while it is open; an ordinary gateway shows nothing.
 */
import { useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { formatMoney } from '../till/money.js';
import { BRAND_NAMES } from '../till/reader.js';
import { asCardBrand } from '../../../contract/cards.js';
import { WarningIcon } from '../ui/icons.js';
import { tillsClient, type TillLinkStatus } from './tills-client.js';
import { formatTime as timeOf } from '../ui/format.js';
import { ApiError } from '../api/client.js';

const POLL_MS = 2000;

/** "3 h 05 min", "12 min", "less than a minute". */
export function durationText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours > 0 ? `${hours} h ${String(rest).padStart(2, '0')} min` : `${minutes} min`;
}


export function CentreBanner() {
  const [status, setStatus] = useState<TillLinkStatus | null>(null);
  const [unreachable, setUnreachable] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const path = useRouterState({ select: (s) => s.location.pathname });

  const refresh = useCallback(async () => {
    try {
      setStatus(await tillsClient.link());
      setUnreachable(false);
    } catch (error) {
      // The gateway behind this screen does not answer: said at once, also on the idle till.
      if (error instanceof ApiError && error.kind === 'network') setUnreachable(true);
    }
  }, []);

  useEffect(() => {
    void refresh();
    const timer = window.setInterval(() => void refresh(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [refresh, path]);

  if (unreachable) {
    return (
      <div className="centre-banners">
        <section className="centre-banner centre-banner-away" role="alert" aria-labelledby="gateway-unreachable-title">
          <WarningIcon size={28} className="centre-banner-icon" />
          <div>
            <h2 id="gateway-unreachable-title" className="centre-banner-title">
              Gateway not reachable
            </h2>
            <p className="centre-banner-text">This screen cannot reach the gateway, so no card payment can be taken here until it answers again. Nothing is charged meanwhile; check the network or the gateway&rsquo;s computer.</p>
          </div>
        </section>
      </div>
    );
  }
  if (!status?.joined) return null;
  const { stored } = status;
  const now = Date.now();
  const totals = stored.totals.map((t) => formatMoney(t.amount, t.currency)).join(' + ');
  const oldest = stored.oldest_at ? durationText(now - Date.parse(stored.oldest_at)) : null;
  const left = stored.age_limit_at ? durationText(Date.parse(stored.age_limit_at) - now) : status.limits ? durationText(status.limits.age_hours * 3_600_000) : null;
  const seen = async (transactionId: string) => {
    try {
      setStatus(await tillsClient.declineSeen(transactionId));
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'Could not mark it seen');
    }
  };

  return (
    <div className="centre-banners">
      {status.state === 'away' && (
        <section className="centre-banner centre-banner-away" role="status" aria-labelledby="centre-away-title">
          <WarningIcon size={28} className="centre-banner-icon" />
          <div>
            <h2 id="centre-away-title" className="centre-banner-title">
              The shop&rsquo;s gateway does not answer: card sales are stored at this till
            </h2>
            <p className="centre-banner-text">
              {stored.count === 0 ? 'Nothing stored yet.' : `${stored.count} stored ${stored.count === 1 ? 'sale' : 'sales'} · ${totals} · the oldest ${oldest} ago.`}{' '}
              {left && `Sales can be stored for ${stored.count === 0 ? 'up to ' : 'another '}${left}`}
              {status.limits && `, up to ${formatMoney(status.limits.per_payment, stored.totals[0]?.currency ?? 'EUR')} each.`} They are sent as soon as the gateway answers.
            </p>
          </div>
        </section>
      )}
      {status.state === 'online' && stored.count > 0 && (
        <section className="centre-banner" role="status" aria-label="Sending stored sales">
          <p className="centre-banner-text">
            Sending {stored.count} stored {stored.count === 1 ? 'sale' : 'sales'} ({totals}) to the shop&rsquo;s gateway…
          </p>
        </section>
      )}
      {status.declines.map((d) => (
        <section key={d.transaction_id} className="centre-banner centre-banner-declined" role="alert" aria-labelledby={`declined-${d.transaction_id}`}>
          <WarningIcon size={28} className="centre-banner-icon" />
          <div>
            <h2 id={`declined-${d.transaction_id}`} className="centre-banner-title">
              A stored sale was declined: {formatMoney(d.amount, d.currency)}
            </h2>
            <p className="centre-banner-text">
              {BRAND_NAMES[asCardBrand(d.card_brand)]} •••• {d.card_last_four ?? '????'} · order {d.order_id} · taken at {timeOf(d.stored_at)} · the bank said &ldquo;
              {d.message ?? 'declined'}&rdquo;. The customer was given goods for it: ask them for another payment. It is listed under Needs attention in the back office.
            </p>
          </div>
          <button type="button" className="button" onClick={() => void seen(d.transaction_id)} aria-label={`Seen: declined stored sale ${formatMoney(d.amount, d.currency)}, order ${d.order_id}`}>
            Seen
          </button>
        </section>
      ))}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
