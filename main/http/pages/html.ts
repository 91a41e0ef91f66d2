/**
 * A tiny HTML template helper for the hosted pages: `html` is a tagged template that escapes every
 * interpolated value unless it is already `SafeHtml` (the result of another `html` call). Attribute
 * values are always written inside double quotes in the templates, so escaping `"`, `'`, `<`, `>`
 * and `&` is enough for both text and attributes.
 */

export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i += 1) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Text the caller vouches for (our own constant markup such as icons). Never use it on input. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** `name="value"` pairs for optional attributes; `true` gives a bare attribute, false/undefined none. */
export function attrs(values: Record<string, string | number | boolean | null | undefined>): SafeHtml {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === false) continue;
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`bad attribute name ${name}`);
    parts.push(value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`);
  }
  return new SafeHtml(parts.join(''));
}

/** Only http(s) URLs end up in links and form actions the page renders. */
export function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}
