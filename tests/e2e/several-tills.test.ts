/**
 * Several tills on one gateway (issue 26, part 0), in two Chromium windows against the real
 * `gateway serve`: each window asks "Which till is this?" once and remembers the answer; two
 * cashiers tap a card at the same moment, both sales are approved and each window shows its own;
 * a window asking for a till the other has open is told so and may take it over, after which the
 * first window says it is no longer that till; each till closes its own day, and the manager sees
 * each till's X report and the shop's day. Screenshots docs/screenshots/tills-*.png.
 * Needs a built renderer (`npm run build:renderer`; `npm test` builds it first).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { TILL_HEARTBEAT_SECONDS } from '../../contract/constants.js';
import { assertAxeClean, launchChromium } from '../helpers/browser.js';
import { basicAuth, createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const VIEWPORT = { width: 1024, height: 768 };

let gateway: GatewayProcess;
let browser: Browser;
let auth = '';
const problems: string[] = [];

interface Window {
  context: BrowserContext;
  page: Page;
}
const windows: Record<'a' | 'b', Window> = {} as Record<'a' | 'b', Window>;

function staffCreate(merchantId: string, role: string, login: string, pin: string, name: string): void {
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
}

async function openWindow(): Promise<Window> {
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block', bypassCSP: true });
  const page = await context.newPage();
  page.on('console', (message) => {
    // The 409 of a till another window has open is an answer the screen shows, not a fault.
    if (message.type() === 'error' && !/status of (401|409)/.test(message.text())) problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(new URL('/app/#/cashier', gateway.url).href, { waitUntil: 'networkidle' });
  return { context, page };
}

async function login(page: Page, loginName: string, pin: string): Promise<void> {
  const main = page.getByRole('main');
  await main.getByLabel('Login', { exact: true }).fill(loginName);
  await main.locator('input[type=password]').fill(pin);
  await page.keyboard.press('Enter');
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(150);
  await assertAxeClean(page, name);
  assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= VIEWPORT.width, `${name}: no horizontal scroll`);
  await page.screenshot({ path: `${SCREENSHOT_DIR}tills-${name}.png` });
}

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  const merchant = createMerchant(gateway.dataDir, 'Two Till Bakery');
  auth = basicAuth(merchant);
  const till2 = runGateway([
    'till',
    'create',
    '--data-dir',
    gateway.dataDir,
    '--merchant',
    merchant.merchant_id,
    '--till-id',
    'TILL-2',
    '--name',
    'Back counter',
  ]);
  assert.equal(till2.status, 0, till2.stderr);
  staffCreate(merchant.merchant_id, 'cashier', 'anna', '1234', 'Anna Berg');
  staffCreate(merchant.merchant_id, 'cashier', 'ben', '5678', 'Ben Costa');
  staffCreate(merchant.merchant_id, 'back_office', 'boss', '9999', 'Mira Novak');
  browser = await launchChromium();
  windows.a = await openWindow();
  windows.b = await openWindow();
});

after(async () => {
  for (const w of Object.values(windows)) await w.context.close();
  await browser?.close();
  await gateway?.stop();
});

void test('each window asks "Which till is this?" once (a reload does not ask again); each shows its till', async () => {
  const { page: a } = windows.a;
  const { page: b } = windows.b;
  await login(a, 'anna', '1234');
  const question = a.getByRole('heading', { name: 'Which till is this?' });
  await question.waitFor();
  assert.deepEqual(await a.getByRole('main').locator('.till-choice').allTextContents(), ['Till 1TILL-1', 'Back counterTILL-2']);
  await shot(a, 'which-till');
  await a.getByRole('button', { name: /^Till 1/ }).click();
  await a.getByRole('heading', { name: 'New sale' }).waitFor();
  assert.equal(await a.locator('.till-badge-name').getAttribute('title'), 'Terminal id TILL-1');
  assert.match((await a.locator('.till-badge').textContent()) ?? '', /Till 1/);
  await a.reload({ waitUntil: 'networkidle' });
  await a.getByRole('heading', { name: 'New sale' }).waitFor();
  assert.equal(await question.count(), 0, 'the browser remembers its till');

  await login(b, 'ben', '5678');
  await b.getByRole('heading', { name: 'Which till is this?' }).waitFor();
  // Till 1 is marked as open on the other window.
  await b.getByText(/open on another screen \(Anna Berg\)/).waitFor();
  await b.getByRole('button', { name: /^Back counter/ }).click();
  await b.getByRole('heading', { name: 'New sale' }).waitFor();
  await shot(b, 'badge');
});

void test('two cashiers tap a card at the same moment: both approved, each window shows its own sale with its own till on the receipt', async () => {
  const sale = async (page: Page, digits: string) => {
    await page.getByRole('main').getByRole('heading', { name: 'New sale' }).waitFor();
    await page.keyboard.type(digits);
    await page.keyboard.press('Enter');
    await page.getByRole('main').getByRole('heading', { name: 'Tap, insert or swipe the card' }).waitFor();
  };
  await Promise.all([sale(windows.a.page, '888'), sale(windows.b.page, '2000')]);
  // The same moment: both taps are sent together.
  await Promise.all([
    windows.a.page.getByRole('button', { name: 'Tap Visa 4111111111111111' }).click(),
    windows.b.page.getByRole('button', { name: 'Tap Mastercard 5555555555554444' }).click(),
  ]);
  for (const [page, amount, till] of [
    [windows.a.page, '8.88 EUR', 'TILL-1'],
    [windows.b.page, '20.00 EUR', 'TILL-2'],
  ] as const) {
    const receipt = page.getByRole('main').getByRole('article', { name: 'Receipt' });
    await receipt.waitFor();
    const text = (await receipt.textContent()) ?? '';
    assert.ok(text.includes(amount) && text.includes('Approved') && text.includes(till), `${till}: ${text}`);
  }
  await shot(windows.b.page, 'approved-at-till-2');
  // The gateway agrees: two sales, one per till.
  const list = (await (await fetch(new URL('/rest/transactions', gateway.url), { headers: { authorization: auth } })).json()) as Array<{
    amount: number;
    status: string;
  }>;
  assert.deepEqual(list.map((t) => [t.amount, t.status]).sort(), [
    [20, 'completed'],
    [8.88, 'completed'],
  ]);
  for (const w of Object.values(windows))
    await w.page
      .getByRole('main')
      .getByRole('button', { name: /New sale/ })
      .click();
});

void test("each till shows its own day; the manager sees every till's open day, each till's X report, and the shop's day", async () => {
  const { page: b } = windows.b;
  await b.getByRole('main').getByRole('link', { name: 'Close the day' }).click();
  const sheet = b.getByRole('main').getByRole('article');
  await sheet.getByText('TILL-2', { exact: true }).first().waitFor();
  await sheet.getByText('20.00').first().waitFor();
  assert.doesNotMatch((await sheet.textContent()) ?? '', /8\.88/, "Till 1's sale is not on Till 2's report");
  // Today's sales: each window its own till's sale only, with its cashier and whole order id.
  for (const [w, mine, theirs, name] of [
    [windows.a, '8.88 EUR', '20.00 EUR', 'till-1'],
    [windows.b, '20.00 EUR', '8.88 EUR', 'till-2'],
  ] as const) {
    await w.page.getByRole('main').getByRole('link', { name: 'Today’s sales' }).click();
    const rows = w.page.getByRole('main').locator('tbody tr');
    await rows.filter({ hasText: mine }).waitFor();
    assert.equal(await rows.filter({ hasText: theirs }).count(), 0, `${name}: the other till's sale is not listed`);
    assert.equal(await rows.count(), 1);
    assert.match(
      (await rows.first().locator('.order-id').textContent()) ?? '',
      name === 'till-1' ? /^TILL-1-/ : /^TILL-2-/,
      'the whole order id, which names its till',
    );
    await shot(w.page, `today-${name}`);
    await w.page.getByRole('main').getByRole('link', { name: 'Till' }).click();
  }

  // The manager, in a third window: the shop's day, then Till 1's X report.
  const manager = await openWindow();
  try {
    const m = manager.page;
    await login(m, 'boss', '9999');
    await m.goto(new URL('/app/#/cashier/reports', gateway.url).href);
    const shop = m.getByRole('region', { name: 'The shop’s day' });
    await shop.getByRole('cell', { name: '28.88 EUR' }).waitFor();
    assert.match(
      (await shop.textContent()) ?? '',
      /Till 1\s*TILL-1.*8\.88 EUR.*Back counter\s*TILL-2.*20\.00 EUR.*Whole shop.*28\.88 EUR/s,
    );
    await shot(m, 'shop-day');
    await shop.getByRole('button', { name: 'X report of Till 1' }).click();
    const report = m.getByRole('main').getByRole('article');
    await report.getByText('TILL-1', { exact: true }).first().waitFor();
    assert.match((await report.textContent()) ?? '', /8\.88/);
    await shot(m, 'x-report-of-till-1');
    // The manager's Today's sales of the whole shop: both sales, each with its till, totals of the shop's day.
    await m.getByRole('main').getByRole('link', { name: 'Today’s sales' }).click();
    await m.getByLabel('Whose sales to show').selectOption('shop');
    await m
      .getByRole('main')
      .getByRole('heading', { name: /Today’s sales · Whole shop/ })
      .waitFor();
    const rows = m.getByRole('main').locator('tbody tr');
    await rows.filter({ hasText: '20.00 EUR' }).getByText('Back counter').waitFor();
    await rows.filter({ hasText: '8.88 EUR' }).getByText('Till 1').waitFor();
    await m.getByLabel('Totals in EUR').getByText('28.88 EUR').first().waitFor();
    await shot(m, 'today-whole-shop');
  } finally {
    await manager.context.close();
  }
});

void test('a window asking for a till the other has open is told who has it; "use it here anyway" takes it, and the other window learns it lost it', async () => {
  const { page: a } = windows.a;
  const { page: b } = windows.b;
  await b.getByRole('main').getByRole('link', { name: 'Till' }).click();
  await b.getByRole('button', { name: 'Change till' }).click();
  await b.getByRole('heading', { name: 'Which till is this?' }).waitFor();
  await b.getByRole('button', { name: /^Till 1/ }).click();
  const inUse = b.getByRole('heading', { name: 'Till 1 is open on another screen' });
  await inUse.waitFor();
  assert.match((await b.getByRole('alert').textContent()) ?? '', /Anna Berg/);
  await shot(b, 'in-use');
  await b.getByRole('button', { name: 'Use Till 1 here anyway' }).click();
  await b.getByRole('heading', { name: 'New sale' }).waitFor();
  // Window A learns it at its next beat.
  await a.getByRole('heading', { name: 'This screen is no longer Till 1' }).waitFor({ timeout: (TILL_HEARTBEAT_SECONDS + 10) * 1000 });
  await shot(a, 'taken-over');
  await a.getByRole('button', { name: 'Choose a till' }).click();
  await a.getByRole('button', { name: /^Back counter/ }).click();
  await a.getByRole('heading', { name: 'New sale' }).waitFor();
  assert.deepEqual(problems, [], 'no console error or uncaught exception');
});
