// The Test environment's simulator (decisions.md D3, D6): PIN blocks, the test data tables and
// every decision rule of main/processor/simulator.ts.
import assert from 'node:assert/strict';
import { createCipheriv } from 'node:crypto';
import { test } from 'node:test';
import { cardBrand, luhnValid } from '../../contract/cards.js';
import type {
  CardAuthorizationRequest,
  CardDecision,
  CardEntryMode,
  DirectDebitRequest,
  FollowUpRequest,
  RedirectMethod,
} from '../../main/core/payments/ports.js';
import { clearPinBlock, decryptPinBlock, encryptPinBlock, TEST_PIN_KEY } from '../../main/processor/pin-block.js';
import { Simulator } from '../../main/processor/simulator.js';
import { AMOUNT_TRIGGERS, amountTrigger, TEST_CARDS, TEST_IBANS, TEST_PIN } from '../../main/processor/test-cards.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const KEY = TEST_PIN_KEY.key;
const PIN_CARD = '5555555551234561';

function simulator(now: Date = NOW, publicUrl: () => string = () => 'http://127.0.0.1:8420'): Simulator {
  return new Simulator({ publicUrl, now: () => now });
}

function request(pan: string, overrides: Partial<CardAuthorizationRequest> = {}): CardAuthorizationRequest {
  return {
    reference: 'txn-0001',
    card: { pan, expiryMonth: 12, expiryYear: 2030, cvv: '123' },
    entry: 'ecommerce',
    amountMinor: 1000,
    currency: 'EUR',
    cvmLimitMinor: 5000,
    threeDSecureAuthenticated: false,
    ...overrides,
  };
}

function pinFor(pan: string, pin = TEST_PIN, key: Buffer = KEY): NonNullable<CardAuthorizationRequest['pin']> {
  return { format: 'ISO-0', block: encryptPinBlock(pin, pan, key), key };
}

async function authorize(pan: string, overrides: Partial<CardAuthorizationRequest> = {}): Promise<CardDecision> {
  return simulator().authorizeCard(request(pan, overrides));
}

function assertApproved(decision: CardDecision, label = ''): void {
  assert.equal(decision.outcome, 'approved', `${label}: expected approval, got ${JSON.stringify(decision)}`);
}

function assertDeclined(decision: CardDecision, code: string, text: string, label = ''): void {
  assert.deepEqual(decision, { outcome: 'declined', code, text }, label);
}

/** Raw TDES-ECB of a clear block, independent of pin-block.ts, to craft malformed blocks. */
function rawEncrypt(clearHex: string, key: Buffer = KEY): string {
  const cipher = createCipheriv('des-ede-ecb', key, null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(Buffer.from(clearHex, 'hex')), cipher.final()])
    .toString('hex')
    .toUpperCase();
}

// ---- PIN blocks -----------------------------------------------------------------------------

void test('PIN block test vector of decisions.md D6, both ways', () => {
  assert.equal(TEST_PIN_KEY.zoneId, 'test');
  assert.equal(TEST_PIN_KEY.keyId, '1');
  assert.equal(KEY.toString('hex').toUpperCase(), '0123456789ABCDEFFEDCBA9876543210');
  // decisions.md D6 vector, with its own PAN, and the same block for the Luhn-valid test card.
  assert.equal(clearPinBlock('1234', '5555555551234567'), '041261AAAAEDCBA9');
  assert.equal(encryptPinBlock('1234', '5555555551234567', KEY), '230B4C43B8BA2C5C');
  assert.equal(clearPinBlock('1234', PIN_CARD), '041261AAAAEDCBA9');
  assert.equal(encryptPinBlock('1234', PIN_CARD, KEY), '230B4C43B8BA2C5C');
  assert.equal(rawEncrypt('041261AAAAEDCBA9'), '230B4C43B8BA2C5C');
  assert.equal(decryptPinBlock('230B4C43B8BA2C5C', PIN_CARD, KEY), '1234');
  assert.equal(decryptPinBlock('230b4c43b8ba2c5c', PIN_CARD, KEY), '1234');
});

