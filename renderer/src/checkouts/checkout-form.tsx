/**
 * A checkout session for a phone or e-mail order (`#/checkouts/new`): order id, description, the
 * amount with taxes and shipping (the total is their sum, shown as it is typed), currency (the
 * shop's by default), the page's language, what the page asks the customer for (collect_*), and
 * optionally the customer's name and contact to fill in and a postback URL. react-hook-form keeps
 * the form; it says itself only that an amount is not a number, and asks the gateway's check (POST
 * /ui/checkouts/check: the rules and words of POST /rest/checkouts) for the rest, each problem next
 * to its field before anything is sent. The new session opens with its link and QR code.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { useForm, type FieldErrors, type Resolver, type ResolverResult, type UseFormRegisterReturn } from 'react-hook-form';
import { CHECKOUT_LOCALES } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { decimalTextToMinor, exponentOf, minorToText } from '../../../contract/money.js';
import { ApiError } from '../api/transport.js';
import { useIdempotencyKeys } from '../api/idempotency.js';
import { problemText, sessionEnded } from '../api/problems.js';
import { useSession } from '../session-store.js';
import { formatMoney } from '../till-screen/money.js';
import { useRichT } from '../transactions/rich-text.js';
import { NO_VALUE } from '../transactions/transaction-format.js';
import { CheckField, CurrencyInput, Field, FormSummary, placeApiErrors, problemsByField } from '../ui/form-fields.js';
import { translate, useT } from '../ui/i18n.js';
import { CHECKOUT_LOCALE_NAMES, COLLECT_NAMES } from './checkout-format.js';
import { checkoutsClient, type BackOfficeCheckoutRequest } from './checkouts-client.js';
import { useCheckoutDetail } from './checkouts-store.js';

interface CheckoutFormValues {
  order_id: string;
  description: string;
  currency: string;
  amount: string;
  amount_taxes: string;
  amount_shipping: string;
  locale: string;
  display_transaction_details: boolean;
  collect_dob: boolean;
  collect_phone: boolean;
  collect_gender: boolean;
  collect_shipping_address: boolean;
  collect_billing_address: boolean;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  postback_url: string;
}
type Key = keyof CheckoutFormValues;
type AmountKey = 'amount' | 'amount_taxes' | 'amount_shipping';
const COLLECT = ['collect_dob', 'collect_phone', 'collect_gender', 'collect_shipping_address', 'collect_billing_address'] as const;
const PREFILL = ['first_name', 'last_name', 'email', 'phone'] as const;
const AMOUNTS: readonly AmountKey[] = ['amount', 'amount_taxes', 'amount_shipping'];

const LABELS: Record<Key, MessageId> = {
  order_id: 'checkouts.form.orderId',
  description: 'checkouts.description',
  currency: 'common.currency',
  amount: 'common.amount',
  amount_taxes: 'checkouts.taxes',
  amount_shipping: 'checkouts.shipping',
  locale: 'checkouts.form.locale',
  display_transaction_details: 'checkouts.orderDetails',
  collect_dob: COLLECT_NAMES.dob,
  collect_phone: COLLECT_NAMES.phone,
  collect_gender: COLLECT_NAMES.gender,
  collect_shipping_address: COLLECT_NAMES.shipping_address,
  collect_billing_address: COLLECT_NAMES.billing_address,
  first_name: 'checkouts.form.firstName',
  last_name: 'checkouts.form.lastName',
  email: 'checkouts.form.email',
  phone: 'checkouts.collect.phone',
  postback_url: 'checkouts.form.postbackUrl',
};

/** "12,50" and "12.50" as a decimal text, or null when it is not a number. */
const decimal = (text: string) => (/^\d+([.,]\d+)?$/.test(text.trim()) ? text.trim().replace(',', '.') : null);
/** A problem with its field's name in front (the gateway's words after it). */
const said = (key: Key, message: string) => translate('checkouts.form.said', { field: translate(LABELS[key]), message });

/** The body of POST /ui/checkouts: what was filled in; amounts as the API's numbers. */
function requestOf(values: CheckoutFormValues): BackOfficeCheckoutRequest {
  const request: Record<string, unknown> = {
    order_id: values.order_id.trim(),
    currency: values.currency.trim().toUpperCase(),
    amount: Number(decimal(values.amount)),
  };
  for (const key of ['amount_taxes', 'amount_shipping'] as const) if (values[key].trim()) request[key] = Number(decimal(values[key]));
  if (values.description.trim()) request.description = values.description.trim();
  if (values.locale) request.locale = values.locale;
  request.display_transaction_details = values.display_transaction_details ? 1 : 0;
  for (const key of COLLECT) if (values[key]) request[key] = 1;
  const prefill: Record<string, string> = {};
  for (const key of PREFILL) if (values[key].trim()) prefill[key] = values[key].trim();
  if (Object.keys(prefill).length) request.prefill_customer_info = prefill;
  if (values.postback_url.trim()) request.postback_url = values.postback_url.trim();
  return request as unknown as BackOfficeCheckoutRequest;
}

