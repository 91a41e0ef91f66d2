import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { currencyExponent, decimalText, isCurrency, minorToAmount, minorToText, toMinor } from '../../contract/money.js';
import { feeMinor } from '../../main/core/payment-methods/fees.js';

function exponentOf(currency: string): number {
  const exponent = currencyExponent(currency);
  assert.notEqual(exponent, undefined, `${currency} should be a known currency`);
  return exponent as number;
}

const EUR = exponentOf('EUR');
const JPY = exponentOf('JPY');
const KWD = exponentOf('KWD');

describe('currency exponents (ISO 4217)', () => {
  test('EUR 2, JPY 0, KWD 3', () => {
    assert.equal(EUR, 2);
    assert.equal(JPY, 0);
    assert.equal(KWD, 3);
  });

  test('lower case, unknown and non-spendable codes are not currencies', () => {
    for (const code of ['eur', 'EURO', 'ABC', 'XAU', 'XTS', 'XXX', '']) assert.equal(isCurrency(code), false, code);
    for (const code of ['EUR', 'USD', 'JPY', 'KWD', 'CHF']) assert.equal(isCurrency(code), true, code);
  });
});

describe('toMinor', () => {
  test('converts amounts to minor units with the exponent of the currency', () => {
    assert.deepEqual(toMinor(10.55, EUR), { ok: true, minor: 1055 });
    assert.deepEqual(toMinor(0.01, EUR), { ok: true, minor: 1 });
    assert.deepEqual(toMinor(10, EUR), { ok: true, minor: 1000 });
    assert.deepEqual(toMinor(0, EUR), { ok: true, minor: 0 });
    assert.deepEqual(toMinor(1234, JPY), { ok: true, minor: 1234 });
    assert.deepEqual(toMinor(1.234, KWD), { ok: true, minor: 1234 });
    assert.deepEqual(toMinor(0.001, KWD), { ok: true, minor: 1 });
    // Values whose binary float is not the decimal (1.005 * 100 = 100.49999...) still convert exactly.
    assert.deepEqual(toMinor(1.005, KWD), { ok: true, minor: 1005 });
    assert.deepEqual(toMinor(4.35, EUR), { ok: true, minor: 435 });
    assert.deepEqual(toMinor(1.15, EUR), { ok: true, minor: 115 });
  });

  test('rejects more decimals than the currency allows', () => {
    assert.deepEqual(toMinor(10.555, EUR), { ok: false, problem: 'too_many_decimals' });
    assert.deepEqual(toMinor(1.5, JPY), { ok: false, problem: 'too_many_decimals' });
    assert.deepEqual(toMinor(1.2345, KWD), { ok: false, problem: 'too_many_decimals' });
  });

  test('rejects float artefacts such as 0.1 + 0.2 for EUR', () => {
    const sum = 0.1 + 0.2;
    assert.equal(sum, 0.30000000000000004);
    assert.deepEqual(toMinor(sum, EUR), { ok: false, problem: 'too_many_decimals' });
    assert.deepEqual(toMinor(0.30000000000000004, KWD), { ok: false, problem: 'too_many_decimals' });
  });

  test('numbers JavaScript prints in exponent form are read exactly', () => {
    assert.equal(decimalText(1e-7), '0.0000001');
    assert.equal(decimalText(1.5e-7), '0.00000015');
    assert.equal(decimalText(1e21), '1000000000000000000000');
    assert.deepEqual(toMinor(1e-7, EUR), { ok: false, problem: 'too_many_decimals' });
    assert.deepEqual(toMinor(5e-324, EUR), { ok: false, problem: 'too_many_decimals' });
    assert.deepEqual(toMinor(1e21, EUR), { ok: false, problem: 'too_large' });
    assert.deepEqual(toMinor(1e3, JPY), { ok: true, minor: 1000 });
  });

  test('rejects negative amounts, but accepts negative zero as zero', () => {
    assert.deepEqual(toMinor(-1, EUR), { ok: false, problem: 'negative' });
    assert.deepEqual(toMinor(-0.01, EUR), { ok: false, problem: 'negative' });
    assert.deepEqual(toMinor(-5, JPY), { ok: false, problem: 'negative' });
    const zero = toMinor(-0, EUR);
    assert.ok(zero.ok);
    assert.equal(zero.minor, 0);
  });

  test('rejects NaN and infinities', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      assert.deepEqual(toMinor(value, EUR), { ok: false, problem: 'not_a_number' }, String(value));
    }
  });

  test('accepts exactly 999,999,999.99 and rejects anything above', () => {
    assert.deepEqual(toMinor(999_999_999.99, EUR), { ok: true, minor: 99_999_999_999 });
    assert.deepEqual(toMinor(999_999_999.98, EUR), { ok: true, minor: 99_999_999_998 });
    assert.deepEqual(toMinor(1_000_000_000, EUR), { ok: false, problem: 'too_large' });
    assert.deepEqual(toMinor(1_000_000_000.01, EUR), { ok: false, problem: 'too_large' });
    assert.deepEqual(toMinor(999_999_999, JPY), { ok: true, minor: 999_999_999 });
    assert.deepEqual(toMinor(1_000_000_000, JPY), { ok: false, problem: 'too_large' });
    // KWD has three decimals: 999,999,999.990 is the limit, 999,999,999.991 is above it.
    assert.deepEqual(toMinor(999_999_999.99, KWD), { ok: true, minor: 999_999_999_990 });
    assert.deepEqual(toMinor(999_999_999.991, KWD), { ok: false, problem: 'too_large' });
  });
});