void test('PIN blocks round-trip for PIN lengths 4 to 12 and PANs of 12 to 19 digits', () => {
  // PIN field 0C123456789012FF xor PAN field 0000111111111111 (12 rightmost digits without the check digit).
  assert.equal(clearPinBlock('123456789012', '4111111111111111'), '0C122547698103EE');
  // A 12-digit PAN has only 11 digits before its check digit: the PAN field is left-padded.
  assert.equal(clearPinBlock('1234', '411111111111'), '041230EEEEEEEEEE');
  for (const pan of ['411111111111', '4111111111111111', '4111111111111111113', PIN_CARD]) {
    for (const pin of ['0000', '1234', '98765', '123456789012', '000000000000']) {
      const block = encryptPinBlock(pin, pan, KEY);
      assert.match(block, /^[0-9A-F]{16}$/);
      assert.equal(decryptPinBlock(block, pan, KEY), pin, `PIN of length ${pin.length}, PAN of length ${pan.length}`);
    }
  }
});

void test('malformed PINs, PANs and keys are refused without echoing them', () => {
  for (const pin of ['123', '1234567890123', '12a4', '', ' 1234']) {
    assert.throws(
      () => clearPinBlock(pin, PIN_CARD),
      (error: Error) => /PIN must be 4 to 12 digits/.test(error.message) && !error.message.includes(PIN_CARD),
    );
  }
  for (const pan of ['41111111111', '41111111111111111111', '4111-1111-1111', '']) {
    assert.throws(() => clearPinBlock('1234', pan), /PAN must be 12 to 19 digits/);
    assert.throws(() => decryptPinBlock('230B4C43B8BA2C5C', pan, KEY), /PAN must be 12 to 19 digits/);
  }
  assert.throws(() => encryptPinBlock('1234', PIN_CARD, KEY.subarray(0, 8)), /16 bytes/);
  assert.throws(() => decryptPinBlock('230B4C43B8BA2C5C', PIN_CARD, Buffer.alloc(24)), /16 bytes/);
});

void test('tampered blocks, another PAN or another key never give back the PIN', () => {
  const block = encryptPinBlock('1234', PIN_CARD, KEY);
  const bytes = Buffer.from(block, 'hex');
  for (let bit = 0; bit < 64; bit++) {
    const tampered = Buffer.from(bytes);
    tampered[bit >> 3] = (tampered[bit >> 3] ?? 0) ^ (1 << (bit & 7));
    assert.notEqual(decryptPinBlock(tampered.toString('hex'), PIN_CARD, KEY), '1234', `bit ${bit} flipped`);
  }
  for (const pan of ['4111111111111111', '5555555555554444', '5555555551234577']) {
    assert.notEqual(decryptPinBlock(block, pan, KEY), '1234', `other PAN ${pan.slice(-4)}`);
  }
  // The check digit is not part of the PAN field: 5555555551234561 shares the block.
  assert.equal(decryptPinBlock(block, '5555555551234561', KEY), '1234');
  assert.notEqual(decryptPinBlock(block, PIN_CARD, Buffer.from('00112233445566778899AABBCCDDEEFF', 'hex')), '1234');
  // Not 16 hex characters.
  for (const bad of ['', '230B4C43B8BA2C5', '230B4C43B8BA2C5C00', '230B4C43B8BA2C5G'])
    assert.equal(decryptPinBlock(bad, PIN_CARD, KEY), undefined);
});

void test('a block that decrypts to a malformed ISO-0 block gives undefined', () => {
  const panField = Buffer.from('0000555555123456', 'hex');
  const encrypted = (pinField: string): string => {
    const clear = Buffer.from(pinField, 'hex');
    for (let i = 0; i < 8; i++) clear[i] = (clear[i] ?? 0) ^ (panField[i] ?? 0);
    return rawEncrypt(clear.toString('hex'));
  };
  assert.equal(decryptPinBlock(encrypted('041234FFFFFFFFFF'), PIN_CARD, KEY), '1234');
  assert.equal(decryptPinBlock(encrypted('141234FFFFFFFFFF'), PIN_CARD, KEY), undefined, 'format nibble 1');
  assert.equal(decryptPinBlock(encrypted('03123FFFFFFFFFFF'), PIN_CARD, KEY), undefined, 'length 3');
  assert.equal(decryptPinBlock(encrypted('0D1234567890123F'), PIN_CARD, KEY), undefined, 'length 13');
  assert.equal(decryptPinBlock(encrypted('04123AFFFFFFFFFF'), PIN_CARD, KEY), undefined, 'non-digit in the PIN');
  assert.equal(decryptPinBlock(encrypted('041234FFFFFFFFFE'), PIN_CARD, KEY), undefined, 'padding not F');
  assert.equal(decryptPinBlock(encrypted('0412340FFFFFFFFF'), PIN_CARD, KEY), undefined, 'digit after the PIN');
});

