/**
 * The create and edit forms of an invoice: every field of the API's `invoice` object (interface.md
 * "Invoice"), with a channel picker, a currency picker (ISO 4217, the gateway's list), a language
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
import { ApiError } from '../api/client.js';
import { useIdempotencyKeys } from '../api/idempotency.js';
import { problemText, sessionEnded } from '../api/problems.js';
import { CheckField, CurrencyInput, Field, FormSummary } from '../ui/form-fields.js';
import { EMAIL_TYPE_NAMES, EXPIRY_UNIT_NAMES, LOCALE_NAMES } from './invoice-format.js';
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
  useEffect(() => {
    void channels.load();
  }, [channels.load]);
  return (
    <section className="invoice-form-screen" aria-labelledby="invoice-form-title">
      <Link to="/invoices" className="back-link">
        ← Invoices
      </Link>
      <h1 id="invoice-form-title">New invoice</h1>
      {channels.status === 'failed' ? (
        <p className="form-problem" role="alert">
          {channels.error}
        </p>
      ) : channels.status !== 'ready' ? (
        <p className="loading" role="status">
          Loading…
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
  useEffect(() => {
    void channels.load();
    void detail.load(number);
  }, [number]);
  const reply = detail.number === number ? detail.reply : null;
  const channel = reply ? channels.channels.find((c) => c.channel_id === reply.invoice.channel_id) : undefined;
  return (
    <section className="invoice-form-screen" aria-labelledby="invoice-form-title">
      <Link to="/invoices/$number" params={{ number }} className="back-link">
        ← Invoice {number}
      </Link>
      <h1 id="invoice-form-title">Edit invoice {number}</h1>
      {detail.status === 'failed' ? (
        <p className="form-problem" role="alert">
          {detail.error}
        </p>
      ) : !reply || channels.status !== 'ready' ? (
        <p className="loading" role="status">
          Loading…
        </p>
      ) : (
        <InvoiceForm key={reply.invoice.updated_at} mode="edit" number={number} channels={channels.channels} initial={valuesOf(reply.invoice, channel?.url_name ?? '')} />
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
  const [other, setOther] = useState<string[]>([]);
  const keyFor = useIdempotencyKeys();

  // The resolver is the API: the same schema and rules, nothing written.
  const resolver = useCallback<Resolver<InvoiceFormValues>>(
    async (values): Promise<ResolverResult<InvoiceFormValues>> => {
      let problems: FieldError[];
      try {
        problems = mode === 'create' ? await invoicesClient.checkCreate(createBody(values)) : await invoicesClient.checkUpdate(number, updateBody(values, initial));
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
      setOther([problemText(error, mode === 'create' ? 'Creating the invoice' : 'Saving the invoice')]);
    }
  };

  const fieldCount = Object.keys(errors).filter((key) => key !== 'root').length + other.length;
  const channel = channels.find((c) => c.url_name === watch('url_name'));
  const sendsEmail = watch('send_initial_email');
  const redirects = watch('redirect_after_payments');

  return (
    <form className="invoice-form stacked-form" noValidate onSubmit={(event) => void handleSubmit(onSubmit)(event)} aria-describedby={fieldCount ? 'invoice-form-summary' : undefined}>
      {submitCount > 0 && <FormSummary id="invoice-form-summary" errors={errors} other={other} />}

      <fieldset className="form-card">
        <legend>Invoice</legend>
        <div className="form-grid">
          {mode === 'create' ? (
            <Field label="Channel" error={errors.url_name?.message} note={channel ? `Currency ${channel.currency}, e-mails in ${LOCALE_NAMES[channel.language]} unless set below.` : undefined}>
              {(props) => (
                <select className="input" {...props} {...register('url_name')}>
                  {channels.map((c) => (
                    <option key={c.url_name} value={c.url_name}>
                      {c.name} ({c.url_name})
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : (
            <CheckField
              label="Active"
              text="Pay link works, e-mails go out"
              error={errors.active?.message}
              note="An inactive invoice's pay link does not work and it sends no e-mails. Changes only while pending and without a payment plan."
              registered={register('active')}
            />
          )}
          <Field label="Invoice number" optional error={errors.debt_claim_number?.message} note={mode === 'create' ? 'Leave empty for the next INV-0001, INV-0002, …' : 'Another active invoice of the channel with this number is deactivated.'}>
            {(props) => <input className="input" autoComplete="off" {...props} {...register('debt_claim_number')} />}
          </Field>
          <div className="field-row">
            <Field label="Amount" error={errors.amount?.message} className="field-amount" note={mode === 'edit' ? 'Changes only while pending and without a payment plan.' : undefined}>
              {(props) => <input className="input num-input" inputMode="decimal" autoComplete="off" {...props} {...register('amount')} />}
            </Field>
            <Field label="Currency" error={errors.currency?.message} className="field-currency" note={mode === 'create' && channel ? `Empty: ${channel.currency}` : undefined}>
              {(props) => <CurrencyInput listId="invoice-currencies" props={props} registered={register('currency')} placeholder={channel?.currency} />}
            </Field>
          </div>
          <Field label="Print date" optional error={errors.print_date?.message} note={mode === 'create' ? 'Empty: today.' : undefined}>
            {(props) => <input className="input" type="date" {...props} {...register('print_date')} />}
          </Field>
          <div className="field-row">
            <Field label="Expires in" optional error={errors.expires_in?.message} className="field-amount" note="Both empty: no expiry.">
              {(props) => <input className="input num-input" inputMode="numeric" autoComplete="off" {...props} {...register('expires_in')} />}
            </Field>
            <Field label="Unit" error={errors.expires_in_unit?.message} className="field-unit">
              {(props) => (
                <select className="input" {...props} {...register('expires_in_unit')}>
                  <option value="">No expiry</option>
                  {EXPIRY_UNITS.map((unit) => (
                    <option key={unit} value={unit}>
                      {EXPIRY_UNIT_NAMES[unit]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Field label="Description" optional error={errors.description?.message} className="field-wide">
            {(props) => <textarea className="input" rows={3} {...props} {...register('description')} />}
          </Field>
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>Customer</legend>
        <div className="form-grid">
          <TextField form={form} name="first_name" label="First name" autoComplete="off" />
          <TextField form={form} name="last_name" label="Last name" autoComplete="off" />
          <TextField form={form} name="company" label="Company" autoComplete="off" />
          <TextField form={form} name="email" label="E-mail" type="email" autoComplete="off" note="Needed for e-mails and reminders." />
          <TextField form={form} name="phone" label="Phone" type="tel" autoComplete="off" />
          <TextField form={form} name="tax_id" label="Tax ID" autoComplete="off" />
          <TextField form={form} name="customer_id" label="Customer ID" autoComplete="off" note="Your own reference for the customer." />
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>Billing address</legend>
        <div className="form-grid">
          <TextField form={form} name="address" label="Address" autoComplete="off" />
          <TextField form={form} name="address2" label="Address line 2" autoComplete="off" />
          <TextField form={form} name="postal_code" label="Postal code" autoComplete="off" />
          <TextField form={form} name="city" label="City" autoComplete="off" />
          <TextField form={form} name="state" label="State or region" autoComplete="off" />
          <TextField form={form} name="country" label="Country" autoComplete="off" note="ISO code (DE) or English name (Germany)." />
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>E-mails</legend>
        <div className="form-grid">
          <Field label="Language" error={errors.locale?.message} note="Of the e-mails and the pay page.">
            {(props) => (
              <select className="input" {...props} {...register('locale')}>
                <option value="">{channel ? `Channel language (${LOCALE_NAMES[channel.language]})` : 'Channel language'}</option>
                {INVOICE_LOCALES.map((locale) => (
                  <option key={locale} value={locale}>
                    {LOCALE_NAMES[locale]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <CheckField
            label="E-mail at creation"
            text="Send the invoice by e-mail"
            error={errors.send_initial_email?.message}
            note={mode === 'edit' ? 'Stored only: changing it later sends nothing.' : 'Sent right after the invoice is created; needs the e-mail address.'}
            registered={register('send_initial_email')}
          />
          <Field label="First e-mail" error={errors.initial_email_type?.message} note={sendsEmail ? undefined : 'Used only when the e-mail at creation is sent.'}>
            {(props) => (
              <select className="input" {...props} {...register('initial_email_type')}>
                <option value="">{EMAIL_TYPE_NAMES.initial} (default)</option>
                {INVOICE_EMAIL_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {EMAIL_TYPE_NAMES[type]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </fieldset>

      <fieldset className="form-card">
        <legend>After payment</legend>
        <div className="form-grid">
          <CheckField
            label="Redirect"
            text="Send the customer to your pages after paying"
            error={errors.redirect_after_payments?.message}
            registered={register('redirect_after_payments')}
          />
          <TextField form={form} name="success_url" label="Success URL" type="url" autoComplete="off" note={redirects ? undefined : 'Empty: the pay page shows the result.'} />
          <TextField form={form} name="error_url" label="Error URL" type="url" autoComplete="off" />
        </div>
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="button button-primary button-lg" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : mode === 'create' ? 'Create invoice' : 'Save changes'}
        </button>
        {mode === 'create' ? (
          <Link to="/invoices" className="button button-quiet button-lg">
            Cancel
          </Link>
        ) : (
          <Link to="/invoices/$number" params={{ number }} className="button button-quiet button-lg">
            Cancel
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
