/**
 * The customer's receipt page (`{public_url}/receipt/{token}`, decisions.md D16): the link of the
 * QR code at the till and of the receipt e-mail. No login: the unguessable token is the key. The
 * page shows the receipt rebuilt from the gateway's record in en, de, pt or hr (the customer's
 * language: ?lang=, else the phone's, else the shop's), with no card data beyond brand and last
 * four (no application label, no AID, no expiry).
 */
import type { FastifyPluginAsync } from 'fastify';
import { formatReceiptAmount, receiptRows } from '../../core/receipts/documents.js';
import { pageRequest, sendHtml, type PagesDeps } from './context.js';
import { html } from './html.js';
import { fromAcceptLanguage } from './i18n.js';
import { facts, payHead, renderPage, statusBlock } from './layout.js';

export function receiptPages(deps: PagesDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { token: string } }>('/:token', { schema: { hide: true } }, async (request, reply) => {
      const receipt = await deps.gateway.receipts.byToken(request.params.token);
      // The customer's language first (?lang=, then the phone's), the shop's when the phone's is none of ours.
      const pr = pageRequest(request, fromAcceptLanguage(request.headers['accept-language']) ?? receipt?.language);
      const { lang, t } = pr;
      if (!receipt) {
        const body = statusBlock('neutral', t('documents.page_missing_title'), [t('documents.page_missing_text')]);
        return sendHtml(reply, 404, renderPage({ lang, t, title: t('documents.page_missing_title'), languageHref: pr.languageHref, body }));
      }
      const sale = receipt.kind === 'sale';
      const amount = formatReceiptAmount(lang, receipt.amount, receipt.currency);
      const rows = receiptRows(lang, receipt, { chipData: false });
      const body = html`${statusBlock('ok', t('documents.page_title'), [sale ? t('documents.sale') : t('documents.refund')])}
${payHead(sale ? t('documents.total') : t('documents.refunded'), amount, html`<p class="lead"><strong>${sale ? t('documents.approved') : t('documents.refunded')}</strong></p>`)}
${facts(rows.map(([label, value]) => [label, value]))}
${facts([[t('documents.transaction'), html`<span class="mono">${receipt.receipt_id}</span>`]])}
<p class="lead small">${t('documents.keep')}</p>`;
      return sendHtml(
        reply,
        200,
        renderPage({ lang, t, title: t('documents.page_title'), merchant: receipt.merchant_name, languageHref: pr.languageHref, body }),
      );
    });
  };
}
