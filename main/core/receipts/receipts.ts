/**
 * Receipts that last (decisions.md D16): every receipt is rebuilt from the gateway's record (the
 * transaction, with what the chip said in `details.pos`, and the refund), never from a window's
 * memory, so any of today's receipts can be shown, printed, e-mailed or linked by QR code after a
 * reload or a restart. A sale that was approved (completed, authorized, later refunded) and a
 * successful refund each have one; a cashier reaches today's only, as with the transaction list.
 *
 * Printing goes through the ReceiptPrinter port (ESC/POS, main/infra/receipt-printer.ts) from the
 * gateway process. With auto-print on, an approved card-present sale queues its print job in the
 * sale's own unit of work (`queueAutoPrint`), and print-queue.ts prints it once.
 */
import type { FieldError } from '../../../contract/api/common.js';
import type {
  PrintResult,
  Receipt,
  ReceiptEmail,
  ReceiptEmailInput,
  ReceiptLink,
  ReceiptPrinterInput,
  ReceiptPrinterSetting,
} from '../../../contract/api/receipts.js';
import { ErrorCode, RefundStatus, TransactionStatus as S } from '../../../contract/codes.js';
import { RECEIPT_LANGUAGES, type ReceiptLanguage, type StaffRole } from '../../../contract/constants.js';
import { isEmailAddress } from '../../../contract/text-rules.js';
import { accepted, apiError, failure, success, validationError, type Outcome } from '../errors.js';
import { amountOf } from '../payments/views.js';
import type { Clock, Ids, Logger, QrCodes } from '../kernel.js';
import type { PrintDocument, PrinterTarget, ReceiptPrinter, ReceiptPrinterRecord, ReceiptsUnit } from './ports.js';
import type { RefundRecord, TransactionRecord } from '../payments/ports.js';
import type { Store } from '../unit-of-work.js';
import { printedReceipt, receiptMail, testPrintDocument } from './documents.js';

/** Who asks: the staff member's merchant and role (a cashier sees today's receipts only). */
export interface ReceiptViewer {
  merchantId: string;
  role: StaffRole;
  staffId: string | null;
}

export interface ReceiptsDeps {
  store: Store<ReceiptsUnit>;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  qrCodes: QrCodes;
  printer: ReceiptPrinter;
  /** Base URL of the receipt pages (the hosted pages' public URL). */
  publicUrl: () => string;
}

/** A sale has a receipt once the card was approved: these statuses, by a payment or an authorization (or stored at a joined till). */
const SOLD: readonly number[] = [S.completed, S.authorized, S.refunded, S.partly_refunded, S.stored];
const DEFAULT_PORT = 9100;
const DEFAULT_WIDTH = 42;
const QR_WIDTH = 320;
/** A host name or an IPv4 address (the printer library's tcp:// interface takes no IPv6 literal). */
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/**
 * Device files a USB receipt printer shows up as (Linux usblp and serial adapters, macOS serial
 * devices, Windows COM/LPT ports and printer shares). Nothing else: the gateway writes raw bytes there.
 */
const USB_DEVICE =
  /^(?:\/dev\/(?:usb\/lp\d{1,3}|lp\d{1,3}|ttyUSB\d{1,3}|ttyACM\d{1,3}|cu\.[\w.-]{1,60}|tty\.[\w.-]{1,60})|(?:\\\\\.\\)?(?:COM|LPT)\d{1,3}|\\\\[\w.-]{1,63}\\[\w .$-]{1,80})$/;
const AID = /^[0-9A-F]{10,32}$/;

type Loaded = { kind: 'sale'; t: TransactionRecord } | { kind: 'refund'; t: TransactionRecord; refund: RefundRecord };

function notFound(receiptId: string) {
  return apiError(ErrorCode.notFound, `Receipt ${receiptId} not found`, [
    { field: 'receipt_id', message: 'no sale or refund with this id for this merchant' },
  ]);
}

function str(value: string | null | undefined): string | null {
  return value !== undefined && value !== null && value !== '' ? value : null;
}

export function printerTarget(record: ReceiptPrinterRecord): PrinterTarget {
  return record.connection === 'network'
    ? { connection: 'network', host: record.host ?? '', port: record.port ?? DEFAULT_PORT }
    : { connection: 'usb', device: record.device ?? '' };
}

