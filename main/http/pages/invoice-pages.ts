/**
 * The invoice pay page (decisions.md D11) at `{public_url}/pay/{uuid}`: the channel's name, the
 * invoice number, description, customer and the amount due (a payment plan's next instalment),
 * and the methods the currency allows (card, SEPA Direct Debit, wallet). SEPA adds the mandate
 * step of the checkout page. Paying starts the payment through gateway.invoicePayments and sends
 * the customer on with 303 to the card or approval page, or back here for the result; the
 * customer's language (`lang`) goes along and comes back. Back here with `?transaction_id=` of a
 * declined, failed, cancelled or expired attempt, the page says what happened in the customer's
 * words (never card data) above the form. A payment started and not finished can be continued
 * from here, or replaced by choosing a method again. Inactive, expired, paid or unknown invoices,
 * and those whose SEPA debit awaits settlement, get a page of their own and take no payment.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../contract/codes.js';
import type { CustomerInvoice, FailedAttempt } from '../../core/invoices/invoice-payments.js';
import { METHOD_KEYS, methodIcon } from './checkout-pages.js';
import {
  bodyOf,
  fromOwnPage,
  nextLocation,
  pageRequest,
  queryOf,
  seeOther,
  sendHtml,
  type PageRequest,
  type PagesDeps,
} from './context.js';
import { field, readSepaForm, type FieldErrors } from './forms.js';
import { attrs, html, type SafeHtml } from './html.js';
import { formatMoney, type PageMessage } from './i18n.js';
import { errorSummary, facts, fieldId, ICONS, payHead, renderPage, statusBlock } from './layout.js';
import { sepaMandateForm, type SepaState } from './sepa-mandate.js';
import { declineReason, notFoundPage } from './transaction-pages.js';

const UUID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

function money(pr: PageRequest, inv: CustomerInvoice, amount: number): string {
  return formatMoney(pr.lang, amount, inv.currency);
}

function details(pr: PageRequest, inv: CustomerInvoice) {
  const { t } = pr;
  return facts([
    [t('pages.invoice_number'), inv.number],
    inv.description ? [t('pages.description'), inv.description] : false,
    inv.customer_name ? [t('pages.invoice_customer'), inv.customer_name] : false,
    inv.instalment ? [t('pages.total'), money(pr, inv, inv.total)] : false,
  ]);
}

/** The short reason of a decline for "Your card was declined: {reason}." (pages.reason_generic has none). */
const WHY: Partial<Record<PageMessage, PageMessage>> = {
  'pages.reason_05': 'pages.why_05',
  'pages.reason_51': 'pages.why_51',
  'pages.reason_54': 'pages.why_54',
  'pages.reason_14': 'pages.why_14',
  'pages.reason_13': 'pages.why_13',
  'pages.reason_3ds': 'pages.why_3ds',
  'pages.reason_account': 'pages.why_account',
};

/** What became of the attempt the customer came back from, and what to do now; no card data. */
function attemptNotice(pr: PageRequest, attempt: FailedAttempt): SafeHtml {
  const { t } = pr;
  const card = attempt.payment_type === 'cardecom';
  let title: string;
  let next: PageMessage = 'pages.invoice_retry_other';
  switch (attempt.status) {
    case 'declined': {
      const why = WHY[declineReason({ message: attempt.message, reasonCode: attempt.reason_code })];
      title = why
        ? t(card ? 'pages.invoice_declined_card' : 'pages.invoice_declined', { reason: t(why) })
        : t(card ? 'pages.invoice_declined_card_plain' : 'pages.invoice_declined_plain');
      break;
    }
    case 'error':
      title = t('pages.invoice_error_attempt');
      break;
    case 'cancelled':
      title = t('pages.invoice_cancelled');
      next = 'pages.invoice_retry';
      break;
    case 'expired':
      title = t('pages.invoice_expired_attempt');
      next = 'pages.invoice_retry';
      break;
  }
  const bad = attempt.status === 'declined' || attempt.status === 'error';
  return html`<div class="notice${bad ? ' tone-bad' : ''}" role="${bad ? 'alert' : 'status'}"><p class="notice-title">${title}</p><p>${t(next)}</p></div>`;
}

