/**
 * The create and edit forms of an invoice: every field of the API's `invoice` object (docs/api.md
 * "Invoices"), with a channel picker, a currency picker (ISO 4217, the gateway's list), a language
 * picker and the expiry as number + unit. react-hook-form keeps the form; its resolver is the API
 * itself: it sends the body the form would send to POST /ui/invoices/check (edit:
 * /ui/invoices/:number/check), which runs the create or update route's own schema and rules and
 * answers each problem with its field, in the API's words. So the form knows no rule of its own,
 * and what the gateway would refuse is shown next to its field before anything is sent; a 422 of
 * the save itself (something changed meanwhile) lands next to its field the same way.
 *
 * Create sends only what was filled in (the channel's currency and language apply otherwise); edit
 * sends only what changed, a cleared field as null (the API's "blank clears").
 */
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { useForm, type FieldErrors, type Path, type Resolver, type ResolverResult, type UseFormRegisterReturn } from 'react-hook-form';
import type { InvoiceCreateBody } from '../../../contract/api/invoices.js';
import { EXPIRY_UNITS, INVOICE_EMAIL_TYPES, INVOICE_LOCALES } from '../../../contract/constants.js';
import { exponentOf, minorToText } from '../../../contract/money.js';
import { ApiError } from '../api/transport.js';
import { useIdempotencyKeys } from '../api/idempotency.js';
import { problemText, sessionEnded } from '../api/problems.js';
import { CheckField, CurrencyInput, Field, FormSummary } from '../ui/form-fields.js';
import { useT } from '../ui/i18n.js';
import { channelText, EMAIL_TYPE_NAMES, EXPIRY_UNIT_NAMES, LOCALE_NAMES, localeName } from './invoice-format.js';
import { invoicesClient, type FieldError, type Invoice, type InvoiceChannel, type InvoiceFieldsBody } from './invoices-client.js';
import { useInvoiceChannels, useInvoiceDetail } from './invoices-store.js';

/** What the form holds: text as typed, flags as booleans. */
export interface InvoiceFormValues {
  url_name: string;
  amount: string;
  currency: string;
  debt_claim_number: string;
  description: string;
  print_date: string;
  expires_in: string;
  expires_in_unit: string;
  active: boolean;
  first_name: string;
  last_name: string;
  company: string;
  email: string;
  phone: string;
  tax_id: string;
  customer_id: string;
  address: string;
  address2: string;
  postal_code: string;
  city: string;
  state: string;
  country: string;
  locale: string;
  send_initial_email: boolean;
  initial_email_type: string;
  redirect_after_payments: boolean;
  success_url: string;
  error_url: string;
}

type Key = keyof InvoiceFormValues;
type TextKey = { [K in Key]: InvoiceFormValues[K] extends string ? K : never }[Key];
type FlagKey = { [K in Key]: InvoiceFormValues[K] extends boolean ? K : never }[Key];

/** Optional text fields: blank means "not given" on create and "clear it" (null) on edit. */
const OPTIONAL_TEXT: readonly TextKey[] = [
  'debt_claim_number',
  'description',
  'first_name',
  'last_name',
  'company',
  'email',
  'phone',
  'tax_id',
  'customer_id',
  'address',
  'address2',
  'postal_code',
  'city',
  'state',
  'country',
  'success_url',
  'error_url',
  'locale',
  'initial_email_type',
];
const FLAGS: readonly FlagKey[] = ['send_initial_email', 'redirect_after_payments'];

const EMPTY: InvoiceFormValues = {
  url_name: '',
  amount: '',
  currency: '',
  debt_claim_number: '',
  description: '',
  print_date: '',
  expires_in: '',
  expires_in_unit: '',
  active: true,
  first_name: '',
  last_name: '',
  company: '',
  email: '',
  phone: '',
  tax_id: '',
  customer_id: '',
  address: '',
  address2: '',
  postal_code: '',
  city: '',
  state: '',
  country: '',
  locale: '',
  send_initial_email: false,
  initial_email_type: '',
  redirect_after_payments: false,
  success_url: '',
  error_url: '',
};