// ---- the test cards -------------------------------------------------------------------------

void test('the test card table holds exactly the documented cards, with the brand of their BIN', () => {
  assert.deepEqual(
    TEST_CARDS.map((card) => card.number),
    [
      '4111111111111111',
      '5555555555554444',
      PIN_CARD,
      '4000000000000002',
      '4000000000009995',
      '4000000000000069',
      '4000000000003220',
      '4000000000000119',
      '4000000000001505',
      '4000000000001513',
      '4000000000000416',
      '5105105105105100',
    ],
  );
  for (const card of TEST_CARDS) {
    assert.equal(cardBrand(card.number), card.brand, card.number);
    assert.ok(card.behaviour.length > 0);
    assert.equal(luhnValid(card.number), true, card.number);
  }
  assert.equal(TEST_PIN, '1234');
});

void test('every test card decides as documented', async () => {
  const entries: CardEntryMode[] = ['ecommerce', 'chip', 'contactless', 'swipe', 'manual', 'stored'];
  for (const entry of entries) {
    const label = (pan: string): string => `${pan} on ${entry}`;
    for (const pan of ['4111111111111111', '5555555555554444', '5105105105105100', '4242424242424242', '378282246310005']) {
      assertApproved(await authorize(pan, { entry }), label(pan));
    }
    assertDeclined(await authorize('4000000000000002', { entry }), '05', 'Do not honour', label('0002'));
    // The store-and-forward card: approved when authorized at once, declined 51 when a till forwards it.
    assertApproved(await authorize('4000000000000416', { entry }), label('0416'));
    assertDeclined(await authorize('4000000000000416', { entry, stored: true }), '51', 'Insufficient funds', label('0416 forwarded'));
    assertDeclined(await authorize('4000000000009995', { entry }), '51', 'Insufficient funds', label('9995'));
    assertDeclined(await authorize('4000000000000069', { entry }), '54', 'Expired card', label('0069'));
    assert.deepEqual(
      await authorize('4000000000000119', { entry }),
      { outcome: 'error', text: 'Simulated processor failure' },
      label('0119'),
    );
  }
  // 3-D Secure challenge only on e-commerce, until authenticated.
  assert.deepEqual(await authorize('4000000000003220', { entry: 'ecommerce' }), { outcome: 'challenge' });
  assertApproved(await authorize('4000000000003220', { entry: 'ecommerce', threeDSecureAuthenticated: true }), '3220 authenticated');
  for (const entry of ['chip', 'contactless', 'manual', 'stored'] as const)
    assertApproved(await authorize('4000000000003220', { entry }), `3220 on ${entry}`);
  // Always-ask-PIN card: every card-present entry, any amount; a swiped card must be inserted.
  for (const amountMinor of [0, 1, 1000, 999_999]) {
    assert.deepEqual(await authorize(PIN_CARD, { entry: 'contactless', amountMinor }), { outcome: 'pin_required', insertCard: false });
    assert.deepEqual(await authorize(PIN_CARD, { entry: 'chip', amountMinor }), { outcome: 'pin_required', insertCard: false });
    assert.deepEqual(await authorize(PIN_CARD, { entry: 'swipe', amountMinor }), { outcome: 'pin_required', insertCard: true });
  }
  for (const entry of ['contactless', 'chip', 'swipe'] as const) {
    assertApproved(await authorize(PIN_CARD, { entry, pin: pinFor(PIN_CARD) }), `PIN card with PIN 1234 on ${entry}`);
    assertDeclined(await authorize(PIN_CARD, { entry, pin: pinFor(PIN_CARD, '4321') }), '55', 'Incorrect PIN', `wrong PIN on ${entry}`);
  }
  // Not Luhn-valid, yet a test card: card-not-present entries approve it without a PIN.
  assertApproved(await authorize(PIN_CARD, { entry: 'ecommerce' }), 'PIN card on ecommerce');
});

