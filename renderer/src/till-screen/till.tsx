/**
 * The till: one screen per state of till-store.ts. Amount to card prompt in two actions (type the
 * amount, Enter); results fill the view with text, icon and colour and are announced (status/alert).
 * An amount above the till's usual limit (GET /ui/terminal `confirm_above`) is confirmed first.
 * Amounts shrink to fit their box on every screen size (ui/fit-text.tsx).
 */
import { useEffect, useState, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { PIN_TRIES } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { fromMinorUnits, maxAmountMinor, toMinorUnits } from '../../../contract/money.js';
import { useSession } from '../session-store.js';
import { FitLine, useFitText } from '../ui/fit-text.js';
import { BackspaceIcon, CardIcon, ClockIcon, ContactlessIcon, CrossIcon, WarningIcon } from '../ui/icons.js';
import { useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import { useAutoFocus, useKeys } from '../ui/use-keys.js';
import { formatMoney, formatNumber, pressAmountKey } from './money.js';
import type * as PinBlock from './pin-block.js';
import { PinPad } from './pin-pad.js';
import { entryText, maskedCard, type ReaderEvent } from './reader.js';
import { Approved } from './approved.js';
import { usePrinter } from '../receipts/receipt-printer-store.js';
import { SimulatedReaderPanel } from './simulated-reader-panel.js';
import { simulatedReader, useTill, wedgeReader, type Decline, type Said } from './till-store.js';

type PinBlockModule = typeof PinBlock;
let pinBlockModule: Promise<PinBlockModule> | undefined;

/** The PIN block code (node-forge, large) loads in its own chunk when the till opens, not with the app. */
function loadPinBlock(): Promise<PinBlockModule> {
  pinBlockModule ??= import('./pin-block.js');
  return pinBlockModule;
}

/** The typed amount is above the till's usual limit (`confirm_above`, in the merchant's currency). */
function aboveUsualLimit(): boolean {
  const { session, terminal } = useSession.getState();
  if (!session || terminal?.confirm_above === undefined) return false;
  return Number(useTill.getState().digits || '0') > toMinorUnits(terminal.confirm_above, session.merchant.currency);
}

export function Till() {
  const phase = useTill((s) => s.phase);
  // Asking "Charge …?" before the card prompt; `card`: a card read while the amount was on screen.
  const [confirming, setConfirming] = useState<{ card?: ReaderEvent } | null>(null);
  useEffect(() => {
    if (phase.name !== 'amount') setConfirming(null);
  }, [phase.name]);

  // A payment whose answer was lost before a reload or restart is settled before the next sale.
  useEffect(() => {
    void useTill.getState().recover();
  }, []);

  useEffect(() => {
    void loadPinBlock().catch(() => {
      pinBlockModule = undefined;
    });
  }, []);

  // The printer is known before the first sale is approved, so Enter's default there (print, or
  // not) is the shop's from the first moment; the approved screen reads it again.
  useEffect(() => {
    void usePrinter.getState().load();
  }, []);
  const armed = phase.name === 'amount' || phase.name === 'waiting';

  // The readers listen while the till can take a card.
  useEffect(() => {
    if (!armed) return undefined;
    const handler = (event: ReaderEvent) => {
      // A card presented with an amount above the usual limit waits for the confirmation.
      if (event.type === 'card' && useTill.getState().phase.name === 'amount' && aboveUsualLimit()) setConfirming({ card: event });
      else useTill.getState().readerEvent(event);
    };
    const stops = [simulatedReader.subscribe(handler), wedgeReader?.subscribe(handler)];
    return () => stops.forEach((stop) => stop?.());
  }, [armed]);

  switch (phase.name) {
    case 'amount':
      return (
        <>
          <AmountEntry onCharge={() => (aboveUsualLimit() ? setConfirming({}) : useTill.getState().charge())} />
          {confirming && <ConfirmCharge card={confirming.card} onClose={() => setConfirming(null)} />}
        </>
      );
    case 'waiting':
      return <WaitingForCard insertOnly={phase.insertOnly} />;
    case 'processing':
      return <Processing since={phase.since} />;
    case 'pin':
      return <PinEntry insertPath={phase.insertPath} />;
    case 'approved':
      return <Approved sale={phase.sale} />;
    case 'declined':
      return <Declined decline={phase.decline} />;
    case 'checking':
      return <Checking message={phase.message} automatic={phase.automatic} resolving={phase.mode === 'resolve'} />;
    case 'failed':
      return <Failed title={phase.title} message={phase.message} />;
  }
}

function useSaleAmount(): string {
  const sale = useTill((s) => s.sale);
  return sale ? formatMoney(fromMinorUnits(sale.amountMinor, sale.currency), sale.currency) : '';
}

const keepFocus = (event: MouseEvent) => event.preventDefault();

/** A key legend inside a message: `<kbd>Enter</kbd>`. */
const kbd = (chunks: ReactNode[]) => <kbd>{chunks}</kbd>;

const AMOUNT_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0'] as const;

function AmountEntry({ onCharge }: { onCharge: () => void }) {
  const digits = useTill((s) => s.digits);
  const reference = useTill((s) => s.reference);
  const notice = useTill((s) => s.notice);
  const { setReference } = useTill.getState();
  const currency = useSession((s) => s.session?.merchant.currency ?? 'EUR');
  const amount = fromMinorUnits(Number(digits || '0'), currency);
  const chargeRef = useAutoFocus<HTMLButtonElement>();
  const amountRef = useFitText<HTMLOutputElement>(formatNumber(amount, currency));
  const unresolved = useTill((s) => s.unresolved !== null);
  const empty = amount <= 0;
  const t = useT();

  // Digits beyond the gateway's largest amount in this currency are not taken.
  const keypad = (key: string) => {
    const { digits: typed, amountKept, keypad: press } = useTill.getState();
    if (/^\d+$/.test(key) && !amountKept && Number(pressAmountKey(typed, key) || '0') > maxAmountMinor(currency)) return;
    press(key);
  };

  useKeys((event) => {
    if (/^[0-9]$/.test(event.key)) keypad(event.key);
    else if (event.key === 'Backspace') keypad('back');
    else if (event.key === 'Delete' || event.key === 'Escape') keypad('clear');
    else if (event.key === 'Enter') onCharge();
    else return false;
    return true;
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onCharge();
  };

  return (
    <div className="till-grid">
      <form className="panel sale-panel" onSubmit={submit} aria-labelledby="sale-title">
        <h2 id="sale-title" className="panel-title">
          {t('till.sale.title')}
        </h2>
        <div className="amount-display">
          <span className="amount-label" id="amount-label">
            {t('common.amount')}
          </span>
          <output
            ref={amountRef}
            className={empty ? 'amount-value amount-empty' : 'amount-value'}
            aria-labelledby="amount-label"
            aria-live="polite"
          >
            {formatNumber(amount, currency)}
          </output>
          <span className="amount-currency" title={t('till.sale.currency')}>
            {currency}
          </span>
        </div>
        <label className="field">
          <span className="field-label">
            {t('till.sale.reference')} <span className="field-optional">{t('till.sale.optional')}</span>
          </span>
          <input
            className="input"
            value={reference}
            maxLength={35}
            autoComplete="off"
            spellCheck={false}
            placeholder={t('till.sale.referenceExample')}
            onChange={(event) => setReference(event.target.value)}
          />
        </label>
        <button ref={chargeRef} type="submit" className="button button-primary button-xl charge-button" aria-disabled={empty}>
          {empty
            ? t('till.sale.charge')
            : t(unresolved ? 'till.sale.checkThenCharge' : 'till.sale.chargeAmount', { amount: formatMoney(amount, currency) })}
        </button>
        <p className={notice ? 'till-notice' : 'till-hint'} role="status">
          {notice ? t(notice.id, notice.values) : <FormattedMessage id={'till.sale.hint' satisfies MessageId} values={{ kbd }} />}
        </p>
      </form>
      <div className="panel keypad-panel">
        <div className="keypad" role="group" aria-label={t('till.keypad.label')}>
          {AMOUNT_KEYS.map((key) => (
            <button key={key} type="button" className="key" onMouseDown={keepFocus} onClick={() => keypad(key)}>
              {key}
            </button>
          ))}
          <button
            type="button"
            className="key key-back"
            aria-label={t('till.keypad.back')}
            onMouseDown={keepFocus}
            onClick={() => keypad('back')}
          >
            <BackspaceIcon size={30} />
          </button>
        </div>
        <button
          type="button"
          className="button button-quiet keypad-clear"
          onMouseDown={keepFocus}
          onClick={() => keypad('clear')}
          disabled={empty}
        >
          {t('till.keypad.clear')}
        </button>
      </div>
    </div>
  );
}

/** "Charge 1,500.00 EUR? That is above this till's usual limit of 1,000.00 EUR": Enter charges, Esc goes back. */
function ConfirmCharge({ card, onClose }: { card: ReaderEvent | undefined; onClose: () => void }) {
  const digits = useTill((s) => s.digits);
  const currency = useSession((s) => s.session?.merchant.currency ?? 'EUR');
  const limit = useSession((s) => s.terminal?.confirm_above ?? 0);
  const amountText = formatMoney(fromMinorUnits(Number(digits || '0'), currency), currency);
  const t = useT();
  const confirm = () => {
    onClose();
    useTill.getState().charge();
    // The card read while the amount was on screen is this sale's card: no need to present it again.
    if (card && useTill.getState().phase.name === 'waiting') useTill.getState().readerEvent(card);
  };
  return (
    <Modal title={t('till.confirm.title', { amount: amountText })} onClose={onClose} className="modal-narrow confirm-charge">
      <p className="confirm-charge-text">{t('till.confirm.text', { limit: formatMoney(limit, currency) })}</p>
      <div className="modal-actions">
        <button type="button" className="button button-lg" onClick={onClose}>
          {t('till.confirm.back')} <kbd>{t('till.key.esc')}</kbd>
        </button>
        <button type="button" className="button button-primary button-lg" data-autofocus onClick={confirm}>
          {t('till.sale.chargeAmount', { amount: amountText })} <kbd>{t('till.key.enter')}</kbd>
        </button>
      </div>
    </Modal>
  );
}

function WaitingForCard({ insertOnly }: { insertOnly: boolean }) {
  const amountText = useSaleAmount();
  const readerMessage = useTill((s) => s.readerMessage);
  const cancel = useTill.getState().cancelWaiting;
  const headingRef = useAutoFocus<HTMLHeadingElement>();
  const t = useT();

  useKeys((event) => {
    if (event.key !== 'Escape') return false;
    cancel();
    return true;
  });

  return (
    <div className="till-grid">
      <section className="panel prompt-panel" aria-labelledby="prompt-title">
        <div className="prompt-icon" aria-hidden="true">
          {insertOnly ? <CardIcon size={64} /> : <ContactlessIcon size={64} />}
        </div>
        <FitLine className="prompt-amount" text={amountText} />
        <h2 id="prompt-title" ref={headingRef} tabIndex={-1} className="prompt-title">
          {t(insertOnly ? 'till.card.insertTitle' : 'till.card.title')}
        </h2>
        <p className="prompt-sub">{t(insertOnly ? 'till.card.insertText' : 'till.card.waiting')}</p>
        <p className={readerMessage ? 'reader-message reader-message-shown' : 'reader-message'} role="status">
          {readerMessage ? t(readerMessage.id, readerMessage.values) : ''}
        </p>
        <button type="button" className="button button-lg prompt-cancel" onClick={cancel}>
          {t('common.cancel')} <kbd>{t('till.key.esc')}</kbd>
        </button>
      </section>
      <SimulatedReaderPanel />
    </div>
  );
}

function Processing({ since }: { since: number }) {
  const amountText = useSaleAmount();
  const [elapsed, setElapsed] = useState(() => Date.now() - since);
  const headingRef = useAutoFocus<HTMLDivElement>();
  const t = useT();
  useEffect(() => {
    const timer = window.setInterval(() => setElapsed(Date.now() - since), 250);
    return () => window.clearInterval(timer);
  }, [since]);
  const slow = elapsed >= 10_000;
  const visible = elapsed >= 1_000;
  return (
    <section className="result result-busy" aria-busy="true" aria-labelledby="processing-title" ref={headingRef} tabIndex={-1}>
      <div className={visible ? 'spinner' : 'spinner spinner-hidden'} aria-hidden="true" />
      <div role="status" className="result-status">
        <h2 id="processing-title" className="result-title">
          {t(visible ? 'till.processing.bank' : 'till.processing.title')}
        </h2>
        <FitLine className="result-amount" text={amountText} />
        {visible && (
          <div className="progress" aria-hidden="true">
            <span className="progress-bar" />
          </div>
        )}
        <p className="result-reason">{slow ? t('till.processing.slow') : visible ? t('till.processing.keepCard') : ''}</p>
      </div>
    </section>
  );
}

function PinEntry({ insertPath }: { insertPath: boolean }) {
  const sale = useTill((s) => s.sale);
  const terminal = useSession((s) => s.terminal);
  const { submitPinBlock, cancelPin } = useTill.getState();
  const amountText = useSaleAmount();
  const t = useT();
  const [pinBlock, setPinBlock] = useState<PinBlockModule | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void loadPinBlock().then((module) => {
      if (live) setPinBlock(module);
    });
    return () => {
      live = false;
    };
  }, []);
  if (!sale?.card || !terminal) return null;
  const card = sale.card;
  const encrypt = pinBlock ? (pin: string) => pinBlock.encryptPinBlock(pin, card.pan, terminal.pin_key.key_hex) : undefined;
  return (
    <PinPad
      title={t(insertPath ? 'till.pin.insertedTitle' : 'till.pin.title')}
      amountText={amountText}
      cardText={t('till.card.line', { card: maskedCard(t, card.brand, card.lastFour), entry: entryText(t, card.entry) })}
      triesLeft={Math.max(0, PIN_TRIES - sale.wrongPins)}
      encrypt={encrypt}
      onSubmit={submitPinBlock}
      onCancel={cancelPin}
    />
  );
}

function Declined({ decline }: { decline: Decline }) {
  const amountText = useSaleAmount();
  const { retryPin, anotherCard, insertCard, otherPayment, tryAgain } = useTill.getState();
  const primaryRef = useAutoFocus<HTMLButtonElement>();
  const t = useT();
  const primary = decline.retryPin
    ? { label: t('till.decline.retryPin'), action: retryPin }
    : decline.insertCard
      ? { label: t('till.decline.insertCard'), action: insertCard }
      : decline.tryAgain
        ? { label: t('common.retry'), action: tryAgain }
        : { label: t('till.decline.anotherCard'), action: anotherCard };
  useKeys((event) => {
    if (event.key === 'Enter') primary.action();
    else if (event.key === 'Escape') otherPayment();
    else return false;
    return true;
  });
  return (
    <section className="result result-bad" role="alert" aria-labelledby="declined-title">
      <CrossIcon size={88} className="result-icon" />
      <h2 id="declined-title" className="result-title">
        {t(decline.title.id, decline.title.values)}
      </h2>
      <FitLine className="result-amount" text={amountText} />
      <p className="result-reason">{t(decline.text.id, decline.text.values)}</p>
      <div className="result-actions">
        <button ref={primaryRef} type="button" className="button button-primary button-lg" onClick={primary.action}>
          {primary.label} <kbd>{t('till.key.enter')}</kbd>
        </button>
        {(decline.retryPin || decline.insertCard || decline.tryAgain) && (
          <button type="button" className="button button-lg" onClick={anotherCard}>
            {t('till.decline.anotherCard')}
          </button>
        )}
        <button type="button" className="button button-lg" onClick={otherPayment}>
          {t('till.decline.otherPayment')} <kbd>{t('till.key.esc')}</kbd>
        </button>
      </div>
      <p className="result-code">
        {decline.code === 'error' ? t('till.decline.codeError') : t('till.decline.code', { code: decline.code })}
      </p>
    </section>
  );
}

function Checking({ message, automatic, resolving }: { message: Said; automatic: boolean; resolving: boolean }) {
  const saleAmount = useSaleAmount();
  const unresolved = useTill((s) => s.unresolved);
  const amountText =
    saleAmount || (unresolved ? formatMoney(fromMinorUnits(unresolved.amountMinor, unresolved.currency), unresolved.currency) : '');
  const { checkAgain, stopChecking } = useTill.getState();
  const ref = useAutoFocus<HTMLElement>();
  const t = useT();
  return (
    <section className="result result-wait" aria-labelledby="checking-title" ref={ref} tabIndex={-1}>
      {automatic ? <div className="spinner" aria-hidden="true" /> : <ClockIcon size={88} className="result-icon" />}
      <h2 id="checking-title" className="result-title">
        {t(resolving ? 'till.checking.lastTitle' : 'till.checking.title')}
      </h2>
      <FitLine className="result-amount" text={amountText} />
      <p className="result-reason" role="status">
        {t(message.id, message.values)}
      </p>
      <div className="result-actions">
        <button type="button" className="button button-primary button-lg" onClick={checkAgain}>
          {t('till.checking.again')}
        </button>
        <button type="button" className="button button-lg" onClick={stopChecking}>
          {t('till.checking.stop')}
        </button>
      </div>
    </section>
  );
}

function Failed({ title, message }: { title: Said; message: Said }) {
  const amountText = useSaleAmount();
  const { tryAgain, otherPayment, nextAmount } = useTill.getState();
  const primaryRef = useAutoFocus<HTMLButtonElement>();
  const t = useT();
  useKeys((event) => {
    if (event.key === 'Escape') otherPayment();
    // The cashier types the next amount: the refusal goes with it.
    else if (/^[0-9]$/.test(event.key)) nextAmount(event.key);
    else return false;
    return true;
  });
  return (
    <section className="result result-wait" role="alert" aria-labelledby="failed-title">
      <WarningIcon size={88} className="result-icon" />
      <h2 id="failed-title" className="result-title">
        {t(title.id, title.values)}
      </h2>
      <FitLine className="result-amount" text={amountText} />
      <p className="result-reason">{t(message.id, message.values)}</p>
      <div className="result-actions">
        <button ref={primaryRef} type="button" className="button button-primary button-lg" onClick={tryAgain}>
          {t('common.retry')}
        </button>
        <button type="button" className="button button-lg" onClick={otherPayment}>
          {t('till.failed.cancelSale')} <kbd>{t('till.key.esc')}</kbd>
        </button>
      </div>
    </section>
  );
}
