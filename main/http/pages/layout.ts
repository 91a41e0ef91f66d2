/**
 * The frame every hosted page shares (header with the merchant's name and the language switcher,
 * one panel, footer), the form components (labelled fields with hint and error linked by
 * aria-describedby), and the Content-Security-Policy of the pages. Paylink pages reuse all of it.
 */
import { assetUrl } from './assets.js';
import { attrs, html, trusted, type HtmlValue, type SafeHtml } from './html.js';
import { LANGUAGE_NAMES, LANGUAGES, type Lang, type Translate } from './i18n.js';

export const ICONS = {
  lock: trusted(
    '<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2" d="M7 11V8a5 5 0 0 1 10 0v3"/><rect x="4.5" y="11" width="15" height="10" rx="2" fill="none" stroke="currentColor" stroke-width="2"/></svg>',
  ),
  ok: trusted(
    '<svg width="32" height="32" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round" d="M5 12.5l4.5 4.5L19 7.5"/></svg>',
  ),
  bad: trusted(
    '<svg width="32" height="32" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" d="M7 7l10 10M17 7L7 17"/></svg>',
  ),
  neutral: trusted(
    '<svg width="32" height="32" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="2"/><path fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" d="M12 7.5V12l3 2"/></svg>',
  ),
  stop: trusted(
    '<svg width="32" height="32" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="2"/><path fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" d="M8.5 12h7"/></svg>',
  ),
  card: trusted(
    '<svg width="28" height="20" viewBox="0 0 28 20" aria-hidden="true" focusable="false"><rect x="1" y="1" width="26" height="18" rx="3" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M1 6.5h26" stroke="currentColor" stroke-width="3"/><path d="M5 14h7" stroke="currentColor" stroke-width="1.5"/></svg>',
  ),
  bank: trusted(
    '<svg width="28" height="22" viewBox="0 0 28 22" aria-hidden="true" focusable="false"><path d="M14 1L2 7h24z" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/><path d="M5 9v8M11 9v8M17 9v8M23 9v8M2 20h24" stroke="currentColor" stroke-width="1.5"/></svg>',
  ),
  wallet: trusted(
    '<svg width="28" height="22" viewBox="0 0 28 22" aria-hidden="true" focusable="false"><rect x="1" y="3" width="26" height="18" rx="3" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M19 10h8v6h-8a3 3 0 0 1 0-6z" fill="none" stroke="currentColor" stroke-width="1.5"/></svg>',
  ),
} as const;

export interface PageFrame {
  lang: Lang;
  t: Translate;
  /** The page's own heading, first part of the title. */
  title: string;
  /** The merchant's name, shown in the header (absent on pages that found no payment). */
  merchant?: string | null;
  /** href of the same page in each language. */
  languageHref: (lang: Lang) => string;
  /** Two columns on wide screens (checkout). */
  wide?: boolean;
  /** The page body; wrapped in one panel unless `bare`. */
  body: SafeHtml;
  bare?: boolean;
}

