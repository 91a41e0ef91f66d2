// The contract (contract/): one definition of the codes, constants and helpers that the gateway and
// the renderer share, and proof that it stays Node-free.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { asCardBrand, cardBrand, luhnValid } from '../../contract/cards.js';
import {
  ERROR_HTTP_STATUS,
  ErrorCode,
  httpStatusOf,
  isStatusCode,
  RefundStatus,
  refundStatusName,
  statusName,
  TRANSACTION_STATUS_LIST,
  TransactionStatus,
} from '../../contract/codes.js';
import { MAX_AMOUNT, MAX_AMOUNT_TEXT, MERCHANT_REFERENCE_PATTERN } from '../../contract/constants.js';
import { isLocalOnlyUrl, localOnlyLinkWarning } from '../../contract/links.js';
import { currencyExponent, exponentOf, fromMinorUnits, maxAmountMinor, toMinor, toMinorUnits } from '../../contract/money.js';

const CONTRACT = new URL('../../contract/', import.meta.url);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

void test('luhnValid and cardBrand', () => {
  for (const valid of [
    '4111111111111111',
    '5555555555554444',
    '378282246310005',
    '6011111111111117',
    '2223003122003222',
    '4242424242424242',
    '5555555551234561',
  ])
    assert.equal(luhnValid(valid), true, valid);
  for (const invalid of [
    '4111111111111112',
    '5555555551234567',
    '41111111111',
    '41111111111111111111',
    '4111 1111 1111 1111',
    '',
    'abcdefghijklm',
    '41111',
  ])
    assert.equal(luhnValid(invalid), false, invalid);
  assert.equal(cardBrand('4111111111111111'), 'visa');
  for (const mc of ['5105105105105100', '5555555555554444', '2221000000000009', '2720990000000007'])
    assert.equal(cardBrand(mc), 'mastercard', mc);
  assert.equal(cardBrand('5655555555554444'), 'unknown');
  assert.equal(cardBrand('2220990000000000'), 'unknown');
  assert.equal(cardBrand('2721000000000000'), 'unknown');
  assert.equal(cardBrand('378282246310005'), 'amex');
  assert.equal(cardBrand('341111111111111'), 'amex');
  assert.equal(cardBrand('6011111111111117'), 'discover');
  assert.equal(cardBrand('6500000000000002'), 'discover');
  assert.equal(cardBrand('3530111333300000'), 'unknown');
  assert.equal(cardBrand('4111-1111'), 'unknown');
  assert.equal(asCardBrand('amex'), 'amex');
  assert.equal(asCardBrand('diners'), 'unknown');
  assert.equal(asCardBrand(undefined), 'unknown');
});

void test('status and error codes, with the HTTP status of each error code', () => {
  assert.equal(statusName(TransactionStatus.partly_refunded), 'partly_refunded');
  assert.equal(statusName(13), 'stored');
  assert.throws(() => statusName(14));
  assert.ok(isStatusCode(13) && !isStatusCode(14) && !isStatusCode(0));
  assert.match(TRANSACTION_STATUS_LIST, /^1 started, 2 pending, 3 completed, .*, 12 chargeback, 13 stored$/);
  assert.deepEqual([RefundStatus.started, RefundStatus.success, RefundStatus.error], [0, 1, 2]);
  assert.equal(refundStatusName(1), 'success');
  assert.equal(refundStatusName(7), 'error');
  assert.equal(httpStatusOf(ErrorCode.idempotencyInFlight), 409);
  assert.equal(httpStatusOf(ErrorCode.processor), 502);
  assert.deepEqual(
    Object.keys(ERROR_HTTP_STATUS).map(Number).sort(),
    Object.values(ErrorCode).sort(),
    'every error code has its HTTP status',
  );
});

