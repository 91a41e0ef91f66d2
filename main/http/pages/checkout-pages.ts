/**
 * The hosted checkout page (docs/api.md "Hosted checkout", "Customer pages") at
 * `{public_url}/checkout/{checkout_id}`: the merchant's name and total, the order details when the
 * session asks, the fields its collect_* flags ask for (pre-filled from prefill_customer_info), the
 * merchant's enabled payment types, manual payment instructions when asked, and Cancel. Choosing
 * SEPA Direct Debit adds a mandate step (account holder, IBAN, mandate text). The page calls
 * gateway.checkouts (forCustomer / pay / cancel) and sends the customer on with 303: to the card or
 * approval page of the new payment, or to the merchant's success/error URL.
 */
import countries from 'i18n-iso-countries';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import type { CustomerCheckout } from '../../core/checkouts/sessions.js';
import type { TransactionRecord } from '../../core/payments/ports.js';
import { bodyOf, fromOwnPage, nextLocation, pageRequest, seeOther, sendHtml, type PageRequest, type PagesDeps } from './context.js';
import {
  field,
  GENDERS,
  groupIban,
  OPTIONAL_ADDRESS_FIELDS,
  readCustomerForm,
  readSepaForm,
  TEXT_MAX,
  type AddressField,
  type FieldErrors,
} from './forms.js';
import { attrs, html, httpUrl, type SafeHtml } from './html.js';
import { countryName, formatMoney, intlLocale, type Lang, type PageMessage } from './i18n.js';
import { errorSummary, facts, fieldId, ICONS, payHead, renderPage, selectField, statusBlock, textField } from './layout.js';
import { sepaMandateForm, type SepaState } from './sepa-mandate.js';
import { notFoundPage } from './transaction-pages.js';

type Checkout = CustomerCheckout;
const ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;
const SEPA_METHODS: ReadonlySet<string> = new Set(['dd', 'dd_b2b']);

const countryOptions = new Map<Lang, Array<{ value: string; label: string }>>();

function countriesFor(lang: Lang): Array<{ value: string; label: string }> {
  let options = countryOptions.get(lang);
  if (!options) {
    const collator = new Intl.Collator(intlLocale(lang));
    options = Object.keys(countries.getAlpha2Codes())
      .map((code) => ({ value: code, label: countryName(lang, code) }))
      .sort((a, b) => collator.compare(a.label, b.label));
    countryOptions.set(lang, options);
  }
  return options;
}

function money(pr: PageRequest, cs: Checkout, amount: number): string {
  return formatMoney(pr.lang, amount, cs.currency);
}

export function methodIcon(method: string): SafeHtml {
  if (method === 'cardecom') return ICONS.card;
  if (method === 'wallet') return ICONS.wallet;
  return ICONS.bank;
}

/** Each method's name and hint (a device wallet has no hint). */
export const METHOD_KEYS: Record<string, { name: PageMessage; hint?: PageMessage }> = {
  cardecom: { name: 'pages.method_cardecom', hint: 'pages.method_hint_cardecom' },
  dd: { name: 'pages.method_dd', hint: 'pages.method_hint_dd' },
  dd_b2b: { name: 'pages.method_dd_b2b', hint: 'pages.method_hint_dd_b2b' },
  wallet: { name: 'pages.method_wallet', hint: 'pages.method_hint_wallet' },
  a2a: { name: 'pages.method_a2a', hint: 'pages.method_hint_a2a' },
  bankredirect: { name: 'pages.method_bankredirect', hint: 'pages.method_hint_bankredirect' },
  devicewallet: { name: 'pages.method_devicewallet' },
};

/** The merchant page the customer returns to from a finished or abandoned checkout. */
function checkoutReturn(cs: Checkout, ok: boolean): string | null {
  const target = httpUrl(ok ? cs.success_url : cs.error_url);
  if (!target) return null;
  const url = new URL(target);
  if (cs.transaction_id) url.searchParams.set('transaction_id', cs.transaction_id);
  url.searchParams.set('checkout_id', cs.id);
  return url.toString();
}