/** The total as the customer will pay it: in the screens' form for a currency code, as typed otherwise. */
function totalText(total: string, currency: string): string {
  const code = currency.trim().toUpperCase();
  if (/^[A-Z]{3}$/.test(code)) {
    try {
      return formatMoney(Number(total), code);
    } catch {
      // A code Intl does not take: as typed below.
    }
  }
  return `${total} ${code}`;
}

/** The form field an API error names (`prefill_customer_info.email` is the e-mail field). */
function formField(field: string): Key | undefined {
  const name = field.startsWith('prefill_customer_info.') ? field.slice('prefill_customer_info.'.length) : field;
  return Object.hasOwn(LABELS, name) ? (name as Key) : undefined;
}

/** The total as it is typed: the sum of the parts in the currency's decimals, or null. */
function totalOf(values: Pick<CheckoutFormValues, AmountKey | 'currency'>): string | null {
  const exponent = exponentOf(values.currency.trim().toUpperCase());
  let sum = 0;
  for (const key of AMOUNTS) {
    const text = values[key].trim();
    if (!text && key !== 'amount') continue;
    const parsed = decimal(text) === null ? null : decimalTextToMinor(decimal(text) ?? '', exponent);
    if (!parsed?.ok) return null;
    sum += parsed.minor;
  }
  return minorToText(sum, exponent);
}

/** What is not a number is said here; the rest as the gateway's check answers it (`other`: what names no field). */
const checkValues = async (
  values: CheckoutFormValues,
  setOther: (lines: string[]) => void,
): Promise<ResolverResult<CheckoutFormValues>> => {
  const local: FieldErrors<CheckoutFormValues> = {};
  if (!values.amount.trim())
    local.amount = { type: 'form', message: translate('checkouts.form.required', { field: translate(LABELS.amount) }) };
  for (const key of AMOUNTS) {
    if (values[key].trim() && decimal(values[key]) === null)
      local[key] = { type: 'form', message: translate('checkouts.form.notANumber', { field: translate(LABELS[key]) }) };
  }
  if (Object.keys(local).length) return { values: {}, errors: local };
  let problems;
  try {
    problems = await checkoutsClient.check(requestOf(values));
  } catch (error) {
    // A check that did not answer blocks nothing: the request answers for itself.
    sessionEnded(error);
    return { values, errors: {} };
  }
  const { errors, other } = problemsByField(problems, formField, said);
  setOther(other);
  return problems.length ? { values: {}, errors } : { values, errors: {} };
};

export function CheckoutCreateScreen() {
  const currency = useSession((s) => s.session?.merchant.currency) ?? 'EUR';
  const t = useT();
  return (
    <section className="form-screen" aria-labelledby="checkout-form-title">
      <Link to="/checkouts" className="back-link">
        {t('checkouts.back')}
      </Link>
      <h1 id="checkout-form-title">{t('checkouts.new')}</h1>
      <p className="lead">{t('checkouts.form.lead')}</p>
      <CheckoutForm currency={currency} />
    </section>
  );
}

