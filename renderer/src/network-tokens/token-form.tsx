/**
 * A new network token from a card (`#/network-tokens/new`): the card number in groups of four as it
 * is typed, the expiry as MM/YY, the CVV masked; the holder and billing fields of the token API,
 * all optional. react-hook-form keeps the form; its resolver says before sending what the API would
 * refuse about the card number and the expiry, with the contract's Luhn and brand checks and the
 * API's own words (contract/cards.ts), then asks the gateway's check (POST /ui/network-tokens/check)
 * about the rest; what the API refuses anyway lands next to its field. The card
 * number lives only in this form: after a token is made the screen moves to it.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { cardExpiryProblems, tokenCardNumberProblem } from '../../../contract/cards.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { ApiError } from '../api/transport.js';
import { useIdempotencyKeys } from '../api/idempotency.js';
import { problemText, sessionEnded } from '../api/problems.js';
import { Field, FormSummary, placeApiErrors, problemsByField } from '../ui/form-fields.js';
import { useT } from '../ui/i18n.js';
import { networkTokensClient, type NetworkTokenRequest } from './network-tokens-client.js';

interface TokenFormValues {
  card_number: string;
  expiry: string;
  card_cvv: string;
  card_holder: string;
  email: string;
  phone: string;
  billing_line1: string;
  billing_postal_code: string;
  billing_city: string;
  billing_country: string;
  postback_url: string;
}
type Key = keyof TokenFormValues;

const EMPTY: TokenFormValues = {
  card_number: '',
  expiry: '',
  card_cvv: '',
  card_holder: '',
  email: '',
  phone: '',
  billing_line1: '',
  billing_postal_code: '',
  billing_city: '',
  billing_country: '',
  postback_url: '',
};
const OPTIONAL: readonly Key[] = [
  'card_holder',
  'email',
  'phone',
  'billing_line1',
  'billing_postal_code',
  'billing_city',
  'billing_country',
  'postback_url',
];
const LABELS: Record<Key, MessageId> = {
  card_number: 'tokens.form.cardNumber',
  expiry: 'tokens.form.expiry',
  card_cvv: 'tokens.form.cvv',
  card_holder: 'tokens.form.cardHolder',
  email: 'tokens.form.email',
  phone: 'tokens.form.phone',
  billing_line1: 'tokens.form.address',
  billing_postal_code: 'tokens.form.postalCode',
  billing_city: 'tokens.form.city',
  billing_country: 'tokens.form.country',
  postback_url: 'tokens.form.postbackUrl',
};

const digits = (text: string) => text.replace(/\D/g, '');
/** `4111111111111111` as `4111 1111 1111 1111` (at most 19 digits). */
const groupCard = (text: string) =>
  digits(text)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
/** `1229` as `12/29`. */
function maskExpiry(text: string): string {
  const d = digits(text).slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d;
}

/** The expiry field's month and year with century (`12/29` is December 2029), or NaN. */
function expiryOf(text: string): { month: number; year: number } {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(text.trim());
  if (!match) return { month: Number.NaN, year: Number.NaN };
  const year = Number(match[2]);
  return { month: Number(match[1]), year: year < 100 ? 2000 + year : year };
}

/** The body of POST /v2/network_tokens: the card, and what else was filled in. */
function requestOf(values: TokenFormValues): NetworkTokenRequest {
  const { month, year } = expiryOf(values.expiry);
  const request: Record<string, unknown> = { card_number: digits(values.card_number), expiry_month: month, expiry_year: year };
  if (values.card_cvv) request.card_cvv = values.card_cvv;
  for (const key of OPTIONAL)
    if (values[key].trim()) request[key] = key === 'billing_country' ? values[key].trim().toUpperCase() : values[key].trim();
  return request as unknown as NetworkTokenRequest;
}

/** An API field as the form's field (the expiry's month and year are one field here). */
function formField(field: string): Key | undefined {
  if (field === 'expiry_month' || field === 'expiry_year') return 'expiry';
  return Object.hasOwn(EMPTY, field) ? (field as Key) : undefined;
}

/**
 * The card checks' words (contract/cards.ts, the same the API answers with) in the screens' language;
 * any other refusal of the API stays in its own words.
 */
const CARD_PROBLEMS: Readonly<Record<string, MessageId>> = {
  'must be 12 to 19 digits': 'tokens.form.problem.digits',
  'is not a valid card number (Luhn check failed)': 'tokens.form.problem.luhn',
  'only visa and mastercard cards can be tokenized': 'tokens.form.problem.brand',
  'must be an integer from 1 to 12': 'tokens.form.problem.month',
  'must be a four-digit year with century, e.g. 2030': 'tokens.form.problem.year',
  'the card has expired': 'tokens.form.problem.expired',
};

/** The API's words, after the field's name: "Card number: is not a valid card number (Luhn check failed)". */
const sayer = (t: Translate) => (key: Key, message: string) => {
  const known = Object.hasOwn(CARD_PROBLEMS, message) ? CARD_PROBLEMS[message] : undefined;
  return t('tokens.form.fieldProblem', { field: t(LABELS[key]), problem: known ? t(known) : message });
};

