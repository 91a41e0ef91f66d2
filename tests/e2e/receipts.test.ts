/**
 * Receipts that last (decisions.md D16; issue 14, 4), in Chromium against the real `gateway serve`
 * with a stand-in network receipt printer (a TCP listener on 127.0.0.1 that keeps the ESC/POS
 * bytes): a chip sale's approved screen shows the gateway's receipt (application label, AID,
 * approval code) and prints it with one key; after a reload, today's sales reprints it from the
 * gateway; its QR code, decoded with zbarimg, opens the customer's receipt page; it is e-mailed to
 * the local test outbox; a refund made meanwhile has its own receipt; with auto-print on, the next
 * sale prints by itself, once; an admin sets up the printer and sends a test print.
 * Screenshots: docs/screenshots/cashier-receipt-*.png. Needs a built renderer (npm run build:renderer).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Receipt, ReceiptEmail } from '../../contract/api/receipts.js';
import { launchChromium } from '../helpers/browser.js';
import { tempDir } from '../helpers/api.js';
import {
  basicAuth,
  createMerchant,
  runGateway,
  startGateway,
  type GatewayProcess,
  type MerchantCredentials,
} from '../helpers/gateway-process.js';
import { startPrinterListener, type PrinterListener } from '../helpers/printer-listener.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1024, height: 768 };
const VISA_AID = 'A0000000031010';
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let gateway: GatewayProcess;
let merchant: MerchantCredentials;
let printer: PrinterListener;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let adminPassword: string;
const problems: string[] = [];

function staffCreate(role: string, login: string, pin: string | null, name: string): { staff_id: string; password: string } {
  const result = runGateway([
    'staff',
    'create',
    '--data-dir',
    gateway.dataDir,
    '--merchant',
    merchant.merchant_id,
    '--role',
    role,
    '--login',
    login,
    ...(pin ? ['--pin', pin] : []),
    '--name',
    name,
    '--json',
  ]);
  assert.equal(result.status, 0, `staff create ${login}: ${result.stderr}`);
  return JSON.parse(result.stdout) as { staff_id: string; password: string };
}

/** An admin's session cookie, for setting the printer up the way the API does. */
async function adminCookie(): Promise<string> {
  const login = await fetch(new URL('/ui/session', gateway.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: 'owner', password: adminPassword }),
  });
  assert.equal(login.status, 200);
  return (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function setPrinter(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(new URL('/ui/receipt-printer', gateway.url), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', cookie: await adminCookie() },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, await response.text());
}

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  merchant = createMerchant(gateway.dataDir, 'Corner Bakery');
  staffCreate('cashier', 'anna', '1234', 'Anna Berg');
  adminPassword = staffCreate('admin', 'owner', null, 'Olga Owner').password;
  printer = await startPrinterListener();
  await setPrinter({ connection: 'network', host: printer.host, port: printer.port });
  browser = await launchChromium();
  // bypassCSP: axe-core is injected as a script tag (cashier.test.ts checks the app's own CSP).
  context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block', bypassCSP: true });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
});

after(async () => {
  await context?.close();
  await browser?.close();
  await printer?.close();
  await gateway?.stop();
});

