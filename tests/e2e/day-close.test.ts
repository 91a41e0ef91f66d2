/**
 * Browser end-to-end of closing the day against the real `gateway serve`: two cashiers take sales
 * (one at the till screen, one from the POS software with her staff session), a refund at the till
 * asks for the reason and says refunds are final, the X report shows the running totals, a cashier
 * closes the day with a manager's login and PIN, reads Z report No. 1, finds it in the list of
 * past days, and the next sale belongs to day 2 while Z 1 stays as it was. The A4 print, the PDF
 * export (rendered with pdftoppm) and the receipt-printer lines are looked at too. Screenshots land
 * in docs/screenshots/cashier-report-*.png.
 * Needs a built renderer (`npm run build:renderer`) and Debian's chromium; the PDF pictures need
 * poppler-utils (pdftoppm).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { assertAxeClean, launchChromium } from '../helpers/browser.js';
import { createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import { startPrinterListener } from '../helpers/printer-listener.js';
import { makeTempDir } from '../helpers/temp.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1024, height: 768 };
const EXPIRY_YEAR = new Date().getUTCFullYear() + 3;

let gateway: GatewayProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let merchantId: string;
let bruno: { staff_id: string; cookie: string };
const problems: string[] = [];

function staffCreate(role: string, login: string, pin: string, name: string): { staff_id: string; password: string } {
  const result = runGateway([
    'staff',
    'create',
    '--data-dir',
    gateway.dataDir,
    '--merchant',
    merchantId,
    '--role',
    role,
    '--login',
    login,
    '--pin',
    pin,
    '--name',
    name,
    '--json',
  ]);
  assert.equal(result.status, 0, `staff create ${login}: ${result.stderr}`);
  return JSON.parse(result.stdout) as { staff_id: string; password: string };
}

async function sessionCookie(login: string, pin: string): Promise<string> {
  const response = await fetch(new URL('/ui/session', gateway.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login, pin }),
  });
  assert.equal(response.status, 200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** A card-present sale at TILL-1 sent with a cashier's session, as POS software on the till would. */
async function posSale(cookie: string, amount: number, pan: string, entry: string): Promise<{ status: string; transaction_id: string }> {
  const response = await fetch(new URL('/rest/payment', gateway.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', cookie, 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({
      payment_type: 'cardpos',
      order_id: `pos-${crypto.randomUUID()}`,
      amount,
      currency: 'EUR',
      pos_data: {
        type: { terminal_entry_mode: entry },
        card: { number: pan, expiry_month: 12, expiry_year: EXPIRY_YEAR },
        terminal: {
          id: 'TILL-1',
          type: 'softpos',
          attended: true,
          capabilities: ['contactlessChip', 'contactChip', 'magstripe', 'onlinePin'],
        },
      },
    }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as { status: string; transaction_id: string };
}

function hasPdftoppm(): boolean {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The first page of a PDF as a PNG in docs/screenshots (pdftoppm, 100 dpi). */
function pdfPicture(pdf: Buffer, name: string): void {
  const dir = makeTempDir('tillgate-report-pdf-');
  const file = join(dir, 'report.pdf');
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', [
    '-r',
    '100',
    '-png',
    '-singlefile',
    '-f',
    '1',
    '-l',
    '1',
    file,
    join(SCREENSHOT_DIR, `cashier-report-${name}`),
  ]);
  rmSync(dir, { recursive: true, force: true });
}

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  merchantId = createMerchant(gateway.dataDir, 'Corner Bakery').merchant_id;
  staffCreate('cashier', 'anna', '1234', 'Anna Berg');
  bruno = { staff_id: staffCreate('cashier', 'bruno', '2468', 'Bruno Diaz').staff_id, cookie: '' };
  staffCreate('back_office', 'boss', '9999', 'Mira Novak');
  bruno.cookie = await sessionCookie('bruno', '2468');
  browser = await launchChromium();
  // bypassCSP: axe-core is injected as a script tag; the app's own CSP is checked in cashier.test.ts.
  context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block', bypassCSP: true });
  page = await context.newPage();
  page.on('console', (message) => {
    // The session check before the login answers 401 by design.
    if (message.type() === 'error' && !message.text().includes('401 (Unauthorized)')) problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
});

