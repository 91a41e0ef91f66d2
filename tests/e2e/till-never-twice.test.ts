/**
 * A sale is never charged twice (issue "The till", item 1; decisions.md D16), in Chromium against
 * the real `gateway serve`. The gateway's answer is dropped after the gateway processed the request
 * (Playwright fetches the real answer, then cuts the connection), at each step of a sale: the first
 * charge, the PIN retry, a request that never arrived, the simulator's lost-answer card, a reload and
 * a restart of the gateway. Whatever the cashier presses, one sale ends with at most one approved
 * transaction. Screenshots: docs/screenshots/cashier-unresolved-*.png.
 * Needs a built renderer (`npm run build:renderer`; `npm test` builds it first).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const VIEWPORT = { width: 1366, height: 768 };

let gateway: GatewayProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
/** Order ids of every payment request the till sent, in order. */
const sentOrders: string[] = [];

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway({ args: ['--sim-slow-answer-ms', '3000'] });
  const merchant = createMerchant(gateway.dataDir, 'Corner Bakery');
  const staff = runGateway([
    'staff',
    'create',
    '--data-dir',
    gateway.dataDir,
    '--merchant',
    merchant.merchant_id,
    '--role',
    'cashier',
    '--login',
    'anna',
    '--pin',
    '1234',
    '--name',
    'Anna Berg',
    '--json',
  ]);
  assert.equal(staff.status, 0, staff.stderr);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block' });
  context.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/rest/payment') {
      sentOrders.push((request.postDataJSON() as { order_id: string }).order_id);
    }
  });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await login();
});

after(async () => {
  await context?.close();
  await browser?.close();
  await gateway?.stop();
});

const main = () => page.getByRole('main');

async function login(): Promise<void> {
  await page.goto(new URL('/app/#/cashier', gateway.url).href, { waitUntil: 'networkidle' });
  // A session survives a restart of the gateway (it is in the database): then no login is asked.
  const loginField = main().getByLabel('Login', { exact: true });
  await loginField.or(main().getByRole('heading')).first().waitFor();
  if (!(await loginField.isVisible())) return;
  await main().getByLabel('Login', { exact: true }).fill('anna');
  await main().locator('input[type=password]').fill('1234');
  await page.keyboard.press('Enter');
}

