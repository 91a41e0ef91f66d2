/**
 * The customer's pages of a redirect payment, at the URLs the API hands out
 * (`{public_url}/pay/{transaction_id}/card|3ds|wallet|a2a|bank`), plus its result page and the
 * postform helper page. No merchant credentials: the unguessable transaction id (UUIDv7) in the URL
 * is the key. The pages show nothing beyond the merchant's name, amount, currency, order id,
 * merchant_reference and the card's last four digits.
 *
 * A page only takes the step the transaction is waiting for: another step's URL redirects (303) to
 * the right page, and a transaction that is no longer started (paid, declined, expired...) gets its
 * result page and takes no payment. Answers are POSTs from our own page (same origin); each calls
 * the core once and answers 303 to the next page or the merchant's success/error URL.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import type { Outcome } from '../../core/errors.js';
import type { CustomerStepResult } from '../../core/payments/payments.js';
import { amountOf } from '../../core/payments/views.js';
import type { CheckoutRecord } from '../../core/checkouts/ports.js';
import type { TransactionRecord } from '../../core/payments/ports.js';
import { ASSETS } from './assets.js';
import { bodyOf, fromOwnPage, nextLocation, pageRequest, seeOther, sendHtml, type PageRequest, type PagesDeps } from './context.js';
import { field, readCardForm, type CardForm, type FieldErrors } from './forms.js';
import { html, httpUrl, type HtmlValue, type SafeHtml } from './html.js';
import { formatMoney, type PageMessage, type Translate } from './i18n.js';
import { errorSummary, facts, ICONS, payHead, renderPage, statusBlock, textField } from './layout.js';

const ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

type Step = 'card' | '3ds' | 'approval' | 'revision';
type State = { kind: 'step'; step: Step } | { kind: 'expired' } | { kind: 'final' };
export type StepPage = 'card' | '3ds' | 'wallet' | 'a2a' | 'bank';

export interface LoadedTransaction {
  t: TransactionRecord;
  /** The name the customer knows: the checkout's merchant_name, else the merchant account's name. */
  merchant: string;
  checkout?: CheckoutRecord;
  /** The invoice whose pay page started the payment (D11): the way back keeps the language. */
  invoice?: { uuid: string; number: string; locale: string };
}

export async function loadTransaction(deps: PagesDeps, id: string): Promise<LoadedTransaction | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  return deps.gateway.store.read(async (r) => {
    const t = await r.transactions.getById(id);
    if (!t) return undefined;
    const account = await r.merchants.get(t.merchantId);
    const checkoutId = t.details.checkout_id;
    const checkout = checkoutId !== undefined ? await r.checkouts.get(checkoutId) : undefined;
    const sessionName = checkout && typeof checkout.request.merchant_name === 'string' ? checkout.request.merchant_name : undefined;
    const invoiceId = t.details.invoice_id;
    const stored = invoiceId !== undefined ? await r.invoices.get(invoiceId) : undefined;
    const invoice =
      stored && stored.merchantId === t.merchantId
        ? { uuid: stored.uuid, number: stored.debtClaimNumber, locale: stored.locale ?? stored.channelLanguage }
        : undefined;
    return { t, merchant: sessionName ?? account?.name ?? '', ...(checkout ? { checkout } : {}), ...(invoice ? { invoice } : {}) };
  });
}

/** The locale a payment's pages start in (before ?lang= or the browser's): its checkout's, or its invoice's. */
function localeOf(l: LoadedTransaction): string | undefined {
  return l.checkout?.locale ?? l.invoice?.locale;
}

/** Our own pages a payment may return to besides its own: the invoice pay page it came from. */
function ownPaths(l: LoadedTransaction): string[] {
  return l.invoice ? [`/pay/${l.invoice.uuid}`] : [];
}

/** A link back to the invoice pay page (another method, or later), when the payment is an invoice's. */
function invoiceBack(pr: PageRequest, l: LoadedTransaction): SafeHtml | '' {
  return l.invoice
    ? html`<p class="secondary-actions"><a href="${pr.link(`/pay/${l.invoice.uuid}`)}">${pr.t('pages.invoice_back', { number: l.invoice.number })}</a></p>`
    : '';
}