// ---- the checkout form -----------------------------------------------------------------------

/** The label key of a customer field (shipping_city -> city). */
function fieldLabel(name: string): PageMessage {
  return `pages.${name.replace(/^shipping_/, '')}` as PageMessage;
}

interface FormState {
  values: Record<string, string>;
  shippingSame: boolean;
  method?: string;
  errors: FieldErrors;
  general?: string;
}

function orderSummary(pr: PageRequest, cs: Checkout): SafeHtml {
  const { t } = pr;
  const details = cs.display_transaction_details
    ? html`<h2>${t('pages.order_summary')}</h2>
${facts([
  [t('pages.order'), cs.order_id],
  cs.reference ? [t('pages.reference'), cs.reference] : false,
  cs.description ? [t('pages.description'), cs.description] : false,
  [t('pages.subtotal'), money(pr, cs, cs.amount)],
  cs.amount_taxes ? [t('pages.taxes'), money(pr, cs, cs.amount_taxes)] : false,
  cs.amount_shipping ? [t('pages.shipping'), money(pr, cs, cs.amount_shipping)] : false,
])}
${facts([[t('pages.total'), money(pr, cs, cs.total_amount)]], 'facts total')}`
    : '';
  return html`<section class="panel summary" aria-labelledby="summary-title">
<h1 id="summary-title">${t('pages.pay_to', { merchant: cs.merchant_name })}</h1>
<p class="amount">${money(pr, cs, cs.total_amount)}</p>
${cs.display_transaction_details ? '' : html`<p class="muted small">${t('pages.order')}: ${cs.order_id}</p>`}
${details}
</section>`;
}

function manualInstructions(pr: PageRequest, cs: Checkout): SafeHtml {
  if (!cs.instructions.show || !cs.instructions.iban) return html``;
  const { t } = pr;
  return html`<section class="panel extra instructions" aria-labelledby="manual-title">
<h2 id="manual-title">${t('pages.manual_title')}</h2>
<p class="muted">${t('pages.manual_text')}</p>
${facts([
  cs.instructions.account_holder ? [t('pages.account_holder'), cs.instructions.account_holder] : false,
  [t('pages.iban'), html`<span class="mono">${groupIban(cs.instructions.iban)}</span>`],
  cs.instructions.bic ? [t('pages.bic'), html`<span class="mono">${cs.instructions.bic}</span>`] : false,
  [t('pages.reference'), cs.reference ?? cs.order_id],
  [t('pages.amount'), money(pr, cs, cs.total_amount)],
])}
</section>`;
}

