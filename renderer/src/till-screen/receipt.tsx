/**
 * The card receipt as the gateway rebuilt it (GET /ui/receipts/{id}, decisions.md D16: never from
 * the window's memory): merchant, date, terminal, order, card brand and last four, entry mode,
 * application label and AID when the chip gave them, verification, approval code, amount, result,
 * transaction id. A refund's receipt names the sale it refunds. The print style sheet prints only
 * this article when the OS print dialog is used (no receipt printer set up).
 *
 * It is the customer's receipt: it speaks the receipt's language (the shop's, which the printed and
 * e-mailed receipt use too), not the language of the staff member at the till (D21), with that
 * language's number and date forms in the shop's time zone.
 */
import type { Receipt } from '../receipts/receipts-client.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { formatterFor, type Translate } from '../../../contract/i18n/format.js';
import { INTL_LOCALES, isStaffLanguage, type StaffLanguage } from '../../../contract/i18n/languages.js';
import { useSession } from '../session-store.js';
import { shopTimeZone } from '../ui/format.js';
import { useStaffLanguage, useT } from '../ui/i18n.js';
import { formatMoney } from './money.js';
import { entryText, maskedCard } from './reader.js';

/** The words that differ between a sale's receipt and a refund's. */
const KIND_WORDS: Record<Receipt['kind'], { title: MessageId; total: MessageId; result: MessageId; id: MessageId }> = {
  sale: {
    title: 'receipts.paper.sale',
    total: 'receipts.paper.total',
    result: 'receipts.paper.approved',
    id: 'receipts.paper.transaction',
  },
  refund: {
    title: 'receipts.paper.refund',
    total: 'receipts.paper.refunded',
    result: 'receipts.paper.refundedResult',
    id: 'receipts.paper.refundId',
  },
};

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** `12 Mar 2026, 14:05` in the receipt's language, on the shop's clock (as ui/format.ts's formatDateTime). */
function receiptDate(language: StaffLanguage, iso: string): string {
  const zone = shopTimeZone();
  const key = `${language}|${zone ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    };
    try {
      format = new Intl.DateTimeFormat(INTL_LOCALES[language], zone ? { ...options, timeZone: zone } : options);
    } catch {
      // A zone this browser does not know: the computer's own.
      format = new Intl.DateTimeFormat(INTL_LOCALES[language], options);
    }
    dateFormats.set(key, format);
  }
  return format.format(new Date(iso));
}

/**
 * The receipt's language and its words: the receipt's own language (the shop's), else the session's
 * shop language. Where it is the screens' language too, the screens' words are used (so the
 * pseudo-locale reaches the receipt).
 */
function useReceiptLanguage(receipt: Receipt): { language: StaffLanguage; t: Translate } {
  const screens = useT();
  const screenLanguage = useStaffLanguage();
  const shop = useSession((s) => s.session?.merchant.language);
  const language: StaffLanguage = isStaffLanguage(receipt.language) ? receipt.language : isStaffLanguage(shop) ? shop : 'en';
  return { language, t: language === screenLanguage ? screens : formatterFor(language) };
}

export function ReceiptView({ receipt }: { receipt: Receipt }) {
  const { language, t } = useReceiptLanguage(receipt);
  const locale = INTL_LOCALES[language];
  const words = KIND_WORDS[receipt.kind];
  const sale = receipt.kind === 'sale';
  const card = receipt.card;
  return (
    <article className="receipt" aria-label={t('receipts.paper.label')} lang={language} data-receipt-id={receipt.receipt_id}>
      <header className="receipt-head">
        <strong className="receipt-merchant">{receipt.merchant_name || t('receipts.paper.shop')}</strong>
        <span>{t(words.title)}</span>
      </header>
      <dl className="receipt-lines">
        <dt>{t('receipts.paper.date')}</dt>
        <dd>{receiptDate(language, receipt.created_at)}</dd>
        {receipt.terminal_id && (
          <>
            <dt>{t('receipts.paper.terminal')}</dt>
            <dd>{receipt.terminal_id}</dd>
          </>
        )}
        {receipt.order_id && (
          <>
            <dt>{t('receipts.paper.order')}</dt>
            <dd className="receipt-break">{receipt.order_id}</dd>
          </>
        )}
        {card && (
          <>
            <dt>{t('receipts.paper.card')}</dt>
            <dd>{maskedCard(t, card.brand, card.last_four)}</dd>
          </>
        )}
        {card?.entry_mode && (
          <>
            <dt>{t('receipts.paper.entry')}</dt>
            <dd>{entryText(t, card.entry_mode)}</dd>
          </>
        )}
        {card?.application_label && (
          <>
            <dt>{t('receipts.paper.application')}</dt>
            <dd>{card.application_label}</dd>
          </>
        )}
        {card?.aid && (
          <>
            <dt>{t('receipts.paper.aid')}</dt>
            <dd>{card.aid}</dd>
          </>
        )}
        {sale && card?.entry_mode && (
          <>
            <dt>{t('receipts.paper.verification')}</dt>
            <dd>{t(receipt.verification === 'online_pin' ? 'receipts.paper.pinVerified' : 'receipts.paper.noPin')}</dd>
          </>
        )}
        {receipt.authorization_code && (
          <>
            <dt>{t('receipts.paper.approvalCode')}</dt>
            <dd>{receipt.authorization_code}</dd>
          </>
        )}
        {!sale && (
          <>
            <dt>{t('receipts.paper.refundOf')}</dt>
            <dd className="receipt-break">{receipt.transaction_id}</dd>
          </>
        )}
        {receipt.reference && (
          <>
            <dt>{t('receipts.paper.reference')}</dt>
            <dd className="receipt-break">{receipt.reference}</dd>
          </>
        )}
      </dl>
      <div className="receipt-total">
        <span>{t(words.total)}</span>
        <strong>{formatMoney(receipt.amount, receipt.currency, locale)}</strong>
      </div>
      <p className="receipt-result">{t(words.result)}</p>
      <p className="receipt-id">
        {t(words.id)} <span className="receipt-break">{receipt.receipt_id}</span>
      </p>
      <p className="receipt-foot">{t('receipts.paper.keep')}</p>
    </article>
  );
}