function stateOf(t: TransactionRecord, now: Date): State {
  if (t.statusCode === S.started) {
    if (t.expiresAt && Date.parse(t.expiresAt) <= now.getTime()) return { kind: 'expired' };
    const awaiting = t.details.awaiting;
    if (awaiting === 'card' || awaiting === '3ds' || awaiting === 'approval') return { kind: 'step', step: awaiting };
    return { kind: 'final' };
  }
  if (t.statusCode === S.expired) return { kind: 'expired' };
  if (t.details.subscription_status === 'approval_pending' && t.details.pending_revision) return { kind: 'step', step: 'revision' };
  return { kind: 'final' };
}

function pageOf(step: Step, t: TransactionRecord): StepPage {
  if (step === 'card' || step === '3ds') return step;
  if (t.paymentType === 'a2a') return 'a2a';
  if (t.paymentType === 'bankredirect') return 'bank';
  return 'wallet';
}

function money(pr: PageRequest, t: TransactionRecord, minor = t.amountMinor): string {
  return formatMoney(pr.lang, amountOf(t, minor), t.currency);
}

function isAccountCheck(t: TransactionRecord): boolean {
  return t.operation === 'register' || t.amountMinor === 0;
}

/**
 * Order id and merchant reference, the only merchant-supplied details a page shows; an invoice's
 * payment shows the invoice's number instead (its order id is the pay page's UUID, which means
 * nothing to the customer, and its reference repeats the number).
 */
function orderFacts(pr: PageRequest, t: TransactionRecord, extra: Array<[string, HtmlValue] | false> = []): SafeHtml {
  if (t.invoiceNumber !== null) return facts([[pr.t('pages.invoice_number'), t.invoiceNumber], ...extra]);
  return facts([
    t.orderId ? [pr.t('pages.order'), t.orderId] : false,
    t.merchantReference ? [pr.t('pages.reference'), t.merchantReference] : false,
    ...extra,
  ]);
}

function cardFact(pr: PageRequest, t: TransactionRecord): [string, HtmlValue] | false {
  return t.cardLastFour ? [pr.t('pages.card'), html`<span class="mono">•••• ${t.cardLastFour}</span>`] : false;
}

/** The merchant page a finished payment returns to, with transaction_id (and checkout_id). */
export function merchantReturn(t: TransactionRecord, checkout?: CheckoutRecord): string | null {
  const ok = ([S.completed, S.authorized, S.pending, S.refunded, S.partly_refunded] as number[]).includes(t.statusCode);
  const target = httpUrl(ok ? t.successUrl : t.errorUrl);
  if (!target) return null;
  const url = new URL(target);
  url.searchParams.set('transaction_id', t.id);
  if (checkout) url.searchParams.set('checkout_id', checkout.id);
  return url.toString();
}

export function declineReason(t: Pick<TransactionRecord, 'message' | 'reasonCode'>): PageMessage {
  const message = t.message ?? '';
  if (/authentication failed/i.test(message)) return 'pages.reason_3ds';
  const code = t.reasonCode ?? message.split(' ')[0] ?? '';
  switch (code) {
    case '05':
    case '57':
    case '62':
      return 'pages.reason_05';
    case '51':
    case '61':
      return 'pages.reason_51';
    case '54':
      return 'pages.reason_54';
    case '14':
      return 'pages.reason_14';
    case '13':
      return 'pages.reason_13';
    default:
      return /^A[CM]\d\d$|^MD\d\d$/.test(code) ? 'pages.reason_account' : 'pages.reason_generic';
  }
}

// ---- pages -----------------------------------------------------------------------------------

interface CardPageState {
  errors: FieldErrors;
  values: Partial<CardForm>;
  general?: string;
}

