// Closing the day at a till (D16, docs/operations.md "Closing the day") over inject() on real SQLite:
// X and Z figures against a known set of sales, declines and refunds across card brands, entry
// modes, two cashiers and the API; a Z report never changes; sequence numbers per till; the next
// sale belongs to the next day, even one that commits after the close although it started before;
// who may close (a cashier only with a manager's approval), the audit log, a retried close, the PDF
// (rendered with poppler's pdftotext) and the 42-column receipt lines.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { CardAuthorizationRequest, CardDecision } from '../../main/core/payments/ports.js';
import {
  assertApiError,
  createTestMerchant,
  startTestGateway,
  tempDir,
  TestClock,
  type TestGateway,
  type TestMerchant,
} from '../helpers/api.js';
import { cardPayment, freshPan, posPayment, TEST_PIN } from '../helpers/payments.js';
import { startPrinterListener } from '../helpers/printer-listener.js';
import { timeText } from '../../main/core/reports/report-text.js';
import { sqlOf } from '../helpers/sql.js';
import { OTHER_TERMINALS_BOOK } from '../../contract/constants.js';

const COOKIE = 'tillgate_session';
const TILL = 'TILL-1';
const MASTERCARD = '5555555555554444';
const DECLINE_05 = '4000000000000002';

interface Figure {
  count: number;
  amount: number;
}
interface FigureRow {
  currency: string;
  approved: Figure;
  declined: Figure;
  refunded: Figure;
  net: number;
}
interface DayReport {
  report: 'x' | 'z';
  shop_name: string;
  terminal_id: string;
  sequence: number;
  opened_at: string | null;
  closed_at: string | null;
  generated_at: string;
  first_entry_at: string | null;
  last_entry_at: string | null;
  closed_by: { staff_id: string; name: string } | null;
  approved_by: { staff_id: string; name: string } | null;
  ledger: { from: number; to: number };
  totals: FigureRow[];
  by_card_brand: Array<FigureRow & { card_brand: string }>;
  by_entry_mode: Array<FigureRow & { entry_mode: string }>;
  by_cashier: Array<FigureRow & { staff_id: string | null; name: string }>;
}

interface Account {
  staff_id: string;
  login: string;
  pin: string;
  token: string;
}

function noonToday(): number {
  const noon = new Date();
  noon.setHours(12, 0, 0, 0);
  return noon.getTime();
}

const row = (
  currency: string,
  approved: [number, number],
  declined: [number, number],
  refunded: [number, number],
  net: number,
): FigureRow => ({
  currency,
  approved: { count: approved[0], amount: approved[1] },
  declined: { count: declined[0], amount: declined[1] },
  refunded: { count: refunded[0], amount: refunded[1] },
  net,
});

