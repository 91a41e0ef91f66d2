/**
 * Receipt tests' shared setup: an in-process gateway (compose + buildServer, no background jobs, a
 * movable clock at local noon), a shop with a cashier, a back-office manager and an admin logged in
 * by PIN, a second shop, and builders for chip sales whose EMV data carries an AID and a label.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';

import type { ReceiptPrinter } from '../../main/core/receipts/ports.js';
import type { PrintQueueSettings } from '../../main/core/receipts/print-queue.js';
import { buildServer } from '../../main/http/server.js';
import { createLogger } from '../../main/infra/logger.js';
import { resolveSettings } from '../../main/settings.js';
import { composeForTest, tempDir, TestClock, type TestGateway, type TestMerchant } from './api.js';
import { basicAuth } from './gateway-process.js';
import { EXPIRY_YEAR, posPayment } from './payments.js';

export interface ReceiptGatewayOptions {
  receiptPrinter?: ReceiptPrinter;
  receiptPrints?: Partial<PrintQueueSettings>;
}

const COOKIE = 'tillgate_session';
export const VISA_AID = 'A0000000031010';

export function noonToday(): number {
  const noon = new Date();
  noon.setHours(12, 0, 0, 0);
  return noon.getTime();
}

/** EMV TLV of an inserted chip card: PAN, expiry, AID and application label. */
export function emvData(pan: string, label = 'VISA CREDIT', aid = VISA_AID): string {
  const hex = (tag: string, value: string) => `${tag}${(value.length / 2).toString(16).padStart(2, '0').toUpperCase()}${value}`;
  const tlv =
    hex('5A', pan.length % 2 ? `${pan}F` : pan) +
    hex('5F24', `${String(EXPIRY_YEAR).slice(2)}1231`) +
    hex('4F', aid) +
    hex('50', Buffer.from(label, 'latin1').toString('hex').toUpperCase());
  return `70${(tlv.length / 2).toString(16).padStart(2, '0').toUpperCase()}${tlv}`;
}

export interface ReceiptSetup {
  gw: TestGateway;
  shop: TestMerchant;
  other: TestMerchant;
  cashier: string;
  manager: string;
  admin: string;
  otherCashier: string;
}

export async function startReceiptGateway(clock: TestClock, options: ReceiptGatewayOptions = {}): Promise<TestGateway> {
  const dir = tempDir();
  const dataKey = randomBytes(32);
  const composition = await composeForTest({
    settings: resolveSettings(dir, {}, {}),
    clock,
    dataKey,
    background: false,
    logger: createLogger({ level: 'silent' }),
    ...(options.receiptPrinter ? { receiptPrinter: options.receiptPrinter } : {}),
    ...(options.receiptPrints ? { receiptPrints: options.receiptPrints } : {}),
  });
  const app = await buildServer(composition.gateway);
  return {
    dir,
    clock,
    dataKey,
    composition,
    app,
    async close() {
      await app.close();
      await composition.close();
    },
  };
}

export async function merchant(gw: TestGateway, name: string, language?: 'en' | 'de' | 'pt'): Promise<TestMerchant> {
  const created = await gw.composition.gateway.merchants.create({ name, ...(language ? { language } : {}) });
  assert.ok(created.ok);
  return { ...created.value, auth: basicAuth(created.value) };
}

export async function staffLogin(gw: TestGateway, merchantId: string, role: string, login: string): Promise<string> {
  const created = await gw.composition.gateway.staff.create({ merchantId, role, login, pin: '2580' });
  assert.ok(created.ok);
  const response = await gw.app.inject({ method: 'POST', url: '/ui/session', payload: { login, pin: '2580' } });
  assert.equal(response.statusCode, 200, response.body);
  const cookie = response.cookies.find((c) => c.name === COOKIE);
  assert.ok(cookie);
  return cookie.value;
}

export async function receiptSetup(options: ReceiptGatewayOptions = {}): Promise<ReceiptSetup> {
  const gw = await startReceiptGateway(new TestClock(noonToday()), options);
  const shop = await merchant(gw, 'Corner Bakery');
  const other = await merchant(gw, 'Other Shop');
  return {
    gw,
    shop,
    other,
    cashier: await staffLogin(gw, shop.merchant_id, 'cashier', 'till'),
    manager: await staffLogin(gw, shop.merchant_id, 'back_office', 'office'),
    admin: await staffLogin(gw, shop.merchant_id, 'admin', 'boss'),
    otherCashier: await staffLogin(gw, other.merchant_id, 'cashier', 'other-till'),
  };
}

export function asStaff(gw: TestGateway, token: string) {
  return (method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    gw.app.inject({
      method,
      url,
      headers: { cookie: `${COOKIE}=${token}` },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
}

export async function pay(
  gw: TestGateway,
  shop: TestMerchant,
  body: Record<string, unknown>,
): Promise<Record<string, unknown> & { transaction_id: string; status_code: number }> {
  const response = await gw.app.inject({ method: 'POST', url: '/rest/payment', headers: { authorization: shop.auth }, payload: body });
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

/** An inserted chip card with AID and label (what the till's reader sends). */
export function chipSale(pan: string, amount: number): Record<string, unknown> {
  const body = posPayment(amount, { pan, entry: 'chip' });
  (body.pos_data as { card: unknown }).card = { emv_data: emvData(pan) };
  return body;
}
