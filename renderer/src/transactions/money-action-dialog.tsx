/**
 * Capture, release (reverse) and refund from a transaction's detail (ux.md 8, 14): the dialog
 * pre-fills what is still capturable, releasable or refundable, refuses more (and part of it where
 * the payment type takes only the whole), asks a reason for a refund, then repeats amount, currency
 * and card before the final confirmation; a refusal shows the gateway's own message. The gateway
 * writes each action to the audit log under the logged-in staff member's name; a refund's reason
 * travels as its merchant_reference (as at the till) and is kept in the audit entry too. One
 * idempotency key per amount and reason: a retry after a lost answer does not act twice.
 */
import { useRef, useState, type FormEvent } from 'react';
import { RefundStatus } from '../../../contract/codes.js';
import { exponentOf, fromMinorUnits, toMinorUnits } from '../../../contract/money.js';
import { ApiError } from '../api/client.js';
import { reasonProblem as reasonProblemOf, reasonText, RefundReasonField } from '../sales/refund-reason.js';
import { formatMoney, parseAmount } from '../till/money.js';
import { WarningIcon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { cardText } from './transaction-format.js';
import { transactionsClient, type TransactionDetail } from './transactions-client.js';
import { problemText } from './transactions-store.js';

export type MoneyAction = 'capture' | 'release' | 'refund';

const WORDS: Record<MoneyAction, { title: string; confirmTitle: string; amountLabel: string; verb: string; upTo: string; done: string }> = {
  capture: { title: 'Capture payment', confirmTitle: 'Confirm the capture', amountLabel: 'Amount to capture', verb: 'Capture', upTo: 'still authorized', done: 'Captured' },
  release: { title: 'Release authorization', confirmTitle: 'Confirm the release', amountLabel: 'Amount to release', verb: 'Release', upTo: 'not captured', done: 'Released' },
  refund: { title: 'Refund payment', confirmTitle: 'Confirm the refund', amountLabel: 'Amount to refund', verb: 'Refund', upTo: 'refundable', done: 'Refunded' },
};

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
  const words = WORDS[action];
  const max = action === 'capture' ? detail.amounts.capturable : action === 'release' ? detail.amounts.releasable : detail.amounts.refundable;
  // Partial captures always work; a partial release or refund only where the payment type allows it.
  const wholeOnly = (action === 'release' && !detail.amounts.partial_reversal) || (action === 'refund' && !detail.amounts.partial_refund);
  const exponent = exponentOf(tx.currency);
  const [step, setStep] = useState<'details' | 'confirm'>('details');
  const [amountText, setAmountText] = useState(() => max.toFixed(exponent));
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
  const to = card ?? (action === 'refund' ? 'the account the payment came from' : 'the payment');

  const review = (event: FormEvent) => {
    event.preventDefault();
    let ok = true;
    if (typed === undefined || typed <= 0) {
      setAmountProblem(`Enter an amount such as ${max.toFixed(exponent)}.`);
      ok = false;
    } else if (toMinorUnits(typed, tx.currency) > toMinorUnits(max, tx.currency)) {
      setAmountProblem(`At most ${formatMoney(max, tx.currency)} is ${words.upTo}.`);
      ok = false;
    } else if (wholeOnly && toMinorUnits(typed, tx.currency) !== toMinorUnits(max, tx.currency)) {
      setAmountProblem(`This payment type takes only the whole ${formatMoney(max, tx.currency)}.`);
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
    if (keyRef.current?.amount !== amount || keyRef.current.reason !== reason) keyRef.current = { amount, reason, key: crypto.randomUUID() };
    const key = keyRef.current.key;
    setBusy(true);
    setProblem(null);
    try {
      if (action === 'capture') await transactionsClient.capture(tx.transaction_id, amount, key);
      else if (action === 'release') await transactionsClient.release(tx.transaction_id, amount, key);
      else {
        const refund = await transactionsClient.refund(tx.transaction_id, amount, reason, key);
        if (refund.status_code === RefundStatus.error) {
          setProblem('The card network refused the refund. Nothing was refunded.');
          setBusy(false);
          return;
        }
      }
      onClose(`${words.done} ${formatMoney(amount, tx.currency)}.`);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.kind === 'api') {
        setProblem(`The gateway refused: ${problemText(error, `The ${action} failed.`)}`);
        onRefused();
      } else {
        // No answer: the same key goes with a retry, so it is not done twice.
        setProblem(`${problemText(error, `The ${action} failed.`)} Try again: it will not be done twice.`);
      }
    }
  };

  const facts = (
    <>
      <dt>Payment</dt>
      <dd>
        {formatMoney(tx.amount, tx.currency)}
        {tx.order_id ? ` · order ${tx.order_id}` : ''}
      </dd>
      <dt>Card</dt>
      <dd>{card ?? 'No card'}</dd>
    </>
  );

  if (step === 'confirm' && typed !== undefined) {
    const money = formatMoney(typed, tx.currency);
    return (
      <Modal title={words.confirmTitle} onClose={() => onClose(null)} busy={busy} className="modal-narrow">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <dl className="facts refund-facts">
            <dt>{words.verb}</dt>
            <dd className="refund-confirm-amount">{money}</dd>
            <dt>Currency</dt>
            <dd>{tx.currency}</dd>
            {facts}
            {action === 'refund' && (
              <>
                <dt>Reason</dt>
                <dd>{reason}</dd>
              </>
            )}
          </dl>
          <p className="refund-final" role="note">
            <WarningIcon size={22} className="refund-final-icon" />
            {action === 'refund' ? (
              <span>
                <strong>Refunds are final.</strong> Once made, a refund cannot be undone or cancelled: {money} goes back to {to}.
              </span>
            ) : action === 'release' ? (
              <span>
                <strong>Released money cannot be captured any more.</strong> {money} of the reservation on {to} is given back to the customer.
              </span>
            ) : (
              <span>
                <strong>The customer is charged {money}</strong> on {to}. What stays authorized can be captured or released later.
              </span>
            )}
          </p>
          <p className="form-problem" role="alert">
            {problem ?? ''}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-lg" onClick={() => setStep('details')} disabled={busy} autoFocus>
              Back
            </button>
            <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
              {busy ? `${words.verb === 'Capture' ? 'Capturing' : words.verb === 'Release' ? 'Releasing' : 'Refunding'}…` : `${words.verb} ${money}`}
            </button>
          </div>
        </form>
      </Modal>
    );
  }

  return (
    <Modal title={words.title} onClose={() => onClose(null)} busy={busy} className="modal-narrow">
      <form onSubmit={review} noValidate>
        <dl className="facts refund-facts">
          {facts}
          {action === 'refund' && detail.amounts.refunded > 0 && (
            <>
              <dt>Refunded before</dt>
              <dd>{formatMoney(detail.amounts.refunded, tx.currency)}</dd>
            </>
          )}
          {action !== 'refund' && detail.amounts.captured > 0 && (
            <>
              <dt>Captured before</dt>
              <dd>{formatMoney(detail.amounts.captured, tx.currency)}</dd>
            </>
          )}
        </dl>
        <label className="field">
          <span className="field-label">
            {words.amountLabel} ({tx.currency})
          </span>
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
            {amountProblem ?? (wholeOnly ? `The whole ${formatMoney(max, tx.currency)}: this payment type takes no part of it.` : `Up to ${formatMoney(max, tx.currency)} (${words.upTo}).`)}
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
            Cancel
          </button>
          <button type="submit" className="button button-primary button-lg">
            {`Continue${typed !== undefined ? ` with ${formatMoney(typed, tx.currency)}` : ''}`}
          </button>
        </div>
      </form>
    </Modal>
  );
}