export function valuesOf(invoice: Invoice, urlName: string): InvoiceFormValues {
  const text = (value: string | number | null) => (value === null ? '' : String(value));
  return {
    ...EMPTY,
    url_name: urlName,
    amount: minorToText(invoice.amount_cents, exponentOf(invoice.currency)),
    currency: invoice.currency,
    debt_claim_number: invoice.debt_claim_number,
    description: text(invoice.description),
    print_date: invoice.print_date,
    expires_in: text(invoice.expires_in),
    expires_in_unit: text(invoice.expires_in_unit),
    active: invoice.active,
    first_name: text(invoice.first_name),
    last_name: text(invoice.last_name),
    company: text(invoice.company),
    email: text(invoice.email),
    phone: text(invoice.phone),
    tax_id: text(invoice.tax_id),
    customer_id: text(invoice.customer_id),
    address: text(invoice.address),
    address2: text(invoice.address2),
    postal_code: text(invoice.postal_code),
    city: text(invoice.city),
    state: text(invoice.state),
    country: text(invoice.country),
    locale: text(invoice.locale),
    send_initial_email: invoice.send_initial_email,
    initial_email_type: text(invoice.initial_email_type),
    redirect_after_payments: invoice.redirect_after_payments,
    success_url: text(invoice.success_url),
    error_url: text(invoice.error_url),
  };
}

/** The body of POST /rest/invoices: what was filled in, as typed (the API reads "10,55" too). */
export function createBody(values: InvoiceFormValues): InvoiceCreateBody {
  const invoice: Record<string, unknown> = { amount: values.amount.trim() };
  if (values.currency.trim()) invoice.currency = values.currency.trim().toUpperCase();
  if (values.print_date) invoice.print_date = values.print_date;
  for (const key of OPTIONAL_TEXT) if (values[key].trim()) invoice[key] = values[key].trim();
  if (values.expires_in.trim()) invoice.expires_in = values.expires_in.trim();
  if (values.expires_in_unit) invoice.expires_in_unit = values.expires_in_unit;
  for (const key of FLAGS) if (values[key]) invoice[key] = true;
  return { url_name: values.url_name, invoice };
}

/** The `invoice` object of PUT /rest/invoices/:number: only what changed; a cleared field is null. */
export function updateBody(values: InvoiceFormValues, before: InvoiceFormValues): InvoiceFieldsBody {
  const invoice: Record<string, unknown> = {};
  const changed = (key: Key) => values[key] !== before[key];
  for (const key of OPTIONAL_TEXT) if (changed(key)) invoice[key] = values[key].trim() === '' ? null : values[key].trim();
  // The amount is sent again with a new currency: another number of decimals needs it (API rule).
  if (changed('amount') || changed('currency')) invoice.amount = values.amount.trim();
  if (changed('currency')) invoice.currency = values.currency.trim().toUpperCase();
  if (changed('print_date')) invoice.print_date = values.print_date;
  if (changed('expires_in') || changed('expires_in_unit')) {
    invoice.expires_in = values.expires_in.trim() === '' ? null : values.expires_in.trim();
    invoice.expires_in_unit = values.expires_in_unit === '' ? null : values.expires_in_unit;
  }
  for (const key of [...FLAGS, 'active'] as const) if (changed(key)) invoice[key] = values[key];
  return invoice as InvoiceFieldsBody;
}

/** The form field an API error names (`invoice.currency`, `url_name`), if the form has it. */
function formField(field: string): Key | undefined {
  const name = field.startsWith('invoice.') ? field.slice('invoice.'.length) : field;
  return Object.hasOwn(EMPTY, name) ? (name as Key) : undefined;
}

/** The API's problems as the form's errors; what names no field of the form is returned apart. */
function splitProblems(problems: readonly FieldError[]): { errors: FieldErrors<InvoiceFormValues>; other: string[] } {
  const errors: FieldErrors<InvoiceFormValues> = {};
  const other: string[] = [];
  for (const problem of problems) {
    const key = formField(problem.field);
    if (!key) other.push(problem.message);
    else if (!errors[key]) errors[key] = { type: 'api', message: problem.message };
  }
  return { errors, other };
}

// ---- screens --------------------------------------------------------------------------------------

export function InvoiceCreateScreen() {
  const channels = useInvoiceChannels();
  const t = useT();
  useEffect(() => {
    void channels.load();
  }, [channels.load]);
  return (
    <section className="invoice-form-screen" aria-labelledby="invoice-form-title">
      <Link to="/invoices" className="back-link">
        {t('invoices.back')}
      </Link>
      <h1 id="invoice-form-title">{t('invoices.new')}</h1>
      {channels.status === 'failed' ? (
        <p className="form-problem" role="alert">
          {channels.error}
        </p>
      ) : channels.status !== 'ready' ? (
        <p className="loading" role="status">
          {t('common.loading')}
        </p>
      ) : (
        <InvoiceForm mode="create" channels={channels.channels} initial={{ ...EMPTY, url_name: channels.channels[0]?.url_name ?? '' }} />
      )}
    </section>
  );
}