async function shot(name: string): Promise<void> {
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SCREENSHOT_DIR}cashier-unresolved-${name}.png` });
}

async function amountScreen(): Promise<void> {
  await main().getByRole('heading', { name: 'New sale' }).waitFor();
}

async function typeAndCharge(digits: string): Promise<void> {
  await amountScreen();
  await page.keyboard.press('Escape');
  await page.keyboard.type(digits);
  await page.keyboard.press('Enter');
  await main().getByRole('heading', { name: 'Tap, insert or swipe the card' }).waitFor();
}

/** The gateway processes the request, but its answer never reaches the window. */
async function processThenDrop(route: Route): Promise<void> {
  await route.fetch();
  await route.abort('connectionreset');
}

interface Listed {
  transaction_id: string;
  status_code: number;
  order_id: string;
}

async function transactionsOf(order: string): Promise<Listed[]> {
  return (await page.evaluate(
    async (o) => (await fetch(`/rest/transactions?order_id=${encodeURIComponent(o)}`, { credentials: 'same-origin' })).json(),
    order,
  )) as Listed[];
}

async function assertChargedOnce(order: string): Promise<void> {
  const approved = (await transactionsOf(order)).filter((t) => t.status_code === 3 || t.status_code === 4);
  assert.equal(approved.length, 1, `order ${order}: exactly one approved transaction`);
}

async function recoveredApproval(): Promise<void> {
  const status = main()
    .getByRole('status')
    .filter({ has: page.getByRole('heading', { name: 'Approved' }) });
  await status.waitFor({ timeout: 20_000 });
  await status.getByText('It is not charged again.').waitFor();
}

/** The sale's approval, whether the till saw the answer itself or learnt it from the gateway. */
async function recoveredApprovalOrApproved(): Promise<void> {
  await main().getByRole('heading', { name: 'Approved' }).waitFor({ timeout: 30_000 });
}

async function newSale(): Promise<void> {
  await main()
    .getByRole('button', { name: /New sale/ })
    .click();
  await amountScreen();
}

void test('answer lost, "Stop checking", then Enter and a tap: the till resolves first and shows the earlier approval; charged once', async () => {
  await page.route('**/rest/payment', processThenDrop);
  try {
    await typeAndCharge('2100');
    await main().getByRole('button', { name: 'Tap Visa 4111111111111111' }).click();
    await main().getByRole('heading', { name: 'Checking the payment' }).waitFor();
    await main().getByRole('button', { name: 'Stop checking' }).click();
    await amountScreen();
    await main().getByText('The outcome of 21.00 EUR is not known yet').waitFor();
    assert.equal(await main().locator('output.amount-value').textContent(), '21.00', 'the sale is kept');
    await main()
      .getByRole('button', { name: /Check the last payment, then charge 21\.00/ })
      .waitFor();
    await shot('kept');
  } finally {
    await page.unroute('**/rest/payment');
  }
  const order = sentOrders.at(-1) ?? '';
  // What the cashier did in the issue: Enter, then a tap. Enter resolves first: approved, done.
  await page.keyboard.press('Enter');
  await recoveredApproval();
  await shot('recovered');
  assert.equal(
    await main().getByRole('heading', { name: 'Tap, insert or swipe the card' }).count(),
    0,
    'no card prompt: nothing to charge',
  );
  await assertChargedOnce(order);
  await newSale();
});

void test('the answer to the PIN retry is lost: stopped, then charged again: one approval', async () => {
  await page.route('**/rest/payment', async (route) => {
    const body = route.request().postDataJSON() as { pos_data: { pin_block?: unknown } };
    if (body.pos_data.pin_block) await processThenDrop(route);
    else await route.continue();
  });
  try {
    await typeAndCharge('8000');
    await main().getByRole('button', { name: 'Tap Mastercard 5555555555554444' }).click();
    await main().getByRole('region', { name: 'Enter the PIN' }).waitFor();
    await page.keyboard.type('1234');
    await page.keyboard.press('Enter');
    await main().getByRole('heading', { name: 'Checking the payment' }).waitFor();
    await main().getByRole('button', { name: 'Stop checking' }).click();
    await amountScreen();
  } finally {
    await page.unroute('**/rest/payment');
  }
  const order = sentOrders.at(-1) ?? '';
  await main()
    .getByRole('button', { name: /Check the last payment, then charge 80\.00/ })
    .click();
  await recoveredApproval();
  await assertChargedOnce(order);
  await newSale();
});

void test('a request that never reached the gateway: resolving fences it, the sale is charged with a new request, once', async () => {
  await page.route('**/rest/payment', (route) => route.abort('connectionreset'));
  try {
    await typeAndCharge('1200');
    await main().getByRole('button', { name: 'Tap Visa 4111111111111111' }).click();
    await main().getByRole('heading', { name: 'Checking the payment' }).waitFor();
    await main().getByRole('button', { name: 'Stop checking' }).click();
    await amountScreen();
  } finally {
    await page.unroute('**/rest/payment');
  }
  const order = sentOrders.at(-1) ?? '';
  await page.keyboard.press('Enter');
  // Not charged: the till asks for the card again, for the same sale.
  await main().getByRole('heading', { name: 'Tap, insert or swipe the card' }).waitFor();
  await main().getByRole('button', { name: 'Tap Visa 4111111111111111' }).click();
  await main()
    .getByRole('status')
    .filter({ has: page.getByRole('heading', { name: 'Approved' }) })
    .waitFor();
  assert.equal(sentOrders.at(-1), order, 'the same sale, the same order id');
  await assertChargedOnce(order);
  await newSale();
});

void test('the lost-answer test card, then a reload: the till finds the open payment on start and shows its approval', async () => {
  await typeAndCharge('3300');
  await main().getByRole('button', { name: 'Tap Visa 4000000000001513' }).click();
  await main().getByRole('heading', { name: 'Checking the payment' }).waitFor();
  await shot('checking');
  const order = sentOrders.at(-1) ?? '';
  await page.reload({ waitUntil: 'networkidle' });
  await recoveredApproval();
  await assertChargedOnce(order);
  await newSale();
});

void test('a restart of the gateway with an unresolved sale: after logging in again the till settles it before a new sale', async () => {
  await typeAndCharge('4400');
  await main().getByRole('button', { name: 'Tap Visa 4000000000001513' }).click();
  await main().getByRole('heading', { name: 'Checking the payment' }).waitFor();
  const order = sentOrders.at(-1) ?? '';
  const dataDir = gateway.dataDir;
  await gateway.stop();
  gateway = await startGateway({ dataDir, args: ['--sim-slow-answer-ms', '3000'] });
  await login();
  await shot('after-restart');
  await recoveredApproval();
  await assertChargedOnce(order);
  await newSale();
});

void test('kill -9 of the gateway while the bank answers, back on the same address: the till asks again by itself, without a click or a reload, and the sale is charged once', async () => {
  await typeAndCharge('4600');
  // Killed only once the payment left the till: "Processing" shows before the request is sent.
  const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/rest/payment');
  await main().getByRole('button', { name: 'Tap Visa 4000000000001505' }).click();
  await main()
    .getByRole('heading', { name: /Processing|Waiting for the bank/ })
    .waitFor();
  await sent;
  const order = sentOrders.at(-1) ?? '';
  const seen: string[] = [];
  const watch = setInterval(() => {
    void main()
      .textContent()
      .then(
        (text) => seen.push(text ?? ''),
        () => undefined,
      );
  }, 250);
  try {
    const { dataDir } = gateway;
    const port = new URL(gateway.url).port;
    await gateway.kill9();
    await main().getByRole('heading', { name: 'Checking the payment' }).waitFor();
    // Down long enough for the quick checks to run out (about 7 s): the till keeps asking by itself.
    await main()
      .getByText(/Still no answer from the gateway/)
      .waitFor({ timeout: 20_000 });
    await shot('gateway-down');
    gateway = await startGateway({ dataDir, args: ['--sim-slow-answer-ms', '3000', '--port', port] });
    // Nobody touches the till: it sends the same request again (same key) once the gateway answers.
    await recoveredApprovalOrApproved();
    await assertChargedOnce(order);
  } finally {
    clearInterval(watch);
  }
  assert.ok(
    !seen.some((text) => /still being processed by the bank/.test(text)),
    'never "still being processed" about a payment whose process died',
  );
  await newSale();
});

void test('a slow bank while the till restarts: the resolve waits for the outcome, nothing is charged twice', async () => {
  await typeAndCharge('4500');
  await main().getByRole('button', { name: 'Tap Visa 4000000000001505' }).click();
  await main()
    .getByRole('heading', { name: /Processing|Waiting for the bank/ })
    .waitFor();
  const order = sentOrders.at(-1) ?? '';
  await page.reload({ waitUntil: 'domcontentloaded' });
  // Either the bank has answered already, or the till waits for it ("still being processed").
  await recoveredApproval();
  await assertChargedOnce(order);
  await newSale();
  assert.deepEqual(
    problems.filter((p) => !/Failed to load resource|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|net::ERR/.test(p)),
    [],
    'no console error but the cut connections',
  );
});
