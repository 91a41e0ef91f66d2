/**
 * The back office's dashboard in Chromium against the real `gateway serve`: four weeks of payments
 * (written into the database before the start, through the same triggers as the gateway's own
 * writes) and today's payments, declines, a PIN request and a refund made through the API. A
 * back-office login starts on the dashboard and sees the figures the gateway answers, drawn by uPlot
 * on canvases with a table of the same figures each; switching the period changes the URL and a
 * reload keeps it; the needs-attention items link to where they are handled; a cashier is kept out;
 * axe-core finds nothing; no console error, no CSP violation. Screenshots at 1366x900 and 1024x768
 * (docs/screenshots/backoffice-dashboard-*.png).
 *
 * The shop's time zone is chosen so that it is about noon there while the test runs (Etc/GMT±N),
 * so today's payments never straddle a midnight.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import type { Dashboard } from '../../contract/api/dashboard.js';
import { DATABASE_FILE, openDatabase } from '../../db/open.js';
import { assertAxeClean, launchChromium } from '../helpers/browser.js';
import {
  basicAuth,
  createMerchant,
  runGateway,
  startGateway,
  tempDataDir,
  type GatewayProcess,
  type MerchantCredentials,
} from '../helpers/gateway-process.js';
import { cardPayment, freshPan, posPayment } from '../helpers/payments.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SIZES = [
  { width: 1366, height: 900 },
  { width: 1024, height: 768 },
] as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A fixed-offset zone where it is about noon now (IANA's Etc/GMT signs are inverted). */
function noonZone(now: Date): { zone: string; offsetHours: number } {
  const offsetHours = Math.max(-12, Math.min(14, 12 - now.getUTCHours()));
  return { zone: offsetHours === 0 ? 'Etc/UTC' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`, offsetHours };
}

const RECORD_CSP_VIOLATIONS = `
  globalThis.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    globalThis.__cspViolations.push(event.effectiveDirective + ' blocked ' + (event.blockedURI || 'inline'));
  });
`;

let gateway: GatewayProcess;
let browser: Browser;
let merchant: MerchantCredentials;
let officePassword = '';
let authorizationId = '';
let invoiceNumber = '';
/** The shop's time zone (where it is noon now) and a payment of today, to read its time on the screens. */
let shopZone = 'UTC';
let firstPaymentId = '';
/** Today's payments as this test made them: [payments, approved, declined]. */
const today = { payments: 0, approved: 0, declined: 0 };

function staffCreate(role: string, login: string, name: string, pin?: string): string {
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
    '--name',
    name,
    ...(pin ? ['--pin', pin] : []),
    '--json',
  ]);
  assert.equal(result.status, 0, `staff create ${login}: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { password: string }).password;
}

/**
 * Four weeks of history, written straight into the database (the dashboard's rollup follows through
 * its triggers, as for the gateway's own writes): card-present and online payments in EUR and USD,
 * some declined, some refunded two hours later; this morning's sales; and what needs attention.
 */
