/**
 * The hosted pages' only stylesheet and script, served by the gateway itself at /pay/assets/ (the
 * pages' CSP allows nothing else: no inline script or style, no other host). They live in this
 * module rather than in files next to it because the Electron main process is one esbuild bundle
 * (scripts/build-electron.mjs) that ships no loose files from main/.
 *
 * The script is progressive enhancement only; every page works without it. Its card number, brand
 * and date rules are the contract's functions, put in as their source (each is self-contained), so
 * the page checks what the gateway checks:
 *   - forms marked data-validate: checks fields marked data-check before submit (card number Luhn,
 *     expiry not in the past, CVC, IBAN mod-97, required fields), shows the messages the server
 *     rendered into data-msg-* in the page's language, links them with aria-describedby (already
 *     in the markup) and moves focus to the first error; then blocks double submits;
 *   - card number grouping and brand, "MM/YY" expiry typing;
 *   - forms marked data-autosubmit (the postform page) submit themselves;
 *   - on load, focus goes to the first field the server marked data-first-error.
 */
import { createHash } from 'node:crypto';
import { cardBrand, luhnValid } from '../../../contract/cards.js';
import { isCalendarDate } from '../../../contract/text-rules.js';

export const PAGES_CSS = `:root{--bg:#f3f4f6;--surface:#fff;--text:#161a1f;--muted:#545c68;--line:#d6dae1;--input:#8c94a1;--accent:#1d4ed8;--accent-dark:#1e3a8a;--accent-soft:#eff4ff;--danger:#b42318;--danger-soft:#fef3f2;--ok:#067647;--ok-soft:#ecfdf3;--warn:#8a3b0a;--warn-soft:#fff7e6;--radius:12px}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent)}
a:hover{color:var(--accent-dark)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.shell{max-width:34rem;margin:0 auto;padding:.75rem 1rem 2rem}
.shell.wide{max-width:62rem}
.topbar{display:flex;align-items:center;justify-content:space-between;gap:.5rem 1rem;flex-wrap:wrap;margin:0 0 .75rem}
.brand{display:flex;align-items:center;gap:.5rem;min-width:0;font-weight:650;font-size:1.0625rem}
.brand-name{overflow-wrap:anywhere}
.brand svg{flex:none;color:var(--muted)}
.badge{flex:none;font-size:.75rem;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--warn);background:var(--warn-soft);border:1px solid #f5c98a;border-radius:999px;padding:.05rem .5rem}
.langs ul{display:flex;gap:.125rem;list-style:none;margin:0;padding:0}
.langs a{display:inline-flex;align-items:center;justify-content:center;min-width:44px;min-height:44px;padding:0 .375rem;border-radius:8px;color:var(--muted);font-size:.875rem;font-weight:650;text-decoration:none}
.langs a:hover{color:var(--text);background:#e7e9ed}
.langs a[aria-current]{color:var(--text);background:var(--surface);box-shadow:inset 0 0 0 1px var(--line)}
.panel{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);padding:1.25rem;box-shadow:0 1px 3px rgba(16,24,40,.06)}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 .375rem}
h2{font-size:1.0625rem;line-height:1.35;margin:0 0 .75rem}
p{margin:0 0 1rem}
.lead{color:var(--muted)}
.muted{color:var(--muted)}
.small{font-size:.875rem}
.pay-head{display:flex;justify-content:space-between;align-items:flex-start;gap:1rem;padding:0 0 1rem;margin:0 0 1.25rem;border-bottom:1px solid var(--line)}
.pay-head .label{color:var(--muted);font-size:.875rem;margin:0}
.amount{font-size:1.75rem;line-height:1.2;font-weight:750;font-variant-numeric:tabular-nums;margin:0;overflow-wrap:anywhere}
.facts{display:grid;grid-template-columns:auto minmax(0,1fr);gap:.375rem 1rem;margin:0 0 1.25rem;font-size:.9375rem}
.facts dt{color:var(--muted)}
.facts dd{margin:0;text-align:right;overflow-wrap:anywhere;font-variant-numeric:tabular-nums}
.facts.total{font-weight:700;border-top:1px solid var(--line);padding-top:.625rem;font-size:1rem}
.facts.total dt{color:var(--text)}
.summary .amount{margin:0 0 1.25rem}
.summary h2{margin-top:.25rem}
fieldset{border:0;padding:0;margin:0 0 1.25rem;min-width:0}
legend{font-weight:700;font-size:1.0625rem;padding:0;margin:0 0 .75rem}
.field{margin:0 0 1rem}
.field>label{display:block;font-weight:600;margin:0 0 .25rem}
.opt{font-weight:400;color:var(--muted)}
.hint{display:block;color:var(--muted);font-size:.875rem;margin:-.125rem 0 .375rem}
input[type=text],input[type=tel],input[type=email],input[type=date],select{display:block;width:100%;min-height:48px;padding:.625rem .75rem;font:inherit;color:inherit;background:var(--surface);border:1px solid var(--input);border-radius:8px;appearance:none}
select{background-image:linear-gradient(45deg,transparent 50%,var(--muted) 50%),linear-gradient(135deg,var(--muted) 50%,transparent 50%);background-position:calc(100% - 18px) 50%,calc(100% - 13px) 50%;background-size:5px 5px;background-repeat:no-repeat;padding-right:2.25rem}
input:focus,select:focus{border-color:var(--accent)}
.field.invalid input,.field.invalid select,[aria-invalid=true]{border:2px solid var(--danger)}
.error{color:var(--danger);font-weight:600;font-size:.9375rem;margin:.375rem 0 0}
.error:empty{display:none}
.row{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 1rem}
.with-tag{position:relative}
.with-tag input{padding-right:6.5rem}
.tag{position:absolute;right:.75rem;top:50%;transform:translateY(-50%);font-size:.8125rem;font-weight:700;color:var(--muted);text-transform:uppercase;letter-spacing:.03em;pointer-events:none}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:.5rem;width:100%;min-height:48px;padding:.75rem 1rem;font:inherit;font-weight:650;line-height:1.2;text-align:center;text-decoration:none;border-radius:8px;border:1px solid transparent;cursor:pointer}
.btn-primary{background:var(--accent);color:#fff}
.btn-primary:hover{background:var(--accent-dark);color:#fff}
.btn-secondary{background:var(--surface);color:var(--text);border-color:var(--input)}
.btn-secondary:hover{background:#f3f4f6;color:var(--text)}
.btn-danger{background:var(--surface);color:var(--danger);border-color:var(--danger)}
.btn-danger:hover{background:var(--danger-soft)}
.actions{display:grid;gap:.75rem;margin:1.25rem 0 0}
@media (min-width:30rem){.actions.two{grid-template-columns:1fr 1fr}}
form.busy .btn{opacity:.65;cursor:progress}
.linkish{display:inline-flex;align-items:center;min-height:44px;padding:0;border:0;background:none;color:var(--accent);font:inherit;text-decoration:underline;cursor:pointer}
.linkish:hover{color:var(--accent-dark)}
.secondary-actions{display:flex;justify-content:center;margin-top:.5rem}
.error-summary{border:2px solid var(--danger);background:var(--danger-soft);border-radius:8px;padding:.875rem 1rem;margin:0 0 1.25rem}
.error-summary h2{font-size:1rem;margin:0 0 .375rem}
.error-summary ul{margin:0;padding-left:1.25rem}
.error-summary a{color:var(--danger);font-weight:600}
.error-summary p{margin:0}
.notice{border-radius:8px;padding:.875rem 1rem;margin:.75rem 0 1.25rem;border:1px solid var(--line);background:var(--accent-soft)}
.notice.tone-bad{border:2px solid var(--danger);background:var(--danger-soft)}
.notice p{margin:0}
.notice .notice-title{font-weight:650;margin:0 0 .25rem}
.notice.tone-bad .notice-title{color:var(--danger)}
.notice .actions{margin-top:.75rem}
.note{display:flex;gap:.5rem;align-items:flex-start;color:var(--muted);font-size:.875rem;margin:1rem 0 0}
.note svg{flex:none;margin-top:.1rem}
.sim{background:var(--warn-soft);color:var(--warn);border-radius:8px;padding:.625rem .875rem;font-size:.875rem;margin:0 0 1.25rem}
.status{text-align:center;padding:.5rem 0}
.status-icon{display:flex;align-items:center;justify-content:center;width:64px;height:64px;border-radius:50%;margin:0 auto 1rem}
.tone-ok .status-icon{background:var(--ok-soft);color:var(--ok)}
.tone-bad .status-icon{background:var(--danger-soft);color:var(--danger)}
.tone-neutral .status-icon{background:#eef0f3;color:var(--muted)}
.status .facts{text-align:left;margin-top:1.25rem}
.methods{margin:0 0 1.25rem}
.methods .method{display:flex;align-items:center;gap:.875rem;border:1px solid var(--line);border-radius:10px;padding:.75rem 1rem;margin:0 0 .5rem;min-height:60px;cursor:pointer;font-weight:400}
.method:hover{border-color:var(--input)}
.method:has(input:checked){border-color:var(--accent);box-shadow:inset 0 0 0 1px var(--accent);background:var(--accent-soft)}
.method input,.check input{flex:none;width:1.25rem;height:1.25rem;margin:0;accent-color:var(--accent)}
.method-text{display:flex;flex-direction:column;min-width:0}
.method-name{font-weight:650}
.method-hint{color:var(--muted);font-size:.875rem}
.method svg{flex:none;margin-left:auto;color:var(--muted)}
.check{display:flex;gap:.75rem;align-items:flex-start;min-height:44px;margin:0 0 1rem}
.check input{margin-top:.15rem}
.check label{font-weight:500;margin:0}
.same:has(input:checked)+.shipping-fields{display:none}
.mandate{font-size:.875rem;color:var(--muted);background:#f8f9fb;border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
.mandate p{margin:0}
.instructions{margin-top:1rem}
.instructions .facts{margin-bottom:0}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.02em}
.checkout{display:grid;gap:1rem}
.footer{display:flex;flex-direction:column;align-items:center;gap:.25rem;color:var(--muted);font-size:.8125rem;text-align:center;margin-top:1.5rem}
.footer p{margin:0}
.footer svg{vertical-align:-3px;margin-right:.375rem}
@media (min-width:40rem){.panel{padding:2rem}.shell{padding-top:1.5rem}}
@media (min-width:56rem){.checkout{grid-template-columns:minmax(0,5fr) minmax(0,7fr);grid-template-areas:"summary form" "extra form";grid-template-rows:auto 1fr;align-items:start;gap:1.5rem}.checkout .summary{grid-area:summary}.checkout .form-panel{grid-area:form}.checkout .extra{grid-area:extra}}
@media (prefers-reduced-motion:no-preference){.btn,.method,.langs a{transition:background-color .15s,border-color .15s,box-shadow .15s}}
`;

