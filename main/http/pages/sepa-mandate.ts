/**
 * The SEPA mandate step's form (account holder, IBAN, mandate text and consent), shared by the
 * checkout page and the invoice pay page.
 */
import type { PageRequest } from './context.js';
import { groupIban, type FieldErrors } from './forms.js';
import { attrs, html, type HtmlValue, type SafeHtml } from './html.js';
import type { PageMessage } from './i18n.js';
import { errorSummary, textField } from './layout.js';

export interface SepaState {
  iban?: string;
  accountHolder?: string;
  errors: FieldErrors;
  general?: string;
}

export function sepaMandateForm(
  pr: PageRequest,
  state: SepaState,
  options: { action: string; hidden: HtmlValue; holder: string; merchant: string },
): SafeHtml {
  const { t } = pr;
  const order = ['account_holder', 'iban', 'mandate_accept'].filter((name) => state.errors[name]);
  const error = (name: string) => (state.errors[name] ? t(state.errors[name] as PageMessage) : undefined);
  return html`<form method="post" action="${pr.link(options.action)}" novalidate data-validate data-busy-text="${t('pages.busy')}">
${options.hidden}
${errorSummary(
  t,
  order.map((name) => ({ name, message: error(name) as string })),
  state.general,
)}
${textField({ name: 'account_holder', label: t('pages.account_holder'), value: options.holder, error: error('account_holder'), autocomplete: 'name', maxlength: 120, required: true, check: 'text', first: order[0] === 'account_holder', messages: { required: t('pages.err_account_holder_required') } })}
${textField({
  name: 'iban',
  label: t('pages.iban'),
  hint: t('pages.iban_hint'),
  value: state.iban ? groupIban(state.iban) : '',
  error: error('iban'),
  autocomplete: 'off',
  maxlength: 42,
  required: true,
  check: 'iban',
  first: order[0] === 'iban',
  messages: { required: t('pages.err_iban_required'), invalid: t('pages.err_iban_invalid') },
  extra: { spellcheck: 'false', autocapitalize: 'characters', autocorrect: 'off', class: 'mono' },
})}
<div class="mandate"><p>${t('pages.mandate_text', { merchant: options.merchant })}</p></div>
<div class="field${error('mandate_accept') ? ' invalid' : ''}">
<div class="check"><input type="checkbox" id="f-mandate_accept" name="mandate_accept" value="1" data-check="checked" data-msg-required="${t('pages.err_mandate_accept')}" aria-describedby="f-mandate_accept-error"${attrs({ 'aria-invalid': error('mandate_accept') ? 'true' : undefined, 'data-first-error': order[0] === 'mandate_accept' ? true : undefined })}><label for="f-mandate_accept">${t('pages.mandate_accept')}</label></div>
<p class="error" id="f-mandate_accept-error">${error('mandate_accept') ?? ''}</p>
</div>
<div class="actions"><button type="submit" class="btn btn-primary" data-busy>${t('pages.confirm_and_pay')}</button></div>
<div class="secondary-actions"><button type="submit" name="back" value="1" class="linkish" formnovalidate>${t('pages.back')}</button></div>
</form>`;
}
