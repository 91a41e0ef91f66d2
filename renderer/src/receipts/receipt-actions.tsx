/**
 * What a customer can get after a sale or a refund (ux.md 7): a printed receipt, an e-mail, a QR
 * code that opens the receipt page, or none. Everything goes through the gateway, which rebuilds
 * the receipt from its record (decisions.md D16): Print uses the shop's receipt printer when one
 * is set up (else the OS print dialog), E-mail queues it in the merchant's language or the one
 * chosen, QR shows the customer's link. The till's result screen, today's sales and the refund
 * dialog share these pieces.
 */
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { isEmailAddress } from '../../../contract/text-rules.js';
import { ApiError, client, type Receipt, type ReceiptLanguage, type ReceiptLink } from '../api/client.js';
import { ReceiptView } from '../till/receipt.js';
import { PrinterIcon } from '../ui/icons.js';
import { LocalLinkWarning } from '../ui/local-link-warning.js';
import { Modal } from '../ui/modal.js';
import { printerName, usePrinter } from './receipt-printer-store.js';

const LANGUAGES: readonly { code: ReceiptLanguage; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'pt', name: 'Português' },
];

function problemOf(error: unknown, what: string): string {
  if (error instanceof ApiError && error.kind === 'network') return `The gateway did not answer: ${what}. Check the connection and try again.`;
  if (error instanceof ApiError && error.kind === 'api' && error.status === 403) return error.message;
  return error instanceof Error ? `${what}: ${error.message}` : what;
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
    client.receipt(receiptId).then(
      (loaded) => {
        if (live) setReceipt(loaded);
      },
      (error: unknown) => {
        if (live) setProblem(problemOf(error, 'The receipt could not be loaded'));
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
  if (receipt) return <ReceiptView receipt={receipt} />;
  if (problem) {
    return (
      <div className="receipt-loading" role="alert">
        <p>{problem}</p>
        <button type="button" className="button" onClick={retry}>
          Load again
        </button>
      </div>
    );
  }
  return <p className="receipt-loading">Loading the receipt…</p>;
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
      const result = await client.printReceipt(receiptId);
      setMessage({ text: result.printed ? `Receipt printed on ${result.printer}.` : `${result.message}. Print again, or give it by e-mail or QR code.`, problem: !result.printed });
      if (result.printed) setGiven('printed');
      return result.printed;
    } catch (error) {
      setMessage({ text: problemOf(error, 'The receipt was not printed'), problem: true });
      return false;
    } finally {
      setBusy(false);
    }
  }, [receiptId, setting]);

  const dialogs =
    dialog === 'email' ? (
      <EmailDialog
        receiptId={receiptId}
        language={language}
        onClose={(sentTo) => {
          setDialog(null);
          if (sentTo) {
            setGiven('emailed');
            setMessage({ text: `Receipt e-mailed to ${sentTo}.`, problem: false });
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
            setMessage({ text: 'Receipt given by QR code.', problem: false });
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
export function ReceiptChoiceButtons({ delivery, keys = false, compact = false, extra }: { delivery: ReceiptDelivery; keys?: boolean; compact?: boolean; extra?: ReactNode }) {
  return (
    <div className="receipt-choices" role="group" aria-label="Receipt">
      <button type="button" className="button button-lg" aria-disabled={delivery.busy} onClick={() => void (delivery.busy ? undefined : delivery.print())}>
        {!compact && <PrinterIcon size={22} />} {delivery.busy ? 'Printing…' : compact ? 'Print' : 'Print receipt'} {keys && <kbd>P</kbd>}
      </button>
      <button type="button" className="button button-lg" onClick={delivery.openEmail}>
        E-mail {keys && <kbd>E</kbd>}
      </button>
      <button type="button" className="button button-lg" onClick={delivery.openQr}>
        QR code {keys && <kbd>Q</kbd>}
      </button>
      {extra}
    </div>
  );
}

export function ReceiptMessage({ delivery }: { delivery: ReceiptDelivery }) {
  const message = delivery.message;
  return (
    <p className={message?.problem ? 'receipt-message receipt-message-problem' : 'receipt-message'} role={message?.problem ? 'alert' : undefined} aria-live="polite">
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

function EmailDialog({ receiptId, language, onClose }: { receiptId: string; language: ReceiptLanguage | undefined; onClose: (sentTo?: string) => void }) {
  const [email, setEmail] = useState('');
  const [lang, setLang] = useState<ReceiptLanguage>(language ?? 'en');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fieldProblem, setFieldProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const address = email.trim();
    if (!isEmailAddress(address)) {
      setFieldProblem('Enter an e-mail address such as ada@example.com.');
      return;
    }
    setFieldProblem(null);
    setBusy(true);
    setProblem(null);
    try {
      await client.emailReceipt(receiptId, address, lang);
      onClose(address);
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'api' && error.errors.some((e) => e.field === 'email')) setFieldProblem('The gateway did not take this address. Check it and try again.');
      else setProblem(problemOf(error, 'The receipt was not sent'));
      setBusy(false);
    }
  };

  return (
    <Modal title="E-mail the receipt" onClose={() => onClose()} busy={busy} className="modal-narrow">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <label className="field">
          <span className="field-label">Customer&rsquo;s e-mail address</span>
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
            {fieldProblem ?? 'The receipt goes to this address only; it is not kept for anything else.'}
          </span>
        </label>
        <label className="field">
          <span className="field-label">Language</span>
          <select className="input" value={lang} onChange={(event) => setLang(event.target.value as ReceiptLanguage)}>
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <p className="form-problem" role="alert">
          {problem ?? ''}
        </p>
        <div className="modal-actions">
          <button type="button" className="button button-lg" onClick={() => onClose()} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
            {busy ? 'Sending…' : 'Send receipt'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function QrDialog({ receiptId, onClose }: { receiptId: string; onClose: (shown: boolean) => void }) {
  const [link, setLink] = useState<ReceiptLink | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    client.receiptLink(receiptId).then(
      (loaded) => {
        if (live) setLink(loaded);
      },
      (error: unknown) => {
        if (live) setProblem(problemOf(error, 'The QR code could not be made'));
      },
    );
    return () => {
      live = false;
    };
  }, [receiptId]);
  return (
    <Modal title="Receipt by QR code" onClose={() => onClose(link !== null)} className="modal-receipt">
      <div className="qr-box">
        {link ? (
          <>
            <img src={link.qr_code} alt="QR code of the link to the receipt" width={264} height={264} />
            <p>The customer scans the code with the phone&rsquo;s camera to open the receipt.</p>
            <p className="qr-url">{link.url}</p>
            <LocalLinkWarning url={link.url} />
          </>
        ) : problem ? (
          <p className="form-problem" role="alert">
            {problem}
          </p>
        ) : (
          <p className="muted">Making the QR code…</p>
        )}
      </div>
      <div className="modal-actions">
        <button type="button" className="button button-primary button-lg" data-autofocus onClick={() => onClose(link !== null)}>
          Done
        </button>
      </div>
    </Modal>
  );
}
