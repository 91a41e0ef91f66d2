/**
 * The rules a text field must pass, defined once for every place that checks it: the core's request
 * checks, the renderer's forms and the hosted pages' script in the customer's browser. Node-free.
 *
 * Functions marked "self-contained" use nothing outside their own body (no module constant, no
 * helper), so main/http/pages/assets.ts can put their source into the pages' script as it is;
 * tests/unit/text-rules.test.ts holds them to it.
 */

/** The longest e-mail address (RFC 5321: a path of 256 octets, less its angle brackets). */
export const EMAIL_MAX_LENGTH = 254;

/** The longest http(s) URL a request may give (`success_url`, `error_url`, `postback_url`). */
export const URL_MAX_LENGTH = 2000;

/** The WHATWG URL parser of Node and the browsers (the contract's lib has no DOM or Node types). */
declare const URL: new (text: string) => { protocol: string };

/**
 * Local part: 1 to 64 characters, none of them white space, a control character or a special that
 * would end up splitting or quoting a mail header (`@ < > ( ) , ; : " [ ] \`).
 */
const LOCAL_PART = String.raw`[^\s\p{Cc}@<>(),;:"\[\]\\]{1,64}`;
/** A domain label of 1 to 63 letters (any script: internationalised domains), digits and inner hyphens. */
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?`;
const EMAIL = new RegExp(`^${LOCAL_PART}@${LABEL}(?:\\.${LABEL})+$`, 'u');
/** A sender's address may name a host of one label (`invoices@localhost`, the default sender). */
const SENDER_ADDRESS = new RegExp(`^${LOCAL_PART}@${LABEL}(?:\\.${LABEL})*$`, 'u');
/** `Name <address>`: a display name of at most 200 characters, without angle brackets or control characters. */
const NAMED_SENDER = /^([^<>\p{Cc}]{0,200})<([^<>]*)>$/u;

/**
 * An e-mail address a customer or a shop can be written to: `local@domain.tld`, at most 254
 * characters, the domain's labels of letters, digits and inner hyphens (any script). The text as
 * given: callers trim first where the field is trimmed.
 */
export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL.test(text);
}

/**
 * A sender (the SMTP settings' "from"): an address, or `Name <address>`; its host may be a single
 * label such as `localhost`.
 */
export function isMailSender(text: string): boolean {
  const named = NAMED_SENDER.exec(text);
  const address = named ? (named[2] ?? '') : text;
  return address.length <= EMAIL_MAX_LENGTH && SENDER_ADDRESS.test(address);
}

/** An absolute http or https URL of at most {@link URL_MAX_LENGTH} characters. */
export function isHttpUrl(text: string): boolean {
  if (text.length > URL_MAX_LENGTH) return false;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A calendar day written `YYYY-MM-DD` that exists (no 2025-02-29). Self-contained: the hosted pages' script holds its source. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}