export function printerName(target: PrinterTarget): string {
  return target.connection === 'network' ? `${target.host}:${target.port}` : target.device;
}

function settingOf(record: ReceiptPrinterRecord | undefined): ReceiptPrinterSetting {
  if (!record)
    return {
      connection: 'none',
      host: null,
      port: null,
      device: null,
      characters_per_line: DEFAULT_WIDTH,
      auto_print: false,
      updated_at: null,
    };
  return {
    connection: record.connection,
    host: record.host,
    port: record.port,
    device: record.device,
    characters_per_line: record.charactersPerLine,
    auto_print: record.autoPrint,
    updated_at: record.updatedAt,
  };
}

export class Receipts {
  constructor(private readonly deps: ReceiptsDeps) {}

  // ---- building a receipt from the record ----------------------------------------------------------

  /** The shop's language (Settings -> Profile), which its printed and e-mailed receipts speak (D21). */
  private async languageOf(r: ReceiptsUnit, merchantId: string): Promise<ReceiptLanguage> {
    const language = (await r.merchants.get(merchantId))?.language;
    return language && (RECEIPT_LANGUAGES as readonly string[]).includes(language) ? language : 'en';
  }

  private async load(r: ReceiptsUnit, merchantId: string, receiptId: string): Promise<Loaded | undefined> {
    const t = await r.transactions.get(merchantId, receiptId);
    if (t) return { kind: 'sale', t };
    const refund = await r.receipts.refund(merchantId, receiptId);
    if (!refund) return undefined;
    const sale = await r.transactions.get(merchantId, refund.transactionId);
    return sale ? { kind: 'refund', t: sale, refund } : undefined;
  }

  /** Why a record has no receipt, or undefined when it has one. */
  private static missing(loaded: Loaded): string | undefined {
    if (loaded.kind === 'refund')
      return loaded.refund.statusCode === RefundStatus.success ? undefined : 'The refund did not go through: it has no receipt';
    const { t } = loaded;
    if (t.operation !== 'payment' && t.operation !== 'authorize')
      return `Transaction ${t.id} is a ${t.operation}, not a sale: it has no receipt`;
    if (!SOLD.includes(t.statusCode) || t.amountMinor <= 0) return `Transaction ${t.id} was not approved: it has no receipt`;
    return undefined;
  }

  private static build(loaded: Loaded, merchantName: string, language: ReceiptLanguage): Receipt {
    const { t } = loaded;
    const pos = t.details.pos;
    const aid = str(pos?.aid);
    const card = t.cardLastFour
      ? {
          brand: t.cardBrand ?? 'unknown',
          last_four: t.cardLastFour,
          entry_mode: str(pos?.entry_mode),
          application_label: str(pos?.application_label),
          aid: aid !== null && AID.test(aid) ? aid : null,
        }
      : null;
    const common = {
      transaction_id: t.id,
      merchant_name: merchantName,
      language,
      order_id: t.orderId,
      terminal_id: str(pos?.terminal.id),
      payment_type: t.paymentType,
      currency: t.currency,
      card,
    };
    if (loaded.kind === 'refund') {
      return {
        ...common,
        receipt_id: loaded.refund.id,
        kind: 'refund',
        refund_id: loaded.refund.id,
        created_at: loaded.refund.createdAt,
        amount: amountOf(t, loaded.refund.amountMinor),
        verification: 'none',
        authorization_code: null,
        reference: loaded.refund.processorReference,
      };
    }
    return {
      ...common,
      receipt_id: t.id,
      kind: 'sale',
      refund_id: null,
      created_at: t.createdAt,
      amount: amountOf(t, t.amountMinor),
      verification: pos?.cvm === 'online_pin' ? 'online_pin' : 'none',
      authorization_code: str(t.details.authorization_code),
      reference: null,
    };
  }

  /** The receipt as the merchant's own staff may see it, or why not. */
  private async read(r: ReceiptsUnit, viewer: ReceiptViewer, receiptId: string): Promise<Outcome<Receipt>> {
    const loaded = await this.load(r, viewer.merchantId, receiptId);
    if (!loaded) return failure(notFound(receiptId));
    const missing = Receipts.missing(loaded);
    if (missing) return failure(apiError(ErrorCode.invalidState, missing, [{ field: 'receipt_id', message: 'has no receipt' }]));
    const merchant = await r.merchants.get(viewer.merchantId);
    const receipt = Receipts.build(loaded, merchant?.name ?? '', await this.languageOf(r, viewer.merchantId));
    if (viewer.role === 'cashier' && Date.parse(receipt.created_at) < this.midnight()) {
      return failure(
        apiError(ErrorCode.forbidden, "A cashier may reach today's receipts only", [{ field: 'receipt_id', message: 'is not from today' }]),
      );
    }
    return success(receipt);
  }

