/**
 * Refund of one of today's sales at the till (ux.md 8, 14): pre-filled with what is still
 * refundable, refuses more, asks for a reason, then repeats amount, currency, card and reason and
 * says that refunds are final before the last confirmation, where a cashier brings a manager's login
 * and PIN or password (a cashier may not refund alone, D9): POST /ui/approvals, then POST
 * /rest/refund with the approval token. The reason travels as the refund's merchant_reference and is
 * written into the refund's audit log entry (docs/decisions.md).
 */
import { useRef, useState, type FormEvent } from 'react';
import { ErrorCode, RefundStatus } from '../../../contract/codes.js';
import { exponentOf, fromMinorUnits, toMinorUnits } from '../../../contract/money.js';
import { ApiError, client, type RefundResponse } from '../api/client.js';
import { useSession } from '../session-store.js';
import { formatMoney, parseAmount } from '../till/money.js';
import { BRAND_NAMES } from '../till/reader.js';
import { CheckIcon, WarningIcon } from '../ui/icons.js';
import { ReceiptChoices } from '../receipts/receipt-actions.js';
import { Modal } from '../ui/modal.js';
import { SecretField, type SecretMethod } from '../ui/secret-field.js';
import { reasonProblem as reasonProblemOf, reasonText, RefundReasonField } from './refund-reason.js';
import type { SaleRow } from './sales-store.js';
import { formatTime } from '../ui/format.js';

interface RefundDialogProps {
  row: SaleRow;
  onClose: (refunded: boolean) => void;
}


function approvalProblem(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'api') {
    // A refused approval is a 403 (the cashier's own session is fine); `login` names wrong credentials.
    if (error.status === 401 || (error.status === 403 && error.errors.some((e) => e.field === 'login'))) return "The manager's login, PIN or password is wrong.";
    if (error.status === 403) return 'This account cannot approve refunds: it needs a back-office or admin role in this shop.';
    if (error.status === 429) return `Too many failed attempts. Try again in ${error.retryAfterSeconds ?? 60} seconds.`;
    if (error.status === 400) return "Enter the manager's login and PIN (4 to 8 digits) or password.";
  }
  return error instanceof Error ? error.message : 'The approval failed.';
}

function refundProblem(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'api') {
    if (error.errorCode === ErrorCode.amountLimit) return 'That is more than what is left to refund of this sale.';
    if (error.errorCode === ErrorCode.invalidState) return 'This sale cannot be refunded in its current state.';
    if (error.status === 403) return 'The approval was refused or has expired. Ask the manager again.';
  }
  if (error instanceof ApiError && error.kind === 'network') return 'The gateway did not answer. Ask the manager to approve again, then retry: the refund is not made twice.';
  return error instanceof Error ? error.message : 'The refund failed.';
}