function cardPage(pr: PageRequest, l: LoadedTransaction, state: CardPageState = { errors: {}, values: {} }): string {
  const { t: tr } = pr;
  const { t } = l;
  const register = isAccountCheck(t);
  const err = (name: string) => (state.errors[name] ? tr(state.errors[name] as PageMessage) : undefined);
  const order = ['card_number', 'expiry', 'cvc', 'holder'];
  const firstError = order.find((name) => state.errors[name]);
  const summaryItems = order.filter((name) => state.errors[name]).map((name) => ({ name, message: err(name) as string }));
  const body = html`
<h1>${register ? tr('pages.card_title_register') : tr('pages.card_title')}</h1>
${register ? html`<p class="lead">${tr('pages.card_register_note', { merchant: l.merchant })}</p>` : payHead(tr('pages.amount'), money(pr, t), ICONS.card)}
${orderFacts(pr, t)}
<form method="post" action="${pr.link(`/pay/${t.id}/card`)}" novalidate data-validate data-busy-text="${tr('pages.busy')}">
<input type="hidden" name="step" value="card">
${errorSummary(tr, summaryItems, state.general)}
${textField({
  name: 'card_number',
  label: tr('pages.card_number'),
  error: err('card_number'),
  autocomplete: 'cc-number',
  inputmode: 'numeric',
  maxlength: 23,
  required: true,
  check: 'pan',
  format: 'pan',
  tag: true,
  first: firstError === 'card_number',
  messages: { required: tr('pages.err_pan_required'), invalid: tr('pages.err_pan_invalid') },
  extra: { spellcheck: 'false', autocorrect: 'off' },
})}
<div class="row">
${textField({
  name: 'expiry',
  label: tr('pages.expiry'),
  hint: tr('pages.expiry_hint'),
  value: state.values.expiry,
  error: err('expiry'),
  autocomplete: 'cc-exp',
  inputmode: 'numeric',
  maxlength: 7,
  required: true,
  check: 'expiry',
  format: 'expiry',
  first: firstError === 'expiry',
  messages: { required: tr('pages.err_expiry_required'), invalid: tr('pages.err_expiry_invalid'), past: tr('pages.err_expiry_past') },
})}
${textField({
  name: 'cvc',
  label: tr('pages.cvc'),
  hint: tr('pages.cvc_hint'),
  error: err('cvc'),
  autocomplete: 'cc-csc',
  inputmode: 'numeric',
  maxlength: 4,
  required: true,
  check: 'cvc',
  first: firstError === 'cvc',
  messages: { required: tr('pages.err_cvc_required'), invalid: tr('pages.err_cvc_invalid') },
})}
</div>
${textField({
  name: 'holder',
  label: tr('pages.holder'),
  hint: tr('pages.holder_hint'),
  value: state.values.holder,
  error: err('holder'),
  autocomplete: 'cc-name',
  maxlength: 120,
  required: true,
  check: 'text',
  first: firstError === 'holder',
  messages: { required: tr('pages.err_holder_required') },
  extra: { spellcheck: 'false' },
})}
<div class="actions"><button type="submit" class="btn btn-primary" data-busy>${register ? tr('pages.save_card') : tr('pages.pay')}</button></div>
</form>
<p class="note">${ICONS.lock}<span>${tr('pages.card_secure_note', { merchant: l.merchant })}</span></p>
${invoiceBack(pr, l)}`;
  return renderPage({
    lang: pr.lang,
    t: tr,
    title: register ? tr('pages.card_title_register') : tr('pages.card_title'),
    merchant: l.merchant,
    languageHref: pr.languageHref,
    body,
  });
}

function answerButtons(
  pr: PageRequest,
  yes: { value: string; label: string },
  no: { value: string; label: string; danger?: boolean },
): SafeHtml {
  return html`<div class="actions two">
<button type="submit" name="answer" value="${yes.value}" class="btn btn-primary">${yes.label}</button>
<button type="submit" name="answer" value="${no.value}" class="btn ${no.danger ? 'btn-danger' : 'btn-secondary'}">${no.label}</button>
</div>`;
}

function challengePage(pr: PageRequest, l: LoadedTransaction, general?: string): string {
  const { t: tr } = pr;
  const { t } = l;
  const body = html`
<h1>${tr('pages.tds_title')}</h1>
<p class="lead">${tr('pages.tds_intro')}</p>
${payHead(tr('pages.amount'), isAccountCheck(t) ? '—' : money(pr, t), ICONS.card)}
${orderFacts(pr, t, [cardFact(pr, t)])}
<p class="sim">${tr('pages.tds_sim')}</p>
<form method="post" action="${pr.link(`/pay/${t.id}/3ds`)}">
${general ? errorSummary(tr, [], general) : ''}
${answerButtons(pr, { value: 'approve', label: tr('pages.approve') }, { value: 'fail', label: tr('pages.fail'), danger: true })}
</form>
${invoiceBack(pr, l)}`;
  return renderPage({ lang: pr.lang, t: tr, title: tr('pages.tds_title'), merchant: l.merchant, languageHref: pr.languageHref, body });
}

const APPROVAL_TEXT: Record<'wallet' | 'a2a' | 'bank', { title: PageMessage; intro: PageMessage }> = {
  wallet: { title: 'pages.wallet_title', intro: 'pages.wallet_intro' },
  a2a: { title: 'pages.a2a_title', intro: 'pages.a2a_intro' },
  bank: { title: 'pages.bank_title', intro: 'pages.bank_intro' },
};