function hasPoppler(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('closing the day at a till', () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let anna: Account;
  let ben: Account;
  let office: Account;

  const call = (
    method: InjectOptions['method'],
    url: string,
    token: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    gw.app.inject({
      method,
      url,
      headers: { ...(token ? { cookie: `${COOKIE}=${token}` } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });

  async function staff(role: string, login: string, pin: string, displayName: string): Promise<Account> {
    const created = await gw.composition.gateway.staff.create({ merchantId: shop.merchant_id, role, login, pin, displayName });
    assert.ok(created.ok);
    const response = await call('POST', '/ui/session', null, { login, pin });
    assert.equal(response.statusCode, 200, response.body);
    const token = response.cookies.find((c) => c.name === COOKIE)?.value;
    assert.ok(token);
    return { staff_id: created.value.staff_id, login, pin, token };
  }

  /** A card-present sale at the till, sent by a cashier's session (or with API credentials). */
  async function sale(
    by: Account | 'api',
    amount: number,
    options: { pan?: string; entry?: string; currency?: string; terminal?: string; pin?: boolean; order?: string } = {},
  ) {
    const pan = options.pan ?? freshPan();
    const body = posPayment(
      amount,
      {
        pan,
        ...(options.entry ? { entry: options.entry } : {}),
        ...(options.order ? { order: options.order } : {}),
        ...(options.pin ? { pin: TEST_PIN, sequence: 'subsequent' as const } : {}),
      },
      options.currency ? { currency: options.currency } : {},
    );
    (body.pos_data as { terminal: { id: string } }).terminal.id = options.terminal ?? TILL;
    const response =
      by === 'api'
        ? await call('POST', '/rest/payment', null, body, { authorization: shop.auth })
        : await call('POST', '/rest/payment', by.token, body);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ transaction_id: string; status: string; message: string | null; order_id: string }>();
  }

  async function approval(by: Account, action: string, manager: Account): Promise<string> {
    const response = await call('POST', '/ui/approvals', by.token, { action, login: manager.login, pin: manager.pin });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ approval_token: string }>().approval_token;
  }

  async function refund(by: Account, transactionId: string, amount: number, reason: string, manager?: Account): Promise<void> {
    const token = manager ? await approval(by, 'refund', manager) : undefined;
    const response = await call(
      'POST',
      '/rest/refund',
      by.token,
      { transaction_id: transactionId, amount, merchant_reference: reason },
      token ? { 'x-manager-approval': token } : {},
    );
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<{ status: string }>().status, 'success');
  }

  const xReport = async (by: Account = anna) => {
    const response = await call('GET', '/ui/reports/x', by.token);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<DayReport>();
  };

  const closeDay = (by: Account, headers: Record<string, string> = {}) => call('POST', '/ui/reports/z', by.token, undefined, headers);

  let ben40: string;
  let day1: DayReport;

  before(async () => {
    gw = await startTestGateway({ clock: new TestClock(noonToday()), flags: { 'lockout-max-failures': '1000' } });
    shop = await createTestMerchant(gw, 'Corner Shop');
    anna = await staff('cashier', 'anna', '2580', 'Anna');
    ben = await staff('cashier', 'ben', '1357', 'Ben');
    office = await staff('back_office', 'office', '4321', 'Olga (office)');
  });

  after(async () => {
    await gw.close();
  });

  test('before any sale the X report is empty: day 1 of the till, no figures', async () => {
    const x = await xReport();
    assert.equal(x.report, 'x');
    assert.equal(x.terminal_id, TILL);
    assert.equal(x.shop_name, 'Corner Shop');
    assert.equal(x.sequence, 1);
    assert.equal(x.opened_at, null);
    assert.equal(x.closed_at, null);
    assert.deepEqual([x.totals, x.by_card_brand, x.by_entry_mode, x.by_cashier], [[], [], [], []]);
  });

  test('the X report sums a known day per currency, card brand, entry mode and cashier', async () => {
    // Anna: Visa contactless 12.50 (refunded later), Mastercard chip 30.00, a 51 decline of 20.51, USD 10.00.
    const anna1250 = await sale(anna, 12.5);
    await sale(anna, 30, { pan: MASTERCARD, entry: 'chip' });
    assert.equal((await sale(anna, 20.51)).status, 'declined');
    await sale(anna, 10, { currency: 'USD', entry: 'chip' });
    // Ben: Visa swipe 7.25, Visa contactless 40.00 (15.00 refunded), a 05 decline of 9.99, and a
    // contactless 60.00 that asks for the PIN first (request_pin is a step, not a decline).
    await sale(ben, 7.25, { entry: 'swipe' });
    ben40 = (await sale(ben, 40)).transaction_id;
    assert.equal((await sale(ben, 9.99, { pan: DECLINE_05 })).status, 'declined');
    const pinPan = freshPan();
    const asked = await sale(ben, 60, { pan: pinPan });
    assert.equal(asked.message, 'request_pin');
    assert.equal((await sale(ben, 60, { pan: pinPan, pin: true, order: asked.order_id })).status, 'completed');
    // POS software with API credentials: no cashier.
    await sale('api', 5, { entry: 'chip' });
    // Not this till's: a terminal that is no till of the shop (its own book, D19), and an e-commerce payment.
    await sale(anna, 99, { terminal: 'T-0001', entry: 'chip' });
    const online = await call('POST', '/rest/payment', null, cardPayment(freshPan(), 77), { authorization: shop.auth });
    assert.equal(online.statusCode, 200, online.body);
    // Refunds: Anna refunds her own sale with the office's approval; the office refunds part of Ben's.
    await refund(anna, anna1250.transaction_id, 12.5, 'Returned goods', office);
    await refund(office, ben40, 15, 'Wrong amount');

    const x = await xReport();
    assert.equal(x.sequence, 1);
    assert.deepEqual(x.totals, [row('EUR', [6, 154.75], [2, 30.5], [2, 27.5], 127.25), row('USD', [1, 10], [0, 0], [0, 0], 10)]);
    assert.deepEqual(
      x.by_card_brand.map(({ card_brand, ...r }) => [card_brand, r]),
      [
        ['mastercard', row('EUR', [1, 30], [0, 0], [0, 0], 30)],
        ['visa', row('EUR', [5, 124.75], [2, 30.5], [2, 27.5], 97.25)],
        ['visa', row('USD', [1, 10], [0, 0], [0, 0], 10)],
      ],
    );
    assert.deepEqual(
      x.by_entry_mode.map(({ entry_mode, ...r }) => [entry_mode, r]),
      [
        ['chip', row('EUR', [2, 35], [0, 0], [0, 0], 35)],
        ['contactless', row('EUR', [3, 112.5], [2, 30.5], [2, 27.5], 85)],
        ['swipe', row('EUR', [1, 7.25], [0, 0], [0, 0], 7.25)],
        ['chip', row('USD', [1, 10], [0, 0], [0, 0], 10)],
      ],
    );
    assert.deepEqual(
      x.by_cashier.map(({ staff_id, name, ...r }) => [name, staff_id, r]),
      [
        ['Anna', anna.staff_id, row('EUR', [2, 42.5], [1, 20.51], [1, 12.5], 30)],
        ['API (no staff login)', null, row('EUR', [1, 5], [0, 0], [0, 0], 5)],
        ['Ben', ben.staff_id, row('EUR', [3, 107.25], [1, 9.99], [1, 15], 92.25)],
        ['Anna', anna.staff_id, row('USD', [1, 10], [0, 0], [0, 0], 10)],
      ],
    );
    // The other terminals' book has its own day.
    const other = await call('GET', `/ui/reports/x?terminal_id=${encodeURIComponent(OTHER_TERMINALS_BOOK)}`, anna.token);
    assert.deepEqual(other.json<DayReport>().totals, [row('EUR', [1, 99], [0, 0], [0, 0], 99)]);
    // The refund's reason is in the audit log entry of the refund.
    const audit = (await call('GET', '/ui/audit', office.token)).json<
      Array<{ action: string; subject_id: string; detail: string; approved_by: string | null }>
    >();
    const refundEntry = audit.find((a) => a.action === 'refund' && a.subject_id === anna1250.transaction_id);
    assert.equal(refundEntry?.detail, 'amount 12.5; reason: Returned goods');
    assert.equal(refundEntry?.approved_by, office.staff_id);
  });

  test('a cashier cannot close the day alone: 403 naming X-Manager-Approval, and a refund approval does not do', async () => {
    assertApiError(await closeDay(anna), 403, 2002, ['X-Manager-Approval']);
    const refundToken = await approval(anna, 'refund', office);
    assertApiError(await closeDay(anna, { 'x-manager-approval': refundToken }), 403, 2002, ['X-Manager-Approval']);
    // A cashier cannot approve for another cashier.
    assertApiError(await call('POST', '/ui/approvals', anna.token, { action: 'day_close', login: ben.login, pin: ben.pin }), 403, 2002);
    assert.equal((await xReport()).sequence, 1, 'nothing was closed');
  });

  test('the back office closes the day: Z report 1 holds the X figures, the audit log has the close', async () => {
    const before = await xReport(office);
    gw.clock.advance(60_000);
    const response = await closeDay(office, { 'idempotency-key': 'close-day-1' });
    assert.equal(response.statusCode, 201, response.body);
    day1 = response.json<DayReport>();
    assert.equal(day1.report, 'z');
    assert.equal(day1.sequence, 1);
    assert.equal(day1.opened_at, null);
    assert.equal(day1.closed_at, gw.clock.now().toISOString());
    assert.deepEqual(day1.closed_by, { staff_id: office.staff_id, name: 'Olga (office)' });
    assert.equal(day1.approved_by, null);
    for (const key of ['totals', 'by_card_brand', 'by_entry_mode', 'by_cashier', 'ledger', 'first_entry_at', 'last_entry_at'] as const) {
      assert.deepEqual(day1[key], before[key], key);
    }
    const audit = (await call('GET', '/ui/audit', office.token)).json<Array<{ action: string; staff_id: string; detail: string }>>();
    const close = audit.find((a) => a.action === 'day_close');
    assert.deepEqual([close?.staff_id, close?.detail], [office.staff_id, 'TILL-1 Z 1']);

    // A retry with the same key answers with the same day and closes nothing.
    const again = await closeDay(office, { 'idempotency-key': 'close-day-1' });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), day1);
    // The open day is now day 2, empty, and starts where day 1 ended.
    const x = await xReport();
    assert.deepEqual([x.sequence, x.opened_at, x.totals, x.ledger.from], [2, day1.closed_at, [], day1.ledger.to]);
  });

  test('a closed day never changes: a later sale and a refund of its sale go to the next day', async () => {
    gw.clock.advance(60_000);
    await sale(anna, 8);
    await refund(anna, ben40, 25, 'Customer cancelled', office);
    const z1 = await call('GET', '/ui/reports/z/1', ben.token);
    assert.equal(z1.statusCode, 200);
    assert.deepEqual(z1.json(), day1);
    const x = await xReport();
    // The refund counts for the sale's cashier (Ben), brand and entry mode, in the day it was made.
    assert.deepEqual(x.totals, [row('EUR', [1, 8], [0, 0], [1, 25], -17)]);
    assert.deepEqual(
      x.by_cashier.map((r) => [r.name, r.approved.amount, r.refunded.amount, r.net]),
      [
        ['Anna', 8, 0, 8],
        ['Ben', 0, 25, -25],
      ],
    );
    // And the database refuses to change a closed day.
    await assert.rejects(sqlOf(gw).run('UPDATE z_reports SET figures = ? WHERE sequence = 1', '{}'), /never changes/);
    await assert.rejects(sqlOf(gw).run('DELETE FROM z_reports'), /never changes/);
  });

  test('a sale that started before the close but committed after it belongs to the next day', async () => {
    const processor = (
      gw.composition.gateway.payments as unknown as {
        deps: { processor: { authorizeCard(r: CardAuthorizationRequest): Promise<CardDecision> } };
      }
    ).deps.processor;
    const original = processor.authorizeCard;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached: () => void = () => undefined;
    const atProcessor = new Promise<void>((resolve) => (reached = resolve));
    processor.authorizeCard = async function (this: unknown, request) {
      reached();
      await gate;
      return original.call(this, request);
    };
    let late: ReturnType<typeof sale> | undefined;
    try {
      late = sale(ben, 3.3);
      await atProcessor;
      gw.clock.advance(60_000);
      // Day 2 closes by a cashier with the office's approval while the sale waits for the bank.
      const token = await approval(anna, 'day_close', office);
      const response = await closeDay(anna, { 'x-manager-approval': token });
      assert.equal(response.statusCode, 201, response.body);
      const day2 = response.json<DayReport>();
      assert.deepEqual([day2.sequence, day2.opened_at], [2, day1.closed_at]);
      assert.deepEqual(day2.closed_by, { staff_id: anna.staff_id, name: 'Anna' });
      assert.deepEqual(day2.approved_by, { staff_id: office.staff_id, name: 'Olga (office)' });
      assert.deepEqual(day2.totals, [row('EUR', [1, 8], [0, 0], [1, 25], -17)]);
      // The approval was single use.
      assertApiError(await closeDay(anna, { 'x-manager-approval': token }), 403, 2002, ['X-Manager-Approval']);
      release();
      const committed = await late;
      assert.equal(committed.status, 'completed');
      const tx = (await call('GET', `/rest/transactions/${committed.transaction_id}`, ben.token)).json<{ created_at: string }>();
      assert.ok(tx.created_at < (day2.closed_at as string), 'the sale started before the close (a cut by time would put it in day 2)');
      const z2 = (await call('GET', '/ui/reports/z/2', anna.token)).json<DayReport>();
      assert.deepEqual(z2, day2, 'day 2 did not change');
      const x = await xReport();
      assert.deepEqual([x.sequence, x.totals], [3, [row('EUR', [1, 3.3], [0, 0], [0, 0], 3.3)]]);
    } finally {
      processor.authorizeCard = original;
      release();
      await late;
    }
  });

  test('past Z reports are listed newest first, readable by every role, and an unknown number is 404', async () => {
    const list = await call('GET', '/ui/reports/z', ben.token);
    assert.equal(list.statusCode, 200);
    const body = list.json<{
      terminal_id: string;
      total: number;
      items: Array<{ sequence: number; closed_at: string; totals: FigureRow[]; approved_by: unknown }>;
    }>();
    assert.equal(body.terminal_id, TILL);
    assert.equal(body.total, 2);
    assert.deepEqual(
      body.items.map((i) => i.sequence),
      [2, 1],
    );
    assert.deepEqual(body.items[1]?.totals, day1.totals);
    const page = (await call('GET', '/ui/reports/z?limit=1&offset=1', office.token)).json<{ items: Array<{ sequence: number }> }>();
    assert.deepEqual(
      page.items.map((i) => i.sequence),
      [1],
    );
    assertApiError(await call('GET', '/ui/reports/z/3', anna.token), 404, 3001);
    assertApiError(await call('GET', '/ui/reports/z/0', anna.token), 400, 1001);
    assertApiError(await call('GET', '/ui/reports/z?limit=500', anna.token), 400, 1001, ['limit']);
    // Staff sessions only: API credentials and no session get 401.
    assertApiError(await call('GET', '/ui/reports/x', null), 401, 2001);
    assertApiError(await call('GET', '/ui/reports/z', null, undefined, { authorization: shop.auth }), 401, 2001);
    // Another shop's staff sees its own till, not this one's days.
    const other = await createTestMerchant(gw, 'Other Shop');
    const created = await gw.composition.gateway.staff.create({
      merchantId: other.merchant_id,
      role: 'back_office',
      login: 'elsewhere',
      pin: '8642',
    });
    assert.ok(created.ok);
    const login = await call('POST', '/ui/session', null, { login: 'elsewhere', pin: '8642' });
    const token = login.cookies.find((c) => c.name === COOKIE)?.value ?? '';
    assert.equal((await call('GET', '/ui/reports/z', token)).json<{ total: number }>().total, 0);
    assertApiError(await call('GET', '/ui/reports/z/1', token), 404, 3001);
  });

  test('a Z report prints as 42-column receipt lines', async () => {
    const response = await call('GET', '/ui/reports/z/1/receipt', anna.token);
    assert.equal(response.statusCode, 200);
    const { columns, lines } = response.json<{ columns: number; lines: string[] }>();
    assert.equal(columns, 42);
    for (const line of lines) assert.ok(line.length <= 42, `too wide: "${line}"`);
    const text = lines.join('\n');
    assert.match(text, /Z REPORT NO\. 1/);
    assert.match(text, /Closed by {4}Olga \(office\)/);
    assert.match(
      text,
      /TOTAL EUR\n {2}Approved {17}6 {8}154\.75\n {2}Declined {17}2 {9}30\.50\n {2}Refunded {17}2 {9}27\.50\n {2}Net {31}127\.25/,
    );
    assert.match(text, /Mastercard EUR/);
    assert.match(text, /API \(no staff login\) EUR/);
  });

  test("a Z report prints on the shop's ESC/POS receipt printer, laid out for its width", async () => {
    const noPrinter = assertApiError(await call('POST', '/ui/reports/z/1/print', anna.token), 400, 1002, ['printer']);
    assert.match(noPrinter.message, /No receipt printer/);
    const printer = await startPrinterListener();
    try {
      const boss = await staff('admin', 'boss', '9753', 'Boss');
      const set = await call('PUT', '/ui/receipt-printer', boss.token, { connection: 'network', host: printer.host, port: printer.port });
      assert.equal(set.statusCode, 200, set.body);
      const response = await call('POST', '/ui/reports/z/1/print', anna.token);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json<{ printed: boolean }>().printed, true);
      const [job] = await printer.waitForJobs(1);
      assert.ok(job);
      assert.equal(job.bytes.subarray(0, 2).toString('hex'), '1b40', 'starts with ESC @');
      assert.match(job.text, /Z REPORT NO\. 1/);
      assert.match(job.text, /TOTAL EUR/);
      assert.match(job.text, / {2}Net {31}127\.25/);
      assert.match(job.text, /Closed day: these figures never change\./);
      const x = await call('POST', '/ui/reports/x/print', ben.token);
      assert.equal(x.json<{ printed: boolean }>().printed, true);
      const jobs = await printer.waitForJobs(2);
      assert.match(jobs[1]?.text ?? '', /X REPORT \(DAY 3, OPEN\)/);
      assertApiError(await call('POST', '/ui/reports/z/7/print', anna.token), 404, 3001);
    } finally {
      await printer.close();
    }
  });

  test('a Z report exports as an A4 PDF with its figures', async (t) => {
    const response = await call('GET', '/ui/reports/z/1.pdf', anna.token);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/pdf');
    assert.match(String(response.headers['content-disposition']), /z-report-TILL-1-1\.pdf/);
    const pdf = response.rawPayload;
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assertApiError(await call('GET', '/ui/reports/z/9.pdf', anna.token), 404, 3001);
    if (!hasPoppler()) {
      t.skip('pdftotext (Debian poppler-utils) is not installed');
      return;
    }
    const file = join(tempDir('tillgate-zpdf-'), 'z1.pdf');
    writeFileSync(file, pdf);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    assert.match(info, /Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    assert.match(info, /Pages:\s+1/);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    assert.match(text, /Z report No\. 1/);
    assert.match(text, /Corner Shop/);
    assert.match(text, /Closed by\s+Olga \(office\)/);
    assert.match(text, /All cards\s+EUR\s+6\s+154\.75\s+2\s+30\.50\s+2\s+27\.50\s+127\.25/);
    assert.match(text, /Mastercard\s+EUR\s+1\s+30\.00\s+0\s+0\.00\s+0\s+0\.00\s+30\.00/);
    assert.match(text, /Ben\s+EUR\s+3\s+107\.25\s+1\s+9\.99\s+1\s+15\.00\s+92\.25/);
    assert.match(text, /A closed day never changes/);
  });

  test('the last sale is the last approved sale: a refund after it is an entry of the day, not a sale', async () => {
    const till = 'TILL-7';
    assert.ok((await gw.composition.gateway.tills.create(shop.merchant_id, { till_id: till }, { staffId: null })).ok);
    const first = await sale(anna, 8, { terminal: till });
    const soldAt = gw.clock.now().toISOString();
    gw.clock.advance(3 * 60_000);
    await refund(office, first.transaction_id, 8, 'Returned goods');
    const refundedAt = gw.clock.now().toISOString();
    const x = (await call('GET', `/ui/reports/x?terminal_id=${till}`, anna.token)).json<
      DayReport & { first_sale_at: string | null; last_sale_at: string | null }
    >();
    assert.equal(x.first_sale_at, soldAt);
    assert.equal(x.last_sale_at, soldAt, 'the refund three minutes later is not the last sale');
    assert.equal(x.last_entry_at, refundedAt);
    const { lines } = (await call('GET', `/ui/reports/x/receipt?terminal_id=${till}`, anna.token)).json<{ lines: string[] }>();
    const printed = lines.find((line) => line.startsWith('Last sale')) ?? '';
    const shopTime = (iso: string) => timeText(iso, 'en', gw.composition.gateway.dashboard.timeZone);
    assert.ok(printed.endsWith(shopTime(soldAt)), `${printed} is the sale's time, not the refund's (${shopTime(refundedAt)})`);
    // A day with a refund and no sale has no first or last sale.
    gw.clock.advance(60_000);
    assert.ok((await gw.composition.gateway.tills.create(shop.merchant_id, { till_id: 'TILL-8' }, { staffId: null })).ok);
    const quiet = await sale(anna, 4, { terminal: 'TILL-8' });
    assert.equal((await call('POST', '/ui/reports/z?terminal_id=TILL-8', office.token)).statusCode, 201);
    await refund(office, quiet.transaction_id, 4, 'Returned goods');
    const onlyRefund = (await call('GET', '/ui/reports/x?terminal_id=TILL-8', anna.token)).json<
      DayReport & { last_sale_at: string | null }
    >();
    assert.equal(onlyRefund.last_sale_at, null);
    assert.notEqual(onlyRefund.last_entry_at, null);
  });

  test('the OpenAPI document describes the report routes with schemas', async () => {
    const doc = (await gw.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown>; tags: string[] }>>;
    }>();
    for (const [path, method] of [
      ['/ui/reports/x', 'get'],
      ['/ui/reports/z', 'post'],
      ['/ui/reports/z', 'get'],
      ['/ui/reports/z/{sequence}', 'get'],
      ['/ui/reports/z/{sequence}.pdf', 'get'],
      ['/ui/reports/z/{sequence}/receipt', 'get'],
    ] as const) {
      const operation = doc.paths[path]?.[method];
      assert.ok(operation, `${method} ${path} documented`);
      assert.ok(operation.responses['401'], `${method} ${path} documents 401`);
    }
    assert.ok(doc.paths['/ui/reports/z']?.post?.responses['403']);
    assert.ok(doc.paths['/ui/reports/z']?.post?.responses['201']);
  });
});
