/**
 * Refund of one of today's sales at the till: pre-filled with what is still refundable, refuses
 * more, asks for a reason, then repeats amount, currency, card and reason and says that refunds are
 * final before the last confirmation, where a cashier brings a manager's login and PIN or password
 * (a cashier may not refund alone, D9): POST /ui/approvals, then POST /rest/refund with the
 * approval token. The reason travels as the refund's merchant_reference and is written into the
 * refund's audit log entry (docs/decisions.md).
 */
import { useRef, useState, type FormEvent } from 'react';
import { ErrorCode, RefundStatus } from '../../../contract/codes.js';
import { exponentOf, fromMinorUnits, toMinorUnits } from '../../../contract/money.js';
import { ApiError } from '../api/transport.js';
import { staffClient } from '../staff/staff-client.js';
import { transactionsClient, type RefundResponse } from '../transactions/transactions-client.js';
import { useSession } from '../session-store.js';
import { formatMoney, parseAmount } from '../till-screen/money.js';
import { CheckIcon, WarningIcon } from '../ui/icons.js';
import { ReceiptChoices } from '../receipts/receipt-actions.js';
import { Modal } from '../ui/modal.js';
import { SecretField, type SecretMethod } from '../ui/secret-field.js';
import { reasonLabel, reasonProblem as reasonProblemOf, reasonText, RefundReasonField } from './refund-reason.js';
import { brandName, maskedCard, NO_VALUE, type SaleRow } from './sales-store.js';
import { formatTime } from '../ui/format.js';
import { currentLocale, translate, useT } from '../ui/i18n.js';

interface RefundDialogProps {
  row: SaleRow;
  onClose: (refunded: boolean) => void;
}

function approvalProblem(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'api') {
    // A refused approval is a 403 (the cashier's own session is fine); `login` names wrong credentials.
    if (error.status === 401 || (error.status === 403 && error.errors.some((e) => e.field === 'login')))
      return translate('sales.approval.wrong');
    if (error.status === 403) return translate('sales.refund.notManager');
    if (error.status === 429) return translate('sales.approval.tooMany', { seconds: error.retryAfterSeconds ?? 60 });
    if (error.status === 400) return translate('sales.approval.invalid');
  }
  return error instanceof Error ? error.message : translate('sales.refund.approvalFailed');
}

function refundProblem(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'api') {
    if (error.errorCode === ErrorCode.amountLimit) return translate('sales.refund.tooMuch');
    if (error.errorCode === ErrorCode.invalidState) return translate('sales.refund.invalidState');
    if (error.status === 403) return translate('sales.approval.refused');
  }
  if (error instanceof ApiError && error.kind === 'network') return translate('sales.refund.noAnswer');
  return error instanceof Error ? error.message : translate('sales.refund.failed');
}

/** An amount as typed into the amount field: the currency's decimals, with the screens' language's decimal sign (12.50, 12,50). */
function typedAmount(amount: number, currency: string): string {
  const decimal = new Intl.NumberFormat(currentLocale()).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  return amount.toFixed(exponentOf(currency)).replace('.', decimal);
}