function approvalNotes(tr: Translate, l: LoadedTransaction, amount: string): SafeHtml[] {
  const { t } = l;
  const notes: SafeHtml[] = [];
  if (t.details.subscription_plan_id !== undefined) notes.push(html`<p>${tr('pages.subscription_note', { amount })}</p>`);
  if (t.operation === 'authorize') {
    const event = t.details.wallet_capture_event;
    const key =
      event !== undefined && ['SHIPPING', 'DELIVERY', 'AVAILABILITY', 'SERVICE_FULFILMENT', 'OTHER'].includes(event)
        ? (`pages.capture_${event}` as PageMessage)
        : 'pages.authorize_note';
    notes.push(html`<p>${tr(key, { merchant: l.merchant })}</p>`);
  }
  return notes;
}

function approvalPage(pr: PageRequest, l: LoadedTransaction, page: 'wallet' | 'a2a' | 'bank', general?: string): string {
  const { t: tr } = pr;
  const { t } = l;
  const text = APPROVAL_TEXT[page];
  const amount = money(pr, t);
  const body = html`
<h1>${tr(text.title)}</h1>
<p class="lead">${tr(text.intro)}</p>
${payHead(tr('pages.amount'), amount, page === 'wallet' ? ICONS.wallet : ICONS.bank)}
${orderFacts(pr, t)}
${approvalNotes(tr, l, amount)}
<p class="sim">${tr('pages.approval_sim')}</p>
<form method="post" action="${pr.link(`/pay/${t.id}/${page}`)}">
${general ? errorSummary(tr, [], general) : ''}
${answerButtons(pr, { value: 'approve', label: tr('pages.approve') }, { value: 'cancel', label: tr('pages.cancel') })}
</form>`;
  return renderPage({ lang: pr.lang, t: tr, title: tr(text.title), merchant: l.merchant, languageHref: pr.languageHref, body });
}

function revisionPage(pr: PageRequest, l: LoadedTransaction, general?: string): string {
  const { t: tr } = pr;
  const { t } = l;
  const amount = money(pr, t, t.details.pending_revision?.amount_minor ?? t.amountMinor);
  const body = html`
<h1>${tr('pages.revision_title')}</h1>
<p class="lead">${tr('pages.revision_intro', { merchant: l.merchant, amount })}</p>
${payHead(tr('pages.amount'), amount, ICONS.wallet)}
${orderFacts(pr, t)}
<p class="sim">${tr('pages.approval_sim')}</p>
<form method="post" action="${pr.link(`/pay/${t.id}/wallet`)}">
${general ? errorSummary(tr, [], general) : ''}
${answerButtons(pr, { value: 'approve', label: tr('pages.approve') }, { value: 'reject', label: tr('pages.reject') })}
</form>`;
  return renderPage({ lang: pr.lang, t: tr, title: tr('pages.revision_title'), merchant: l.merchant, languageHref: pr.languageHref, body });
}

interface ResultView {
  tone: 'ok' | 'bad' | 'neutral';
  title: PageMessage;
  text: string;
  stopped?: boolean;
}

function resultView(tr: Translate, l: LoadedTransaction, state: State): ResultView {
  const { t } = l;
  const vars = { merchant: l.merchant };
  if (state.kind === 'expired') return { tone: 'neutral', title: 'pages.result_expired_title', text: tr('pages.result_expired_text') };
  switch (t.statusCode) {
    case S.completed:
      return isAccountCheck(t)
        ? { tone: 'ok', title: 'pages.result_saved_title', text: tr('pages.result_saved_text', vars) }
        : { tone: 'ok', title: 'pages.result_completed_title', text: tr('pages.result_completed_text', vars) };
    case S.authorized:
      return { tone: 'ok', title: 'pages.result_authorized_title', text: tr('pages.result_authorized_text', vars) };
    case S.pending:
      return { tone: 'neutral', title: 'pages.result_pending_title', text: tr('pages.result_pending_text', vars) };
    case S.declined:
      return { tone: 'bad', title: 'pages.result_declined_title', text: tr(declineReason(t)) };
    case S.cancelled:
      return { tone: 'neutral', title: 'pages.result_cancelled_title', text: tr('pages.result_cancelled_text'), stopped: true };
    case S.error:
      return { tone: 'bad', title: 'pages.result_error_title', text: tr('pages.result_error_text') };
    default:
      return { tone: 'neutral', title: 'pages.result_closed_title', text: tr('pages.result_closed_text'), stopped: true };
  }
}