function seedHistory(dataDir: string, offsetHours: number): void {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  const insert = db.prepare(
    `INSERT INTO transactions (id, merchant_id, payment_type, operation, status_code, order_id, currency, amount_minor, authorized_minor, captured_minor,
       refunded_minor, message, reason_code, card_brand, card_last_four, created_at, updated_at, expires_at)
     VALUES (@id, @merchant, @type, @operation, @status, @order, @currency, @amount, @authorized, @captured, @refunded, @message, @reason, 'visa', '1111', @at, @at, @expires)`,
  );
  const refund = db.prepare(
    'INSERT INTO refunds (id, transaction_id, merchant_id, amount_minor, status_code, created_at) VALUES (?, ?, ?, ?, 1, ?)',
  );
  const now = Date.now();
  // Local midnight today in the shop's (fixed-offset) zone.
  const midnight = Math.floor((now + offsetHours * HOUR) / DAY) * DAY - offsetHours * HOUR;
  let n = 0;
  const pay = (at: number, amount: number, currency: string, type: string, status: 3 | 6, refundAfterHours?: number) => {
    n += 1;
    const id = uuidv7({ msecs: at });
    const approved = status === 3;
    insert.run({
      id,
      merchant: merchant.merchant_id,
      type,
      operation: 'payment',
      status: approved && refundAfterHours !== undefined ? 8 : status,
      order: `hist-${n}`,
      currency,
      amount,
      authorized: approved ? amount : 0,
      captured: approved ? amount : 0,
      refunded: approved && refundAfterHours !== undefined ? Math.floor(amount / 4) : 0,
      message: approved ? 'Approved' : '51 Insufficient funds',
      reason: approved ? null : '51',
      at: new Date(at).toISOString(),
      expires: null,
    });
    if (approved && refundAfterHours !== undefined)
      refund.run(
        uuidv7({ msecs: at + refundAfterHours * HOUR }),
        id,
        merchant.merchant_id,
        Math.floor(amount / 4),
        new Date(at + refundAfterHours * HOUR).toISOString(),
      );
  };
  for (let day = 27; day >= 1; day -= 1) {
    const start = midnight - day * DAY;
    const sales = 6 + ((day * 7) % 11);
    for (let i = 0; i < sales; i += 1) {
      const at = start + (8 + ((i * 5) % 11)) * HOUR + ((i * 17) % 60) * 60_000;
      pay(
        at,
        450 + ((day * 131 + i * 977) % 8000),
        i % 5 === 4 ? 'USD' : 'EUR',
        i % 3 === 0 ? 'cardecom' : 'cardpos',
        i % 7 === 6 ? 6 : 3,
        i % 9 === 3 ? 2 : undefined,
      );
    }
  }
  // This morning: a few sales an hour from 07:00 to 10:00.
  for (let hour = 7; hour <= 10; hour += 1) {
    for (let i = 0; i < hour - 5; i += 1) {
      const declined = hour === 9 && i === 1;
      pay(midnight + hour * HOUR + i * 11 * 60_000, 800 + hour * 150 + i * 95, 'EUR', i % 2 ? 'cardecom' : 'cardpos', declined ? 6 : 3);
      today.payments += 1;
      if (declined) today.declined += 1;
      else today.approved += 1;
    }
  }
  // An authorization from almost 7 days ago, not captured: it expires in 4 hours.
  authorizationId = uuidv7({ msecs: now - 7 * DAY + 4 * HOUR });
  insert.run({
    id: authorizationId,
    merchant: merchant.merchant_id,
    type: 'cardecom',
    operation: 'authorize',
    status: 4,
    order: 'ORDER-4711',
    currency: 'EUR',
    amount: 4500,
    authorized: 4500,
    captured: 0,
    refunded: 0,
    message: 'Approved',
    reason: null,
    at: new Date(now - 7 * DAY + 4 * HOUR).toISOString(),
    expires: new Date(now + 4 * HOUR).toISOString(),
  });
  // Postbacks the shop's system did not take: two given up, one being retried (next try tomorrow).
  const outbox = db.prepare(
    `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, sequence, url, payload, state, attempts, next_attempt_at, created_at, last_error)
     VALUES (?, ?, 'transaction', ?, 1, 'https://shop.example/postbacks', '{}', ?, ?, ?, ?, 'HTTP 500')`,
  );
  for (const [state, attempts] of [
    ['failed', 32],
    ['failed', 32],
    ['pending', 3],
  ] as const) {
    outbox.run(
      uuidv7(),
      merchant.merchant_id,
      uuidv7(),
      state,
      attempts,
      new Date(now + DAY).toISOString(),
      new Date(now - 2 * DAY).toISOString(),
    );
  }
  db.close();
}

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const { zone, offsetHours } = noonZone(new Date());
  shopZone = zone;
  const dataDir = tempDataDir('gateway-dashboard-');
  merchant = createMerchant(dataDir, 'Corner Bakery');
  seedHistory(dataDir, offsetHours);
  gateway = await startGateway({ dataDir, args: ['--time-zone', zone] });
  officePassword = staffCreate('back_office', 'office', 'Mira Novak');
  staffCreate('cashier', 'anna', 'Anna Berg', '1234');

  // Today through the API: payments in EUR and USD, a decline, a PIN request (a step of a sale, not
  // a payment) and a refund.
  const auth = basicAuth(merchant);
  const api = async (path: string, body: unknown, status = 200) => {
    const response = await fetch(new URL(path, gateway.url), {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, status, `${path}: ${await response.clone().text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const first = await api('/rest/payment', cardPayment(freshPan(), 12.5));
  firstPaymentId = String(first.transaction_id);
  await api('/rest/payment', posPayment(30, { pan: freshPan() }));
  await api('/rest/payment', cardPayment(freshPan(), 8, { currency: 'USD' }));
  await api('/rest/payment', cardPayment('4000000000000002', 5));
  assert.equal((await api('/rest/payment', posPayment(60, { pan: freshPan() }))).message, 'request_pin');
  today.payments += 4;
  today.approved += 3;
  today.declined += 1;
  await api('/rest/refund', { transaction_id: first.transaction_id, amount: 2.5 });
  // An invoice whose pay link expires in 6 hours, and whose e-mail failed.
  const invoice = (await api(
    '/rest/invoices',
    {
      url_name: merchant.channel.url_name,
      invoice: { amount: 49.9, expires_in: 6, expires_in_unit: 'hours', email: 'customer@example.com' },
    },
    201,
  )) as {
    invoice: { id: number; debt_claim_number: string };
  };
  invoiceNumber = invoice.invoice.debt_claim_number;
  const db = openDatabase(join(gateway.dataDir, DATABASE_FILE));
  db.prepare(
    `INSERT INTO emails (id, merchant_id, invoice_id, email_type, locale, recipient, subject, body_text, status, attempts, next_attempt_at, last_error, created_at)
     VALUES (?, ?, ?, 'initial', 'en', 'customer@example.com', 'Invoice', 'Text', 'failed', 4, ?, '550 mailbox unavailable', ?)`,
  ).run(uuidv7(), merchant.merchant_id, invoice.invoice.id, new Date().toISOString(), new Date().toISOString());
  db.close();
  // A network token the card network suspended.
  const token = (await api('/v2/network_tokens', { card_number: freshPan(), expiry_month: 12, expiry_year: 2031 }, 201)) as {
    data: { id: string };
  };
  for (let tries = 0; ; tries += 1) {
    const read = await fetch(new URL(`/v2/network_tokens/${token.data.id}`, gateway.url), { headers: { authorization: auth } });
    if (((await read.json()) as { data: { status: string } }).data.status === 'active') break;
    assert.ok(tries < 100, 'the token becomes active');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await api(`/v2/network_tokens/${token.data.id}/simulate`, { action: 'suspend' });

  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

interface AppWindow {
  context: BrowserContext;
  page: Page;
  problems: () => Promise<string[]>;
}

/** A fresh window of one size, logged in as `login`; records console errors, uncaught errors and CSP violations. */
async function open(size: { width: number; height: number }, login: string, secret: string, path = '/app/'): Promise<AppWindow> {
  const context = await browser.newContext({ viewport: size, serviceWorkers: 'block', locale: 'en-GB' });
  await context.addInitScript({ content: RECORD_CSP_VIOLATIONS });
  const page = await context.newPage();
  const own: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') own.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => own.push(`uncaught: ${error.message}`));
  await page.goto(new URL(path, gateway.url).href, { waitUntil: 'networkidle' });
  const main = page.getByRole('main');
  await main.getByRole('heading', { name: 'Staff login' }).waitFor();
  await main.getByLabel('Login', { exact: true }).fill(login);
  if (login === 'office') await main.getByText('Password', { exact: true }).click();
  await main.locator('input[type=password]').fill(secret);
  await page.keyboard.press('Enter');
  return {
    context,
    page,
    problems: async () => [...own, ...(await page.evaluate<string[]>('globalThis.__cspViolations')).map((v) => `CSP violation: ${v}`)],
  };
}

/** The dashboard as the gateway answers it, read with the page's own session. */
async function answer(page: Page, period: string): Promise<Dashboard> {
  return page.evaluate<Dashboard, string>(
    async (p) => (await (await fetch(`/ui/dashboard?period=${p}`, { credentials: 'same-origin' })).json()) as Dashboard,
    period,
  );
}

/** axe-core, evaluated through the DevTools protocol, so the page's CSP stays in force. */
async function axe(page: Page, where: string): Promise<void> {
  await assertAxeClean(page, where);
}

const money = (amount: number, currency: string) =>
  `${new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
const percent = (value: number | null) =>
  value === null
    ? '—'
    : new Intl.NumberFormat('en', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);

/** The figures on screen are the gateway's, the charts are drawn, each chart has its table. */
async function assertShows(page: Page, period: string): Promise<Dashboard> {
  const figures = await answer(page, period);
  const main = page.getByRole('main');
  await main.getByText(/^As of /).waitFor();
  const kpi = (name: string) => main.getByRole('region', { name, exact: true });
  assert.equal((await kpi('Payments').locator('.kpi-value').textContent())?.trim(), String(figures.totals.payments));
  assert.equal((await kpi('Approval rate').locator('.kpi-value').textContent())?.trim(), percent(figures.totals.approval_rate));
  const volume = (await kpi('Volume').locator('.kpi-value').textContent()) ?? '';
  for (const v of figures.volume)
    assert.ok(volume.includes(money(v.amount, v.currency)), `volume shows ${money(v.amount, v.currency)}: ${volume}`);
  const refunds = (await kpi('Refunds').locator('.kpi-value').textContent()) ?? '';
  for (const r of figures.refunds)
    assert.ok(refunds.includes(money(r.amount, r.currency)), `refunds show ${money(r.amount, r.currency)}: ${refunds}`);

  // Three uPlot canvases with bars in their colours, hidden from assistive technology.
  const canvases = main.locator('.bar-chart canvas');
  await canvases.nth(2).waitFor();
  assert.equal(await canvases.count(), 3);
  const painted = await page.evaluate<number[]>(`[...document.querySelectorAll('.bar-chart canvas')].map((c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && (Math.abs(data[i] - data[i + 1]) > 40 || Math.abs(data[i + 1] - data[i + 2]) > 40)) coloured += 1;
    return coloured;
  })`);
  assert.ok(
    painted.every((pixels) => pixels > 200),
    `every chart draws coloured bars: ${JSON.stringify(painted)}`,
  );
  assert.equal(await main.locator('.bar-chart[aria-hidden="true"]').count(), 3);

  // The same figures as tables, named by their captions.
  const unit = figures.bucket === 'hour' ? 'hour' : 'day';
  const payments = main.getByRole('table', { name: new RegExp(`^Payments per ${unit}`) });
  assert.equal(await payments.locator('tbody tr').count(), figures.series.length);
  const total = (await payments.locator('tbody tr td:nth-of-type(1)').allTextContents()).reduce(
    (sum, text) => sum + Number(text.replace(/,/g, '')),
    0,
  );
  assert.equal(total, figures.totals.payments, 'the table adds up to the total');
  assert.equal(
    await main
      .getByRole('table', { name: new RegExp(`^Volume per ${unit}`) })
      .locator('tbody tr')
      .count(),
    figures.series.length,
  );
  assert.equal(
    await main
      .getByRole('table', { name: /^Payment types/ })
      .locator('tbody tr')
      .count(),
    figures.payment_types.length,
  );
  return figures;
}

test('a back-office login starts on the dashboard: figures, charts and their tables, period in the URL, needs attention, axe', async () => {
  const window = await open(SIZES[0], 'office', officePassword);
  const { page } = window;
  try {
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    assert.match(page.url(), /#\/dashboard$/, 'the back office starts on the dashboard');
    const nav = page.getByRole('navigation', { name: 'Product areas' });
    assert.equal((await nav.getByRole('link').first().textContent())?.trim(), 'Dashboard', 'the first area');

    // Today: the morning's sales and the API's, in the shop's time zone.
    const todayFigures = await assertShows(page, 'today');
    assert.deepEqual(
      [todayFigures.totals.payments, todayFigures.totals.approved, todayFigures.totals.declined],
      [today.payments, today.approved, today.declined],
    );
    assert.deepEqual(
      todayFigures.refunds.map((r) => [r.currency, r.amount]),
      [['EUR', 2.5]],
    );
    assert.equal(todayFigures.bucket, 'hour');
    await main.getByRole('link', { name: 'Today' }).and(page.locator('[aria-current="page"]')).waitFor();
    // Pointing at the payments chart's latest hour names its figures.
    const over = main.locator('.bar-chart .u-over').nth(1);
    // Needs attention sits above the charts: the chart may be below the fold.
    await over.scrollIntoViewIfNeeded();
    const box = await over.boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
    const latest = todayFigures.series.at(-1);
    assert.ok(latest);
    await main
      .locator('.bar-chart-pointed')
      .nth(1)
      .getByText(new RegExp(`^${latest.local_start.slice(11, 16)}–.*: ${latest.payments} payments?`))
      .waitFor();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}backoffice-dashboard-today-1366.png`, fullPage: true });
    await axe(page, 'today');

    // Needs attention: every item, with a way to where it is handled.
    const attention = main.getByRole('region', { name: /^Needs attention/ });
    const text = (await attention.textContent()) ?? '';
    for (const words of [
      '1 authorization uncaptured, expiring within 24 hours',
      '1 invoice expiring within 24 hours',
      '1 invoice e-mail failed',
      '2 postbacks failed',
      '1 postback being retried',
      '1 network token suspended',
    ]) {
      assert.ok(text.includes(words), `needs attention: ${words} in ${text}`);
    }
    assert.equal(await attention.getByRole('link', { name: 'Authorized transactions' }).getAttribute('href'), '#/transactions?status=4');
    assert.equal(
      await attention.getByRole('link', { name: /^ORDER-4711 · 45\.00 EUR/ }).getAttribute('href'),
      `#/transactions/${authorizationId}`,
    );
    assert.equal(
      await attention.getByRole('link', { name: new RegExp(`^${invoiceNumber} · 49\\.90 EUR`) }).getAttribute('href'),
      `#/invoices/${invoiceNumber}`,
    );
    assert.ok(text.includes('POST /rest/postbacks/resend_failed'), 'says how failed postbacks are handled until their screen comes');
    // Its count is the number of things it lists (1 + 1 + 1 + 2 + 1 + 1), and it sits first, above the figures.
    assert.match((await attention.getByRole('heading', { level: 2 }).first().textContent()) ?? '', /Needs attention\s*7 items/);
    assert.match((await main.locator('section.attention, section.kpi').first().getAttribute('class')) ?? '', /\battention\b/);

    // Times on the staff screens are the shop's (its time zone, not this browser's UTC), on a 24-hour clock.
    const record = (await (await page.request.get(new URL(`/ui/transactions/${firstPaymentId}`, gateway.url).href)).json()) as {
      transaction: { created_at: string };
    };
    const expected = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone: shopZone,
    }).format(new Date(record.transaction.created_at));
    await page.goto(new URL(`/app/#/transactions/${firstPaymentId}`, gateway.url).href, { waitUntil: 'networkidle' });
    await main.getByText(expected).first().waitFor();
    await page.goBack({ waitUntil: 'networkidle' });

    // Switching the period changes the URL; a reload keeps it.
    await main.getByRole('link', { name: 'Last 7 days' }).click();
    await page.waitForURL(/#\/dashboard\?period=7d$/);
    await main.getByRole('table', { name: /^Payments per day/ }).waitFor({ state: 'attached' });
    const week = await assertShows(page, '7d');
    assert.equal(week.series.length, 7);
    await page.reload({ waitUntil: 'networkidle' });
    await main.getByRole('link', { name: 'Last 7 days' }).and(page.locator('[aria-current="page"]')).waitFor();
    assert.match(page.url(), /#\/dashboard\?period=7d$/);
    await assertShows(page, '7d');
    await page.screenshot({ path: `${SCREENSHOT_DIR}backoffice-dashboard-7d-1366.png`, fullPage: true });

    await main.getByRole('link', { name: 'This month' }).click();
    await page.waitForURL(/period=month/);
    await main.getByRole('table', { name: /^Payments per day/ }).waitFor({ state: 'attached' });
    const month = await assertShows(page, 'month');
    assert.ok(
      month.totals.payments >= week.totals.payments || month.series.length < 7,
      'the month holds the week, unless the month began within it',
    );
    // The volume chart's currency is in the URL too.
    await main.getByLabel('Currency').selectOption('USD');
    await page.waitForURL(/currency=USD/);
    await page.screenshot({ path: `${SCREENSHOT_DIR}backoffice-dashboard-month-1366.png`, fullPage: true });

    // A chart as a table, for everyone.
    const tableButton = main.getByRole('button', { name: 'Payments per day as a Table' });
    await tableButton.click();
    assert.equal(await tableButton.getAttribute('aria-pressed'), 'true');
    await main.getByRole('table', { name: /^Payments per day/ }).waitFor({ state: 'visible' });
    await axe(page, 'this month, a chart as a table');
    await page.screenshot({ path: `${SCREENSHOT_DIR}backoffice-dashboard-table-1366.png`, fullPage: true });

    // Following a needs-attention link opens where it is handled.
    await main.getByRole('link', { name: 'Authorized transactions' }).click();
    await page.waitForURL(/#\/transactions\?status=4$/);
    assert.deepEqual(await window.problems(), [], 'no console error, no CSP violation');
  } finally {
    await window.context.close();
  }
});

test('at 1024x768: the same screen with the menu folded, each period', async () => {
  const window = await open(SIZES[1], 'office', officePassword, '/app/#/dashboard?period=today');
  const { page } = window;
  try {
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    for (const period of ['today', '7d', 'month'] as const) {
      if (period !== 'today') {
        await main.getByRole('link', { name: period === '7d' ? 'Last 7 days' : 'This month' }).click();
        await page.waitForURL(new RegExp(`period=${period}`));
      }
      await assertShows(page, period);
      assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= SIZES[1].width, `${period}: no sideways scroll`);
      await page.screenshot({ path: `${SCREENSHOT_DIR}backoffice-dashboard-${period}-1024.png`, fullPage: true });
    }
    await main.getByRole('button', { name: 'Volume per day as a Table' }).click();
    await page.screenshot({ path: `${SCREENSHOT_DIR}backoffice-dashboard-table-1024.png`, fullPage: true });
    await axe(page, '1024x768, this month');
    assert.deepEqual(await window.problems(), [], 'no console error, no CSP violation');
  } finally {
    await window.context.close();
  }
});

test('a cashier opening the dashboard is told it is not for their role', async () => {
  const window = await open(SIZES[1], 'anna', '1234', '/app/#/dashboard');
  const { page } = window;
  try {
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'Not open to your role' }).waitFor();
    assert.match((await main.textContent()) ?? '', /This screen is for back office or admin staff/);
    assert.equal(await page.locator('.bar-chart').count(), 0);
    const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
    await menu.click();
    const links = await page.getByRole('navigation', { name: 'Product areas' }).getByRole('link').allTextContents();
    assert.ok(!links.includes('Dashboard'), `a cashier's menu has no Dashboard: ${links.join(', ')}`);
    assert.deepEqual(await window.problems(), [], 'no console error, no CSP violation');
  } finally {
    await window.context.close();
  }
});