export const PAGES_JS = `(function () {
  'use strict';
  var d = document;
  function digits(v) { return String(v || '').replace(/\\D/g, ''); }
  // The contract's own rules (contract/cards.ts, contract/text-rules.ts), their source as it is.
  var luhn = ${luhnValid.toString()};
  var cardBrand = ${cardBrand.toString()};
  var isCalendarDate = ${isCalendarDate.toString()};
  function expiry(v) {
    var m = /^\\s*(\\d{1,2})\\s*[\\/.\\- ]?\\s*(\\d{2}|\\d{4})\\s*$/.exec(v);
    if (!m) return null;
    var month = Number(m[1]);
    var year = Number(m[2]);
    if (year < 100) year += 2000;
    return month >= 1 && month <= 12 ? { month: month, year: year } : null;
  }
  function ibanOk(v) {
    var s = String(v).replace(/\\s+/g, '').toUpperCase();
    if (!/^[A-Z]{2}\\d{2}[A-Z0-9]{10,30}$/.test(s)) return false;
    var r = s.slice(4) + s.slice(0, 4);
    var rem = 0;
    for (var i = 0; i < r.length; i++) {
      var c = r.charCodeAt(i);
      var part = c >= 65 ? String(c - 55) : r.charAt(i);
      for (var j = 0; j < part.length; j++) rem = (rem * 10 + Number(part.charAt(j))) % 97;
    }
    return rem === 1;
  }
  var BRAND_NAMES = { visa: 'Visa', mastercard: 'Mastercard', amex: 'Amex', discover: 'Discover' };
  function brand(n) { return BRAND_NAMES[cardBrand(n)] || ''; }
  function blank(el) { return String(el.value || '').trim() === ''; }
  var rules = {
    pan: function (el) {
      if (blank(el)) return 'required';
      return /^[\\d\\s-]+$/.test(el.value.trim()) && luhn(digits(el.value)) ? '' : 'invalid';
    },
    expiry: function (el) {
      if (blank(el)) return 'required';
      var e = expiry(el.value);
      if (!e) return 'invalid';
      var now = new Date();
      var y = now.getFullYear();
      var m = now.getMonth() + 1;
      return e.year < y || (e.year === y && e.month < m) ? 'past' : '';
    },
    cvc: function (el) {
      if (blank(el)) return 'required';
      return /^\\d{3,4}$/.test(el.value.trim()) ? '' : 'invalid';
    },
    text: function (el) { return el.required && blank(el) ? 'required' : ''; },
    select: function (el) { return el.required && !el.value ? 'required' : ''; },
    iban: function (el) {
      if (blank(el)) return 'required';
      return ibanOk(el.value) ? '' : 'invalid';
    },
    phone: function (el) {
      if (blank(el)) return el.required ? 'required' : '';
      var s = el.value.trim();
      return /^\\+?[0-9 ()\\/.\\-]{5,25}$/.test(s) && digits(s).length >= 5 ? '' : 'invalid';
    },
    date: function (el) {
      if (blank(el)) return el.required ? 'required' : '';
      if (!isCalendarDate(el.value)) return 'invalid';
      var t = Date.parse(el.value + 'T00:00:00Z');
      return t > Date.now() || t < Date.parse('1900-01-01T00:00:00Z') ? 'invalid' : '';
    },
    checked: function (el) { return el.checked ? '' : 'required'; },
    radio: function (el) { return el.querySelector('input:checked') ? '' : 'required'; }
  };
  function shown(el) { return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length); }
  function show(el, code) {
    var out = d.getElementById(el.id + '-error');
    var text = code ? el.getAttribute('data-msg-' + code) || el.getAttribute('data-msg-invalid') || '' : '';
    if (out) out.textContent = text;
    var field = el.closest('.field');
    if (field) field.classList.toggle('invalid', !!code);
    if (el.getAttribute('data-check') !== 'radio') {
      if (code) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');
    }
    return text;
  }
  function check(el) {
    var rule = rules[el.getAttribute('data-check')];
    return rule ? rule(el) : '';
  }
  function focusTarget(el) {
    return el.getAttribute('data-check') === 'radio' ? el.querySelector('input') : el;
  }
  function summarize(form, problems) {
    var box = form.querySelector('.error-summary');
    if (!box) return;
    var list = box.querySelector('ul');
    if (list) {
      while (list.firstChild) list.removeChild(list.firstChild);
      problems.forEach(function (p) {
        var li = d.createElement('li');
        var a = d.createElement('a');
        a.href = '#' + focusTarget(p.el).id;
        var label = p.el.getAttribute('data-label');
        a.textContent = label ? label + ': ' + p.text : p.text;
        li.appendChild(a);
        list.appendChild(li);
      });
    }
    box.hidden = problems.length === 0;
  }
  d.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.classList.contains('busy')) { event.preventDefault(); return; }
    var submitter = event.submitter;
    var skip = submitter && submitter.hasAttribute('formnovalidate');
    if (form.hasAttribute('data-validate') && !skip) {
      var problems = [];
      Array.prototype.forEach.call(form.querySelectorAll('[data-check]'), function (el) {
        if (!shown(el)) { show(el, ''); return; }
        var code = check(el);
        var text = show(el, code);
        if (code) problems.push({ el: el, text: text });
      });
      summarize(form, problems);
      if (problems.length) {
        event.preventDefault();
        var first = focusTarget(problems[0].el);
        if (first) first.focus();
        return;
      }
    }
    form.classList.add('busy');
    form.setAttribute('aria-busy', 'true');
    var busy = form.getAttribute('data-busy-text');
    var main = form.querySelector('.btn-primary[data-busy]');
    if (busy && main && (!submitter || submitter === main)) { main.setAttribute('data-idle-text', main.textContent); main.textContent = busy; }
  });
  d.addEventListener('input', function (event) {
    var el = event.target;
    if (!(el instanceof HTMLInputElement)) return;
    var format = el.getAttribute('data-format');
    var atEnd = el.selectionStart === el.value.length;
    if (format === 'pan') {
      var n = digits(el.value).slice(0, 19);
      if (atEnd && /^[\\d\\s]*$/.test(el.value)) el.value = n.replace(/(\\d{4})(?=\\d)/g, '$1 ');
      var tag = d.getElementById(el.id + '-brand');
      if (tag) tag.textContent = brand(n);
    } else if (format === 'expiry' && atEnd && event.inputType && event.inputType.indexOf('insert') === 0) {
      if (/^\\d{2}$/.test(el.value)) el.value = el.value + '/';
      else if (/^\\d{3,4}$/.test(el.value)) el.value = el.value.slice(0, 2) + '/' + el.value.slice(2);
    }
    var field = el.closest('.field');
    var target = el.type === 'radio' ? el.closest('[data-check]') : el;
    if (field && field.classList.contains('invalid') && target && !check(target)) show(target, '');
  });
  d.addEventListener('change', function (event) {
    var el = event.target;
    var target = el && el.closest ? (el.type === 'radio' ? el.closest('[data-check]') : el) : null;
    var field = el && el.closest ? el.closest('.field') : null;
    if (field && field.classList.contains('invalid') && target && target.hasAttribute('data-check') && !check(target)) show(target, '');
  });
  window.addEventListener('pageshow', function () {
    Array.prototype.forEach.call(d.querySelectorAll('form.busy'), function (form) {
      form.classList.remove('busy');
      form.removeAttribute('aria-busy');
      var main = form.querySelector('[data-idle-text]');
      if (main) { main.textContent = main.getAttribute('data-idle-text'); main.removeAttribute('data-idle-text'); }
    });
  });
  function ready() {
    var auto = d.querySelector('form[data-autosubmit]');
    if (auto) { auto.submit(); return; }
    var first = d.querySelector('[data-first-error]');
    if (first) first.focus();
    var pan = d.querySelector('input[data-format="pan"]');
    if (pan && pan.value) { var tag = d.getElementById(pan.id + '-brand'); if (tag) tag.textContent = brand(digits(pan.value)); }
  }
  if (d.readyState === 'loading') d.addEventListener('DOMContentLoaded', ready); else ready();
})();
`;

export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M11 14v-3a5 5 0 0 1 10 0v3" fill="none" stroke="#fff" stroke-width="2.5"/><rect x="8.5" y="14" width="15" height="11" rx="2" fill="#fff"/></svg>`;

function version(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 12);
}

export interface Asset {
  body: string;
  type: string;
  version: string;
}

export const ASSETS: Record<string, Asset> = {
  'pages.css': { body: PAGES_CSS, type: 'text/css; charset=utf-8', version: version(PAGES_CSS) },
  'pages.js': { body: PAGES_JS, type: 'text/javascript; charset=utf-8', version: version(PAGES_JS) },
  'icon.svg': { body: ICON_SVG, type: 'image/svg+xml', version: version(ICON_SVG) },
};

export const ASSET_PREFIX = '/pay/assets/';

/** The URL of an asset with its content version, so browsers may cache it for good. */
export function assetUrl(name: keyof typeof ASSETS & string): string {
  const asset = ASSETS[name];
  return `${ASSET_PREFIX}${name}?v=${asset?.version ?? ''}`;
}