export function resultPage(pr: PageRequest, l: LoadedTransaction, state: State): string {
  const { t: tr } = pr;
  const { t } = l;
  const view = resultView(tr, l, state);
  const back = merchantReturn(t, l.checkout);
  const target = back ? nextLocation(back, `/pay/${t.id}/`, pr.lang, ownPaths(l)) : null;
  const after = html`
${facts([[tr('pages.amount'), money(pr, t)], t.orderId ? [tr('pages.order'), t.orderId] : false, t.merchantReference ? [tr('pages.reference'), t.merchantReference] : false, cardFact(pr, t)])}
${target ? html`<div class="actions"><a class="btn btn-primary" href="${target}">${tr('pages.continue_to', { merchant: l.merchant })}</a></div>` : html`<p class="muted">${tr('pages.close_page')}</p>`}`;
  const body = statusBlock(view.tone, tr(view.title), [view.text], after, view.stopped);
  return renderPage({ lang: pr.lang, t: tr, title: tr(view.title), merchant: l.merchant, languageHref: pr.languageHref, body });
}

export function notFoundPage(pr: PageRequest, title: PageMessage = 'pages.not_found_title'): string {
  const body = statusBlock('bad', pr.t(title), [pr.t('pages.not_found_text')]);
  return renderPage({ lang: pr.lang, t: pr.t, title: pr.t(title), languageHref: pr.languageHref, body });
}

function postformPage(pr: PageRequest, l: LoadedTransaction, action: string, fields: Record<string, string>): string {
  const { t: tr } = pr;
  const inputs = Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const body = html`
<div class="status tone-neutral">
<div class="status-icon">${ICONS.neutral}</div>
<h1>${tr('pages.redirect_title')}</h1>
<p class="lead">${tr('pages.redirect_text')}</p>
<form method="post" action="${action}" data-autosubmit>
${inputs}
<noscript><div class="actions"><button type="submit" class="btn btn-primary">${tr('pages.continue')}</button></div></noscript>
</form>
</div>`;
  return renderPage({ lang: pr.lang, t: tr, title: tr('pages.redirect_title'), merchant: l.merchant, languageHref: pr.languageHref, body });
}

// ---- routes ----------------------------------------------------------------------------------

interface IdParams {
  transaction_id: string;
}