export function renderPage(frame: PageFrame): string {
  const { lang, t } = frame;
  const title = frame.merchant ? `${frame.title} · ${frame.merchant}` : `${frame.title} · ${t('pages.secure_payment')}`;
  const languages = LANGUAGES.map(
    (code) =>
      html`<li><a href="${frame.languageHref(code)}" lang="${code}" hreflang="${code}" title="${LANGUAGE_NAMES[code]}"${attrs({ 'aria-current': code === lang ? 'true' : undefined })}><span aria-hidden="true">${code.toUpperCase()}</span><span class="sr-only">${LANGUAGE_NAMES[code]}</span></a></li>`,
  );
  const page = html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<link rel="icon" type="image/svg+xml" href="${assetUrl('icon.svg')}">
<link rel="stylesheet" href="${assetUrl('pages.css')}">
<script src="${assetUrl('pages.js')}" defer></script>
</head>
<body>
<div class="shell${frame.wide ? ' wide' : ''}">
<header class="topbar">
<div class="brand">${ICONS.lock}<span class="brand-name">${frame.merchant ?? t('pages.secure_payment')}</span><span class="badge" title="${t('pages.test_note')}">${t('pages.test_mode')}</span></div>
<nav class="langs" aria-label="${t('pages.language')}"><ul>${languages}</ul></nav>
</header>
<main id="main"${attrs({ class: frame.bare ? undefined : 'panel' })}>
${frame.body}
</main>
<footer class="footer">
<p>${ICONS.lock}${t('pages.footer')}</p>
<p>${t('pages.test_note')}</p>
</footer>
</div>
</body>
</html>
`;
  return page.value;
}

// ---- components ------------------------------------------------------------------------------

export interface FieldSpec {
  name: string;
  label: string;
  value?: string;
  error?: string;
  hint?: string;
  type?: 'text' | 'tel' | 'email' | 'date';
  required?: boolean;
  /** data-check rule of the page script (pan, expiry, cvc, text, iban, phone, date). */
  check?: string;
  /** Messages for the script's codes (required, invalid, past), in the page's language. */
  messages?: Record<string, string>;
  autocomplete?: string;
  inputmode?: string;
  maxlength?: number;
  format?: string;
  /** Extra markup inside the input's wrapper (the card brand tag). */
  tag?: boolean;
  first?: boolean;
  optionalText?: string;
  /** The error summary names the field (its messages are generic, e.g. "Fill in this field."). */
  labelInSummary?: boolean;
  extra?: Record<string, string | boolean | undefined>;
}

export function fieldId(name: string): string {
  return `f-${name.replace(/[^a-z0-9_-]/gi, '-')}`;
}

function describedBy(id: string, hint: boolean): string {
  return [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ');
}

function messageAttrs(messages: Record<string, string> | undefined): SafeHtml {
  const values: Record<string, string> = {};
  for (const [code, text] of Object.entries(messages ?? {})) values[`data-msg-${code}`] = text;
  return attrs(values);
}

export function textField(spec: FieldSpec): SafeHtml {
  const id = fieldId(spec.name);
  const input = html`<input type="${spec.type ?? 'text'}" id="${id}" name="${spec.name}" value="${spec.value ?? ''}"${attrs({
    autocomplete: spec.autocomplete,
    inputmode: spec.inputmode,
    maxlength: spec.maxlength ?? 200,
    required: spec.required ?? false,
    'aria-required': spec.required ? 'true' : undefined,
    'aria-invalid': spec.error ? 'true' : undefined,
    'aria-describedby': describedBy(id, !!spec.hint),
    'data-check': spec.check,
    'data-format': spec.format,
    'data-first-error': spec.first ? true : undefined,
    'data-label': spec.labelInSummary ? spec.label : undefined,
    ...spec.extra,
  })}${messageAttrs(spec.messages)}>`;
  return html`<div class="field${spec.error ? ' invalid' : ''}">
<label for="${id}">${spec.label}${spec.optionalText ? html` <span class="opt">(${spec.optionalText})</span>` : ''}</label>
${spec.hint ? html`<span class="hint" id="${id}-hint">${spec.hint}</span>` : ''}
${spec.tag ? html`<div class="with-tag">${input}<span class="tag" id="${id}-brand" aria-live="polite"></span></div>` : input}
<p class="error" id="${id}-error">${spec.error ?? ''}</p>
</div>`;
}

export interface SelectSpec {
  name: string;
  label: string;
  options: Array<{ value: string; label: string }>;
  value?: string;
  error?: string;
  required?: boolean;
  placeholder: string;
  autocomplete?: string;
  messages?: Record<string, string>;
  first?: boolean;
  labelInSummary?: boolean;
}

export function selectField(spec: SelectSpec): SafeHtml {
  const id = fieldId(spec.name);
  const options = spec.options.map(
    (o) => html`<option value="${o.value}"${attrs({ selected: o.value === spec.value })}>${o.label}</option>`,
  );
  return html`<div class="field${spec.error ? ' invalid' : ''}">
<label for="${id}">${spec.label}</label>
<select id="${id}" name="${spec.name}"${attrs({
    autocomplete: spec.autocomplete,
    required: spec.required ?? false,
    'aria-invalid': spec.error ? 'true' : undefined,
    'aria-describedby': `${id}-error`,
    'data-check': 'select',
    'data-first-error': spec.first ? true : undefined,
    'data-label': spec.labelInSummary ? spec.label : undefined,
  })}${messageAttrs(spec.messages)}><option value="">${spec.placeholder}</option>${options}</select>
<p class="error" id="${id}-error">${spec.error ?? ''}</p>
</div>`;
}

/** The error summary: visible with the server's errors, filled by the script on client-side errors. */
export function errorSummary(t: Translate, errors: Array<{ name: string; message: string }>, general?: string): SafeHtml {
  const items = errors.map((e) => html`<li><a href="#${fieldId(e.name)}">${e.message}</a></li>`);
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title"${attrs({ hidden: errors.length === 0 && !general })}>
<h2 id="error-summary-title">${t('pages.error_summary')}</h2>
${general ? html`<p>${general}</p>` : ''}
<ul>${items}</ul>
</div>`;
}

export function facts(rows: Array<[string, HtmlValue] | null | undefined | false>, className = 'facts'): SafeHtml {
  const items = rows.filter((row): row is [string, HtmlValue] => !!row).map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`);
  return html`<dl class="${className}">${items}</dl>`;
}

/** Amount block at the top of a payment page. */
export function payHead(label: string, amount: string, aside?: HtmlValue): SafeHtml {
  return html`<div class="pay-head"><div><p class="label">${label}</p><p class="amount">${amount}</p></div>${aside ?? ''}</div>`;
}

/** A result: icon (check, cross, clock; `stopped` a bar for cancelled or closed), heading, text, then `after`. */
export function statusBlock(
  tone: 'ok' | 'bad' | 'neutral',
  title: string,
  texts: HtmlValue[],
  after?: HtmlValue,
  stopped = false,
): SafeHtml {
  const icon = tone === 'ok' ? ICONS.ok : tone === 'bad' ? ICONS.bad : stopped ? ICONS.stop : ICONS.neutral;
  return html`<div class="status tone-${tone}">
<div class="status-icon">${icon}</div>
<h1>${title}</h1>
${texts.filter((text) => text !== null && text !== undefined && text !== '').map((text) => html`<p class="lead">${text}</p>`)}
${after ?? ''}
</div>`;
}

// ---- Content-Security-Policy -----------------------------------------------------------------

/** A CSP source for the origin of a URL a page's form may end up at (the merchant's redirect targets). */
export function cspSource(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/.test(parsed.origin) ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pages' policy: nothing but our own stylesheet, script and icon; forms post to us, and to the
 * merchant origins a form's answer may redirect to (browsers apply form-action to the redirects
 * that follow a form submission).
 */
export function contentSecurityPolicy(formTargets: Array<string | null | undefined> = []): string {
  const sources = new Set(["'self'"]);
  for (const target of formTargets) {
    const source = cspSource(target);
    if (source) sources.add(source);
  }
  return [
    "default-src 'none'",
    "style-src 'self'",
    "script-src 'self'",
    "img-src 'self' data:",
    `form-action ${[...sources].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}
