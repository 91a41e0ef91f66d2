/**
 * Capture, release (reverse) and refund from a transaction's detail: the dialog pre-fills what is
 * still capturable, releasable or refundable, refuses more (and part of it where the payment type
 * takes only the whole), asks a reason for a refund, then repeats amount, currency and card before
 * the final confirmation; a refusal shows the gateway's own message. The gateway writes each action
 * to the audit log under the logged-in staff member's name; a refund's reason travels as its
 * merchant_reference (as at the till) and is kept in the audit entry too. One idempotency key per
 * amount and reason: a retry after a lost answer does not act twice.
 */
import { useRef, useState, type FormEvent } from 'react';
import { RefundStatus } from '../../../contract/codes.js';
import { exponentOf, fromMinorUnits, toMinorUnits } from '../../../contract/money.js';
import { ApiError } from '../api/transport.js';
import { reasonProblem as reasonProblemOf, reasonText, RefundReasonField } from '../sales/refund-reason.js';
import { formatMoney, parseAmount } from '../till-screen/money.js';
import { WarningIcon } from '../ui/icons.js';
import { currentLocale, useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import { cardText, joined } from './transaction-format.js';
import { transactionsClient, type TransactionDetail } from './transactions-client.js';
import { problemText } from './transactions-store.js';

export type MoneyAction = 'capture' | 'release' | 'refund';

/** An amount as the field takes it: the currency's decimals, the language's decimal sign, no grouping (`48.00`, `48,00`). */
function fieldText(amount: number, exponent: number): string {
  return new Intl.NumberFormat(currentLocale(), {
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
    useGrouping: false,
  }).format(amount);
}

/*
 * The dialog's words are one message per sentence with the action as an ICU select
 * (`{action, select, capture {…} release {…} other {…}}`, refund the last), so each language words
 * every action its own way.
 */

interface MoneyActionDialogProps {
  action: MoneyAction;
  detail: TransactionDetail;
  /** Closed; `done` says what happened (for the page's status line), null when nothing was done. */
  onClose: (done: string | null) => void;
  /** The gateway refused: read the transaction again (something may have changed it meanwhile). */
  onRefused: () => void;
}

export function MoneyActionDialog({ action, detail, onClose, onRefused }: MoneyActionDialogProps) {
  const tx = detail.transaction;
  const t = useT();
  const max =
    action === 'capture' ? detail.amounts.capturable : action === 'release' ? detail.amounts.releasable : detail.amounts.refundable;
  // Partial captures always work; a partial release or refund only where the payment type allows it.
  const wholeOnly = (action === 'release' && !detail.amounts.partial_reversal) || (action === 'refund' && !detail.amounts.partial_refund);
  const exponent = exponentOf(tx.currency);
  const [step, setStep] = useState<'details' | 'confirm'>('details');
  const [amountText, setAmountText] = useState(() => fieldText(max, exponent));
  const [choice, setChoice] = useState('');
  const [otherText, setOtherText] = useState('');
  const [busy, setBusy] = useState(false);
  const [amountProblem, setAmountProblem] = useState<string | null>(null);
  const [reasonProblem, setReasonProblem] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const keyRef = useRef<{ amount: number; reason: string; key: string } | null>(null);
  const typed = parseAmount(amountText, tx.currency);
  const reason = reasonText(choice, otherText);
  const card = detail.card ? cardText(detail.card.brand, detail.card.last_four) : null;
  const hasCard = card ? 'yes' : 'no';

  const review = (event: FormEvent) => {
    event.preventDefault();
    let ok = true;
    if (typed === undefined || typed <= 0) {
      // The example as the field takes it (and as it was filled in).
      setAmountProblem(t('transactions.money.enterAmount', { example: fieldText(max, exponent) }));
      ok = false;
    } else if (toMinorUnits(typed, tx.currency) > toMinorUnits(max, tx.currency)) {
      setAmountProblem(t('transactions.money.atMost', { action, max: formatMoney(max, tx.currency) }));
      ok = false;
    } else if (wholeOnly && toMinorUnits(typed, tx.currency) !== toMinorUnits(max, tx.currency)) {
      setAmountProblem(t('transactions.money.wholeOnly', { max: formatMoney(max, tx.currency) }));
      ok = false;
    } else {
      setAmountProblem(null);
    }
    if (action === 'refund') {
      const wrongReason = reasonProblemOf(choice, reason);
      setReasonProblem(wrongReason);
      if (wrongReason) ok = false;
    }
    if (ok) {
      setProblem(null);
      setStep('confirm');
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || typed === undefined) return;
    const amount = fromMinorUnits(toMinorUnits(typed, tx.currency), tx.currency);
    if (keyRef.current?.amount !== amount || keyRef.current.reason !== reason)
      keyRef.current = { amount, reason, key: crypto.randomUUID() };
    const key = keyRef.current.key;
    setBusy(true);
    setProblem(null);
    try {
      if (action === 'capture') await transactionsClient.capture(tx.transaction_id, amount, key);
      else if (action === 'release') await transactionsClient.release(tx.transaction_id, amount, key);
      else {
        const refund = await transactionsClient.refund(tx.transaction_id, amount, reason, key);
        if (refund.status_code === RefundStatus.error) {
          setProblem(t('transactions.money.networkRefused'));
          setBusy(false);
          return;
        }
      }
      onClose(t('transactions.money.done', { action, amount: formatMoney(amount, tx.currency) }));
    } catch (error) {
      setBusy(false);
      const failed = t('transactions.money.failed', { action });
      if (error instanceof ApiError && error.kind === 'api') {
        setProblem(t('transactions.money.refused', { problem: problemText(error, failed) }));
        onRefused();
      } else {
        // No answer: the same key goes with a retry, so it is not done twice.
        setProblem(t('transactions.money.noAnswer', { problem: problemText(error, failed) }));
      }
    }
  };

  const facts = (
    <>
      <dt>{t('transactions.payment')}</dt>
      <dd>{joined(formatMoney(tx.amount, tx.currency), tx.order_id && t('transactions.detail.order', { order: tx.order_id }))}</dd>
      <dt>{t('common.card')}</dt>
      <dd>{card ?? t('transactions.money.noCard')}</dd>
    </>
  );

  if (step === 'confirm' && typed !== undefined) {
    const money = formatMoney(typed, tx.currency);
    return (
      <Modal title={t('transactions.money.confirmTitle', { action })} onClose={() => onClose(null)} busy={busy} className="modal-narrow">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <dl className="facts refund-facts">
            <dt>{t('transactions.money.verb', { action })}</dt>
            <dd className="refund-confirm-amount">{money}</dd>
            <dt>{t('common.currency')}</dt>
            <dd>{tx.currency}</dd>
            {facts}
            {action === 'refund' && (
              <>
                <dt>{t('transactions.reason')}</dt>
                <dd>{reason}</dd>
              </>
            )}
          </dl>
          <p className="refund-final" role="note">
            <WarningIcon size={22} className="refund-final-icon" />
            {action === 'refund' ? (
              <span>
                <strong>{t('transactions.money.finalRefundTitle')}</strong>{' '}
                {t('transactions.money.finalRefund', { amount: money, hasCard, card: card ?? '' })}
              </span>
            ) : action === 'release' ? (
              <span>
                <strong>{t('transactions.money.finalReleaseTitle')}</strong>{' '}
                {t('transactions.money.finalRelease', { amount: money, hasCard, card: card ?? '' })}
              </span>
            ) : (
              <span>
                <strong>{t('transactions.money.finalCaptureTitle', { amount: money, hasCard, card: card ?? '' })}</strong>{' '}
                {t('transactions.money.finalCapture')}
              </span>
            )}
          </p>
          <p className="form-problem" role="alert">
            {problem ?? ''}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-lg" onClick={() => setStep('details')} disabled={busy} autoFocus>
              {t('common.back')}
            </button>
            <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
              {t(busy ? 'transactions.money.busy' : 'transactions.money.submit', { action, amount: money })}
            </button>
          </div>
        </form>
      </Modal>
    );
  }

  return (
    <Modal title={t('transactions.money.title', { action })} onClose={() => onClose(null)} busy={busy} className="modal-narrow">
      <form onSubmit={review} noValidate>
        <dl className="facts refund-facts">
          {facts}
          {action === 'refund' && detail.amounts.refunded > 0 && (
            <>
              <dt>{t('transactions.money.refundedBefore')}</dt>
              <dd>{formatMoney(detail.amounts.refunded, tx.currency)}</dd>
            </>
          )}
          {action !== 'refund' && detail.amounts.captured > 0 && (
            <>
              <dt>{t('transactions.money.capturedBefore')}</dt>
              <dd>{formatMoney(detail.amounts.captured, tx.currency)}</dd>
            </>
          )}
        </dl>
        <label className="field">
          <span className="field-label">{t('transactions.money.amountLabel', { action, currency: tx.currency })}</span>
          <input
            className="input input-amount"
            inputMode="decimal"
            autoComplete="off"
            data-autofocus
            autoFocus
            readOnly={wholeOnly}
            value={amountText}
            aria-invalid={amountProblem ? true : undefined}
            aria-describedby="money-action-amount-note"
            onChange={(event) => setAmountText(event.target.value)}
          />
          <span id="money-action-amount-note" className={amountProblem ? 'field-error' : 'field-note'}>
            {amountProblem ??
              (wholeOnly
                ? t('transactions.money.whole', { max: formatMoney(max, tx.currency) })
                : t('transactions.money.upTo', { action, max: formatMoney(max, tx.currency) }))}
          </span>
        </label>
        {action === 'refund' && (
          <RefundReasonField
            name="money-action-reason"
            choice={choice}
            otherText={otherText}
            problem={reasonProblem}
            onChoice={(option) => {
              setChoice(option);
              setReasonProblem(null);
            }}
            onOtherText={setOtherText}
          />
        )}
        <div className="modal-actions">
          <button type="button" className="button button-lg" onClick={() => onClose(null)}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary button-lg">
            {typed !== undefined
              ? t('transactions.money.continueWith', { amount: formatMoney(typed, tx.currency) })
              : t('transactions.money.continue')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
