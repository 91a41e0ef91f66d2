/**
 * What a customer can get after a sale or a refund: a printed receipt, an e-mail, a QR code that
 * opens the receipt page, or none. Everything goes through the gateway, which rebuilds the receipt
 * from its record (decisions.md D16): Print uses the shop's receipt printer when one is set up
 * (else the OS print dialog), E-mail queues it in the merchant's language or the one chosen, QR
 * shows the customer's link. The till's result screen, today's sales and the refund dialog share
 * these pieces.
 */
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { RECEIPT_LANGUAGES } from '../../../contract/constants.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { LANGUAGE_NAMES } from '../../../contract/i18n/languages.js';
import { isEmailAddress } from '../../../contract/text-rules.js';
import { ApiError } from '../api/transport.js';
import { receiptsClient, type Receipt, type ReceiptLanguage, type ReceiptLink } from './receipts-client.js';
import { ReceiptView } from '../till-screen/receipt.js';
import { translate, useT } from '../ui/i18n.js';
import { PrinterIcon } from '../ui/icons.js';
import { LocalLinkWarning } from '../ui/local-link-warning.js';
import { Modal } from '../ui/modal.js';
import { printerName, usePrinter } from './receipt-printer-store.js';

/** The keys of the receipt choices on the till's result screen (keyboard letters, the same in every language). */
export const RECEIPT_KEYS = { print: 'P', email: 'E', qr: 'Q', none: 'N' } as const;

/** What did not happen, said in the problem's sentence. */
type Failure = 'load' | 'print' | 'email' | 'qr';

function problemOf(t: Translate, error: unknown, what: Failure): string {
  if (error instanceof ApiError && error.kind === 'network') return t('receipts.problem.network', { what });
  if (error instanceof ApiError && error.kind === 'api' && error.status === 403) return error.message;
  return error instanceof Error ? t('receipts.problem.reason', { what, reason: error.message }) : t('receipts.problem', { what });
}

// ---- the receipt from the gateway ------------------------------------------------------------------

/** Loads a receipt from the gateway (never from the window's memory). */
export function useGatewayReceipt(receiptId: string): { receipt: Receipt | null; problem: string | null; retry: () => void } {
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setProblem(null);
    receiptsClient.get(receiptId).then(
      (loaded) => {
        if (live) setReceipt(loaded);
      },
      (error: unknown) => {
        if (live) setProblem(problemOf(translate, error, 'load'));
      },
    );
    return () => {
      live = false;
    };
  }, [receiptId, attempt]);
  return { receipt, problem, retry: () => setAttempt((n) => n + 1) };
}

/** The receipt paper, once the gateway answered. */
export function GatewayReceipt({ receipt, problem, retry }: ReturnType<typeof useGatewayReceipt>) {
  const t = useT();
  if (receipt) return <ReceiptView receipt={receipt} />;
  if (problem) {
    return (
      <div className="receipt-loading" role="alert">
        <p>{problem}</p>
        <button type="button" className="button" onClick={retry}>
          {t('receipts.loadAgain')}
        </button>
      </div>
    );
  }
  return <p className="receipt-loading">{t('receipts.loading')}</p>;
}

// ---- print, e-mail, QR ----------------------------------------------------------------------------------

export type ReceiptGiven = 'printed' | 'emailed' | 'qr';

export interface ReceiptDelivery {
  /** Prints on the receipt printer (or opens the OS print dialog); true when it printed. */
  print: () => Promise<boolean>;
  openEmail: () => void;
  openQr: () => void;
  busy: boolean;
  /** What happened last, in words, and whether it went wrong. */
  message: { text: string; problem: boolean } | null;
  /** What the customer got so far. */
  given: ReceiptGiven | null;
  /** The dialogs (e-mail, QR); render them next to the buttons. */
  dialogs: ReactNode;
}

export function useReceiptDelivery(receiptId: string, language: ReceiptLanguage | undefined): ReceiptDelivery {
  const setting = usePrinter((s) => s.setting);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<ReceiptDelivery['message']>(null);
  const [given, setGiven] = useState<ReceiptGiven | null>(null);
  const [dialog, setDialog] = useState<'email' | 'qr' | null>(null);
  const t = useT();

  const print = useCallback(async () => {
    if (!printerName(setting)) {
      // No receipt printer at this shop: the OS print dialog prints the receipt shown.
      window.print();
      setGiven('printed');
      return true;
    }
    setBusy(true);
    setMessage(null);
    try {
      const result = await receiptsClient.print(receiptId);
      setMessage({
        text: result.printed ? t('receipts.printed', { printer: result.printer }) : t('receipts.notPrinted', { reason: result.message }),
        problem: !result.printed,
      });
      if (result.printed) setGiven('printed');
      return result.printed;
    } catch (error) {
      setMessage({ text: problemOf(t, error, 'print'), problem: true });
      return false;
    } finally {
      setBusy(false);
    }
  }, [receiptId, setting, t]);

  const dialogs =
    dialog === 'email' ? (
      <EmailDialog
        receiptId={receiptId}
        language={language}
        onClose={(sentTo) => {
          setDialog(null);
          if (sentTo) {
            setGiven('emailed');
            setMessage({ text: t('receipts.emailed', { email: sentTo }), problem: false });
          }
        }}
      />
    ) : dialog === 'qr' ? (
      <QrDialog
        receiptId={receiptId}
        onClose={(shown) => {
          setDialog(null);
          if (shown) {
            setGiven('qr');
            setMessage({ text: t('receipts.qrGiven'), problem: false });
          }
        }}
      />
    ) : null;

  return { print, openEmail: () => setDialog('email'), openQr: () => setDialog('qr'), busy, message, given, dialogs };
}