export function transactionPages(deps: PagesDeps): FastifyPluginAsync {
  const { gateway } = deps;
  const hide = { schema: { hide: true } };

  return async (app) => {
    app.setNotFoundHandler((request, reply) => sendHtml(reply, 404, notFoundPage(pageRequest(request, null))));

    const targets = (t: TransactionRecord) => [t.successUrl, t.errorUrl];

    async function step(request: FastifyRequest<{ Params: IdParams }>, reply: FastifyReply, page: StepPage) {
      const id = request.params.transaction_id;
      const l = await loadTransaction(deps, id);
      if (!l) return sendHtml(reply, 404, notFoundPage(pageRequest(request, null)));
      const pr = pageRequest(request, localeOf(l));
      const post = request.method === 'POST';
      const state = stateOf(l.t, gateway.clock.now());
      if (state.kind !== 'step') return sendHtml(reply, post ? 409 : 200, resultPage(pr, l, state), targets(l.t));
      const expected = pageOf(state.step, l.t);
      if (expected !== page) return seeOther(reply, pr.link(`/pay/${id}/${expected}`));

      const render = (status: number, general?: string, card?: CardPageState) => {
        const markup =
          state.step === 'card'
            ? cardPage(pr, l, card ?? { errors: {}, values: {}, ...(general ? { general } : {}) })
            : state.step === '3ds'
              ? challengePage(pr, l, general)
              : state.step === 'revision'
                ? revisionPage(pr, l, general)
                : approvalPage(pr, l, page as 'wallet' | 'a2a' | 'bank', general);
        return sendHtml(reply, status, markup, targets(l.t));
      };
      const finish = (outcome: Outcome<CustomerStepResult>, retry: () => FastifyReply) => {
        if (outcome.ok) {
          const to = outcome.value.redirectTo;
          return seeOther(reply, to ? nextLocation(to, `/pay/${id}/`, pr.lang, ownPaths(l)) : pr.link(`/pay/${id}/result`));
        }
        if (outcome.error.error_code === ErrorCode.notFound) return sendHtml(reply, 404, notFoundPage(pr));
        if (outcome.error.error_code === ErrorCode.processor) return retry();
        // The transaction moved on meanwhile (another tab, expiry): show where it stands.
        return seeOther(reply, pr.link(`/pay/${id}/result`));
      };

      const body = bodyOf(request);
      // Only an answer from our own page acts; anything else (a GET, a merchant's postform) shows the page.
      if (!post || !fromOwnPage(request, deps)) return render(200);
      const answer = field(body, 'answer');
      switch (state.step) {
        case 'card': {
          if (field(body, 'step') !== 'card') return render(200);
          const form = readCardForm(body, gateway.clock.now());
          if (!form.card) return render(422, undefined, { errors: form.errors, values: form.values });
          const outcome = await gateway.payments.submitCard(id, form.card);
          return finish(outcome, () => render(502, undefined, { errors: {}, values: form.values, general: pr.t('pages.err_processor') }));
        }
        case '3ds': {
          if (answer !== 'approve' && answer !== 'fail') return render(200);
          return finish(await gateway.payments.completeChallenge(id, answer === 'approve'), () => render(502, pr.t('pages.err_processor')));
        }
        case 'approval': {
          if (answer !== 'approve' && answer !== 'cancel') return render(200);
          return finish(await gateway.payments.completeRedirect(id, answer === 'approve' ? 'approved' : 'cancelled'), () =>
            render(502, pr.t('pages.err_processor')),
          );
        }
        case 'revision': {
          if (answer !== 'approve' && answer !== 'reject') return render(200);
          return finish(await gateway.payments.completeRedirect(id, answer === 'approve' ? 'approved' : 'cancelled'), () =>
            render(502, pr.t('pages.err_processor')),
          );
        }
      }
    }

    for (const page of ['card', '3ds', 'wallet', 'a2a', 'bank'] as const) {
      app.get<{ Params: IdParams }>(`/:transaction_id/${page}`, hide, (request, reply) => step(request, reply, page));
      app.post<{ Params: IdParams }>(`/:transaction_id/${page}`, hide, (request, reply) => step(request, reply, page));
    }

    app.get<{ Params: IdParams }>('/:transaction_id/result', hide, async (request, reply) => {
      const id = request.params.transaction_id;
      const l = await loadTransaction(deps, id);
      if (!l) return sendHtml(reply, 404, notFoundPage(pageRequest(request, null)));
      const pr = pageRequest(request, localeOf(l));
      const state = stateOf(l.t, gateway.clock.now());
      if (state.kind === 'step') return seeOther(reply, pr.link(`/pay/${id}/${pageOf(state.step, l.t)}`));
      return sendHtml(reply, 200, resultPage(pr, l, state), targets(l.t));
    });

    // The postform client action as a page: a form with the action's fields that the script submits.
    app.get<{ Params: IdParams }>('/:transaction_id/postform', hide, async (request, reply) => {
      const id = request.params.transaction_id;
      const l = await loadTransaction(deps, id);
      if (!l) return sendHtml(reply, 404, notFoundPage(pageRequest(request, null)));
      const pr = pageRequest(request, localeOf(l));
      const state = stateOf(l.t, gateway.clock.now());
      const action = l.t.details.client_action;
      const url = httpUrl(action?.action_data?.url);
      if (state.kind !== 'step' || !action || !url) return seeOther(reply, pr.link(`/pay/${id}/result`));
      const fields: Record<string, string> = {};
      if (action.client_action === 'postform') {
        for (const [name, value] of Object.entries(action.action_data.fields ?? {})) if (typeof value === 'string') fields[name] = value;
      }
      const target = nextLocation(url, `/pay/${id}/`, pr.lang);
      return sendHtml(reply, 200, postformPage(pr, l, target, fields), [url]);
    });

    app.get<{ Params: { file: string } }>('/assets/:file', hide, async (request, reply) => {
      const asset = Object.hasOwn(ASSETS, request.params.file) ? ASSETS[request.params.file] : undefined;
      if (!asset) return reply.code(404).header('Content-Type', 'text/plain; charset=utf-8').send('Not found');
      const current = (request.query as Record<string, unknown>).v === asset.version;
      return reply
        .code(200)
        .header('Content-Type', asset.type)
        .header('Cache-Control', current ? 'public, max-age=31536000, immutable' : 'no-cache')
        .header('ETag', `"${asset.version}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cross-Origin-Resource-Policy', 'same-origin')
        .send(asset.body);
    });
  };
}
