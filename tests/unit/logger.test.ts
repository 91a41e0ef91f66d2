import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger, maskPans } from '../../main/infra/logger.js';
import { basicAuth } from '../helpers/gateway-process.js';
import { createTestMerchant, startTestGateway, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { makeTempDir } from '../helpers/temp.js';

const PAN = '4111111111111111';
const MASKED = '411111…1111';

/** A pino logger writing into memory. */
function capturingLogger(level = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines, text: () => lines.join('') };
}

describe('maskPans', () => {
  test('masks card-number-like digit runs to first 6 and last 4', () => {
    assert.equal(maskPans(`card ${PAN} declined`), `card ${MASKED} declined`);
    assert.equal(maskPans('5555555555554444'), '555555…4444');
    assert.equal(maskPans('4111111111111'), '411111…1111'); // 13 digits
    assert.equal(maskPans('4111111111111111111'), '411111…1111'); // 19 digits
    assert.equal(maskPans(`/rest/pay/${PAN}/x`), `/rest/pay/${MASKED}/x`);
    assert.equal(maskPans(`${PAN},${'5555555555554444'}`), `${MASKED},555555…4444`);
  });

  test('leaves shorter numbers (order ids, amounts, timestamps) alone', () => {
    for (const text of ['order 123456789012', 'amount 10.55', '2026-11-21T10:00:00Z', 'id 1234']) {
      assert.equal(maskPans(text), text);
    }
  });
});

describe('createLogger redaction', () => {
  test('redacts secrets at the top level', () => {
    const { logger, lines, text } = capturingLogger();
    logger.info(
      {
        card_number: PAN,
        card_cvv: '737',
        pin_block: '041261AAAAEDCBA9',
        track2_data: `${PAN}=29122011234567890`,
        emv_data: '9F2608C3A1B2C3D4E5F6A7',
        api_password: 'hunter2-api-password',
        order_id: 'order-visible',
      },
      'top level',
    );
    assert.equal(lines.length, 1);
    const entry = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    for (const field of ['card_number', 'card_cvv', 'pin_block', 'track2_data', 'emv_data', 'api_password']) {
      assert.equal(entry[field], '[redacted]', field);
    }
    assert.equal(entry.order_id, 'order-visible', 'other fields stay');
    for (const secret of [PAN, '737"', '041261AAAAEDCBA9', '9F2608C3A1B2C3D4E5F6A7', 'hunter2-api-password']) {
      assert.ok(!text().includes(secret), secret);
    }
  });

  test('redacts the Authorization header of a logged request', () => {
    const { logger, text } = capturingLogger();
    const authorization = basicAuth({ api_key: 'tg_test_key', api_password: 'very-secret-password' });
    logger.info({ req: { method: 'GET', url: '/rest/transactions', headers: { authorization, 'user-agent': 'pos/1.0' } } }, 'request');
    logger.info({ headers: { authorization } }, 'headers');
    logger.info({ authorization }, 'bare');
    assert.ok(!text().includes(authorization.slice('Basic '.length)), 'the credentials are not logged');
    assert.ok(text().includes('pos/1.0'), 'other headers stay');
  });

  test('redacts secrets nested at any depth', () => {
    const { logger, lines, text } = capturingLogger();
    const posData = {
      type: { terminal_entry_mode: 'contactless', sequence: 'subsequent' },
      card: { number: PAN, expiry_month: 12, expiry_year: 2030, track2_data: `${PAN}=3012`, emv_data: '9F2608AABBCCDD' },
      pin_block: { format: 'ISO-0', block: '041261AAAAEDCBA9', zone_id: 'test', key_id: '1' },
      terminal: { id: 'T-visible' },
    };
    logger.info({ body: { card_number: PAN, card_cvv: '123', api_password: 'nested-password' } }, 'depth 2');
    logger.info({ body: { pos_data: posData } }, 'depth 4');
    logger.info({ req: { body: { pos_data: posData } } }, 'depth 5');
    logger.info({ batch: [{ card_number: PAN }, { nested: { card_cvv: '999' } }] }, 'arrays');
    assert.equal(lines.length, 4);
    const output = text();
    for (const secret of [PAN, '041261AAAAEDCBA9', '9F2608AABBCCDD', 'nested-password', '"123"', '"999"']) {
      assert.ok(!output.includes(secret), `${secret} leaked: ${output}`);
    }
    assert.ok(output.includes('T-visible'), 'non-secret nested fields stay');
    assert.ok(output.includes('contactless'));
    const deep = JSON.parse(lines[1] ?? '') as { body: { pos_data: { card: Record<string, unknown> } } };
    assert.equal(deep.body.pos_data.card.number, '[redacted]');
    assert.equal(deep.body.pos_data.card.expiry_month, 12);
  });

  test('does not change the object the caller logged', () => {
    const { logger } = capturingLogger();
    const payload = { body: { pos_data: { card: { number: PAN } } }, card_number: PAN };
    logger.info(payload, 'logged');
    assert.equal(payload.body.pos_data.card.number, PAN);
    assert.equal(payload.card_number, PAN);
  });

  test('masks card numbers in messages, in string fields and in errors', () => {
    const { logger, text } = capturingLogger();
    logger.info(`declined card ${PAN}`);
    logger.info({ url: `/rest/transactions/${PAN}` }, 'field');
    logger.error({ err: new Error(`processor said ${PAN} is invalid`) }, 'failed');
    const output = text();
    assert.ok(!output.includes(PAN), output);
    assert.ok(output.includes(MASKED), 'masked form is kept for support');
  });
});