export function InvoiceEditScreen() {
  const { number } = useParams({ from: '/invoices/$number/edit' });
  const detail = useInvoiceDetail();
  const channels = useInvoiceChannels();
  const t = useT();
  useEffect(() => {
    void channels.load();
    void detail.load(number);
  }, [number]);
  const reply = detail.number === number ? detail.reply : null;
  const channel = reply ? channels.channels.find((c) => c.channel_id === reply.invoice.channel_id) : undefined;
  return (
    <section className="invoice-form-screen" aria-labelledby="invoice-form-title">
      <Link to="/invoices/$number" params={{ number }} className="back-link">
        {t('invoices.form.backTo', { number })}
      </Link>
      <h1 id="invoice-form-title">{t('invoices.form.editTitle', { number })}</h1>
      {detail.status === 'failed' ? (
        <p className="form-problem" role="alert">
          {detail.error}
        </p>
      ) : !reply || channels.status !== 'ready' ? (
        <p className="loading" role="status">
          {t('common.loading')}
        </p>
      ) : (
        <InvoiceForm
          key={reply.invoice.updated_at}
          mode="edit"
          number={number}
          channels={channels.channels}
          initial={valuesOf(reply.invoice, channel?.url_name ?? '')}
        />
      )}
    </section>
  );
}

// ---- the form -------------------------------------------------------------------------------------

interface InvoiceFormProps {
  mode: 'create' | 'edit';
  /** Edit: the invoice's number as it is addressed now. */
  number?: string;
  channels: readonly InvoiceChannel[];
  initial: InvoiceFormValues;
}

