// Receipt printers (decisions.md D16; issue 14, 4): the gateway prints ESC/POS to a network printer,
// here a local TCP listener on 127.0.0.1 that captures the bytes: ESC @ first, the code page, the
// shop's name, the amount, brand •••• last four, the chip's AID, the approval code, and a paper cut;
// the test print; a printer that does not answer is an answer (printed false). Auto-print prints
// once per approved card-present sale: not a decline, not a PIN request, not a replay, not a read.
// A USB printer is its device file (a temporary file stands in for /dev/usb/lp0).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PrintResult } from '../../contract/api/receipts.js';
import type { PrintDocument } from '../../main/core/receipts/ports.js';
import { createEscPosPrinter } from '../../main/infra/receipt-printer.js';
import { assertApiError, tempDir } from '../helpers/api.js';
import { freshPan, posPayment, TEST_PIN } from '../helpers/payments.js';
import { decodeWindows1252, startPrinterListener, type PrinterListener } from '../helpers/printer-listener.js';
import { asStaff, chipSale, pay, receiptSetup, VISA_AID, type ReceiptSetup } from '../helpers/receipts.js';
import { sqlOf } from '../helpers/sql.js';

const ESC_INIT = Buffer.from([0x1b, 0x40]);
const CODE_PAGE_1252 = Buffer.from([0x1b, 0x74, 16]);
const FULL_CUT = Buffer.from([0x1d, 0x56, 0x00]);

function assertEscPos(bytes: Buffer): void {
  assert.equal(bytes.subarray(0, 2).toString('hex'), ESC_INIT.toString('hex'), 'the job starts with ESC @ (initialise)');
  assert.equal(bytes.indexOf(CODE_PAGE_1252), 2, 'then selects code page 1252 (ESC t 16)');
  assert.ok(bytes.indexOf(FULL_CUT) > 0, 'the job cuts the paper (GS V 0)');
  assert.ok(bytes.indexOf(FULL_CUT) > bytes.length - 16, 'the cut comes last');
}