describe('createLogger readable lines (npm start)', () => {
  test('prints one readable line per entry, with the same redaction and masking', () => {
    const file = join(makeTempDir('tillgate-log-'), 'console.log');
    const fd = openSync(file, 'w');
    const logger = createLogger({ format: 'pretty', destination: fd });
    logger.info({ order_id: 'order-visible', card_number: PAN }, `payment with ${PAN} approved`);
    logger.warn('second entry');
    closeSync(fd);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 2, 'one line per entry');
    assert.match(
      lines[0] ?? '',
      new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\] INFO: payment with ${MASKED} approved \\{.*"order_id":"order-visible"`),
    );
    assert.match(lines[0] ?? '', /"card_number":"\[redacted\]"/);
    assert.match(lines[1] ?? '', /^\[\d\d:\d\d:\d\d\] WARN: second entry$/);
    assert.ok(!lines.join('\n').includes(PAN), 'no card number');
  });
});

describe('HTTP logs carry no secrets', () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  const capture = capturingLogger('trace');

  before(async () => {
    gw = await startTestGateway({ logger: capture.logger });
    shop = await createTestMerchant(gw);
  });

  after(async () => {
    await gw.close();
  });

  test('password, Authorization value and card numbers never reach the log', async () => {
    const base64 = shop.auth.slice('Basic '.length);
    const requests = [
      // Rejected bodies with a card number: malformed JSON, unknown field, deep unknown field.
      { method: 'POST', url: '/rest/create_mandate_reference', payload: `{"card_number": "${PAN}", ` },
      {
        method: 'POST',
        url: '/rest/create_mandate_reference',
        payload: JSON.stringify({ payment_type: 'dd', account_holder: 'A', iban: 'DE89370400440532013000', card_number: PAN }),
      },
      {
        method: 'POST',
        url: '/rest/create_mandate_reference',
        payload: JSON.stringify({ payment_type: 'dd', account_holder: 'A', iban: PAN }),
      },
      // A card number in the URL.
      { method: 'GET', url: `/rest/transactions/${PAN}` },
      { method: 'GET', url: `/rest/transactions?order_id=${PAN}` },
      { method: 'GET', url: `/rest/nowhere/${PAN}` },
      { method: 'GET', url: `/rest/transactions/${PAN}%ff` },
    ] as const;
    for (const request of requests) {
      const response = await gw.app.inject({
        ...request,
        headers: { authorization: shop.auth, ...('payload' in request ? { 'content-type': 'application/json' } : {}) },
      });
      assert.ok(response.statusCode < 500, `${request.url}: ${response.statusCode}`);
    }
    // Failed authentications log too.
    await gw.app.inject({
      method: 'GET',
      url: '/rest/transactions',
      headers: { authorization: basicAuth({ api_key: shop.api_key, api_password: 'wrong-password-xyz' }) },
    });

    const output = capture.text();
    assert.ok(capture.lines.length >= requests.length, 'the requests were logged');
    assert.match(output, /incoming request/);
    for (const secret of [shop.api_password, base64, shop.auth, PAN, 'wrong-password-xyz', shop.webhook_key]) {
      assert.ok(!output.includes(secret), `${secret} appears in the log`);
    }
    assert.ok(output.includes(MASKED), 'the URL is logged with the card number masked');
  });
});