export function RefundDialog({ row, onClose }: RefundDialogProps) {
  const { tx, card, refundable, refunded } = row;
  const cashier = useSession((s) => s.session?.staff.role === 'cashier');
  const [step, setStep] = useState<'details' | 'confirm'>('details');
  const [amountText, setAmountText] = useState(() => refundable.toFixed(exponentOf(tx.currency)));
  const [choice, setChoice] = useState<string>('');
  const [otherText, setOtherText] = useState('');
  const [login, setLogin] = useState('');
  const [method, setMethod] = useState<SecretMethod>('pin');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [amountProblem, setAmountProblem] = useState<string | null>(null);
  const [reasonProblem, setReasonProblem] = useState<string | null>(null);
  const [done, setDone] = useState<RefundResponse | null>(null);
  /** One idempotency key per amount and reason: a retry after a network failure cannot refund twice. */
  const keyRef = useRef<{ amount: number; reason: string; key: string } | null>(null);
  const typed = parseAmount(amountText, tx.currency);
  const cardText = card ? `${BRAND_NAMES[card.brand]} •••• ${card.lastFour}` : 'the card used for the sale';
  const reason = reasonText(choice, otherText);

  /** Step 1: amount and reason; then the final confirmation. */
  const review = (event: FormEvent) => {
    event.preventDefault();
    const amount = parseAmount(amountText, tx.currency);
    let ok = true;
    if (amount === undefined || amount <= 0) {
      setAmountProblem(`Enter an amount such as ${refundable.toFixed(exponentOf(tx.currency))}.`);
      ok = false;
    } else if (toMinorUnits(amount, tx.currency) > toMinorUnits(refundable, tx.currency)) {
      setAmountProblem(`At most ${formatMoney(refundable, tx.currency)} can be refunded.`);
      ok = false;
    } else {
      setAmountProblem(null);
    }
    const wrongReason = reasonProblemOf(choice, reason);
    setReasonProblem(wrongReason);
    if (wrongReason) ok = false;
    if (ok) {
      setProblem(null);
      setStep('confirm');
    }
  };

  /** Step 2: the manager's approval (a cashier) and the refund itself. */
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const amount = parseAmount(amountText, tx.currency);
    if (amount === undefined) {
      setStep('details');
      return;
    }
    if (cashier && (!login.trim() || (method === 'pin' ? !/^\d{4,8}$/.test(secret) : !secret))) {
      setProblem(method === 'pin' ? "Enter the manager's login and PIN (4 to 8 digits)." : "Enter the manager's login and password.");
      return;
    }
    setBusy(true);
    setProblem(null);
    let token: string | undefined;
    try {
      if (cashier) token = (await client.approve('refund', method === 'pin' ? { login: login.trim(), pin: secret } : { login: login.trim(), password: secret })).approval_token;
    } catch (error) {
      setProblem(approvalProblem(error));
      setBusy(false);
      return;
    } finally {
      setSecret('');
    }
    if (keyRef.current?.amount !== amount || keyRef.current.reason !== reason) keyRef.current = { amount, reason, key: crypto.randomUUID() };
    try {
      const response = await client.refund(
        { transaction_id: tx.transaction_id, amount: fromMinorUnits(toMinorUnits(amount, tx.currency), tx.currency), merchant_reference: reason },
        token,
        keyRef.current.key,
      );
      if (response.status_code === RefundStatus.error) setProblem('The card network refused the refund. Nothing was refunded.');
      else setDone(response);
    } catch (error) {
      setProblem(refundProblem(error));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <Modal title="Refund done" onClose={() => onClose(true)} className="modal-narrow">
        <div className="refund-done" role="status">
          <CheckIcon size={64} className="refund-done-icon" />
          <p className="refund-done-title">Refunded {formatMoney(done.amount, done.currency)}</p>
          <p>
            The money goes back to {cardText}. It can take a few days to show on the customer&rsquo;s statement.
          </p>
        </div>
        {/* The refund's receipt, like a sale's: print, e-mail or QR code (or none: Done). */}
        <ReceiptChoices receiptId={done.refund_id} />
        <div className="modal-actions">
          <button type="button" className="button button-primary button-lg" autoFocus onClick={() => onClose(true)}>
            Done
          </button>
        </div>
      </Modal>
    );
  }

  const saleFacts = (
    <>
      <dt>Sale</dt>
      <dd>
        {formatMoney(tx.amount, tx.currency)} at {formatTime(tx.taken_at)}
      </dd>
      <dt>Card</dt>
      <dd>{card ? cardText : 'No card recorded'}</dd>
    </>
  );

  if (step === 'confirm' && typed !== undefined) {
    return (
      <Modal title="Confirm the refund" onClose={() => onClose(false)} busy={busy} className="modal-narrow">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <dl className="facts refund-facts">
            <dt>Refund</dt>
            <dd className="refund-confirm-amount">{formatMoney(typed, tx.currency)}</dd>
            {saleFacts}
            <dt>Reason</dt>
            <dd>{reason}</dd>
          </dl>
          <p className="refund-final" role="note">
            <WarningIcon size={22} className="refund-final-icon" />
            <span>
              <strong>Refunds are final.</strong> Once made, a refund cannot be undone or cancelled: {formatMoney(typed, tx.currency)} goes back to {cardText}.
            </span>
          </p>
          {cashier && (
            <fieldset className="approval">
              <legend>Manager approval</legend>
              <label className="field">
                <span className="field-label">Manager login</span>
                <input
                  className="input"
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  value={login}
                  data-autofocus
                  onChange={(event) => {
                    setLogin(event.target.value);
                    setProblem(null);
                  }}
                />
              </label>
              <SecretField
                method={method}
                secret={secret}
                onMethod={setMethod}
                onSecret={(value) => {
                  setSecret(value);
                  setProblem(null);
                }}
                legend="The manager approves with"
                manager
                passwordAutoComplete="off"
              />
            </fieldset>
          )}
          <p className="form-problem" role="alert">
            {problem ?? ''}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-lg" onClick={() => setStep('details')} disabled={busy} data-autofocus={cashier ? undefined : true}>
              Back
            </button>
            <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
              {busy ? 'Refunding…' : `${cashier ? 'Approve and refund' : 'Refund'} ${formatMoney(typed, tx.currency)}`}
            </button>
          </div>
        </form>
      </Modal>
    );
  }

  return (
    <Modal title="Refund a sale" onClose={() => onClose(false)} busy={busy} className="modal-narrow">
      <form onSubmit={review} noValidate>
        <dl className="facts refund-facts">
          {saleFacts}
          <dt>Order</dt>
          <dd className="receipt-break">{tx.order_id ?? '—'}</dd>
          {refunded > 0 && (
            <>
              <dt>Refunded before</dt>
              <dd>{formatMoney(refunded, tx.currency)}</dd>
            </>
          )}
        </dl>
        <label className="field">
          <span className="field-label">Amount to refund ({tx.currency})</span>
          <input
            className="input input-amount"
            inputMode="decimal"
            autoComplete="off"
            data-autofocus
            value={amountText}
            aria-invalid={amountProblem ? true : undefined}
            aria-describedby="refund-amount-note"
            onChange={(event) => setAmountText(event.target.value)}
          />
          <span id="refund-amount-note" className={amountProblem ? 'field-error' : 'field-note'}>
            {amountProblem ?? `Up to ${formatMoney(refundable, tx.currency)}.`}
          </span>
        </label>
        <RefundReasonField
          name="refund-reason"
          choice={choice}
          otherText={otherText}
          problem={reasonProblem}
          onChoice={(option) => {
            setChoice(option);
            setReasonProblem(null);
          }}
          onOtherText={(text) => {
            setOtherText(text);
            setReasonProblem(null);
          }}
        />
        <div className="modal-actions">
          <button type="button" className="button button-lg" onClick={() => onClose(false)}>
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