describe('receipt printing', () => {
  let s: ReceiptSetup;
  let printer: PrinterListener;

  before(async () => {
    s = await receiptSetup({ receiptPrints: { retryDelaysMs: [0, 0] } });
    printer = await startPrinterListener();
  });

  after(async () => {
    await printer.close();
    await s.gw.close();
  });

  const admin = () => asStaff(s.gw, s.admin);
  const cashier = () => asStaff(s.gw, s.cashier);
  const drain = () => s.gw.composition.gateway.receiptPrints.drain();
  const setPrinter = async (body: Record<string, unknown>) => {
    const response = await admin()('PUT', '/ui/receipt-printer', body);
    assert.equal(response.statusCode, 200, response.body);
  };

  test('print a sale on the network printer: ESC @, shop name, amount, brand •••• last four, AID, approval code, cut', async () => {
    await setPrinter({ connection: 'network', host: printer.host, port: printer.port });
    const pan = freshPan();
    const sale = await pay(s.gw, s.shop, chipSale(pan, 12.5));
    const response = await cashier()('POST', `/ui/receipts/${sale.transaction_id}/print`);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json<PrintResult>(), {
      printed: true,
      printer: `127.0.0.1:${printer.port}`,
      message: `Printed on 127.0.0.1:${printer.port}`,
    });
    const [job] = await printer.waitForJobs(1);
    assert.ok(job);
    assertEscPos(job.bytes);
    for (const text of [
      'Corner Bakery',
      'Card payment · Sale',
      '€12.50',
      `Visa •••• ${pan.slice(-4)}`,
      'Chip',
      'VISA CREDIT',
      VISA_AID,
      'APPROVED',
      sale.transaction_id,
    ]) {
      assert.ok(job.text.includes(text), `the printout has ${text}`);
    }
    assert.match(job.text, new RegExp(`Approval code\\s+${String(sale.authorization_code)}`));
    assert.equal(job.bytes.indexOf(Buffer.from([0x95])) > 0, true, 'the bullets are Windows-1252 0x95');
    assert.ok(!job.text.includes(pan) && !job.text.includes(pan.slice(0, 6)), 'no card number on paper');
    // Lines are laid out for 42 characters: no printed line is wider.
    // Printable text per line once the ESC/GS commands (and their parameter byte) are taken out.
    // eslint-disable-next-line no-control-regex -- ESC/POS commands are control characters
    const lines = job.text.replace(/\x1b@|\x1b[aE!dt][\s\S]|\x1dV[\s\S]/g, '').split('\n');
    assert.ok(
      // eslint-disable-next-line no-control-regex -- no command byte is left in the text
      lines.every((line) => line.length <= 42 && !/[\x00-\x1f]/.test(line)),
      lines.filter((l) => l.length > 42).join('|'),
    );
    assert.ok(
      lines.some((line) => line.length === 42),
      'label and value fill the line',
    );
  });

  test('a refund receipt prints too; the test print names the printer and its width', async () => {
    const before = printer.jobs.length;
    const paid = await pay(s.gw, s.shop, chipSale(freshPan(), 20));
    const refund = (
      await s.gw.app.inject({
        method: 'POST',
        url: '/rest/refund',
        headers: { authorization: s.shop.auth },
        payload: { transaction_id: paid.transaction_id, amount: 7.5 },
      })
    ).json<{ refund_id: string }>();
    assert.equal((await cashier()('POST', `/ui/receipts/${refund.refund_id}/print`)).json<PrintResult>().printed, true);
    const tested = await cashier()('POST', '/ui/receipt-printer/test');
    assert.equal(tested.json<PrintResult>().printed, true);
    const [refundJob, testJob] = (await printer.waitForJobs(before + 2)).slice(before);
    assert.ok(refundJob && testJob);
    assertEscPos(refundJob.bytes);
    for (const text of ['Card payment · Refund', '€7.50', 'REFUNDED', refund.refund_id])
      assert.ok(refundJob.text.includes(text), `refund: ${text}`);
    assertEscPos(testJob.bytes);
    for (const text of [
      'Corner Bakery',
      'Test print',
      `127.0.0.1:${printer.port}`,
      '123456789012345678901234567890123456789012',
      'The receipt printer works.',
    ]) {
      assert.ok(testJob.text.includes(text), `test print: ${text}`);
    }
  });

  test('a printer that does not answer is an answer: printed false with the reason, nothing thrown', async () => {
    const down = await startPrinterListener();
    const port = down.port;
    await down.close();
    await setPrinter({ connection: 'network', host: '127.0.0.1', port });
    const sale = await pay(s.gw, s.shop, chipSale(freshPan(), 4));
    const response = await cashier()('POST', `/ui/receipts/${sale.transaction_id}/print`);
    assert.equal(response.statusCode, 200, response.body);
    const result = response.json<PrintResult>();
    assert.equal(result.printed, false);
    assert.match(result.message, new RegExp(`127\\.0\\.0\\.1:${port} did not print: connection refused`));
    // No printer at all: 1002, saying so.
    await setPrinter({ connection: 'none' });
    assertApiError(await cashier()('POST', `/ui/receipts/${sale.transaction_id}/print`), 400, 1002, ['printer']);
  });

  test('auto-print: each approved sale prints once; declines, PIN requests, replays and reads print nothing', async () => {
    await setPrinter({ connection: 'network', host: printer.host, port: printer.port, auto_print: true });
    await drain();
    const before = printer.jobs.length;

    const tapped = posPayment(9, { pan: freshPan() });
    const replayKey = crypto.randomUUID();
    const post = (body: Record<string, unknown>, key = crypto.randomUUID()) =>
      s.gw.app.inject({
        method: 'POST',
        url: '/rest/payment',
        headers: { authorization: s.shop.auth, 'idempotency-key': key },
        payload: body,
      });
    const first = (await post(tapped, replayKey)).json<{ transaction_id: string; status_code: number }>();
    assert.equal(first.status_code, 3);
    const declined = await pay(s.gw, s.shop, posPayment(9, { pan: '4000000000000002' }));
    assert.equal(declined.status_code, 6);
    const card = freshPan();
    const pinRequest = await pay(s.gw, s.shop, posPayment(80, { pan: card, order: 'auto-pin' }));
    assert.equal(pinRequest.message, 'request_pin');
    const withPin = await pay(s.gw, s.shop, posPayment(80, { pan: card, order: 'auto-pin', sequence: 'subsequent', pin: TEST_PIN }));
    assert.equal(withPin.status_code, 3);
    // The till sends the same request again after a lost answer: replayed, not charged, not printed.
    const replay = await post(tapped, replayKey);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    for (const id of [first.transaction_id, withPin.transaction_id]) await cashier()('GET', `/ui/receipts/${id}`);

    await drain();
    const jobs = (await printer.waitForJobs(before + 2)).slice(before);
    await drain();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(printer.jobs.length, before + 2, 'two approved sales, two prints');
    assert.ok(jobs[0]?.text.includes(first.transaction_id), 'the first sale');
    assert.ok(jobs[1]?.text.includes(withPin.transaction_id), 'the PIN sale');
    assert.ok(jobs[1]?.text.includes('PIN verified'));
    for (const job of jobs) assertEscPos(job.bytes);
    const rows = await sqlOf(s.gw).all<{ receipt_id: string; status: string; attempts: number }>(
      'SELECT receipt_id, status, attempts FROM receipt_print_jobs ORDER BY created_at, id',
    );
    assert.deepEqual(
      rows.filter((r) =>
        [first.transaction_id, withPin.transaction_id, declined.transaction_id, pinRequest.transaction_id].includes(r.receipt_id),
      ),
      [
        { receipt_id: first.transaction_id, status: 'printed', attempts: 1 },
        { receipt_id: withPin.transaction_id, status: 'printed', attempts: 1 },
      ],
    );
    // A reprint is asked for, and prints again.
    assert.equal((await cashier()('POST', `/ui/receipts/${first.transaction_id}/print`)).json<PrintResult>().printed, true);
    await printer.waitForJobs(before + 3);
  });

  test('auto-print: passes racing for the same jobs (drains beside the background pass, or other instances) print each sale once', async () => {
    await setPrinter({ connection: 'network', host: printer.host, port: printer.port, auto_print: true });
    await drain();
    const before = printer.jobs.length;
    const sales = [];
    for (let i = 0; i < 4; i++) sales.push(await pay(s.gw, s.shop, chipSale(freshPan(), 3 + i)));
    // Four passes at once find the same four due jobs; each job is taken by one of them.
    await Promise.all([drain(), drain(), drain(), drain()]);
    await printer.waitForJobs(before + sales.length);
    await drain();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(printer.jobs.length, before + sales.length, 'one print per sale');
    for (const sale of sales)
      assert.equal(
        printer.jobs.slice(before).filter((job) => job.text.includes(sale.transaction_id)).length,
        1,
        `sale ${sale.transaction_id} printed once`,
      );
  });

  test('auto-print off prints nothing; an auto-print the printer never takes ends failed after its retries', async () => {
    await setPrinter({ connection: 'network', host: printer.host, port: printer.port, auto_print: false });
    const before = printer.jobs.length;
    await pay(s.gw, s.shop, chipSale(freshPan(), 6));
    await drain();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(printer.jobs.length, before);

    const down = await startPrinterListener();
    await down.close();
    await setPrinter({ connection: 'network', host: '127.0.0.1', port: down.port, auto_print: true });
    const sale = await pay(s.gw, s.shop, chipSale(freshPan(), 6));
    await drain();
    const row = await sqlOf(s.gw).get(
      'SELECT status, attempts, last_error FROM receipt_print_jobs WHERE receipt_id = ?',
      sale.transaction_id,
    );
    assert.deepEqual(row, { status: 'failed', attempts: 3, last_error: 'connection refused (is it switched on, and is the port right?)' });
  });
});

describe('a USB printer is its device file', () => {
  const document: PrintDocument = {
    lines: [{ text: 'Corner Bakery', align: 'center', bold: true, tall: true }, { text: 'Visa •••• 1111' }],
  };

  test('the job is written to the device as it is (ESC @ ... cut)', async () => {
    const device = join(tempDir('tillgate-usb-'), 'lp0');
    writeFileSync(device, '');
    const outcome = await createEscPosPrinter().print({ connection: 'usb', device }, document);
    assert.deepEqual(outcome, { kind: 'printed' });
    const bytes = readFileSync(device);
    assertEscPos(bytes);
    assert.ok(decodeWindows1252(bytes).includes('Visa •••• 1111'));
  });

  test('an unplugged printer (no device file) fails and creates no file', async () => {
    const device = join(tempDir('tillgate-usb-'), 'lp1');
    assert.deepEqual(await createEscPosPrinter().print({ connection: 'usb', device }, document), {
      kind: 'failed',
      message: 'no such device (is it plugged in?)',
    });
    assert.throws(() => readFileSync(device), /ENOENT/);
  });
});