/** A payment started here and not finished: continue it, or choose again below (which cancels it). */
function openNotice(pr: PageRequest, open: NonNullable<CustomerInvoice['open_attempt']>): SafeHtml {
  const { t } = pr;
  return html`<div class="notice" role="status"><p class="notice-title">${t('pages.invoice_open_title')}</p><p>${t('pages.invoice_open_text')}</p>
<div class="actions"><a class="btn btn-secondary" href="${pr.link(open.continue_path)}">${t('pages.continue_payment')}</a></div></div>`;
}

function payForm(pr: PageRequest, inv: CustomerInvoice, chosen: string | undefined, errors: FieldErrors, general?: string): string {
  const { t } = pr;
  const selected = chosen ?? inv.methods[0];
  const options = inv.methods.map((method) => {
    const keys = METHOD_KEYS[method];
    return html`<label class="method" for="f-method-${method}"><input type="radio" id="f-method-${method}" name="method" value="${method}"${attrs({ checked: method === selected })}><span class="method-text"><span class="method-name">${keys ? t(keys.name) : method}</span>${keys ? html`<span class="method-hint">${keys.hint ? t(keys.hint) : ''}</span>` : ''}</span>${methodIcon(method)}</label>`;
  });
  const methodError = errors.method ? t(errors.method) : '';
  const body = html`
<h1>${t('pages.invoice_title', { number: inv.number })}</h1>
${inv.failed_attempt ? attemptNotice(pr, inv.failed_attempt) : ''}
${inv.open_attempt ? openNotice(pr, inv.open_attempt) : ''}
${payHead(t('pages.invoice_amount_due'), money(pr, inv, inv.amount_due), ICONS.card)}
${inv.instalment ? html`<p class="muted">${t('pages.invoice_instalment', { number: String(inv.instalment.number), of: String(inv.instalment.of), date: inv.instalment.due_date })}</p>` : ''}
${details(pr, inv)}
<form method="post" action="${pr.link(`/pay/${inv.uuid}`)}" novalidate data-validate data-busy-text="${t('pages.busy')}">
${errorSummary(t, errors.method ? [{ name: 'method', message: methodError }] : [], general)}
<fieldset class="field methods${methodError ? ' invalid' : ''}" id="${fieldId('method')}" data-check="radio" data-msg-required="${t('pages.err_method_required')}" aria-describedby="${fieldId('method')}-error">
<legend>${t('pages.payment_method')}</legend>
${options}
<p class="error" id="${fieldId('method')}-error">${methodError}</p>
</fieldset>
<div class="actions"><button type="submit" class="btn btn-primary" data-busy>${t('pages.invoice_pay')}</button></div>
</form>`;
  return renderPage({
    lang: pr.lang,
    t,
    title: t('pages.invoice_title', { number: inv.number }),
    merchant: inv.merchant_name,
    languageHref: pr.languageHref,
    body,
  });
}

function sepaPage(pr: PageRequest, inv: CustomerInvoice, state: SepaState): string {
  const { t } = pr;
  const body = html`
<h1>${t('pages.sepa_title')}</h1>
<p class="lead">${t('pages.sepa_intro')}</p>
${payHead(t('pages.invoice_amount_due'), money(pr, inv, inv.amount_due), ICONS.bank)}
${facts([
  [t('pages.creditor'), inv.merchant_name],
  [t('pages.invoice_number'), inv.number],
])}
${sepaMandateForm(pr, state, {
  action: `/pay/${inv.uuid}`,
  hidden: html`<input type="hidden" name="method" value="dd"><input type="hidden" name="step" value="sepa">`,
  holder: state.accountHolder ?? inv.customer_name ?? '',
  merchant: inv.merchant_name,
})}`;
  return renderPage({ lang: pr.lang, t, title: t('pages.sepa_title'), merchant: inv.merchant_name, languageHref: pr.languageHref, body });
}

function statusPage(pr: PageRequest, inv: CustomerInvoice): string {
  const { t } = pr;
  const blocked = inv.blocked ?? 'processing';
  const keys: Record<typeof blocked, [PageMessage, PageMessage, 'ok' | 'bad' | 'neutral']> = {
    paid: ['pages.invoice_paid_title', 'pages.invoice_paid_text', 'ok'],
    inactive: ['pages.invoice_inactive_title', 'pages.invoice_inactive_text', 'bad'],
    expired: ['pages.invoice_expired_title', 'pages.invoice_expired_text', 'neutral'],
    processing: ['pages.invoice_processing_title', 'pages.invoice_processing_text', 'neutral'],
  };
  const [title, text, tone] = keys[blocked];
  const after = html`${facts([
    [t('pages.invoice_number'), inv.number],
    [t('pages.total'), money(pr, inv, inv.total)],
  ])}<p class="muted">${t('pages.close_page')}</p>`;
  const body = statusBlock(tone, t(title), [t(text, { merchant: inv.merchant_name })], after, blocked === 'inactive');
  return renderPage({ lang: pr.lang, t, title: t(title), merchant: inv.merchant_name, languageHref: pr.languageHref, body });
}