  /** Local midnight of the gateway's clock: where "today" starts (as for the cashier's transaction list). */
  private midnight(): number {
    const midnight = new Date(this.deps.clock.now());
    midnight.setHours(0, 0, 0, 0);
    return midnight.getTime();
  }

  async get(viewer: ReceiptViewer, receiptId: string): Promise<Outcome<Receipt>> {
    return this.deps.store.read((r) => this.read(r, viewer, receiptId));
  }

  // ---- the customer's link (QR code, e-mail) ----------------------------------------------------

  private linkUrl(token: string): string {
    return `${this.deps.publicUrl().replace(/\/+$/, '')}/receipt/${token}`;
  }

  /** The receipt's link token, made on first use and kept (one per receipt). */
  private async tokenFor(receipt: Receipt, merchantId: string): Promise<string> {
    const existing = await this.deps.store.read((r) => r.receipts.linkFor(merchantId, receipt.receipt_id));
    if (existing) return existing.token;
    return this.deps.store.run(async (tx) => {
      const again = await tx.receipts.linkFor(merchantId, receipt.receipt_id);
      if (again) return again.token;
      const token = this.deps.ids.randomToken(24);
      await tx.receipts.insertLink({
        token,
        merchantId,
        receiptId: receipt.receipt_id,
        transactionId: receipt.transaction_id,
        createdAt: this.deps.clock.now().toISOString(),
      });
      return token;
    });
  }

  async link(viewer: ReceiptViewer, receiptId: string): Promise<Outcome<ReceiptLink>> {
    const receipt = await this.get(viewer, receiptId);
    if (!receipt.ok) return receipt;
    const url = this.linkUrl(await this.tokenFor(receipt.value, viewer.merchantId));
    return success({ url, qr_code: await this.deps.qrCodes.pngDataUrl(url, QR_WIDTH) });
  }

  /** The receipt behind a customer's link (the receipt page), or undefined. No staff, no merchant key: the token is the key. */
  async byToken(token: string): Promise<Receipt | undefined> {
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return undefined;
    return this.deps.store.read(async (r) => {
      const link = await r.receipts.linkByToken(token);
      if (!link) return undefined;
      const loaded = await this.load(r, link.merchantId, link.receiptId);
      if (!loaded || Receipts.missing(loaded)) return undefined;
      const merchant = await r.merchants.get(link.merchantId);
      return Receipts.build(loaded, merchant?.name ?? '', await this.languageOf(r, link.merchantId));
    });
  }

  // ---- e-mail ----------------------------------------------------------------------------------------

  async email(viewer: ReceiptViewer, receiptId: string, input: ReceiptEmailInput): Promise<Outcome<ReceiptEmail>> {
    const errors: FieldError[] = [];
    const recipient = input.email.trim();
    if (!isEmailAddress(recipient)) errors.push({ field: 'email', message: 'must be an e-mail address such as ada@example.com' });
    if (input.language !== undefined && !(RECEIPT_LANGUAGES as readonly string[]).includes(input.language)) {
      errors.push({ field: 'language', message: `must be one of ${RECEIPT_LANGUAGES.join(', ')}` });
    }
    if (errors.length) return failure(validationError(errors));
    const receipt = await this.get(viewer, receiptId);
    if (!receipt.ok) return receipt;
    const language = input.language ?? receipt.value.language;
    const link = this.linkUrl(await this.tokenFor(receipt.value, viewer.merchantId));
    const mail = receiptMail(language, receipt.value, link);
    const now = this.deps.clock.now().toISOString();
    const record = {
      id: this.deps.ids.newId(),
      merchantId: viewer.merchantId,
      receiptId: receipt.value.receipt_id,
      transactionId: receipt.value.transaction_id,
      locale: language,
      recipient,
      subject: mail.subject,
      bodyText: mail.text,
      status: 'queued' as const,
      attempts: 0,
      nextAttemptAt: now,
      sentAt: null,
      lastError: null,
      testOutbox: false,
      createdAt: now,
    };
    // The mail queue (core/mail) sends it after this unit commits.
    await this.deps.store.run((tx) => tx.receipts.insertEmail(record));
    return accepted(emailView(record));
  }