/** What the API would refuse about the card, said before anything is sent. */
function cardProblems(t: Translate, values: TokenFormValues): FieldErrors<TokenFormValues> {
  const said = sayer(t);
  const errors: FieldErrors<TokenFormValues> = {};
  const card = tokenCardNumberProblem(digits(values.card_number));
  if (card) errors.card_number = { type: 'card', message: said('card_number', card) };
  const { month, year } = expiryOf(values.expiry);
  const expiry = cardExpiryProblems(month, year, new Date());
  const expiryProblem = expiry.expiry_month ?? expiry.expiry_year;
  if (!values.expiry.trim()) errors.expiry = { type: 'card', message: t('tokens.form.expiryRequired') };
  else if (expiryProblem) errors.expiry = { type: 'card', message: said('expiry', expiryProblem) };
  if (values.card_cvv && !/^\d{3}$/.test(values.card_cvv)) errors.card_cvv = { type: 'card', message: t('tokens.form.cvvDigits') };
  return errors;
}

export function TokenCreateScreen() {
  const t = useT();
  return (
    <section className="form-screen" aria-labelledby="token-form-title">
      <Link to="/network-tokens" className="back-link">
        {t('tokens.list.back')}
      </Link>
      <h1 id="token-form-title">{t('tokens.form.title')}</h1>
      <p className="lead">{t('tokens.form.lead')}</p>
      <TokenForm />
    </section>
  );
}

function TokenForm() {
  const navigate = useNavigate();
  const [other, setOther] = useState<string[]>([]);
  const keyFor = useIdempotencyKeys();
  const t = useT();
  const said = sayer(t);
  // The card first, with the contract's checks; then the rest as the gateway's check answers it.
  const resolver = useCallback<Resolver<TokenFormValues>>(
    async (values) => {
      const local = cardProblems(t, values);
      if (Object.keys(local).length) return { values: {}, errors: local };
      let problems;
      try {
        problems = await networkTokensClient.check(requestOf(values));
      } catch (error) {
        // A check that did not answer blocks nothing: the request answers for itself.
        sessionEnded(error);
        return { values, errors: {} };
      }
      const { errors, other: rest } = problemsByField(problems, formField, sayer(t));
      setOther(rest);
      return problems.length ? { values: {}, errors } : { values, errors: {} };
    },
    [t],
  );
  const form = useForm<TokenFormValues>({ defaultValues: EMPTY, resolver, mode: 'onSubmit', reValidateMode: 'onBlur' });
  const { register, handleSubmit, formState, setError, setValue } = form;
  const { errors, isSubmitting, submitCount } = formState;

  const onSubmit = async (values: TokenFormValues) => {
    setOther([]);
    const request = requestOf(values);
    try {
      // One key per body: a retry after a lost answer cannot request twice.
      const token = await networkTokensClient.create(request, keyFor(request));
      void navigate({ to: '/network-tokens/$id', params: { id: token.id } });
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
      setOther([problemText(error, t('tokens.form.what'))]);
    }
  };

  const fieldCount = Object.keys(errors).filter((key) => key !== 'root').length + other.length;
  const cardField = register('card_number');
  const expiryField = register('expiry');
  const text = (name: Key, type = 'text', note?: string) => (
    <Field label={t(LABELS[name])} optional error={errors[name]?.message} note={note}>
      {(props) => <input className="input" type={type} autoComplete="off" {...props} {...register(name)} />}
    </Field>
  );

  return (
    <form
      className="stacked-form token-form"
      noValidate
      onSubmit={(event) => void handleSubmit(onSubmit)(event)}
      aria-describedby={fieldCount ? 'token-form-summary' : undefined}
    >
      {submitCount > 0 && <FormSummary id="token-form-summary" errors={errors} other={other} />}
      <fieldset className="form-card">
        <legend>{t('tokens.form.card')}</legend>
        <div className="form-grid">
          <Field label={t(LABELS.card_number)} error={errors.card_number?.message} className="field-wide" note={t('tokens.form.cardNote')}>
            {(props) => (
              <input
                className="input mono card-input"
                inputMode="numeric"
                autoComplete="off"
                spellCheck={false}
                maxLength={23}
                {...props}
                {...cardField}
                onChange={(event) => {
                  setValue('card_number', groupCard(event.target.value));
                }}
              />
            )}
          </Field>
          <div className="field-row">
            <Field label={t(LABELS.expiry)} error={errors.expiry?.message} className="field-amount" note={t('tokens.form.expiryFormat')}>
              {(props) => (
                <input
                  className="input mono"
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder={t('tokens.form.expiryFormat')}
                  maxLength={7}
                  {...props}
                  {...expiryField}
                  onChange={(event) => {
                    setValue('expiry', maskExpiry(event.target.value));
                  }}
                />
              )}
            </Field>
            <Field
              label={t(LABELS.card_cvv)}
              optional
              error={errors.card_cvv?.message}
              className="field-currency"
              note={t('tokens.form.cvvNote')}
            >
              {(props) => (
                <input
                  className="input mono"
                  type="password"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={3}
                  {...props}
                  {...register('card_cvv')}
                />
              )}
            </Field>
          </div>
          {text('card_holder')}
        </div>
      </fieldset>
      <fieldset className="form-card">
        <legend>{t('tokens.form.holderAndBilling')}</legend>
        <div className="form-grid">
          {text('email', 'email')}
          {text('phone', 'tel')}
          {text('billing_line1')}
          {text('billing_postal_code', 'text', t('tokens.form.postalCodeNote'))}
          {text('billing_city')}
          {text('billing_country', 'text', t('tokens.form.countryNote'))}
          <div className="field-wide">{text('postback_url', 'url', t('tokens.form.postbackNote'))}</div>
        </div>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary button-lg" disabled={isSubmitting}>
          {t(isSubmitting ? 'tokens.form.busy' : 'tokens.form.submit')}
        </button>
        <Link to="/network-tokens" className="button button-quiet button-lg">
          {t('common.cancel')}
        </Link>
      </div>
    </form>
  );
}