void test('approvals carry a 6-digit authorization code and a SIM network reference', async () => {
  const decision = await authorize('4111111111111111');
  assert.equal(decision.outcome, 'approved');
  if (decision.outcome !== 'approved') return;
  assert.match(decision.authorizationCode, /^\d{6}$/);
  assert.match(decision.networkReference, /^SIM[0-9A-F]{15}$/);
});

// ---- CVM limit and PIN ------------------------------------------------------------------------

void test('contactless needs PIN one minor unit above the CVM limit, not at it', async () => {
  assertApproved(await authorize('4111111111111111', { entry: 'contactless', amountMinor: 5000, cvmLimitMinor: 5000 }), 'at the limit');
  assert.deepEqual(await authorize('4111111111111111', { entry: 'contactless', amountMinor: 5001, cvmLimitMinor: 5000 }), {
    outcome: 'pin_required',
    insertCard: false,
  });
  assert.deepEqual(await authorize('5555555555554444', { entry: 'contactless', amountMinor: 2001, cvmLimitMinor: 2000 }), {
    outcome: 'pin_required',
    insertCard: false,
  });
  assertApproved(
    await authorize('4111111111111111', { entry: 'contactless', amountMinor: 5001, pin: pinFor('4111111111111111') }),
    'above with PIN 1234',
  );
  assertDeclined(
    await authorize('4111111111111111', { entry: 'contactless', amountMinor: 5001, pin: pinFor('4111111111111111', '1111') }),
    '55',
    'Incorrect PIN',
  );
  // Chip and swipe above the limit need no online PIN, and e-commerce knows no CVM limit.
  for (const entry of ['chip', 'swipe', 'ecommerce'] as const)
    assertApproved(await authorize('4111111111111111', { entry, amountMinor: 5001 }), entry);
});

void test('an undecryptable PIN block is an incorrect PIN', async () => {
  const base = { entry: 'contactless' as const, amountMinor: 6000 };
  const pan = '4111111111111111';
  // Encrypted for another card, under another key, with a 24-byte key, not hex.
  assertDeclined(await authorize(pan, { ...base, pin: pinFor('5555555555554444') }), '55', 'Incorrect PIN', 'other PAN');
  const otherKey = Buffer.from('00112233445566778899AABBCCDDEEFF', 'hex');
  assertDeclined(
    await authorize(pan, { ...base, pin: { format: 'ISO-0', block: encryptPinBlock('1234', pan, otherKey), key: KEY } }),
    '55',
    'Incorrect PIN',
    'other key',
  );
  assertDeclined(
    await authorize(pan, { ...base, pin: { format: 'ISO-0', block: encryptPinBlock('1234', pan, KEY), key: Buffer.alloc(24, 1) } }),
    '55',
    'Incorrect PIN',
    'bad key',
  );
  assertDeclined(
    await authorize(pan, { ...base, pin: { format: 'ISO-0', block: 'not a pin block!', key: KEY } }),
    '55',
    'Incorrect PIN',
    'not hex',
  );
  // A block under another key is accepted when the request names that key.
  assertApproved(await authorize(pan, { ...base, pin: pinFor(pan, '1234', otherKey) }), 'terminal key');
});

// ---- amount triggers ------------------------------------------------------------------------