/**
 * The choice buttons: Print, E-mail, QR code (with their keys when the screen has shortcuts);
 * `compact` for a dialog's three narrow columns.
 */
export function ReceiptChoiceButtons({
  delivery,
  keys = false,
  compact = false,
  extra,
}: {
  delivery: ReceiptDelivery;
  keys?: boolean;
  compact?: boolean;
  extra?: ReactNode;
}) {
  const t = useT();
  return (
    <div className="receipt-choices" role="group" aria-label={t('receipts.choices')}>
      <button
        type="button"
        className="button button-lg"
        aria-disabled={delivery.busy}
        onClick={() => void (delivery.busy ? undefined : delivery.print())}
      >
        {!compact && <PrinterIcon size={22} />} {delivery.busy ? t('receipts.printing') : t(compact ? 'common.print' : 'receipts.print')}{' '}
        {keys && <kbd>{RECEIPT_KEYS.print}</kbd>}
      </button>
      <button type="button" className="button button-lg" onClick={delivery.openEmail}>
        {t('receipts.email')} {keys && <kbd>{RECEIPT_KEYS.email}</kbd>}
      </button>
      <button type="button" className="button button-lg" onClick={delivery.openQr}>
        {t('receipts.qr')} {keys && <kbd>{RECEIPT_KEYS.qr}</kbd>}
      </button>
      {extra}
    </div>
  );
}

export function ReceiptMessage({ delivery }: { delivery: ReceiptDelivery }) {
  const message = delivery.message;
  return (
    <p
      className={message?.problem ? 'receipt-message receipt-message-problem' : 'receipt-message'}
      role={message?.problem ? 'alert' : undefined}
      aria-live="polite"
    >
      {message?.text ?? ''}
    </p>
  );
}

/** Print, e-mail and QR for a receipt in a dialog (today's sales, a refund just made). */
export function ReceiptChoices({ receiptId, language }: { receiptId: string; language?: ReceiptLanguage }) {
  const load = usePrinter((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  const delivery = useReceiptDelivery(receiptId, language);
  return (
    <>
      <ReceiptChoiceButtons delivery={delivery} compact />
      <ReceiptMessage delivery={delivery} />
      {delivery.dialogs}
    </>
  );
}

function EmailDialog({
  receiptId,
  language,
  onClose,
}: {
  receiptId: string;
  language: ReceiptLanguage | undefined;
  onClose: (sentTo?: string) => void;
}) {
  const [email, setEmail] = useState('');
  const [lang, setLang] = useState<ReceiptLanguage>(language ?? 'en');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fieldProblem, setFieldProblem] = useState<string | null>(null);
  const t = useT();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const address = email.trim();
    if (!isEmailAddress(address)) {
      setFieldProblem(t('receipts.email.invalid'));
      return;
    }
    setFieldProblem(null);
    setBusy(true);
    setProblem(null);
    try {
      await receiptsClient.email(receiptId, address, lang);
      onClose(address);
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'api' && error.errors.some((e) => e.field === 'email'))
        setFieldProblem(t('receipts.email.refused'));
      else setProblem(problemOf(t, error, 'email'));
      setBusy(false);
    }
  };

  return (
    <Modal title={t('receipts.email.title')} onClose={() => onClose()} busy={busy} className="modal-narrow">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <label className="field">
          <span className="field-label">{t('receipts.email.address')}</span>
          <input
            className="input"
            type="email"
            inputMode="email"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            data-autofocus
            value={email}
            aria-invalid={fieldProblem ? true : undefined}
            aria-describedby="receipt-email-note"
            onChange={(event) => {
              setEmail(event.target.value);
              setFieldProblem(null);
            }}
          />
          <span id="receipt-email-note" className={fieldProblem ? 'field-error' : 'field-note'}>
            {fieldProblem ?? t('receipts.email.note')}
          </span>
        </label>
        <label className="field">
          <span className="field-label">{t('common.language')}</span>
          <select className="input" value={lang} onChange={(event) => setLang(event.target.value as ReceiptLanguage)}>
            {RECEIPT_LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </label>
        <p className="form-problem" role="alert">
          {problem ?? ''}
        </p>
        <div className="modal-actions">
          <button type="button" className="button button-lg" onClick={() => onClose()} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
            {t(busy ? 'receipts.email.sending' : 'receipts.email.send')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function QrDialog({ receiptId, onClose }: { receiptId: string; onClose: (shown: boolean) => void }) {
  const [link, setLink] = useState<ReceiptLink | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const t = useT();
  useEffect(() => {
    let live = true;
    receiptsClient.link(receiptId).then(
      (loaded) => {
        if (live) setLink(loaded);
      },
      (error: unknown) => {
        if (live) setProblem(problemOf(translate, error, 'qr'));
      },
    );
    return () => {
      live = false;
    };
  }, [receiptId]);
  return (
    <Modal title={t('receipts.qr.title')} onClose={() => onClose(link !== null)} className="modal-receipt">
      <div className="qr-box">
        {link ? (
          <>
            <img src={link.qr_code} alt={t('receipts.qr.alt')} width={264} height={264} />
            <p>{t('receipts.qr.text')}</p>
            <p className="qr-url">{link.url}</p>
            <LocalLinkWarning url={link.url} />
          </>
        ) : problem ? (
          <p className="form-problem" role="alert">
            {problem}
          </p>
        ) : (
          <p className="muted">{t('receipts.qr.making')}</p>
        )}
      </div>
      <div className="modal-actions">
        <button type="button" className="button button-primary button-lg" data-autofocus onClick={() => onClose(link !== null)}>
          {t('receipts.qr.done')}
        </button>
      </div>
    </Modal>
  );
}