interface UuidParams {
  uuid: string;
}

export function invoicePages(deps: PagesDeps): FastifyPluginAsync {
  const { gateway } = deps;
  const hide = { schema: { hide: true } };

  async function load(uuid: string, attempt?: unknown): Promise<CustomerInvoice | undefined> {
    if (!UUID_PATTERN.test(uuid)) return undefined;
    return gateway.invoicePayments.forCustomer(uuid, typeof attempt === 'string' && UUID_PATTERN.test(attempt) ? { attempt } : {});
  }

  const missing = (request: FastifyRequest, reply: FastifyReply) =>
    sendHtml(reply, 404, notFoundPage(pageRequest(request, null), 'pages.invoice_not_found_title'));

  return async (app) => {
    // The postback of an invoice's payment: the invoice already followed its transaction, so it is only acknowledged.

    app.get<{ Params: UuidParams }>('/:uuid', hide, async (request, reply) => {
      // Back from a payment step: its error_url return names the attempt (transaction_id).
      const inv = await load(request.params.uuid, queryOf(request).transaction_id);
      if (!inv) return missing(request, reply);
      const pr = pageRequest(request, inv.locale);
      if (inv.blocked) return sendHtml(reply, 200, statusPage(pr, inv));
      return sendHtml(reply, 200, payForm(pr, inv, undefined, {}));
    });

    app.post<{ Params: UuidParams }>('/:uuid', hide, async (request, reply) => {
      const inv = await load(request.params.uuid);
      if (!inv) return missing(request, reply);
      const pr = pageRequest(request, inv.locale);
      if (inv.blocked) return sendHtml(reply, 409, statusPage(pr, inv));
      if (!fromOwnPage(request, deps)) return sendHtml(reply, 200, payForm(pr, inv, undefined, {}));
      const body = bodyOf(request);
      const method = field(body, 'method');
      if (field(body, 'back') === '1') return sendHtml(reply, 200, payForm(pr, inv, method, {}));
      if (!method || !(inv.methods as string[]).includes(method))
        return sendHtml(reply, 422, payForm(pr, inv, undefined, { method: 'pages.err_method_required' }));
      let mandate: ReturnType<typeof readSepaForm> | undefined;
      if (method === 'dd') {
        if (field(body, 'step') !== 'sepa') return sendHtml(reply, 200, sepaPage(pr, inv, { errors: {} }));
        mandate = readSepaForm(body);
        if (Object.keys(mandate.errors).length)
          return sendHtml(
            reply,
            422,
            sepaPage(pr, inv, { iban: mandate.iban, accountHolder: mandate.accountHolder, errors: mandate.errors }),
          );
      }
      const outcome = await gateway.invoicePayments.pay(inv.uuid, {
        method,
        ...(mandate ? { iban: mandate.iban, account_holder: mandate.accountHolder } : {}),
      });
      if (outcome.ok)
        return seeOther(
          reply,
          nextLocation(outcome.value.redirectTo, `/pay/${outcome.value.transaction_id}/`, pr.lang, [`/pay/${inv.uuid}`]),
        );
      const error = outcome.error;
      if (error.error_code === ErrorCode.notFound) return missing(request, reply);
      if (error.error_code === ErrorCode.invalidState) return seeOther(reply, pr.link(`/pay/${inv.uuid}`));
      const status = error.error_code === ErrorCode.processor ? 502 : 422;
      const general = error.error_code === ErrorCode.processor ? pr.t('pages.err_processor') : pr.t('pages.err_checkout_general');
      if (mandate) {
        const errors: FieldErrors = {};
        if (error.errors.some((e) => e.field === 'iban')) errors.iban = 'pages.err_iban_invalid';
        return sendHtml(reply, status, sepaPage(pr, inv, { iban: mandate.iban, accountHolder: mandate.accountHolder, errors, general }));
      }
      return sendHtml(reply, status, payForm(pr, inv, method, {}, general));
    });
  };
}