/** axe-core (WCAG 2.2 AA) finds nothing on the screen; then its screenshot. */
async function shot(name: string, target: Page = page): Promise<void> {
  await target.waitForTimeout(150);
  if (!(await target.evaluate('typeof axe !== "undefined"'))) await target.addScriptTag({ path: AXE_PATH });
  const violations = await target.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} }, resultTypes: ['violations'] })
      .then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', ')))`,
  );
  assert.deepEqual(violations, [], `${name}: axe-core finds no violation`);
  await target.screenshot({ path: `${SCREENSHOT_DIR}cashier-receipt-${name}.png` });
}

const main = () => page.getByRole('main');

/** The gateway's receipt of a sale, read with the page's own staff session. */
async function gatewayReceipt(id: string): Promise<Receipt> {
  return page.evaluate(
    async (receiptId) => (await fetch(`/ui/receipts/${receiptId}`, { credentials: 'same-origin' })).json(),
    id,
  ) as Promise<Receipt>;
}

async function sell(digits: string, card: string): Promise<string> {
  await main().getByRole('heading', { name: 'New sale' }).waitFor();
  await page.keyboard.type(digits);
  await page.keyboard.press('Enter');
  await main().getByRole('heading', { name: 'Tap, insert or swipe the card' }).waitFor();
  await main().getByRole('button', { name: card }).click();
  await main()
    .getByRole('status')
    .filter({ has: page.getByRole('heading', { name: 'Approved' }) })
    .waitFor({ timeout: 15_000 });
  const receipt = main().getByRole('article', { name: 'Receipt' });
  await receipt.waitFor();
  const id = await receipt.getAttribute('data-receipt-id');
  assert.ok(id);
  return id;
}

let saleId: string;
let sale: Receipt;

void test("a chip sale: the approved screen shows the gateway's receipt, and Enter prints it and starts the next sale", async () => {
  await page.goto(new URL('/app/#/cashier', gateway.url).href, { waitUntil: 'networkidle' });
  await main().getByLabel('Login', { exact: true }).fill('anna');
  await main().locator('input[type=password]').fill('1234');
  await page.keyboard.press('Enter');
  saleId = await sell('1250', 'Insert Visa 4111111111111111');
  sale = await gatewayReceipt(saleId);
  assert.deepEqual(sale.card, { brand: 'visa', last_four: '1111', entry_mode: 'chip', application_label: 'VISA CREDIT', aid: VISA_AID });
  assert.match(sale.authorization_code ?? '', /^\d{6}$/);
  const text = (await main().getByRole('article', { name: 'Receipt' }).textContent()) ?? '';
  for (const expected of [
    'Corner Bakery',
    'Visa •••• 1111',
    'Chip',
    'VISA CREDIT',
    VISA_AID,
    `Approval code${String(sale.authorization_code)}`,
    '12.50 EUR',
    'TILL-1',
  ]) {
    assert.ok(text.includes(expected), `the receipt shows ${expected}: ${text}`);
  }
  // The one-key default with a receipt printer: print, then the next sale.
  const primary = main().getByRole('button', { name: /Print receipt · New sale/ });
  // Evaluated in the page as a string: the tests type-check without DOM types.
  assert.equal(
    await page.evaluate<string | undefined>('document.activeElement?.textContent ?? undefined'),
    await primary.textContent(),
    'the default has the focus',
  );
  for (const choice of [/^Print receipt P$/, /^E-mail E$/, /^QR code Q$/, /^No receipt N$/])
    assert.ok(await main().getByRole('button', { name: choice }).isVisible(), String(choice));
  await shot('approved');
  await page.keyboard.press('Enter');
  await main().getByRole('heading', { name: 'New sale' }).waitFor();
  const [job] = await printer.waitForJobs(1);
  assert.ok(job);
  assert.equal(job.bytes.subarray(0, 2).toString('hex'), '1b40', 'ESC @');
  for (const expected of ['Corner Bakery', '€12.50', 'Visa •••• 1111', VISA_AID, String(sale.authorization_code), saleId])
    assert.ok(job.text.includes(expected), `printed: ${expected}`);
  assert.ok(job.bytes.includes(Buffer.from([0x1d, 0x56, 0x00])), 'paper cut');
});

void test("after a reload, today's sales reprints the receipt from the gateway: brand, last four, AID, approval code", async () => {
  // A reload forgets everything the window knew of the sale.
  await page.reload({ waitUntil: 'networkidle' });
  await main().getByRole('heading', { name: 'New sale' }).waitFor();
  await main().getByRole('link', { name: 'Today’s sales' }).click();
  await main().getByRole('heading', { name: 'Today’s sales' }).waitFor();
  await main()
    .getByRole('button', { name: /^Receipt of the sale at .*12\.50 EUR$/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Receipt' });
  const receipt = dialog.getByRole('article', { name: 'Receipt' });
  await receipt.waitFor();
  const text = (await receipt.textContent()) ?? '';
  for (const expected of ['Visa •••• 1111', 'Chip', 'VISA CREDIT', VISA_AID, `Approval code${String(sale.authorization_code)}`, saleId]) {
    assert.ok(text.includes(expected), `the reprint shows ${expected}: ${text}`);
  }
  await shot('reprint');
  await dialog.getByRole('button', { name: 'Print', exact: true }).click();
  await dialog.getByText(`Receipt printed on 127.0.0.1:${printer.port}.`).waitFor();
  const [, reprint] = await printer.waitForJobs(2);
  assert.ok(reprint?.text.includes(saleId), 'the reprint went to the printer');
});

void test('the QR code opens the receipt page; the page shows brand and last four only', async () => {
  const dialog = page.getByRole('dialog', { name: 'Receipt' });
  await dialog.getByRole('button', { name: 'QR code' }).click();
  const qr = page.getByRole('dialog', { name: 'Receipt by QR code' });
  const image = qr.getByRole('img', { name: 'QR code of the link to the receipt' });
  await image.waitFor();
  // No public URL here: the dialog says that a customer's phone cannot open this 127.0.0.1 link.
  await qr
    .getByRole('note')
    .filter({ hasText: `Only this computer opens links to ${new URL(gateway.url).origin}` })
    .waitFor();
  await shot('qr');
  const file = join(tempDir('tillgate-qr-'), 'qr.png');
  await image.screenshot({ path: file });
  const url = execFileSync('zbarimg', ['-q', '--raw', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  assert.match(url, new RegExp(`^${gateway.url.replace(/[.]/g, '\\.')}/receipt/[A-Za-z0-9_-]{32}$`));
  assert.equal((await qr.locator('.qr-url').textContent())?.trim(), url, 'the link under the code is the same');
  await qr.getByRole('button', { name: 'Done' }).click();
  await dialog.getByText('Receipt given by QR code.').waitFor();

  // The customer's phone: another browser context, no session.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    serviceWorkers: 'block',
    locale: 'de-DE',
    bypassCSP: true,
  });
  try {
    const customer = await phone.newPage();
    await customer.goto(url, { waitUntil: 'networkidle' });
    const body = (await customer.locator('main').textContent()) ?? '';
    for (const expected of ['Beleg', 'Genehmigt', 'Visa •••• 1111', 'Chip', String(sale.authorization_code), saleId])
      assert.ok(body.includes(expected), `the page shows ${expected}: ${body}`);
    for (const hidden of [VISA_AID, 'VISA CREDIT', '4111111111111111', '411111'])
      assert.ok(!body.includes(hidden), `the page hides ${hidden}`);
    assert.match((await customer.locator('.amount').textContent()) ?? '', /12,50\s€/);
    await shot('page-de', customer);
    await customer.getByRole('link', { name: 'English' }).click();
    await customer.getByRole('heading', { name: 'Receipt' }).waitFor();
    await shot('page', customer);
  } finally {
    await phone.close();
  }
});

void test('by e-mail: queued in the chosen language and sent to the local test outbox', async () => {
  const dialog = page.getByRole('dialog', { name: 'Receipt' });
  await dialog.getByRole('button', { name: 'E-mail' }).click();
  const email = page.getByRole('dialog', { name: 'E-mail the receipt' });
  await email.getByLabel('Customer’s e-mail address').fill('not-an-address');
  await email.getByRole('button', { name: 'Send receipt' }).click();
  await email.getByText('Enter an e-mail address such as ada@example.com.').waitFor();
  await email.getByLabel('Customer’s e-mail address').fill('ada@example.com');
  await email.getByLabel('Language').selectOption('de');
  await shot('email');
  await email.getByRole('button', { name: 'Send receipt' }).click();
  await dialog.getByText('Receipt e-mailed to ada@example.com.').waitFor();
  let sent: ReceiptEmail | undefined;
  for (let i = 0; i < 50 && sent?.status !== 'sent'; i += 1) {
    const list = (await page.evaluate(
      async (id) => (await fetch(`/ui/receipts/${id}/emails`, { credentials: 'same-origin' })).json(),
      saleId,
    )) as ReceiptEmail[];
    sent = list[0];
    if (sent?.status !== 'sent') await page.waitForTimeout(100);
  }
  assert.ok(sent);
  assert.deepEqual([sent.status, sent.test_outbox, sent.recipient, sent.language], ['sent', true, 'ada@example.com', 'de']);
  assert.match(sent.subject, /^Ihr Beleg von Corner Bakery: 12,50\s€$/);
  assert.match(sent.body_text, /Genehmigungscode\s+\d{6}/);
  assert.ok(!sent.body_text.includes('4111111111111111'));
  await dialog.getByRole('button', { name: 'Close' }).last().click();
});

void test("a refund has its own receipt in today's sales", async () => {
  const refund = await fetch(new URL('/rest/refund', gateway.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: basicAuth(merchant) },
    body: JSON.stringify({ transaction_id: saleId, amount: 2.5 }),
  });
  assert.equal(refund.status, 200);
  await main().getByRole('button', { name: 'Refresh' }).click();
  await main()
    .getByRole('button', { name: /^Receipt of the refund of 2\.50 EUR at / })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Refund receipt' });
  const receipt = dialog.getByRole('article', { name: 'Receipt' });
  await receipt.waitFor();
  const text = (await receipt.textContent()) ?? '';
  for (const expected of ['Card payment · Refund', 'Visa •••• 1111', 'Refunded2.50 EUR', `Refund of${saleId}`])
    assert.ok(text.includes(expected), `${expected}: ${text}`);
  await shot('refund');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
});

void test('auto-print: the next approved sale prints by itself, once', async () => {
  await setPrinter({ connection: 'network', host: printer.host, port: printer.port, auto_print: true });
  const before = printer.jobs.length;
  await main().getByRole('link', { name: 'Till' }).click();
  const id = await sell('900', 'Tap Mastercard 5555555555554444');
  await main().getByText(`Receipt printing on 127.0.0.1:${printer.port}`).waitFor();
  const panel = await main().locator('.result-layout').boundingBox();
  assert.ok(
    panel && panel.y + panel.height <= VIEWPORT.height,
    `the result with its receipt choices fits 1024x768: ${JSON.stringify(panel)}`,
  );
  const [job] = (await printer.waitForJobs(before + 1)).slice(before);
  assert.ok(job, 'a print job');
  assert.ok(job.text.includes(id), 'the sale printed');
  assert.ok(job.text.includes('Mastercard •••• 4444'));
  await shot('auto-print');
  // On a tablet held upright the receipt goes under the result; nothing is cut or covered.
  await page.setViewportSize({ width: 800, height: 1280 });
  await shot('auto-print-tablet');
  assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 800, 'no horizontal scroll at 800 px');
  await page.setViewportSize(VIEWPORT);
  // Enter is the next sale now: the receipt is out already.
  await page.keyboard.press('Enter');
  await main().getByRole('heading', { name: 'New sale' }).waitFor();
  await page.waitForTimeout(500);
  assert.equal(printer.jobs.length, before + 1, 'printed once');
});

void test('an admin sets up the printer and sends a test print', async () => {
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  await main().getByLabel('Login', { exact: true }).fill('owner');
  await main().getByText('Password', { exact: true }).click();
  await main().getByRole('textbox', { name: 'Password' }).fill(adminPassword);
  await page.keyboard.press('Enter');
  await page.getByRole('banner').getByText('Olga Owner').waitFor();
  await main().getByRole('button', { name: 'Printer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Receipt printer' });
  await dialog.getByText(`Network printer 127.0.0.1:${printer.port}, 42 characters per line, auto-print on.`).waitFor();
  await dialog.getByLabel('Print the receipt of every approved sale at once').uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText(`Network printer 127.0.0.1:${printer.port}, 42 characters per line, auto-print off.`).waitFor();
  const before = printer.jobs.length;
  await dialog.getByRole('button', { name: 'Test print' }).click();
  await dialog.getByText(`Test page printed on 127.0.0.1:${printer.port}.`).waitFor();
  const [job] = (await printer.waitForJobs(before + 1)).slice(before);
  assert.ok(job?.text.includes('Test print'));
  await shot('printer');
  await dialog.getByRole('button', { name: 'Close' }).click();
  assert.deepEqual(
    problems.filter((p) => !/status of 401/.test(p)),
    [],
    'no console error',
  );
});