after(async () => {
  await context?.close();
  await browser?.close();
  await gateway?.stop();
});

async function shot(name: string, fullPage = false): Promise<void> {
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SCREENSHOT_DIR}cashier-report-${name}.png`, fullPage });
}

const main = () => page.getByRole('main');

/** axe-core (WCAG 2.2 AA) finds no violation on the page as it is. */
async function axe(where: string): Promise<void> {
  await assertAxeClean(page, where);
}

void test('sales by two cashiers: one at the till screen, the others from the POS software', async () => {
  await page.goto(new URL('/app/#/cashier', gateway.url).href, { waitUntil: 'networkidle' });
  await main().getByLabel('Login', { exact: true }).fill('anna');
  await main().locator('input[type=password]').fill('1234');
  await page.keyboard.press('Enter');
  await main().getByRole('heading', { name: 'New sale' }).waitFor();
  await page.keyboard.type('2500');
  await page.keyboard.press('Enter');
  await main().getByRole('heading', { name: 'Tap, insert or swipe the card' }).waitFor();
  await main().getByRole('button', { name: 'Tap Visa 4111111111111111' }).click();
  await main()
    .getByRole('status')
    .filter({ has: page.getByRole('heading', { name: 'Approved' }) })
    .waitFor({ timeout: 15_000 });

  assert.equal((await posSale(bruno.cookie, 18.4, '5555555555554444', 'chip')).status, 'completed');
  assert.equal((await posSale(bruno.cookie, 6.5, '4111111111111111', 'swipe')).status, 'completed');
  assert.equal((await posSale(bruno.cookie, 9.51, '4111111111111111', 'contactless')).status, 'declined');
});

void test('a refund at the till asks for the reason and says that refunds are final', async () => {
  await main().getByRole('link', { name: 'Today’s sales' }).click();
  const row = main().locator('tbody tr').filter({ hasText: '18.40 EUR' });
  await row.getByRole('button', { name: /^Refund/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund a sale' });
  await dialog.getByLabel('Amount to refund (EUR)').fill('8.40');
  await dialog.getByRole('button', { name: 'Continue with 8.40 EUR' }).click();
  await dialog.getByText('Choose why the money goes back.').waitFor();
  await dialog.getByRole('radio', { name: 'Other' }).check();
  await dialog.getByLabel('Reason in your words').fill('Two loaves charged, one bought');
  await shot('refund-reason');
  await dialog.getByRole('button', { name: 'Continue with 8.40 EUR' }).click();

  const confirm = page.getByRole('dialog', { name: 'Confirm the refund' });
  await confirm.getByText('Refunds are final.').waitFor();
  const text = (await confirm.textContent()) ?? '';
  assert.match(text, /8\.40 EUR/);
  assert.match(text, /Mastercard •••• 4444/);
  assert.match(text, /Two loaves charged, one bought/);
  assert.match(text, /cannot be undone/);
  await confirm.getByLabel('Manager login').fill('boss');
  await confirm.getByLabel('Manager PIN').fill('9999');
  await axe('refund confirmation');
  await shot('refund-final');
  // Back keeps what was typed.
  await confirm.getByRole('button', { name: 'Back' }).click();
  assert.equal(
    await page.getByRole('dialog', { name: 'Refund a sale' }).getByLabel('Reason in your words').inputValue(),
    'Two loaves charged, one bought',
  );
  await page.getByRole('dialog', { name: 'Refund a sale' }).getByRole('button', { name: 'Continue with 8.40 EUR' }).click();
  await confirm.getByLabel('Manager PIN').fill('9999');
  await confirm.getByRole('button', { name: 'Approve and refund 8.40 EUR' }).click();
  await page.getByRole('dialog', { name: 'Refund done' }).getByRole('button', { name: 'Done' }).click();
  await row.getByText('Partly refunded').waitFor();
});

void test('the X report shows the open day per currency, card brand, entry mode and cashier', async () => {
  await main().getByRole('link', { name: 'Close the day' }).click();
  await main().getByRole('heading', { name: 'Day 1 so far' }).waitFor();
  assert.equal(await main().getByRole('link', { name: 'Close the day' }).getAttribute('aria-current'), 'page');
  const totals = main().getByLabel('Totals in EUR');
  const total = async (label: string) => (await totals.locator('.total', { hasText: label }).locator('dd').first().textContent())?.trim();
  // Approved 25.00 + 18.40 + 6.50; refunded 8.40; declined 9.51.
  assert.equal(await total('Approved'), '49.90 EUR');
  assert.equal(await total('Refunded'), '8.40 EUR');
  assert.equal(await total('Net'), '41.50 EUR');
  assert.equal(await total('Declined'), '9.51 EUR');
  const cashiers = main().locator('section', { has: page.getByRole('heading', { name: 'By cashier' }) });
  assert.match((await cashiers.getByRole('row', { name: /Anna Berg/ }).textContent()) ?? '', /25\.00/);
  assert.match((await cashiers.getByRole('row', { name: /Bruno Diaz/ }).textContent()) ?? '', /24\.90.*9\.51.*8\.40.*16\.50/s);
  const brands = main().locator('section', { has: page.getByRole('heading', { name: 'By card brand' }) });
  await brands.getByRole('row', { name: /Mastercard/ }).waitFor();
  const modes = main().locator('section', { has: page.getByRole('heading', { name: 'By entry mode' }) });
  for (const mode of ['Contactless', 'Chip', 'Swipe']) await modes.getByRole('rowheader', { name: mode, exact: true }).waitFor();
  await main().getByText('No day has been closed at this till yet.').waitFor();
  await axe('X report');
  await shot('x', true);

  // A4: the print style sheet prints the report alone.
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.getByRole('banner').isVisible(), false, 'the frame does not print');
  assert.equal(await page.locator('article.day-report').isVisible(), true, 'the report prints');
  assert.equal(await main().getByRole('button', { name: 'Print A4' }).isVisible(), false, 'the buttons do not print');
  // What the OS print dialog gets, on A4 (page.pdf prints with the emulated media).
  if (hasPdftoppm()) pdfPicture(await page.pdf({ preferCSSPageSize: true, printBackground: true }), 'x-print-a4');
  await page.emulateMedia({ media: 'screen' });

  // The receipt printer's 42-column lines.
  await main().getByRole('button', { name: 'the X report for the receipt printer' }).click();
  const slip = page.getByRole('dialog', { name: 'X report for the receipt printer' });
  const lines = ((await slip.locator('pre').textContent()) ?? '').split('\n');
  assert.ok(
    lines.every((line) => line.length <= 42),
    'no line is wider than 42 columns',
  );
  assert.ok(
    lines.some((line) => /^ {2}Net +41\.50$/.test(line)),
    lines.join('\n'),
  );
  await shot('receipt-x');
  await slip.locator('.modal-actions').getByRole('button', { name: 'Close' }).click();
});

void test('a cashier closes the day with a manager: Z report No. 1, then the list of past days', async () => {
  await main().getByRole('button', { name: 'Close day 1', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Close day 1' });
  assert.match((await dialog.textContent()) ?? '', /never changes/);
  assert.match((await dialog.textContent()) ?? '', /41\.50 EUR \(3 sales, 1 refund\)/);
  // Without the manager nothing happens.
  await dialog.getByRole('button', { name: 'Approve and close day 1' }).click();
  await dialog.getByRole('alert').getByText("Enter the manager's login and PIN (4 to 8 digits).").waitFor();
  await dialog.getByLabel('Manager login').fill('boss');
  await dialog.getByLabel('Manager PIN').fill('9999');
  await axe('close day dialog');
  await shot('close-dialog');
  await dialog.getByRole('button', { name: 'Approve and close day 1' }).click();

  await main().getByRole('heading', { name: 'Z report No. 1' }).waitFor();
  await main().getByRole('status').getByText('Day 1 is closed. Sales from now on belong to day 2.').waitFor();
  const facts = (await main().locator('.report-facts').textContent()) ?? '';
  assert.match(facts, /Closed byAnna Berg/);
  assert.match(facts, /Approved byMira Novak/);
  assert.equal((await main().getByLabel('Totals in EUR').locator('.total-net dd').first().textContent())?.trim(), '41.50 EUR');
  await axe('Z report');
  await shot('z', true);

  // The Z report as PDF, from the gateway, with this browser's session.
  const pdf = await context.request.get(new URL('/ui/reports/z/1.pdf', gateway.url).href);
  assert.equal(pdf.status(), 200);
  assert.equal(pdf.headers()['content-type'], 'application/pdf');
  if (hasPdftoppm()) pdfPicture(await pdf.body(), 'z-pdf');
  assert.equal(await main().getByRole('link', { name: 'Z report 1 as PDF' }).getAttribute('href'), '/ui/reports/z/1.pdf');

  await main()
    .getByRole('button', { name: /Open day and past days/ })
    .click();
  await main().getByRole('heading', { name: 'Day 2 so far' }).waitFor();
  await main().getByText('No card sales, declines or refunds yet today.').waitFor();
  const past = main().locator('section', { has: page.getByRole('heading', { name: 'Past days (Z reports)' }) });
  const z1 = past.locator('tbody tr[data-sequence="1"]');
  assert.match((await z1.textContent()) ?? '', /Z 1.*Anna Berg.*approved by Mira Novak.*41\.50 EUR/s);
  await axe('past days');
  await shot('list');
});

void test('the next sale belongs to day 2 and Z report No. 1 stays as it was', async () => {
  assert.equal((await posSale(bruno.cookie, 3.2, '4111111111111111', 'contactless')).status, 'completed');
  await main().getByRole('button', { name: 'Refresh' }).click();
  await main().getByLabel('Totals in EUR').getByText('3.20 EUR').first().waitFor();
  const past = main().locator('section', { has: page.getByRole('heading', { name: 'Past days (Z reports)' }) });
  await past.getByRole('button', { name: 'Open Z report 1' }).click();
  await main().getByRole('heading', { name: 'Z report No. 1' }).waitFor();
  assert.equal((await main().getByLabel('Totals in EUR').locator('.total-net dd').first().textContent())?.trim(), '41.50 EUR');
  // The shop's ESC/POS printer (a TCP listener here) prints the Z report.
  const printer = await startPrinterListener();
  try {
    staffCreate('admin', 'owner', '8080', 'Olga Owner');
    const set = await fetch(new URL('/ui/receipt-printer', gateway.url), {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', cookie: await sessionCookie('owner', '8080') },
      body: JSON.stringify({ connection: 'network', host: printer.host, port: printer.port }),
    });
    assert.equal(set.status, 200, await set.text());
    await main().getByRole('button', { name: 'Z report 1 for the receipt printer' }).click();
    const slip = page.getByRole('dialog', { name: 'Z report No. 1 for the receipt printer' });
    assert.match((await slip.locator('pre').textContent()) ?? '', /Z REPORT NO\. 1/);
    await slip.locator('.modal-actions').getByRole('button', { name: 'Receipt printer' }).click();
    await slip.getByRole('status').getByText(`Printed on ${printer.host}:${printer.port}`).waitFor();
    const [job] = await printer.waitForJobs(1);
    assert.match(job?.text ?? '', /Z REPORT NO\. 1[\s\S]*Net +41\.50/);
    await shot('receipt-z');
    await slip.locator('.modal-actions').getByRole('button', { name: 'Close' }).click();
  } finally {
    await printer.close();
  }
  // On an 800x1280 tablet the report fits without sideways scrolling.
  await page.setViewportSize({ width: 800, height: 1280 });
  await main().getByRole('heading', { name: 'Z report No. 1' }).waitFor();
  assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 800, 'no horizontal scroll at 800 px');
  await shot('z-tablet');
  await page.setViewportSize(VIEWPORT);
  assert.deepEqual(problems, []);
});