function InvoiceForm({ mode, number = '', channels, initial }: InvoiceFormProps) {
  const navigate = useNavigate();
  const changed = useInvoiceDetail((s) => s.changed);
  const t = useT();
  const [other, setOther] = useState<string[]>([]);
  const keyFor = useIdempotencyKeys();

  // The resolver is the API: the same schema and rules, nothing written.
  const resolver = useCallback<Resolver<InvoiceFormValues>>(
    async (values): Promise<ResolverResult<InvoiceFormValues>> => {
      let problems: FieldError[];
      try {
        problems =
          mode === 'create'
            ? await invoicesClient.checkCreate(createBody(values))
            : await invoicesClient.checkUpdate(number, updateBody(values, initial));
      } catch (error) {
        // A check that did not answer blocks nothing: the save answers for itself (a 401 there, too,
        // takes the app back to its login).
        sessionEnded(error);
        return { values, errors: {} };
      }
      const { errors, other: rest } = splitProblems(problems);
      setOther(rest);
      return problems.length ? { values: {}, errors } : { values, errors: {} };
    },
    [mode, number, initial],
  );

  const form = useForm<InvoiceFormValues>({ defaultValues: initial, resolver, mode: 'onSubmit', reValidateMode: 'onBlur' });
  const { register, handleSubmit, formState, setError, watch } = form;
  const { errors, isSubmitting, submitCount } = formState;

  const onSubmit = async (values: InvoiceFormValues) => {
    setOther([]);
    try {
      let reply;
      if (mode === 'create') {
        const body = createBody(values);
        // One idempotency key per body: a retry after a lost answer cannot create twice.
        reply = await invoicesClient.create(body, keyFor(body));
      } else {
        const body = updateBody(values, initial);
        reply = Object.keys(body).length ? await invoicesClient.update(number, body) : null;
      }
      if (reply) await changed(reply);
      void navigate({ to: '/invoices/$number', params: { number: reply?.invoice.debt_claim_number ?? number } });
    } catch (error) {
      if (sessionEnded(error)) return;
      if (error instanceof ApiError && error.kind === 'api' && error.errors.length) {
        const split = splitProblems(error.errors);
        let first = true;
        for (const [key, value] of Object.entries(split.errors) as Array<[Key, { message?: string }]>) {
          setError(key, { type: 'api', message: value.message ?? '' }, { shouldFocus: first });
          first = false;
        }
        setOther(split.other);
        return;
      }
      setOther([problemText(error, t(mode === 'create' ? 'invoices.form.whatCreate' : 'invoices.form.whatSave'))]);
    }
  };

  const fieldCount = Object.keys(errors).filter((key) => key !== 'root').length + other.length;
  const channel = channels.find((c) => c.url_name === watch('url_name'));
  const sendsEmail = watch('send_initial_email');
  const redirects = watch('redirect_after_payments');

  return (
    <form
      className="invoice-form stacked-form"
      noValidate
      onSubmit={(event) => void handleSubmit(onSubmit)(event)}
      aria-describedby={fieldCount ? 'invoice-form-summary' : undefined}
    >
      {submitCount > 0 && <FormSummary id="invoice-form-summary" errors={errors} other={other} />}

      <fieldset className="form-card">
        <legend>{t('invoices.invoice')}</legend>
        <div className="form-grid">
          {mode === 'create' ? (
            <Field
              label={t('invoices.channel')}
              error={errors.url_name?.message}
              note={
                channel
                  ? t('invoices.form.channelNote', { currency: channel.currency, language: t(LOCALE_NAMES[channel.language]) })
                  : undefined
              }
            >
              {(props) => (
                <select className="input" {...props} {...register('url_name')}>
                  {channels.map((c) => (
                    <option key={c.url_name} value={c.url_name}>
                      {channelText(c)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : (
            <CheckField
              label={t('invoices.active')}
              text={t('invoices.form.activeText')}
              error={errors.active?.message}
              note={t('invoices.form.activeNote')}
              registered={register('active')}
            />
          )}
          <Field
            label={t('invoices.form.number')}
            optional
            error={errors.debt_claim_number?.message}
            note={t(mode === 'create' ? 'invoices.form.numberNoteCreate' : 'invoices.form.numberNoteEdit')}
          >
            {(props) => <input className="input" autoComplete="off" {...props} {...register('debt_claim_number')} />}
          </Field>
          <div className="field-row">
            <Field
              label={t('common.amount')}
              error={errors.amount?.message}
              className="field-amount"
              note={mode === 'edit' ? t('invoices.form.amountNote') : undefined}
            >
              {(props) => <input className="input num-input" inputMode="decimal" autoComplete="off" {...props} {...register('amount')} />}
            </Field>
            <Field
              label={t('common.currency')}
              error={errors.currency?.message}
              className="field-currency"
              note={mode === 'create' && channel ? t('invoices.form.currencyNote', { currency: channel.currency }) : undefined}
            >
              {(props) => (
                <CurrencyInput
                  listId="invoice-currencies"
                  props={props}
                  registered={register('currency')}
                  placeholder={channel?.currency}
                />
              )}
            </Field>
          </div>
          <Field
            label={t('invoices.printDate')}
            optional
            error={errors.print_date?.message}
            note={mode === 'create' ? t('invoices.form.printDateNote') : undefined}
          >
            {(props) => <input className="input" type="date" {...props} {...register('print_date')} />}
          </Field>
          <div className="field-row">
            <Field
              label={t('invoices.form.expiresIn')}
              optional
              error={errors.expires_in?.message}
              className="field-amount"
              note={t('invoices.form.expiresNote')}
            >
              {(props) => (
                <input className="input num-input" inputMode="numeric" autoComplete="off" {...props} {...register('expires_in')} />
              )}
            </Field>
            <Field label={t('invoices.form.unit')} error={errors.expires_in_unit?.message} className="field-unit">
              {(props) => (
                <select className="input" {...props} {...register('expires_in_unit')}>
                  <option value="">{t('invoices.form.noExpiry')}</option>
                  {EXPIRY_UNITS.map((unit) => (
                    <option key={unit} value={unit}>
                      {t(EXPIRY_UNIT_NAMES[unit])}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Field label={t('invoices.form.description')} optional error={errors.description?.message} className="field-wide">
            {(props) => <textarea className="input" rows={3} {...props} {...register('description')} />}
          </Field>
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>{t('invoices.customer')}</legend>
        <div className="form-grid">
          <TextField form={form} name="first_name" label={t('invoices.field.firstName')} autoComplete="off" />
          <TextField form={form} name="last_name" label={t('invoices.field.lastName')} autoComplete="off" />
          <TextField form={form} name="company" label={t('invoices.field.company')} autoComplete="off" />
          <TextField
            form={form}
            name="email"
            label={t('invoices.email')}
            type="email"
            autoComplete="off"
            note={t('invoices.form.emailNote')}
          />
          <TextField form={form} name="phone" label={t('invoices.field.phone')} type="tel" autoComplete="off" />
          <TextField form={form} name="tax_id" label={t('invoices.field.taxId')} autoComplete="off" />
          <TextField
            form={form}
            name="customer_id"
            label={t('invoices.field.customerId')}
            autoComplete="off"
            note={t('invoices.form.customerIdNote')}
          />
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>{t('invoices.form.billingAddress')}</legend>
        <div className="form-grid">
          <TextField form={form} name="address" label={t('invoices.field.address')} autoComplete="off" />
          <TextField form={form} name="address2" label={t('invoices.field.address2')} autoComplete="off" />
          <TextField form={form} name="postal_code" label={t('invoices.field.postalCode')} autoComplete="off" />
          <TextField form={form} name="city" label={t('invoices.field.city')} autoComplete="off" />
          <TextField form={form} name="state" label={t('invoices.field.state')} autoComplete="off" />
          <TextField
            form={form}
            name="country"
            label={t('invoices.field.country')}
            autoComplete="off"
            note={t('invoices.form.countryNote')}
          />
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>{t('invoices.emails')}</legend>
        <div className="form-grid">
          <Field label={t('common.language')} error={errors.locale?.message} note={t('invoices.form.languageNote')}>
            {(props) => (
              <select className="input" {...props} {...register('locale')}>
                <option value="">
                  {channel
                    ? t('invoices.form.channelLanguageOf', { language: localeName(channel.language, t) })
                    : t('invoices.form.channelLanguage')}
                </option>
                {INVOICE_LOCALES.map((locale) => (
                  <option key={locale} value={locale}>
                    {t(LOCALE_NAMES[locale])}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <CheckField
            label={t('invoices.form.emailAtCreation')}
            text={t('invoices.form.sendByEmail')}
            error={errors.send_initial_email?.message}
            note={t(mode === 'edit' ? 'invoices.form.sendNoteEdit' : 'invoices.form.sendNoteCreate')}
            registered={register('send_initial_email')}
          />
          <Field
            label={t('invoices.form.firstEmail')}
            error={errors.initial_email_type?.message}
            note={sendsEmail ? undefined : t('invoices.form.firstEmailNote')}
          >
            {(props) => (
              <select className="input" {...props} {...register('initial_email_type')}>
                <option value="">{t('invoices.form.defaultType', { type: t(EMAIL_TYPE_NAMES.initial) })}</option>
                {INVOICE_EMAIL_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(EMAIL_TYPE_NAMES[type])}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>{t('invoices.form.afterPayment')}</legend>
        <div className="form-grid">
          <CheckField
            label={t('invoices.form.redirect')}
            text={t('invoices.form.redirectText')}
            error={errors.redirect_after_payments?.message}
            registered={register('redirect_after_payments')}
          />
          <TextField
            form={form}
            name="success_url"
            label={t('invoices.field.successUrl')}
            type="url"
            autoComplete="off"
            note={redirects ? undefined : t('invoices.form.successNote')}
          />
          <TextField form={form} name="error_url" label={t('invoices.field.errorUrl')} type="url" autoComplete="off" />
        </div>
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="button button-primary button-lg" disabled={isSubmitting}>
          {t(isSubmitting ? 'common.saving' : mode === 'create' ? 'invoices.form.create' : 'invoices.form.save')}
        </button>
        {mode === 'create' ? (
          <Link to="/invoices" className="button button-quiet button-lg">
            {t('common.cancel')}
          </Link>
        ) : (
          <Link to="/invoices/$number" params={{ number }} className="button button-quiet button-lg">
            {t('common.cancel')}
          </Link>
        )}
      </div>
    </form>
  );
}

function TextField({
  form,
  name,
  label,
  type = 'text',
  autoComplete,
  note,
}: {
  form: ReturnType<typeof useForm<InvoiceFormValues>>;
  name: TextKey & Path<InvoiceFormValues>;
  label: string;
  type?: string;
  autoComplete?: string;
  note?: string | undefined;
}) {
  const registered: UseFormRegisterReturn = form.register(name);
  const error = form.formState.errors[name]?.message;
  return (
    <Field label={label} optional error={error} note={note}>
      {(props) => <input className="input" type={type} autoComplete={autoComplete} {...props} {...registered} />}
    </Field>
  );
}