function CheckoutForm({ currency }: { currency: string }) {
  const navigate = useNavigate();
  const t = useT();
  const rich = useRichT();
  const show = useCheckoutDetail((s) => s.show);
  const [other, setOther] = useState<string[]>([]);
  const keyFor = useIdempotencyKeys();
  const resolver = useCallback<Resolver<CheckoutFormValues>>((values) => checkValues(values, setOther), []);
  const form = useForm<CheckoutFormValues>({
    defaultValues: {
      order_id: '',
      description: '',
      currency,
      amount: '',
      amount_taxes: '',
      amount_shipping: '',
      locale: '',
      display_transaction_details: true,
      collect_dob: false,
      collect_phone: false,
      collect_gender: false,
      collect_shipping_address: false,
      collect_billing_address: false,
      first_name: '',
      last_name: '',
      email: '',
      phone: '',
      postback_url: '',
    },
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onBlur',
  });
  const { register, handleSubmit, formState, setError, watch } = form;
  const { errors, isSubmitting, submitCount } = formState;

  const onSubmit = async (values: CheckoutFormValues) => {
    setOther([]);
    const request = requestOf(values);
    try {
      // One key per body: a retry after a lost answer cannot open a second session.
      const created = await checkoutsClient.create(request, keyFor(request));
      show(created.checkout.checkout_id, created);
      void navigate({ to: '/checkouts/$id', params: { id: created.checkout.checkout_id } });
    } catch (error) {
      if (sessionEnded(error)) return;
      if (error instanceof ApiError && error.kind === 'api' && error.errors.length) {
        setOther(
          placeApiErrors(error.errors, formField, said, (field, message, focus) =>
            setError(field, { type: 'api', message }, { shouldFocus: focus }),
          ),
        );
        return;
      }
      setOther([problemText(error, t('checkouts.form.what'))]);
    }
  };

  const fieldCount = Object.keys(errors).filter((key) => key !== 'root').length + other.length;
  const [amount, taxes, shipping, chosenCurrency] = watch(['amount', 'amount_taxes', 'amount_shipping', 'currency']);
  const total = totalOf({ amount, amount_taxes: taxes, amount_shipping: shipping, currency: chosenCurrency });
  const text = (name: Key, options: { optional?: boolean; type?: string; note?: string; wide?: boolean } = {}) => (
    <Field
      label={t(LABELS[name])}
      optional={options.optional ?? true}
      error={errors[name]?.message}
      note={options.note}
      {...(options.wide ? { className: 'field-wide' } : {})}
    >
      {(props) => <input className="input" type={options.type ?? 'text'} autoComplete="off" {...props} {...register(name)} />}
    </Field>
  );
  const amountField = (name: AmountKey, optional: boolean) => (
    <Field label={t(LABELS[name])} optional={optional} error={errors[name]?.message} className="field-amount">
      {(props) => <input className="input num-input" inputMode="decimal" autoComplete="off" {...props} {...register(name)} />}
    </Field>
  );
  const check = (name: Key, label: string, registered: UseFormRegisterReturn = register(name)) => (
    <label key={name} className="check">
      <input type="checkbox" {...registered} /> {label}
    </label>
  );

  return (
    <form
      className="stacked-form checkout-form"
      noValidate
      onSubmit={(event) => void handleSubmit(onSubmit)(event)}
      aria-describedby={fieldCount ? 'checkout-form-summary' : undefined}
    >
      {submitCount > 0 && <FormSummary id="checkout-form-summary" errors={errors} other={other} />}
      <fieldset className="form-card">
        <legend>{t('checkouts.order')}</legend>
        <div className="form-grid">
          {text('order_id', { optional: false, note: t('checkouts.form.orderNote') })}
          <Field label={t(LABELS.currency)} error={errors.currency?.message} note={t('checkouts.form.currencyNote', { currency })}>
            {(props) => <CurrencyInput listId="checkout-currencies" props={props} registered={register('currency')} />}
          </Field>
          <div className="field-row field-wide amounts-row">
            {amountField('amount', false)}
            {amountField('amount_taxes', true)}
            {amountField('amount_shipping', true)}
          </div>
          <p className="checkout-total field-wide" aria-live="polite">
            {rich('checkouts.form.total', { total: <strong>{total === null ? NO_VALUE : totalText(total, chosenCurrency)}</strong> })}
          </p>
          <Field
            label={t(LABELS.description)}
            optional
            error={errors.description?.message}
            className="field-wide"
            note={t('checkouts.form.descriptionNote')}
          >
            {(props) => <textarea className="input" rows={3} {...props} {...register('description')} />}
          </Field>
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>{t('checkouts.form.page')}</legend>
        <div className="form-grid">
          <Field label={t(LABELS.locale)} error={errors.locale?.message}>
            {(props) => (
              <select className="input" {...props} {...register('locale')}>
                <option value="">{t('checkouts.locale.browser')}</option>
                {CHECKOUT_LOCALES.map((locale) => (
                  <option key={locale} value={locale}>
                    {t(CHECKOUT_LOCALE_NAMES[locale])}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <CheckField
            label={t(LABELS.display_transaction_details)}
            text={t('checkouts.form.showDetails')}
            error={errors.display_transaction_details?.message}
            registered={register('display_transaction_details')}
          />
          <fieldset className="field field-wide collect-choices">
            <legend className="field-label">{t('checkouts.form.asks')}</legend>
            <div className="check-row">{COLLECT.map((key) => check(key, t(LABELS[key])))}</div>
            {COLLECT.map((key) =>
              errors[key]?.message ? (
                <p key={key} className="field-error">
                  {errors[key]?.message}
                </p>
              ) : null,
            )}
          </fieldset>
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>{t('checkouts.form.customer')}</legend>
        <div className="form-grid">
          {text('first_name')}
          {text('last_name')}
          {text('email', { type: 'email' })}
          {text('phone', { type: 'tel' })}
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>{t('checkouts.form.system')}</legend>
        <div className="form-grid">{text('postback_url', { type: 'url', wide: true, note: t('checkouts.form.postbackNote') })}</div>
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="button button-primary button-lg" disabled={isSubmitting}>
          {t(isSubmitting ? 'checkouts.form.opening' : 'checkouts.form.open')}
        </button>
        <Link to="/checkouts" className="button button-quiet button-lg">
          {t('common.cancel')}
        </Link>
      </div>
    </form>
  );
}