export function RefundDialog({ row, onClose }: RefundDialogProps) {
  const t = useT();
  const { tx, card, refundable, refunded } = row;
  const cashier = useSession((s) => s.session?.staff.role === 'cashier');
  const [step, setStep] = useState<'details' | 'confirm'>('details');
  const [amountText, setAmountText] = useState(() => typedAmount(refundable, tx.currency));
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
  /** The card in a sentence; `none` picks the sentence that names no card. */
  const cardText = card ? maskedCard(card.lastFour, brandName(card.brand, t)) : 'none';
  const reason = reasonText(choice, otherText);

  /** Step 1: amount and reason; then the final confirmation. */
  const review = (event: FormEvent) => {
    event.preventDefault();
    const amount = parseAmount(amountText, tx.currency);
    let ok = true;
    if (amount === undefined || amount <= 0) {
      setAmountProblem(t('sales.refund.enterAmount', { example: typedAmount(refundable, tx.currency) }));
      ok = false;
    } else if (toMinorUnits(amount, tx.currency) > toMinorUnits(refundable, tx.currency)) {
      setAmountProblem(t('sales.refund.atMost', { amount: formatMoney(refundable, tx.currency) }));
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
      setProblem(t('sales.approval.missing', { method }));
      return;
    }
    setBusy(true);
    setProblem(null);
    let token: string | undefined;
    try {
      if (cashier)
        token = (
          await staffClient.approve(
            'refund',
            method === 'pin' ? { login: login.trim(), pin: secret } : { login: login.trim(), password: secret },
          )
        ).approval_token;
    } catch (error) {
      setProblem(approvalProblem(error));
      setBusy(false);
      return;
    } finally {
      setSecret('');
    }
    if (keyRef.current?.amount !== amount || keyRef.current.reason !== reason)
      keyRef.current = { amount, reason, key: crypto.randomUUID() };
    try {
      const response = await transactionsClient.refund(
        tx.transaction_id,
        fromMinorUnits(toMinorUnits(amount, tx.currency), tx.currency),
        reason,
        keyRef.current.key,
        token,
      );
      if (response.status_code === RefundStatus.error) setProblem(t('sales.refund.networkRefused'));
      else setDone(response);
    } catch (error) {
      setProblem(refundProblem(error));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <Modal title={t('sales.refund.doneTitle')} onClose={() => onClose(true)} className="modal-narrow">
        <div className="refund-done" role="status">
          <CheckIcon size={64} className="refund-done-icon" />
          <p className="refund-done-title">{t('sales.refund.refunded', { amount: formatMoney(done.amount, done.currency) })}</p>
          <p>{t('sales.refund.goesBack', { card: cardText })}</p>
        </div>
        {/* The refund's receipt, like a sale's: print, e-mail or QR code (or none: Done). */}
        <ReceiptChoices receiptId={done.refund_id} />
        <div className="modal-actions">
          <button type="button" className="button button-primary button-lg" autoFocus onClick={() => onClose(true)}>
            {t('sales.refund.done')}
          </button>
        </div>
      </Modal>
    );
  }

  const saleFacts = (
    <>
      <dt>{t('sales.refund.sale')}</dt>
      <dd>{t('sales.refund.saleAt', { amount: formatMoney(tx.amount, tx.currency), time: formatTime(tx.taken_at) })}</dd>
      <dt>{t('common.card')}</dt>
      <dd>{card ? cardText : t('sales.refund.noCardRecorded')}</dd>
    </>
  );

  if (step === 'confirm' && typed !== undefined) {
    return (
      <Modal title={t('sales.refund.confirmTitle')} onClose={() => onClose(false)} busy={busy} className="modal-narrow">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <dl className="facts refund-facts">
            <dt>{t('sales.refund.amount')}</dt>
            <dd className="refund-confirm-amount">{formatMoney(typed, tx.currency)}</dd>
            {saleFacts}
            <dt>{t('sales.reason')}</dt>
            <dd>{reasonLabel(choice, otherText)}</dd>
          </dl>
          <p className="refund-final" role="note">
            <WarningIcon size={22} className="refund-final-icon" />
            <span>
              <strong>{t('sales.refund.final')}</strong>{' '}
              {t('sales.refund.finalNote', { amount: formatMoney(typed, tx.currency), card: cardText })}
            </span>
          </p>
          {cashier && (
            <fieldset className="approval">
              <legend>{t('sales.approval.legend')}</legend>
              <label className="field">
                <span className="field-label">{t('sales.approval.login')}</span>
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
                legend={t('sales.approval.with')}
                manager
                passwordAutoComplete="off"
              />
            </fieldset>
          )}
          <p className="form-problem" role="alert">
            {problem ?? ''}
          </p>
          <div className="modal-actions">
            <button
              type="button"
              className="button button-lg"
              onClick={() => setStep('details')}
              disabled={busy}
              data-autofocus={cashier ? undefined : true}
            >
              {t('common.back')}
            </button>
            <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
              {busy
                ? t('sales.refund.busy')
                : t('sales.refund.submit', { approve: cashier ? 'yes' : 'no', amount: formatMoney(typed, tx.currency) })}
            </button>
          </div>
        </form>
      </Modal>
    );
  }

  return (
    <Modal title={t('sales.refund.title')} onClose={() => onClose(false)} busy={busy} className="modal-narrow">
      <form onSubmit={review} noValidate>
        <dl className="facts refund-facts">
          {saleFacts}
          <dt>{t('sales.refund.order')}</dt>
          <dd className="receipt-break">{tx.order_id ?? NO_VALUE}</dd>
          {refunded > 0 && (
            <>
              <dt>{t('sales.refund.refundedBefore')}</dt>
              <dd>{formatMoney(refunded, tx.currency)}</dd>
            </>
          )}
        </dl>
        <label className="field">
          <span className="field-label">{t('sales.refund.amountIn', { currency: tx.currency })}</span>
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
            {amountProblem ?? t('sales.refund.upTo', { amount: formatMoney(refundable, tx.currency) })}
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
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary button-lg">
            {typed !== undefined ? t('sales.refund.continueWith', { amount: formatMoney(typed, tx.currency) }) : t('sales.refund.continue')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