void test('money: ISO 4217 decimals, exact conversions both ways, the largest amount', () => {
  assert.equal(currencyExponent('EUR'), 2);
  assert.equal(currencyExponent('JPY'), 0);
  assert.equal(currencyExponent('KWD'), 3);
  assert.equal(currencyExponent('XAU'), undefined);
  assert.equal(exponentOf('???'), 2);
  assert.equal(toMinorUnits(12.5, 'EUR'), 1250);
  assert.equal(toMinorUnits(0.1 + 0.2, 'EUR'), 30, 'float noise is rounded away');
  assert.equal(toMinorUnits(1.005, 'EUR'), 101, 'through the decimal text, not 100.49999...');
  assert.equal(toMinorUnits(-3.005, 'EUR'), -301);
  assert.equal(toMinorUnits(1000.5, 'JPY'), 1001);
  assert.equal(toMinorUnits(1.2345, 'KWD'), 1235);
  assert.equal(toMinorUnits(2_000_000_000, 'EUR'), 200_000_000_000, 'a day total may pass the largest single amount');
  assert.equal(fromMinorUnits(1250, 'EUR'), 12.5);
  assert.equal(fromMinorUnits(-7, 'EUR'), -0.07);
  assert.equal(fromMinorUnits(1234, 'KWD'), 1.234);
  assert.equal(maxAmountMinor('EUR'), 99_999_999_999);
  assert.equal(maxAmountMinor('JPY'), 999_999_999);
  assert.equal(maxAmountMinor('KWD'), 999_999_999_990);
  assert.equal(String(MAX_AMOUNT), MAX_AMOUNT_TEXT);
  assert.deepEqual(toMinor(MAX_AMOUNT, 2), { ok: true, minor: maxAmountMinor('EUR') });
  assert.deepEqual(toMinor(MAX_AMOUNT + 0.01, 2), { ok: false, problem: 'too_large' });
  assert.ok(MERCHANT_REFERENCE_PATTERN.test("Returned goods: 2 x (A/B) 'ok' +1") && !MERCHANT_REFERENCE_PATTERN.test('Rückgabe'));
});

void test('the contract is Node-free and imports nothing else of the project', () => {
  for (const file of sources(CONTRACT.pathname)) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1] ?? '');
    for (const specifier of specifiers) {
      assert.ok(!specifier.startsWith('node:'), `${file} imports ${specifier}`);
      if (specifier.startsWith('.'))
        assert.ok(
          new URL(specifier, `file://${file}`).pathname.startsWith(CONTRACT.pathname),
          `${file} imports ${specifier}, outside contract/`,
        );
      // FormatJS's message formatter and ICU parser: plain JavaScript that runs in the browser and in Node,
      // so the staff screens and the pages the server renders format the same catalogues (D21).
      else
        assert.ok(
          ['@sinclair/typebox', 'currency-codes', '@formatjs/intl', '@formatjs/icu-messageformat-parser'].includes(specifier),
          `${file} imports the package ${specifier}`,
        );
    }
    assert.doesNotMatch(text.replace(/^\s*(\/\/|\*).*$/gm, ''), /\bBuffer\b|\bprocess\./, `${file} uses a Node global`);
  }
});

test("customer links: one that names this computer only is told apart from one a customer's phone reaches", () => {
  for (const url of [
    'http://127.0.0.1:8420/pay/x',
    'http://127.0.0.3/receipt/t',
    'http://localhost:8420',
    'http://LOCALHOST/pay',
    'http://[::1]:8420/pay',
    'http://till.localhost/pay',
    'https://user@127.0.0.1/x',
    'not a url',
    '',
  ]) {
    assert.equal(isLocalOnlyUrl(url), true, url);
  }
  for (const url of [
    'https://pay.corner-shop.example/pay/x',
    'http://192.168.1.20:8420/pay/x',
    'http://[fe80::1]/pay',
    'https://127.0.0.1.example.com/pay',
  ]) {
    assert.equal(isLocalOnlyUrl(url), false, url);
  }
  const warning = localOnlyLinkWarning('http://127.0.0.1:8420/pay/3f2a?lang=en');
  assert.match(warning, /^Only this computer opens links to http:\/\/127\.0\.0\.1:8420: a customer's phone cannot/);
  assert.match(warning, /GATEWAY_PUBLIC_URL, or "publicUrl" in settings\.json/);
  assert.doesNotMatch(warning, /3f2a/, 'the link itself (a pay link is a bearer of payment) is not repeated');
});
