// The one definition of each text rule (contract/text-rules.ts): e-mail addresses, senders, http(s)
// URLs and calendar dates, at their edges; and the rules the hosted pages' script carries into the
// customer's browser work from their source alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cardBrand, luhnValid } from '../../contract/cards.js';
import { EMAIL_MAX_LENGTH, isCalendarDate, isEmailAddress, isHttpUrl, isMailSender, URL_MAX_LENGTH } from '../../contract/text-rules.js';
import { ASSETS } from '../../main/http/pages/assets.js';

/** An address of exactly `length` characters: a local part of 64 and a domain of labels of at most 63. */
function addressOf(length: number): string {
  const local = 'l'.repeat(64);
  let domain = '';
  while (local.length + 1 + domain.length < length) {
    const room = length - local.length - 1 - domain.length - (domain ? 1 : 0);
    domain += `${domain ? '.' : ''}${'d'.repeat(Math.min(63, room))}`;
  }
  return `${local}@${domain}`;
}

void test('isEmailAddress: local@domain.tld of at most 254 characters, letters of any script in the domain', () => {
  for (const address of [
    'ada@example.com',
    'aisha.khan@example.co.uk',
    'a@b.co',
    "o'brien+receipts@sub.example.ie",
    'first.last-1@x-y.example',
    'jürgen@bäckerei-berg.de',
    'ana@xn--bckerei-berg-dcb.de',
    'kunde@例え.jp',
    'user@123.example',
    addressOf(EMAIL_MAX_LENGTH),
  ]) {
    assert.equal(isEmailAddress(address), true, address);
  }
  assert.equal(addressOf(EMAIL_MAX_LENGTH).length, EMAIL_MAX_LENGTH);
  for (const address of [
    '',
    'x',
    'nobody',
    'not-an-email',
    'not an address',
    '@example.com',
    'ada@',
    'ada@example',
    'ada@localhost',
    'ada@@example.com',
    'ada@b@example.com',
    'a da@example.com',
    ' ada@example.com',
    'ada@example.com ',
    'ada\n@example.com',
    'ada\u0000@example.com',
    'ada(x)@example.com',
    'ada,bob@example.com',
    '"ada"@example.com',
    'ada;@example.com',
    '<ada@example.com>',
    'Ada <ada@example.com>',
    'ada@example.com,bob@example.com',
    'ada@example..com',
    'ada@.example.com',
    'ada@example.com.',
    'ada@-example.com',
    'ada@example-.com',
    'ada@exa_mple.com',
    'ada@[127.0.0.1]',
    `${'l'.repeat(65)}@example.com`,
    `ada@${'d'.repeat(64)}.com`,
    addressOf(EMAIL_MAX_LENGTH + 1),
  ]) {
    assert.equal(isEmailAddress(address), false, JSON.stringify(address));
  }
});

void test('isMailSender: an address or Name <address>, a host of one label allowed', () => {
  for (const sender of [
    'Bakery <billing@bakery.example>',
    'billing@bakery.example',
    'Tillgate <invoices@localhost>',
    'invoices@localhost',
    '<billing@bakery.example>',
    'Bäckerei Berg (Kasse) <kasse@bäckerei-berg.de>',
    `${'N'.repeat(199)} <a@b.example>`,
  ]) {
    assert.equal(isMailSender(sender), true, sender);
  }
  for (const sender of [
    '',
    'nobody',
    'Bakery',
    'Bakery <nobody>',
    'Bakery billing@bakery.example',
    'Bakery <billing@bakery.example',
    'Bakery <ada(x)@bakery.example>',
    'Bakery <billing@bakery.example> <b@c.example>',
    'Bakery\r\nBcc: x@evil.example <billing@bakery.example>',
    `${'N'.repeat(200)} <a@b.example>`,
    'billing@bakery..example',
  ]) {
    assert.equal(isMailSender(sender), false, JSON.stringify(sender));
  }
});

void test(`isHttpUrl: absolute http or https, at most ${URL_MAX_LENGTH} characters`, () => {
  const base = 'https://shop.example/';
  const ofLength = (n: number) => `${base}${'a'.repeat(n - base.length)}`;
  for (const url of [
    'http://shop.example/ok',
    'https://shop.example/ok?order=1#top',
    'https://shop.example:8443/a',
    'http://127.0.0.1:8080/',
    'HTTPS://SHOP.EXAMPLE/',
    ofLength(URL_MAX_LENGTH),
  ]) {
    assert.equal(isHttpUrl(url), true, url);
  }
  for (const url of [
    '',
    'shop.example/ok',
    '/ok',
    'ftp://shop.example/',
    'javascript:alert(1)',
    'data:text/html,x',
    'mailto:ada@example.com',
    'https://',
    'http://exa mple.com/',
    ofLength(URL_MAX_LENGTH + 1),
  ]) {
    assert.equal(isHttpUrl(url), false, url.slice(0, 40));
  }
});

void test('isCalendarDate: YYYY-MM-DD of a day that exists', () => {
  for (const day of ['2024-02-29', '2026-01-01', '2026-12-31', '1900-01-01', '2000-02-29']) assert.equal(isCalendarDate(day), true, day);
  for (const day of [
    '2025-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-1-1',
    '20260101',
    '2026-01-01T00:00:00Z',
    ' 2026-01-01',
    '2026-01-01 ',
    '26-01-01',
    '',
  ]) {
    assert.equal(isCalendarDate(day), false, JSON.stringify(day));
  }
});

/** The function rebuilt from its source text alone, as the hosted pages' script holds it (no module scope around it). */
function fromSource<F extends (...args: never[]) => unknown>(fn: F): F {
  return new Function(`return (${fn.toString()});`)() as F;
}

void test("the hosted pages' script carries the contract's Luhn, brand and date rules, and each works from its source alone", () => {
  const script = ASSETS['pages.js']?.body ?? '';
  const pans = [
    '4111111111111111',
    '4111111111111112',
    '5555555555554444',
    '2221000000000009',
    '2220990000000000',
    '378282246310005',
    '6011111111111117',
    '41111',
    '',
    '4111 1111 1111 1111',
  ];
  const days = ['2024-02-29', '2025-02-29', '2026-04-31', '2026-1-1', ''];
  const cases: Array<[(text: string) => unknown, string[]]> = [
    [luhnValid, pans],
    [cardBrand, pans],
    [isCalendarDate, days],
  ];
  for (const [rule, inputs] of cases) {
    assert.ok(script.includes(rule.toString()), `pages.js holds ${rule.name} as the contract defines it`);
    const copy = fromSource(rule);
    for (const input of inputs) assert.equal(copy(input), rule(input), `${rule.name}(${input})`);
  }
});