  async emails(viewer: ReceiptViewer, receiptId: string): Promise<Outcome<ReceiptEmail[]>> {
    const receipt = await this.get(viewer, receiptId);
    if (!receipt.ok) return receipt;
    const rows = await this.deps.store.read((r) => r.receipts.listEmails(viewer.merchantId, receipt.value.receipt_id));
    return success(rows.map(emailView));
  }

  // ---- printing ---------------------------------------------------------------------------------------

  async printerSetting(merchantId: string): Promise<ReceiptPrinterSetting> {
    return settingOf(await this.deps.store.read((r) => r.receipts.printer(merchantId)));
  }

  /** Sets (or with connection `none` removes) the merchant's receipt printer; audited. */
  async setPrinter(viewer: ReceiptViewer, input: ReceiptPrinterInput): Promise<Outcome<ReceiptPrinterSetting>> {
    if (viewer.role !== 'admin') return failure(apiError(ErrorCode.forbidden, 'Only an admin may set up the receipt printer'));
    const errors: FieldError[] = [];
    const now = this.deps.clock.now().toISOString();
    let record: ReceiptPrinterRecord | undefined;
    const width = input.characters_per_line ?? DEFAULT_WIDTH;
    if (input.connection === 'network') {
      const host = input.host?.trim() ?? '';
      if (!host) errors.push({ field: 'host', message: 'is required for a network printer' });
      else if (!HOST.test(host)) errors.push({ field: 'host', message: 'must be a host name or an IPv4 address, e.g. 192.168.1.50' });
      if (input.device !== undefined) errors.push({ field: 'device', message: 'is for USB printers only' });
      record = {
        merchantId: viewer.merchantId,
        connection: 'network',
        host,
        port: input.port ?? DEFAULT_PORT,
        device: null,
        charactersPerLine: width,
        autoPrint: input.auto_print ?? false,
        updatedAt: now,
      };
    } else if (input.connection === 'usb') {
      const device = input.device?.trim() ?? '';
      if (!device) errors.push({ field: 'device', message: 'is required for a USB printer' });
      else if (!USB_DEVICE.test(device))
        errors.push({ field: 'device', message: 'must be a printer device such as /dev/usb/lp0, COM3 or \\\\localhost\\Receipts' });
      if (input.host !== undefined || input.port !== undefined)
        errors.push({ field: input.host !== undefined ? 'host' : 'port', message: 'is for network printers only' });
      record = {
        merchantId: viewer.merchantId,
        connection: 'usb',
        host: null,
        port: null,
        device,
        charactersPerLine: width,
        autoPrint: input.auto_print ?? false,
        updatedAt: now,
      };
    }
    if (errors.length) return failure(validationError(errors));
    const detail = record ? `${record.connection} ${printerName(printerTarget(record))}${record.autoPrint ? ' auto-print' : ''}` : 'none';
    await this.deps.store.run(async (tx) => {
      if (record) await tx.receipts.savePrinter(record);
      else await tx.receipts.removePrinter(viewer.merchantId);
      await tx.audit.record({
        id: this.deps.ids.newId(),
        merchantId: viewer.merchantId,
        staffId: viewer.staffId,
        approvedBy: null,
        action: 'receipt_printer',
        subjectId: null,
        detail,
        createdAt: now,
      });
    });
    return success(settingOf(record));
  }

  private async printerOf(merchantId: string): Promise<Outcome<ReceiptPrinterRecord>> {
    const record = await this.deps.store.read((r) => r.receipts.printer(merchantId));
    return record
      ? success(record)
      : failure(
          apiError(ErrorCode.invalidState, 'No receipt printer is set up: an admin sets one up first', [
            { field: 'printer', message: 'not set up' },
          ]),
        );
  }

  private async send(
    record: ReceiptPrinterRecord,
    document: Parameters<ReceiptPrinter['print']>[1],
    what: Record<string, unknown>,
  ): Promise<PrintResult> {
    const target = printerTarget(record);
    const printer = printerName(target);
    const outcome = await this.deps.printer.print(target, document);
    if (outcome.kind === 'printed') return { printed: true, printer, message: `Printed on ${printer}` };
    this.deps.logger.warn({ ...what, printer, error: outcome.message }, 'receipt not printed');
    return { printed: false, printer, message: `The receipt printer at ${printer} did not print: ${outcome.message}` };
  }

