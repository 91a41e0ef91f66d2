/**
 * What the cashier sees of a joined till's centre (issue 26): while the centre is away, a banner with
 * what is stored here (count, total per currency, the oldest sale's age and the time left before the
 * age limit); while stored sales are being sent, how many are left; and each stored sale the centre
 * declined when it was forwarded, until the cashier marks it seen. Asked when the cashier's screen
 * changes and every two seconds while it is open; an ordinary gateway shows nothing.
 */
import { useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatMoney } from '../till-screen/money.js';
import { maskedCard } from '../till-screen/reader.js';
import { useT } from '../ui/i18n.js';
import { WarningIcon } from '../ui/icons.js';
import { tillsClient, type TillLinkStatus } from './tills-client.js';
import { formatTime as timeOf } from '../ui/format.js';
import { ApiError } from '../api/transport.js';

const POLL_MS = 2000;

/** "3 h 05 min", "12 min", "less than a minute" (German, Portuguese, Croatian: "< 1 min"). */
export function durationText(t: Translate, ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return t('tills.duration.lessThanMinute');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours > 0
    ? t('tills.duration.hours', { hours, minutes: String(rest).padStart(2, '0') })
    : t('tills.duration.minutes', { minutes });
}

export function CentreBanner() {
  const [status, setStatus] = useState<TillLinkStatus | null>(null);
  const [unreachable, setUnreachable] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const path = useRouterState({ select: (s) => s.location.pathname });
  const t = useT();

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
              {t('tills.unreachable.title')}
            </h2>
            <p className="centre-banner-text">{t('tills.unreachable.text')}</p>
          </div>
        </section>
      </div>
    );
  }
  if (!status?.joined) return null;
  const { stored } = status;
  const now = Date.now();
  const totals = stored.totals.map((t) => formatMoney(t.amount, t.currency)).join(' + ');
  const oldest = stored.oldest_at ? durationText(t, now - Date.parse(stored.oldest_at)) : null;
  const left = stored.age_limit_at
    ? durationText(t, Date.parse(stored.age_limit_at) - now)
    : status.limits
      ? durationText(t, status.limits.age_hours * 3_600_000)
      : null;
  const fresh = stored.count === 0 ? 'yes' : 'no';
  // What is stored, how long and how much more can be, and that it is sent: one sentence each.
  const awayText = [
    stored.count === 0 ? t('tills.away.none') : t('tills.away.stored', { count: stored.count, totals, age: oldest ?? '' }),
    left && status.limits
      ? t('tills.away.limit', { fresh, left, perPayment: formatMoney(status.limits.per_payment, stored.totals[0]?.currency ?? 'EUR') })
      : left
        ? t('tills.away.left', { fresh, left })
        : null,
    t('tills.away.sent'),
  ]
    .filter(Boolean)
    .join(' ');
  const seen = async (transactionId: string) => {
    try {
      setStatus(await tillsClient.declineSeen(transactionId));
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : t('tills.declined.seenFailed'));
    }
  };

  return (
    <div className="centre-banners">
      {status.state === 'away' && (
        <section className="centre-banner centre-banner-away" role="status" aria-labelledby="centre-away-title">
          <WarningIcon size={28} className="centre-banner-icon" />
          <div>
            <h2 id="centre-away-title" className="centre-banner-title">
              {t('tills.away.title')}
            </h2>
            <p className="centre-banner-text">{awayText}</p>
          </div>
        </section>
      )}
      {status.state === 'online' && stored.count > 0 && (
        <section className="centre-banner" role="status" aria-label={t('tills.sending.label')}>
          <p className="centre-banner-text">{t('tills.sending', { count: stored.count, totals })}</p>
        </section>
      )}
      {status.declines.map((d) => (
        <section
          key={d.transaction_id}
          className="centre-banner centre-banner-declined"
          role="alert"
          aria-labelledby={`declined-${d.transaction_id}`}
        >
          <WarningIcon size={28} className="centre-banner-icon" />
          <div>
            <h2 id={`declined-${d.transaction_id}`} className="centre-banner-title">
              {t('tills.declined.title', { amount: formatMoney(d.amount, d.currency) })}
            </h2>
            <p className="centre-banner-text">
              {t('tills.declined.text', {
                card: maskedCard(t, d.card_brand, d.card_last_four),
                order: d.order_id,
                time: timeOf(d.stored_at),
                // The bank's own words, as the centre recorded them.
                reason: d.message ?? t('tills.declined.reason'),
              })}
            </p>
          </div>
          <button
            type="button"
            className="button"
            onClick={() => void seen(d.transaction_id)}
            aria-label={t('tills.declined.seenLabel', { amount: formatMoney(d.amount, d.currency), order: d.order_id })}
          >
            {t('tills.declined.seen')}
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