describe('minorToText and minorToAmount', () => {
  test('give the decimal text and number of minor units', () => {
    assert.equal(minorToText(39, EUR), '0.39');
    assert.equal(minorToText(5, EUR), '0.05');
    assert.equal(minorToText(0, EUR), '0.00');
    assert.equal(minorToText(1055, EUR), '10.55');
    assert.equal(minorToText(-5, EUR), '-0.05');
    assert.equal(minorToText(100, JPY), '100');
    assert.equal(minorToText(0, JPY), '0');
    assert.equal(minorToText(1, KWD), '0.001');
    assert.equal(minorToText(1234, KWD), '1.234');
    assert.equal(minorToText(99_999_999_999, EUR), '999999999.99');
    assert.equal(minorToAmount(1055, EUR), 10.55);
    assert.equal(minorToAmount(1, KWD), 0.001);
    assert.equal(minorToAmount(99_999_999_999, EUR), 999_999_999.99);
  });

  test('round-trip through toMinor for every exponent, including the limits', () => {
    // A small deterministic generator (no Math.random: a failure must be reproducible).
    let seed = 0x2545f491;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 2 ** 32;
    };
    for (const exponent of [EUR, JPY, KWD]) {
      const max = exponent === 0 ? 999_999_999 : 99_999_999_999 * 10 ** (exponent - 2);
      const samples = [0, 1, 9, 10, 99, 100, 101, max - 1, max];
      for (let i = 0; i < 2000; i += 1) samples.push(Math.floor(next() * (max + 1)));
      for (const minor of samples) {
        const amount = minorToAmount(minor, exponent);
        assert.deepEqual(toMinor(amount, exponent), { ok: true, minor }, `minor ${minor} exponent ${exponent}`);
        assert.equal(Number(minorToText(minor, exponent)), amount);
      }
    }
  });
});

describe('feeMinor', () => {
  test('1.4% + 0.25 on 10.00 is 0.39', () => {
    const fee = feeMinor(1000, 140, 25);
    assert.equal(fee, 39);
    assert.equal(minorToText(fee, EUR), '0.39');
  });

  test('rounds half up: exactly .5 goes up, below .5 goes down', () => {
    assert.equal(feeMinor(1250, 140, 0), 18); // 17.5 -> 18
    assert.equal(feeMinor(150, 100, 0), 2); // 1.5 -> 2
    assert.equal(feeMinor(50, 100, 0), 1); // 0.5 -> 1
    assert.equal(feeMinor(149, 100, 0), 1); // 1.49 -> 1
    assert.equal(feeMinor(151, 100, 0), 2); // 1.51 -> 2
    assert.equal(feeMinor(1249, 140, 10), 17 + 10); // 17.486 -> 17
  });

  test('no fee on zero, the fixed part alone with 0%', () => {
    assert.equal(feeMinor(0, 140, 0), 0);
    assert.equal(feeMinor(0, 140, 25), 25);
    assert.equal(feeMinor(12345, 0, 30), 30);
  });

  test('stays exact on the largest amount', () => {
    // 99,999,999,999 minor units at 2.9% are 2,899,999,999.971 minor units: rounds to 2,900,000,000.
    assert.equal(feeMinor(99_999_999_999, 290, 0), 2_900_000_000);
    assert.ok(Number.isSafeInteger(99_999_999_999 * 290 * 2 + 10_000));
  });
});