  /** Prints a receipt now; a printer that does not answer is a result (printed false), not an error. */
  async print(viewer: ReceiptViewer, receiptId: string): Promise<Outcome<PrintResult>> {
    const receipt = await this.get(viewer, receiptId);
    if (!receipt.ok) return receipt;
    const printer = await this.printerOf(viewer.merchantId);
    if (!printer.ok) return printer;
    return success(
      await this.send(printer.value, printedReceipt(receipt.value.language, receipt.value, printer.value.charactersPerLine), {
        receipt_id: receiptId,
      }),
    );
  }

  /**
   * Prints another of the shop's documents (a day's X or Z report) on its receipt printer, laid out
   * by `layout` for the printer's characters per line.
   */
  async printDocument(
    merchantId: string,
    layout: (charactersPerLine: number) => PrintDocument,
    what: Record<string, unknown>,
  ): Promise<Outcome<PrintResult>> {
    const printer = await this.printerOf(merchantId);
    if (!printer.ok) return printer;
    return success(await this.send(printer.value, layout(printer.value.charactersPerLine), what));
  }

  async testPrint(viewer: ReceiptViewer): Promise<Outcome<PrintResult>> {
    const printer = await this.printerOf(viewer.merchantId);
    if (!printer.ok) return printer;
    const { merchant, language } = await this.deps.store.read(async (r) => ({
      merchant: await r.merchants.get(viewer.merchantId),
      language: await this.languageOf(r, viewer.merchantId),
    }));
    const document = testPrintDocument(
      language,
      merchant?.name ?? '',
      printerName(printerTarget(printer.value)),
      printer.value.charactersPerLine,
      this.deps.clock.now().toISOString(),
    );
    return success(await this.send(printer.value, document, { test_print: true }));
  }

  /** Whether the merchant's printer prints every approved card-present sale (read before the sale's unit). */
  async autoPrints(repos: ReceiptsUnit, merchantId: string): Promise<boolean> {
    return (await repos.receipts.printer(merchantId))?.autoPrint === true;
  }

  /**
   * Called inside the unit of work that records an approved card-present sale whose reads found
   * auto-print on (`autoPrints`): the sale's print job is written with it (once: one job per
   * receipt). The job prints on the printer as it is set up when it prints (print-queue.ts).
   */
  async queueAutoPrint(tx: ReceiptsUnit, sale: TransactionRecord): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    await tx.receipts.insertPrintJob({
      id: this.deps.ids.newId(),
      merchantId: sale.merchantId,
      receiptId: sale.id,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
      printedAt: null,
      createdAt: now,
    });
  }

  /** What a queued print job prints now: the document and the printer, or why it cannot print. */
  async printJob(
    merchantId: string,
    receiptId: string,
  ): Promise<
    { ok: true; record: ReceiptPrinterRecord; document: Parameters<ReceiptPrinter['print']>[1] } | { ok: false; message: string }
  > {
    return this.deps.store.read(async (r) => {
      const printer = await r.receipts.printer(merchantId);
      if (!printer) return { ok: false as const, message: 'no receipt printer is set up any more' };
      const receipt = await this.read(r, { merchantId, role: 'admin', staffId: null }, receiptId);
      if (!receipt.ok) return { ok: false as const, message: receipt.error.message };
      return {
        ok: true as const,
        record: printer,
        document: printedReceipt(receipt.value.language, receipt.value, printer.charactersPerLine),
      };
    });
  }
}

function emailView(record: {
  id: string;
  receiptId: string;
  recipient: string;
  locale: string;
  status: 'queued' | 'sent' | 'failed';
  subject: string;
  bodyText: string;
  attempts: number;
  sentAt: string | null;
  lastError: string | null;
  testOutbox: boolean;
  createdAt: string;
}): ReceiptEmail {
  return {
    email_id: record.id,
    receipt_id: record.receiptId,
    recipient: record.recipient,
    language: record.locale,
    status: record.status,
    subject: record.subject,
    body_text: record.bodyText,
    attempts: record.attempts,
    sent_at: record.sentAt,
    last_error: record.lastError,
    test_outbox: record.testOutbox,
    created_at: record.createdAt,
  };
}