function customerFields(pr: PageRequest, cs: Checkout, state: FormState, firstError: string | undefined): SafeHtml {
  const { t } = pr;
  const value = (name: string) =>
    state.values[name] ?? cs.prefill[name] ?? (name.startsWith('shipping_') ? cs.prefill[name.slice('shipping_'.length)] : undefined) ?? '';
  const error = (name: string) => (state.errors[name] ? t(state.errors[name] as PageMessage) : undefined);
  const required = { required: t('pages.err_required') };
  const parts: SafeHtml[] = [];

  const personal: SafeHtml[] = [];
  if (cs.collect.dob) {
    personal.push(
      textField({
        name: 'dob',
        label: t('pages.dob'),
        labelInSummary: true,
        type: 'date',
        value: value('dob'),
        error: error('dob'),
        autocomplete: 'bday',
        required: true,
        check: 'date',
        first: firstError === 'dob',
        messages: { ...required, invalid: t('pages.err_dob_invalid') },
      }),
    );
  }
  if (cs.collect.phone) {
    personal.push(
      textField({
        name: 'phone',
        label: t('pages.phone'),
        labelInSummary: true,
        type: 'tel',
        value: value('phone'),
        error: error('phone'),
        autocomplete: 'tel',
        inputmode: 'tel',
        maxlength: 25,
        required: true,
        check: 'phone',
        first: firstError === 'phone',
        messages: { ...required, invalid: t('pages.err_phone_invalid') },
      }),
    );
  }
  if (cs.collect.gender) {
    personal.push(
      selectField({
        name: 'gender',
        label: t('pages.gender'),
        labelInSummary: true,
        placeholder: t('pages.choose'),
        value: value('gender'),
        error: error('gender'),
        required: true,
        first: firstError === 'gender',
        messages: required,
        options: GENDERS.map((g) => ({ value: g, label: t(`pages.gender_${g}`) })),
      }),
    );
  }
  if (personal.length) parts.push(html`<fieldset><legend>${t('pages.your_details')}</legend>${personal}</fieldset>`);

  const address = (prefix: '' | 'shipping_', section: 'billing' | 'shipping') => {
    const spec = (name: AddressField, autocomplete: string) => {
      const key = `${prefix}${name}`;
      const optional = OPTIONAL_ADDRESS_FIELDS.has(name);
      return textField({
        name: key,
        label: t(`pages.${name}`),
        labelInSummary: true,
        value: value(key),
        error: error(key),
        autocomplete: `${section} ${autocomplete}`,
        maxlength: TEXT_MAX,
        required: !optional,
        check: 'text',
        first: firstError === key,
        messages: required,
        ...(optional ? { optionalText: t('pages.optional') } : {}),
      });
    };
    return html`<div class="row">${spec('first_name', 'given-name')}${spec('last_name', 'family-name')}</div>
${spec('company', 'organization')}
${spec('address', 'address-line1')}
${spec('address2', 'address-line2')}
<div class="row">${spec('postal_code', 'postal-code')}${spec('city', 'address-level2')}</div>
${spec('state', 'address-level1')}
${selectField({
  name: `${prefix}country`,
  label: t('pages.country'),
  labelInSummary: true,
  placeholder: t('pages.choose'),
  value: value(`${prefix}country`),
  error: error(`${prefix}country`),
  required: true,
  autocomplete: `${section} country`,
  first: firstError === `${prefix}country`,
  messages: { required: t('pages.err_country_invalid') },
  options: countriesFor(pr.lang),
})}`;
  };
  if (cs.collect.billing_address)
    parts.push(html`<fieldset><legend>${t('pages.billing_address')}</legend>${address('', 'billing')}</fieldset>`);
  if (cs.collect.shipping_address) {
    const same = cs.collect.billing_address
      ? html`<div class="same"><div class="check"><input type="checkbox" id="f-shipping_same" name="shipping_same" value="1"${attrs({ checked: state.shippingSame })}><label for="f-shipping_same">${t('pages.same_as_billing')}</label></div></div>`
      : '';
    parts.push(
      html`<fieldset><legend>${t('pages.shipping_address')}</legend>${same}<div class="shipping-fields">${address('shipping_', 'shipping')}</div></fieldset>`,
    );
  }
  return html`${parts}`;
}

function methodChoice(pr: PageRequest, cs: Checkout, state: FormState, first: boolean): SafeHtml {
  const { t } = pr;
  const chosen = state.method ?? cs.methods[0];
  const error = state.errors.method ? t(state.errors.method) : '';
  const options = cs.methods.map((method, index) => {
    const keys = METHOD_KEYS[method];
    const hint = keys?.hint ? t(keys.hint) : '';
    return html`<label class="method" for="f-method-${method}"><input type="radio" id="f-method-${method}" name="method" value="${method}"${attrs(
      {
        checked: method === chosen,
        'data-first-error': first && index === 0 ? true : undefined,
      },
    )}><span class="method-text"><span class="method-name">${keys ? t(keys.name) : method}</span>${hint ? html`<span class="method-hint">${hint}</span>` : ''}</span>${methodIcon(method)}</label>`;
  });
  return html`<fieldset class="field methods${error ? ' invalid' : ''}" id="${fieldId('method')}" data-check="radio" data-msg-required="${t('pages.err_method_required')}" aria-describedby="${fieldId('method')}-error">
<legend>${t('pages.payment_method')}</legend>
${options}
<p class="error" id="${fieldId('method')}-error">${error}</p>
</fieldset>`;
}