void test('EUR amounts ending .51/.55/.75 decline card-present payments with any card before any PIN', async () => {
  const expected = { 1251: ['51', 'Insufficient funds'], 1255: ['55', 'Incorrect PIN'], 1275: ['75', 'PIN tries exceeded'] } as const;
  for (const [amount, [code, text]] of Object.entries(expected)) {
    const amountMinor = Number(amount);
    for (const entry of ['contactless', 'chip', 'swipe'] as const) {
      for (const pan of ['4111111111111111', PIN_CARD, '4000000000000002', '4000000000000119', '4000000000003220']) {
        assertDeclined(await authorize(pan, { entry, amountMinor }), code, text, `${pan} ${amountMinor} ${entry}`);
      }
      // Above the CVM limit, and with a correct PIN: still the trigger.
      assertDeclined(await authorize('4111111111111111', { entry, amountMinor: amountMinor + 10_000 }), code, text, `above CVM ${entry}`);
      assertDeclined(await authorize(PIN_CARD, { entry, amountMinor, pin: pinFor(PIN_CARD) }), code, text, `with PIN ${entry}`);
    }
    // Not on card-not-present entries.
    for (const entry of ['ecommerce', 'manual', 'stored'] as const) {
      assertApproved(await authorize('4111111111111111', { entry, amountMinor }), `${amountMinor} ${entry}`);
    }
    const walletCryptogram = { cryptogram: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=', eci: '05' };
    assertApproved(
      await authorize('4111111111111111', { entry: 'devicewallet', amountMinor, walletCryptogram }),
      `${amountMinor} devicewallet`,
    );
  }
  for (const amountMinor of [1250, 5100, 5500, 7500, 1256, 151_00]) {
    assertApproved(await authorize('4111111111111111', { entry: 'chip', amountMinor }), `${amountMinor} chip`);
  }
  assert.deepEqual(
    AMOUNT_TRIGGERS.map((trigger) => [trigger.decimals, trigger.code]),
    [
      ['51', '51'],
      ['55', '55'],
      ['75', '75'],
    ],
  );
});

void test('JPY (no decimals) has no amount triggers; KWD (3 decimals) triggers on .510/.550/.750 only', async () => {
  for (const amountMinor of [51, 55, 75, 1251, 1255, 1275, 5100]) {
    assertApproved(
      await authorize('4111111111111111', { entry: 'chip', currency: 'JPY', amountMinor, cvmLimitMinor: 10_000 }),
      `JPY ${amountMinor}`,
    );
    assertApproved(
      await authorize('4111111111111111', { entry: 'contactless', currency: 'JPY', amountMinor, cvmLimitMinor: 10_000 }),
      `JPY ${amountMinor}`,
    );
  }
  assert.equal(amountTrigger(1251, 0), undefined);
  const kwd = (amountMinor: number): Promise<CardDecision> =>
    authorize('4111111111111111', { entry: 'chip', currency: 'KWD', amountMinor, cvmLimitMinor: 100_000 });
  assertDeclined(await kwd(12_510), '51', 'Insufficient funds', 'KWD 12.510');
  assertDeclined(await kwd(12_550), '55', 'Incorrect PIN', 'KWD 12.550');
  assertDeclined(await kwd(12_750), '75', 'PIN tries exceeded', 'KWD 12.750');
  assertDeclined(await kwd(510), '51', 'Insufficient funds', 'KWD 0.510');
  for (const amountMinor of [12_515, 12_551, 12_051, 12_055, 51, 12_500]) assertApproved(await kwd(amountMinor), `KWD ${amountMinor}`);
  assert.equal(amountTrigger(1251, 2)?.code, '51');
  assert.equal(amountTrigger(125_100, 4)?.code, '51');
  assert.equal(amountTrigger(125_101, 4), undefined);
});

// ---- expiry, Luhn, device wallets, amounts --------------------------------------------------------

void test('an expiry before the current month declines 54; the injected clock decides', async () => {
  const card = (expiryMonth: number, expiryYear: number) => ({ pan: '4111111111111111', expiryMonth, expiryYear });
  assertApproved(await authorize('4111111111111111', { card: card(3, 2026) }), 'current month');
  assertDeclined(await authorize('4111111111111111', { card: card(2, 2026) }), '54', 'Expired card', 'last month');
  assertDeclined(await authorize('4111111111111111', { card: card(12, 2025) }), '54', 'Expired card', 'last year');
  assertDeclined(await authorize('4111111111111111', { card: card(13, 2030) }), '54', 'Expired card', 'month 13');
  assertDeclined(await authorize('4111111111111111', { card: card(0, 2030) }), '54', 'Expired card', 'month 0');
  assertDeclined(
    await authorize(PIN_CARD, { entry: 'chip', card: { ...card(1, 2026), pan: PIN_CARD } }),
    '54',
    'Expired card',
    'before PIN',
  );
  // The same card on an earlier clock is valid, and on the first day after its month it expires.
  assertApproved(
    await simulator(new Date('2020-01-01T00:00:00Z')).authorizeCard(request('4111111111111111', { card: card(2, 2026) })),
    'earlier clock',
  );
  assertDeclined(
    await simulator(new Date('2026-03-01T00:00:00Z')).authorizeCard(request('4111111111111111', { card: card(2, 2026) })),
    '54',
    'Expired card',
  );
  assertApproved(
    await simulator(new Date('2026-02-28T23:59:59Z')).authorizeCard(request('4111111111111111', { card: card(2, 2026) })),
    'last second',
  );
});

void test('a number failing Luhn declines 14', async () => {
  for (const pan of ['4111111111111112', '5555555555554445', '41111111111', '4111 1111 1111 1111', '']) {
    for (const entry of ['ecommerce', 'chip'] as const)
      assertDeclined(await authorize(pan, { entry }), '14', 'Invalid card number', `${pan} ${entry}`);
  }
});

void test('device wallet payments need a cryptogram and ECI 05/06/07/02', async () => {
  const pan = '4111111111111111';
  for (const eci of ['05', '06', '07', '02'])
    assertApproved(
      await authorize(pan, { entry: 'devicewallet', walletCryptogram: { cryptogram: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=', eci } }),
      eci,
    );
  assertDeclined(await authorize(pan, { entry: 'devicewallet' }), '05', 'Do not honour', 'no cryptogram');
  assertDeclined(
    await authorize(pan, { entry: 'devicewallet', walletCryptogram: { cryptogram: '', eci: '05' } }),
    '05',
    'Do not honour',
    'empty',
  );
  assertDeclined(
    await authorize(pan, { entry: 'devicewallet', walletCryptogram: { cryptogram: 'AgAA', eci: '01' } }),
    '05',
    'Do not honour',
    'ECI 01',
  );
  assertDeclined(
    await authorize(pan, { entry: 'devicewallet', walletCryptogram: { cryptogram: 'AgAA', eci: '5' } }),
    '05',
    'Do not honour',
    'ECI 5',
  );
});

void test('a negative or fractional authorization amount declines 13; zero is an account check', async () => {
  assertDeclined(await authorize('4111111111111111', { amountMinor: -1 }), '13', 'Invalid amount');
  assertDeclined(await authorize('4111111111111111', { amountMinor: 10.5 }), '13', 'Invalid amount');
  assertApproved(await authorize('4111111111111111', { amountMinor: 0 }), 'zero');
});

// ---- follow-ups, SEPA, redirects -------------------------------------------------------------

void test('capture, reverse, refund and payout approve with derived references; no amount declines 13', async () => {
  const sim = simulator();
  const followUp: FollowUpRequest = { reference: 'txn-0001', networkReference: 'SIM0123456789ABCDE', amountMinor: 1000, currency: 'EUR' };
  const results = {
    CAP: await sim.capture(followUp),
    REV: await sim.reverse(followUp),
    REF: await sim.refund(followUp),
    PAY: await sim.payout({ ...followUp, method: 'cardpos' }),
  };
  const references = new Set<string>();
  for (const [prefix, result] of Object.entries(results)) {
    assert.equal(result.outcome, 'approved', prefix);
    if (result.outcome !== 'approved') continue;
    assert.match(result.reference, new RegExp(`^${prefix}[0-9A-F]{15}$`));
    references.add(result.reference);
  }
  assert.equal(references.size, 4);
  assert.deepEqual(await sim.capture(followUp), results.CAP);
  assert.notDeepEqual(await sim.capture({ ...followUp, reference: 'txn-0002' }), results.CAP);
  assert.notDeepEqual(await sim.capture({ ...followUp, amountMinor: 999 }), results.CAP);
  for (const amountMinor of [0, -100]) {
    const bad = { ...followUp, amountMinor };
    for (const result of [
      await sim.capture(bad),
      await sim.reverse(bad),
      await sim.refund(bad),
      await sim.payout({ ...bad, method: 'a2a' }),
    ]) {
      assert.deepEqual(result, { outcome: 'declined', code: '13', text: 'Invalid amount' });
    }
  }
});

void test('SEPA direct debits follow the IBAN table', async () => {
  const sim = simulator();
  const debit = (iban: string, overrides: Partial<DirectDebitRequest> = {}): DirectDebitRequest => ({
    reference: 'txn-dd-1',
    iban,
    bic: null,
    mandateReference: 'MNDT-0001',
    b2b: false,
    amountMinor: 2500,
    currency: 'EUR',
    ...overrides,
  });
  assert.deepEqual(
    TEST_IBANS.map((entry) => entry.iban),
    ['DE89370400440532013000', 'DE78370400440532013004', 'DE51370400440532013005'],
  );

  for (const iban of ['DE89370400440532013000', 'de89 3704 0044 0532 0130 00', 'GB82WEST12345698765432']) {
    const submitted = await sim.submitDirectDebit(debit(iban));
    assert.equal(submitted.outcome, 'accepted', iban);
    if (submitted.outcome === 'accepted') {
      assert.match(submitted.messageId, /^MSG-[0-9A-F]{31}$/);
      assert.ok(submitted.messageId.length <= 35);
    }
    assert.deepEqual(await sim.directDebitResult(debit(iban)), { outcome: 'settled' }, iban);
  }

  const returned = debit('DE78370400440532013004', { b2b: true });
  assert.equal((await sim.submitDirectDebit(returned)).outcome, 'accepted');
  assert.deepEqual(await sim.directDebitResult(returned), { outcome: 'returned', code: 'AM04', text: 'Insufficient funds' });
  assert.deepEqual(await sim.directDebitResult(debit('de78 3704 0044 0532 0130 04')), {
    outcome: 'returned',
    code: 'AM04',
    text: 'Insufficient funds',
  });
  assert.deepEqual(await sim.submitDirectDebit(debit('DE51 3704 0044 0532 0130 05')), {
    outcome: 'rejected',
    code: 'AC01',
    text: 'Incorrect account number',
  });

  assert.deepEqual(await sim.submitDirectDebit(debit('DE51370400440532013005')), {
    outcome: 'rejected',
    code: 'AC01',
    text: 'Incorrect account number',
  });
  assert.deepEqual(await sim.submitDirectDebit(debit('DE89370400440532013001')), {
    outcome: 'rejected',
    code: 'AC01',
    text: 'Incorrect account number',
  });
  assert.deepEqual(await sim.directDebitResult(debit('DE89370400440532013001')), {
    outcome: 'returned',
    code: 'AC01',
    text: 'Incorrect account number',
  });
  assert.deepEqual(await sim.submitDirectDebit(debit('DE89370400440532013000', { currency: 'GBP' })), {
    outcome: 'rejected',
    code: 'AM03',
    text: 'Currency not allowed',
  });
  assert.deepEqual(await sim.submitDirectDebit(debit('DE89370400440532013000', { amountMinor: 0 })), {
    outcome: 'rejected',
    code: 'AM12',
    text: 'Invalid amount',
  });

  const first = await sim.submitDirectDebit(debit('DE89370400440532013000'));
  assert.deepEqual(await simulator().submitDirectDebit(debit('DE89370400440532013000')), first);
  assert.notDeepEqual(await sim.submitDirectDebit(debit('DE89370400440532013000', { reference: 'txn-dd-2' })), first);
});

void test('the same request always gets the same decision and references', async () => {
  const cases: CardAuthorizationRequest[] = [
    request('4111111111111111'),
    request('5555555555554444', { entry: 'contactless', amountMinor: 9000, pin: pinFor('5555555555554444') }),
    request(PIN_CARD, { entry: 'swipe' }),
    request('4000000000000002'),
  ];
  for (const item of cases) {
    const first = await simulator().authorizeCard(item);
    assert.deepEqual(await simulator().authorizeCard(item), first);
    assert.deepEqual(await simulator().authorizeCard(structuredClone(item)), first);
  }
  const a = await authorize('4111111111111111', { reference: 'txn-A' });
  const b = await authorize('4111111111111111', { reference: 'txn-B' });
  assert.ok(a.outcome === 'approved' && b.outcome === 'approved');
  assert.notEqual(a.networkReference, b.networkReference);
});

void test('redirect URLs point at the hosted pages under the public URL, read when asked', () => {
  let url = 'http://127.0.0.1:0';
  const sim = simulator(NOW, () => url);
  assert.equal(sim.name, 'simulator');
  url = 'http://127.0.0.1:8420/';
  const expected: Record<RedirectMethod, string> = {
    cardecom: 'card',
    register: 'card',
    threeds: '3ds',
    wallet: 'wallet',
    a2a: 'a2a',
    bankredirect: 'bank',
  };
  for (const [method, path] of Object.entries(expected) as [RedirectMethod, string][]) {
    assert.equal(sim.redirectUrl(method, 'txn-0001'), `http://127.0.0.1:8420/pay/txn-0001/${path}`);
  }
  url = 'https://pay.example.test';
  assert.equal(sim.redirectUrl('threeds', 'a b/c'), 'https://pay.example.test/pay/a%20b%2Fc/3ds');
});