function checkoutForm(pr: PageRequest, cs: Checkout, state: FormState): string {
  const { t } = pr;
  const order = [...Object.keys(state.errors).filter((name) => name !== 'method'), ...(state.errors.method ? ['method'] : [])];
  const firstError = order[0];
  const summary = order.map((name) => ({
    name,
    message: name === 'method' ? t(state.errors[name] as PageMessage) : `${t(fieldLabel(name))}: ${t(state.errors[name] as PageMessage)}`,
  }));
  const body = html`<div class="checkout">
${orderSummary(pr, cs)}
<section class="panel form-panel" aria-label="${t('pages.checkout_title')}">
<form method="post" action="${pr.link(`/checkout/${cs.id}`)}" novalidate data-validate data-busy-text="${t('pages.busy')}">
${errorSummary(t, summary, state.general)}
${customerFields(pr, cs, state, firstError)}
${methodChoice(pr, cs, state, firstError === 'method')}
<div class="actions"><button type="submit" class="btn btn-primary" data-busy>${t('pages.continue')}</button></div>
</form>
<form method="post" action="${pr.link(`/checkout/${cs.id}/cancel`)}" class="secondary-actions">
<button type="submit" class="linkish">${t('pages.cancel_checkout', { merchant: cs.merchant_name })}</button>
</form>
</section>
${manualInstructions(pr, cs)}
</div>`;
  return renderPage({
    lang: pr.lang,
    t,
    title: t('pages.checkout_title'),
    merchant: cs.merchant_name,
    languageHref: pr.languageHref,
    body,
    wide: true,
    bare: true,
  });
}

// ---- SEPA mandate step -----------------------------------------------------------------------

function sepaPage(pr: PageRequest, cs: Checkout, form: FormState, state: SepaState): string {
  const { t } = pr;
  const hidden = [
    ...Object.entries(form.values).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`),
    form.shippingSame ? html`<input type="hidden" name="shipping_same" value="1">` : '',
    html`<input type="hidden" name="method" value="${form.method ?? 'dd'}">`,
    html`<input type="hidden" name="step" value="sepa">`,
  ];
  const holder =
    state.accountHolder ??
    [form.values.first_name ?? cs.prefill.first_name, form.values.last_name ?? cs.prefill.last_name].filter(Boolean).join(' ');
  const body = html`
<h1>${t('pages.sepa_title')}</h1>
<p class="lead">${t('pages.sepa_intro')}</p>
${payHead(t('pages.amount'), money(pr, cs, cs.total_amount), ICONS.bank)}
${facts([
  [t('pages.creditor'), cs.merchant_name],
  [t('pages.order'), cs.order_id],
])}
${sepaMandateForm(pr, state, { action: `/checkout/${cs.id}`, hidden, holder, merchant: cs.merchant_name })}`;
  return renderPage({ lang: pr.lang, t, title: t('pages.sepa_title'), merchant: cs.merchant_name, languageHref: pr.languageHref, body });
}

// ---- sessions that are not open --------------------------------------------------------------

function statusPage(pr: PageRequest, cs: Checkout, status: Checkout['status'], tx: TransactionRecord | undefined, now: Date): string {
  const { t } = pr;
  let tone: 'ok' | 'bad' | 'neutral' = 'neutral';
  let title: PageMessage;
  let text: PageMessage;
  let target: string | null = null;
  let targetLabel = t('pages.continue_to', { merchant: cs.merchant_name });
  let stopped = false;
  switch (status) {
    case 'completed':
      tone = 'ok';
      title = 'pages.checkout_completed_title';
      text = 'pages.checkout_completed_text';
      target = checkoutReturn(cs, true);
      break;
    case 'cancelled':
      stopped = true;
      title = 'pages.checkout_cancelled_title';
      text = 'pages.checkout_cancelled_text';
      target = checkoutReturn(cs, false);
      break;
    case 'expired':
      title = 'pages.checkout_expired_title';
      text = 'pages.checkout_expired_text';
      target = checkoutReturn(cs, false);
      break;
    default: {
      // processing: a payment was started; lead the customer back into it, or say it is underway.
      const step = tx && tx.statusCode === S.started && !(tx.expiresAt && Date.parse(tx.expiresAt) <= now.getTime());
      if (tx && tx.statusCode === S.pending) {
        title = 'pages.result_pending_title';
        text = 'pages.result_pending_text';
        target = checkoutReturn(cs, true);
      } else {
        title = 'pages.checkout_processing_title';
        text = 'pages.checkout_processing_text';
        const url = step ? httpUrl(tx.details.client_action?.action_data.url) : null;
        if (url && tx) {
          target = pr.link(new URL(url).pathname);
          targetLabel = t('pages.continue_payment');
        }
      }
    }
  }
  const after = html`${facts([
    [t('pages.total'), money(pr, cs, cs.total_amount)],
    [t('pages.order'), cs.order_id],
  ])}
${target ? html`<div class="actions"><a class="btn btn-primary" href="${target}">${targetLabel}</a></div>` : html`<p class="muted">${t('pages.close_page')}</p>`}`;
  const body = statusBlock(tone, t(title), [t(text, { merchant: cs.merchant_name })], after, stopped);
  return renderPage({ lang: pr.lang, t, title: t(title), merchant: cs.merchant_name, languageHref: pr.languageHref, body });
}

// ---- routes ----------------------------------------------------------------------------------

interface IdParams {
  checkout_id: string;
}

interface Loaded {
  cs: Checkout;
  /** The status the customer sees: an open session past its expiry is expired already. */
  status: Checkout['status'];
  expiresAt?: string;
}

export function checkoutPages(deps: PagesDeps): FastifyPluginAsync {
  const { gateway } = deps;
  const hide = { schema: { hide: true } };

  async function load(id: string): Promise<Loaded | undefined> {
    if (!ID_PATTERN.test(id)) return undefined;
    const cs = await gateway.checkouts.forCustomer(id);
    if (!cs) return undefined;
    const record = await gateway.store.read((r) => r.checkouts.get(id));
    const expired =
      (cs.status === 'open' || cs.status === 'processing') && record && Date.parse(record.expiresAt) <= gateway.clock.now().getTime();
    return { cs, status: expired ? 'expired' : cs.status, ...(record ? { expiresAt: record.expiresAt } : {}) };
  }

  async function showStatus(reply: FastifyReply, pr: PageRequest, loaded: Loaded, code: number) {
    const tx = loaded.cs.transaction_id
      ? await gateway.store.read((r) => r.transactions.getById(loaded.cs.transaction_id as string))
      : undefined;
    return sendHtml(reply, code, statusPage(pr, loaded.cs, loaded.status, tx, gateway.clock.now()), [
      loaded.cs.success_url,
      loaded.cs.error_url,
    ]);
  }

  function emptyForm(): FormState {
    return { values: {}, shippingSame: true, errors: {} };
  }

  return async (app) => {
    app.setNotFoundHandler((request, reply) =>
      sendHtml(reply, 404, notFoundPage(pageRequest(request, null), 'pages.checkout_not_found_title')),
    );

    app.get<{ Params: IdParams }>('/:checkout_id', hide, async (request, reply) => {
      const loaded = await load(request.params.checkout_id);
      if (!loaded) return sendHtml(reply, 404, notFoundPage(pageRequest(request, null), 'pages.checkout_not_found_title'));
      const pr = pageRequest(request, loaded.cs.locale);
      if (loaded.status !== 'open') return showStatus(reply, pr, loaded, 200);
      return sendHtml(reply, 200, checkoutForm(pr, loaded.cs, emptyForm()), [loaded.cs.success_url, loaded.cs.error_url]);
    });

    app.post<{ Params: IdParams }>('/:checkout_id', hide, async (request: FastifyRequest<{ Params: IdParams }>, reply) => {
      const id = request.params.checkout_id;
      const loaded = await load(id);
      if (!loaded) return sendHtml(reply, 404, notFoundPage(pageRequest(request, null), 'pages.checkout_not_found_title'));
      const { cs } = loaded;
      const pr = pageRequest(request, cs.locale);
      const targets = [cs.success_url, cs.error_url];
      if (loaded.status !== 'open') return showStatus(reply, pr, loaded, 409);
      if (!fromOwnPage(request, deps)) return sendHtml(reply, 200, checkoutForm(pr, cs, emptyForm()), targets);

      const body = bodyOf(request);
      const now = gateway.clock.now();
      const customer = readCustomerForm(body, cs.collect, now);
      const method = field(body, 'method');
      const form: FormState = {
        values: customer.values,
        shippingSame: customer.shippingSame,
        errors: { ...customer.errors },
        ...(method ? { method } : {}),
      };
      if (field(body, 'back') === '1') return sendHtml(reply, 200, checkoutForm(pr, cs, { ...form, errors: {} }), targets);
      if (!method || !(cs.methods as string[]).includes(method)) form.errors.method = 'pages.err_method_required';
      if (Object.keys(form.errors).length) return sendHtml(reply, 422, checkoutForm(pr, cs, form), targets);

      const sepa = SEPA_METHODS.has(method as string);
      let mandate: ReturnType<typeof readSepaForm> | undefined;
      if (sepa) {
        if (field(body, 'step') !== 'sepa') return sendHtml(reply, 200, sepaPage(pr, cs, form, { errors: {} }), targets);
        mandate = readSepaForm(body);
        if (Object.keys(mandate.errors).length) {
          return sendHtml(
            reply,
            422,
            sepaPage(pr, cs, form, { iban: mandate.iban, accountHolder: mandate.accountHolder, errors: mandate.errors }),
            targets,
          );
        }
      }

      const outcome = await gateway.checkouts.pay(id, {
        method: method as string,
        customer: customer.customer,
        ...(mandate ? { iban: mandate.iban, account_holder: mandate.accountHolder } : {}),
      });
      if (outcome.ok) {
        return seeOther(reply, nextLocation(outcome.value.redirectTo, `/pay/${outcome.value.transaction_id}/`, pr.lang));
      }
      const error = outcome.error;
      if (error.error_code === ErrorCode.notFound) return sendHtml(reply, 404, notFoundPage(pr, 'pages.checkout_not_found_title'));
      if (error.error_code === ErrorCode.invalidState) return seeOther(reply, pr.link(`/checkout/${id}`));
      const status = error.error_code === ErrorCode.processor ? 502 : 422;
      const general = error.error_code === ErrorCode.processor ? pr.t('pages.err_processor') : pr.t('pages.err_checkout_general');
      const named = new Set(error.errors.map((e) => e.field));
      if (mandate) {
        const errors: FieldErrors = {};
        if (named.has('iban')) errors.iban = 'pages.err_iban_invalid';
        if (named.has('account_holder')) errors.account_holder = 'pages.err_account_holder_required';
        return sendHtml(
          reply,
          status,
          sepaPage(pr, cs, form, { iban: mandate.iban, accountHolder: mandate.accountHolder, errors, general }),
          targets,
        );
      }
      const errors: FieldErrors = {};
      if (named.has('method')) errors.method = 'pages.err_method_required';
      return sendHtml(reply, status, checkoutForm(pr, cs, { ...form, errors, general }), targets);
    });

    app.post<{ Params: IdParams }>('/:checkout_id/cancel', hide, async (request, reply) => {
      const id = request.params.checkout_id;
      const loaded = await load(id);
      if (!loaded) return sendHtml(reply, 404, notFoundPage(pageRequest(request, null), 'pages.checkout_not_found_title'));
      const pr = pageRequest(request, loaded.cs.locale);
      if (loaded.status !== 'open' || !fromOwnPage(request, deps)) return seeOther(reply, pr.link(`/checkout/${id}`));
      const outcome = await gateway.checkouts.cancel(id);
      if (outcome.ok && outcome.value.redirectTo) return seeOther(reply, outcome.value.redirectTo);
      if (!outcome.ok && outcome.error.error_code === ErrorCode.notFound)
        return sendHtml(reply, 404, notFoundPage(pr, 'pages.checkout_not_found_title'));
      return seeOther(reply, pr.link(`/checkout/${id}`));
    });
  };
}
