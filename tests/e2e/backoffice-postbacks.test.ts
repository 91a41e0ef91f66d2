/**
 * The back office's Postbacks area in Debian Chromium against the real `gateway serve` (issue 16, 3),
 * with real postbacks to a real receiver on 127.0.0.1 (the retry schedule shortened so that a
 * postback fails within seconds): a back_office user sees failed postbacks in the log and filters
 * them in the URL, opens one (every attempt HTTP 500, the signed body and its headers), resends it
 * to the now working receiver and sees the new attempt delivered (the receiver got exactly that
 * body; the resend is in the audit log); "Resend all failed…" counts them, sends them and shows the
 * progress until done; each postback names the order (or token, or checkout) it is about, and the
 * search box finds postbacks by order id or a pasted id, in the URL; an admin copies the webhook
 * key, rotates it after the dialog that says the old key stays valid for 24 h, and the next
 * postback verifies with the old key and with the new one (standardwebhooks); the Test outbox previews an invoice e-mail in a sandboxed frame and a
 * postback's JSON. A cashier is kept out. axe-core on every screen and dialog, Esc closes dialogs
 * with focus back on their opener, Tab stays inside, no console error. Screenshots
 * docs/screenshots/backoffice-postbacks-*.png. Needs a built renderer (`npm run build:renderer`).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import {
  cookieOf,
  escCloses,
  focusTrapped,
  launchBrowser,
  loginWithPassword,
  NARROW,
  openApp,
  shot,
  WIDE,
} from '../helpers/back-office-browser.js';
import {
  basicAuth,
  createMerchant,
  runGateway,
  startGateway,
  type GatewayProcess,
  type MerchantCredentials,
} from '../helpers/gateway-process.js';
import { EXPIRY_YEAR } from '../helpers/payments.js';
import { startReceiver, webhookHeaders, type Receiver } from '../helpers/postback-receiver.js';

const PREFIX = 'backoffice-postbacks';

interface AuditEntry {
  action: string;
  staff_id: string | null;
  subject_id: string | null;
}

let gateway: GatewayProcess;
let browser: Browser;
let receiver: Receiver;
let merchant: MerchantCredentials;
let auth = '';
const staff: Record<'office' | 'admin', { id: string; password: string }> = {
  office: { id: '', password: '' },
  admin: { id: '', password: '' },
};
const problems: string[] = [];
let checkoutId = '';
/** What the receiver at /down answers; /ok always answers 200. */
let downStatus = 500;

async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, gateway.url), {
    method,
    headers: {
      authorization: auth,
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}
/** A /ui call with a staff session's cookie (and no Basic credentials). */
const ui = <T>(cookie: string, method: string, path: string, body?: unknown) => api<T>(method, path, body, { authorization: '', cookie });

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen`);
}

let orders = 0;
/** Transaction ids by order id. */
const payments = new Map<string, string>();
async function pay(path: '/down' | '/ok', amount = 12.5): Promise<string> {
  orders += 1;
  const paid = await api<{ transaction_id: string; status_code: number }>('POST', '/rest/payment', {
    payment_type: 'cardecom',
    order_id: `PB-${orders}`,
    amount,
    currency: 'EUR',
    card_number: '4111111111111111',
    card_expiry_month: '12',
    card_expiry_year: String(EXPIRY_YEAR),
    card_cvv: '123',
    card_holder: 'Lena Vogel',
    postback_url: receiver.url(path),
  });
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
  payments.set(`PB-${orders}`, paid.body.transaction_id);
  return paid.body.transaction_id;
}
const eventOf = async (transactionId: string) =>
  (await api<Array<{ event_id: string }>>('GET', `/rest/transactions/${transactionId}/postbacks`)).body[0]?.event_id ?? '';
const postbacks = (state: string) =>
  api<Array<{ event_id: string }>>('GET', `/rest/postbacks?state=${state}&limit=500`).then((r) => r.body);

async function sessionCookie(login: string, password: string): Promise<string> {
  const response = await fetch(new URL('/ui/session', gateway.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  assert.equal(response.status, 200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}
const auditOf = async (cookie: string) => (await ui<AuditEntry[]>(cookie, 'GET', '/ui/audit')).body;

before(async () => {
  browser = await launchBrowser();
  receiver = await startReceiver({ respond: ({ path }) => (path === '/ok' ? 200 : downStatus) });
  // 3 days of retries in about 5 s: a postback to /down fails for good within seconds.
  gateway = await startGateway({ args: ['--postback-retry-scale', '0.00002'] });
  merchant = createMerchant(gateway.dataDir, 'Corner Bakery');
  auth = basicAuth(merchant);
  for (const [who, role, name] of [
    ['office', 'back_office', 'Mira Novak'],
    ['admin', 'admin', 'Jonas Meyer'],
  ] as const) {
    const created = runGateway([
      'staff',
      'create',
      '--data-dir',
      gateway.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--role',
      role,
      '--login',
      who,
      '--name',
      name,
      '--json',
    ]);
    assert.equal(created.status, 0, created.stderr);
    const parsed = JSON.parse(created.stdout) as { staff_id: string; password: string };
    staff[who] = { id: parsed.staff_id, password: parsed.password };
  }
  const cashier = runGateway([
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
  assert.equal(cashier.status, 0, cashier.stderr);

  // Real postbacks: delivered ones, a token's, and six that fail (five payments and a checkout).
  for (let i = 0; i < 4; i++) await pay('/ok', 10 + i);
  const token = await api('POST', '/v2/network_tokens', {
    card_number: '5555555555554444',
    expiry_month: 12,
    expiry_year: EXPIRY_YEAR,
    card_holder: 'Lena Vogel',
    postback_url: receiver.url('/ok'),
  });
  assert.ok(token.status === 201 || token.status === 200, JSON.stringify(token.body));
  for (let i = 0; i < 5; i++) await pay('/down', 20 + i);
  const checkout = await api<{ checkout_id: string }>('POST', '/rest/checkouts', {
    merchant_name: 'Corner Bakery',
    order_id: 'WEB-3001',
    currency: 'EUR',
    amount: 18.5,
    total_amount: 18.5,
    success_url: 'https://shop.example/ok',
    error_url: 'https://shop.example/error',
    postback_url: receiver.url('/down'),
  });
  assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
  checkoutId = checkout.body.checkout_id;
  const office = await sessionCookie('office', staff.office.password);
  assert.equal((await ui(office, 'POST', `/ui/checkouts/${checkoutId}/cancel`)).status, 200);
  // An invoice e-mail for the Test outbox (no SMTP server: kept there).
  const invoice = await api('POST', '/rest/invoices', {
    url_name: merchant.channel.url_name,
    invoice: {
      amount: 36.4,
      email: 'lena.vogel@example.com',
      first_name: 'Lena',
      last_name: 'Vogel',
      send_initial_email: true,
      debt_claim_number: 'INV-2041',
    },
  });
  assert.equal(invoice.status, 201, JSON.stringify(invoice.body));
  await until(
    'six postbacks failed',
    () => postbacks('failed'),
    (list) => list.length === 6,
  );
  await until(
    'the others delivered',
    () => postbacks('delivered'),
    (list) => list.length === 5,
  );
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
  await receiver?.close();
});

async function openPostbacks(page: Page, who: 'office' | 'admin') {
  await loginWithPassword(page, who, staff[who].password, who === 'office' ? 'Mira Novak' : 'Jonas Meyer');
  await page.getByRole('main').getByRole('heading', { name: 'Postbacks', level: 1, exact: true }).waitFor();
}

void test('a back-office user sees failed postbacks, resends one to the working receiver and sees it delivered, then resends all failed with progress', async () => {
  const { context, page } = await openApp(browser, gateway.url, WIDE, '#/postbacks', problems);
  const main = page.getByRole('main');
  try {
    await openPostbacks(page, 'office');
    const cookie = await cookieOf(context);
    const nav = page.getByRole('navigation', { name: 'Product areas' });
    assert.ok(await nav.getByRole('link', { name: 'Postbacks' }).isVisible(), 'Postbacks is in the menu');
    assert.equal(await page.getByText('Not yet available').count(), 0);
    const table = main.getByRole('table', { name: 'Postbacks, newest first' });
    await main.getByRole('status').getByText('1–11 of 11').waitFor();
    assert.equal(await main.getByRole('button', { name: /^Rotate/ }).count(), 0, 'only an admin may rotate the key');
    await main
      .getByLabel('Webhook key, masked')
      .getByText(new RegExp(`^whsec_•+${merchant.webhook_key.slice(-4).replace(/[+/=]/g, '\\$&')}$`))
      .waitFor();
    await shot(page, PREFIX, 'list', WIDE);

    await main.getByLabel('Status', { exact: true }).selectOption('failed');
    await page.waitForURL(/status=failed/);
    await main.getByRole('status').getByText('1–6 of 6').waitFor();
    await main.getByLabel('Kind', { exact: true }).selectOption('checkout');
    await page.waitForURL(/kind=checkout/);
    await main.getByRole('status').getByText('1–1 of 1').waitFor();
    await page.reload({ waitUntil: 'networkidle' });
    assert.equal(await main.getByLabel('Kind', { exact: true }).inputValue(), 'checkout', 'a reload keeps the filters');
    await shot(page, PREFIX, 'list-filtered', WIDE);
    await main.getByLabel('Kind', { exact: true }).selectOption('transaction');
    await main.getByRole('status').getByText('1–5 of 5').waitFor();

    // ---- one failed postback: its attempts, body and headers; resend to the working receiver ------
    const firstRow = table.locator('tbody tr[data-row-id]').first();
    const eventId = (await firstRow.getAttribute('data-row-id')) ?? '';
    await firstRow.getByRole('link').click();
    await page.waitForURL(new RegExp(`#/postbacks/${eventId}$`));
    await main.getByRole('heading', { name: 'Transaction postback: completed', level: 1 }).waitFor();
    const detail = (
      await ui<{ attempts: Array<{ attempt: number; body: string; http_status: number }> }>(cookie, 'GET', `/ui/postbacks/${eventId}`)
    ).body;
    const attempts = main.getByRole('table', { name: 'Delivery attempts, oldest first' });
    assert.equal(await attempts.locator('tbody tr').count(), detail.attempts.length);
    assert.ok(detail.attempts.length >= 8 && detail.attempts.every((a) => a.http_status === 500));
    assert.equal(await attempts.getByText('HTTP 500').count(), detail.attempts.length);
    await main.getByRole('heading', { name: `Signed body of attempt ${detail.attempts.length}` }).waitFor();
    const body = JSON.parse(detail.attempts.at(-1)?.body ?? '{}') as Record<string, unknown>;
    assert.equal(
      await main.getByLabel('Body as sent, pretty-printed').textContent(),
      JSON.stringify(body, null, 2),
      'the signed body, pretty-printed',
    );
    const headers = main.getByRole('table', { name: 'Headers it was signed and sent with' });
    await headers.getByRole('rowheader', { name: 'webhook-signature' }).waitFor();
    await headers.getByText(`${detail.attempts.length}`, { exact: true }).waitFor();
    await attempts.getByRole('button', { name: 'Show the body of attempt 1' }).click();
    await main.getByRole('heading', { name: 'Signed body of attempt 1' }).waitFor();
    await shot(page, PREFIX, 'detail', WIDE, true);

    downStatus = 200;
    const admin = await sessionCookie('admin', staff.admin.password);
    const auditBefore = (await auditOf(admin)).length;
    await main.getByRole('button', { name: 'Resend now' }).click();
    const delivered = attempts.locator('tbody tr').nth(detail.attempts.length);
    await delivered.getByText('HTTP 200').waitFor();
    await main.locator('.page-head').getByText('Delivered', { exact: true }).waitFor();
    await main.getByRole('heading', { name: `Signed body of attempt ${detail.attempts.length + 1}` }).waitFor();
    const after = (
      await ui<{ postback: { status: string }; attempts: Array<{ body: string; outcome: string }> }>(
        cookie,
        'GET',
        `/ui/postbacks/${eventId}`,
      )
    ).body;
    assert.equal(after.postback.status, 'delivered');
    const last = receiver.received.filter((p) => p.headers['webhook-id'] === eventId).at(-1);
    assert.equal(last?.raw, after.attempts.at(-1)?.body, 'the receiver got the body the screen shows');
    assert.equal(last?.headers['x-postback-attempt'], String(detail.attempts.length + 1));
    const audit = await auditOf(admin);
    assert.deepEqual(
      audit.slice(0, audit.length - auditBefore).map((e) => [e.action, e.staff_id, e.subject_id]),
      [['postback_resend', staff.office.id, eventId]],
    );
    await shot(page, PREFIX, 'detail-resent', WIDE, true);

    // ---- resend all failed: the count first, then the job's progress until done -------------------
    await main.getByRole('link', { name: '← Postbacks' }).click();
    await page.waitForURL(/#\/postbacks$/);
    const opener = main.getByRole('button', { name: 'Resend all failed…' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Resend failed postbacks' });
    await dialog.getByText('5 failed postbacks since then.').waitFor();
    await shot(page, PREFIX, 'resend-all-dialog', WIDE);
    await focusTrapped(page);
    await escCloses(page, 'Resend all failed…');
    await opener.click();
    await dialog.getByRole('button', { name: 'Resend 5 postbacks' }).click();
    await dialog.getByRole('progressbar', { name: 'Postbacks sent again' }).waitFor();
    await dialog.getByText('Done: 5 delivered, 0 failed again.').waitFor();
    assert.equal(await dialog.getByRole('progressbar').getAttribute('value'), '5');
    await shot(page, PREFIX, 'resend-all-done', WIDE);
    await dialog.locator('.modal-actions').getByRole('button', { name: 'Close' }).click();
    assert.deepEqual(await postbacks('failed'), []);
    await main.getByLabel('Status', { exact: true }).selectOption('delivered');
    await main.getByRole('status').getByText('1–11 of 11').waitFor();
  } finally {
    await context.close();
  }
  assert.deepEqual(problems, []);
});

void test('each postback says which payment it is about, and the search finds postbacks by order id, by a checkout order or by a pasted transaction id, kept in the URL', async () => {
  const { context, page } = await openApp(browser, gateway.url, WIDE, '#/postbacks', problems);
  const main = page.getByRole('main');
  try {
    await openPostbacks(page, 'office');
    const table = main.getByRole('table', { name: 'Postbacks, newest first' });
    const rows = table.locator('tbody tr[data-row-id]');
    const count = main.getByRole('status');
    // The newest rows: the checkout session under its order id with its own id, and the failed payments by order id.
    const checkoutRow = rows.filter({ hasText: 'Order WEB-3001' });
    await checkoutRow.getByText(`Checkout ${checkoutId.slice(0, 8)}…${checkoutId.slice(-4)}`, { exact: true }).waitFor();
    assert.equal(
      await checkoutRow.getByText(`${checkoutId.slice(0, 8)}…${checkoutId.slice(-4)}`, { exact: true }).getAttribute('title'),
      checkoutId,
      'the whole id on hover',
    );
    await rows
      .filter({ hasText: 'Order PB-9' })
      .getByRole('link', { name: /^Transaction: completed, order PB-9, / })
      .waitFor();
    await main.getByLabel('Kind', { exact: true }).selectOption('token');
    await count.getByText('1–1 of 1').waitFor();
    await rows
      .first()
      .getByText(/^Network token [0-9a-f]{8}…[0-9a-f]{4}$/)
      .waitFor();
    await main.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/#\/postbacks$/);

    // By order id, typed and sent with Enter: the one postback of that payment.
    const find = main.getByLabel('Find by order or id');
    await find.fill('PB-7');
    await find.press('Enter');
    await page.waitForURL(/[?&]q=PB-7(&|$)/);
    await count.getByText('1–1 of 1').waitFor();
    await rows.first().getByText('Order PB-7', { exact: true }).waitFor();
    await shot(page, PREFIX, 'list-search', WIDE);
    await page.setViewportSize(NARROW);
    await shot(page, PREFIX, 'list-search', NARROW);
    await page.setViewportSize(WIDE);

    // A checkout session's order id finds the session's postback; a pasted transaction id its payment's.
    await find.fill('WEB-3001');
    await main.getByRole('button', { name: 'Find', exact: true }).click();
    await page.waitForURL(/[?&]q=WEB-3001(&|$)/);
    await count.getByText('1–1 of 1').waitFor();
    await rows
      .first()
      .getByRole('link', { name: /^Checkout: cancelled, order WEB-3001, / })
      .waitFor();
    const transactionId = payments.get('PB-2') ?? '';
    await find.fill(` ${transactionId} `);
    await find.press('Enter');
    await page.waitForURL(new RegExp(`[?&]q=${transactionId}(&|$)`));
    await count.getByText('1–1 of 1').waitFor();
    await rows.first().getByText('Order PB-2', { exact: true }).waitFor();
    await page.reload({ waitUntil: 'networkidle' });
    assert.equal(await find.inputValue(), transactionId, 'a reload keeps the search');
    await count.getByText('1–1 of 1').waitFor();
    await page.goBack();
    await page.waitForURL(/[?&]q=WEB-3001(&|$)/);
    assert.equal(await find.inputValue(), 'WEB-3001', 'Back returns to the search before');

    // The search goes with the other filters: no transaction has the checkout's order; the list says what the search takes.
    await main.getByLabel('Kind', { exact: true }).selectOption('transaction');
    await page.waitForURL(/q=WEB-3001.*kind=transaction/);
    await main
      .getByText('No postback matches. The search takes a whole order id, or a whole transaction, token, checkout or event id.')
      .waitFor();
    await main.getByLabel('Kind', { exact: true }).selectOption('checkout');
    await count.getByText('1–1 of 1').waitFor();
    await main.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/#\/postbacks$/);
    assert.equal(await find.inputValue(), '', 'Clear filters empties the search box');

    // The detail names the order id beside its transaction.
    await find.fill('PB-7');
    await find.press('Enter');
    await count.getByText('1–1 of 1').waitFor();
    await rows.first().getByRole('link').click();
    await main.getByRole('heading', { name: 'Transaction postback: completed', level: 1 }).waitFor();
    const facts = main.getByRole('region', { name: 'Postback', exact: true });
    await facts
      .getByRole('definition')
      .filter({ hasText: /^PB-7$/ })
      .waitFor();
    await facts.getByRole('link', { name: payments.get('PB-7') ?? '' }).waitFor();
  } finally {
    await context.close();
  }
  assert.deepEqual(problems, []);
});

void test('an admin copies and rotates the webhook key; the old key still verifies the next postback, and so does the new one', async () => {
  const { context, page } = await openApp(browser, gateway.url, WIDE, '#/postbacks', problems);
  const main = page.getByRole('main');
  try {
    await openPostbacks(page, 'admin');
    const cookie = await cookieOf(context);
    const card = main.getByRole('region', { name: 'Webhook key' });
    await card.getByRole('button', { name: 'Copy webhook key' }).click();
    await card.getByText('Webhook key copied.').waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), merchant.webhook_key);

    const opener = card.getByRole('button', { name: 'Rotate…' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the webhook key?' });
    await dialog.getByText('The old key stays valid for 24 hours:').waitFor();
    await shot(page, PREFIX, 'key-rotate-dialog', WIDE);
    await focusTrapped(page);
    await escCloses(page, 'Rotate…');
    assert.equal(
      (await ui<{ masked: string }>(cookie, 'GET', '/ui/webhook-key')).body.masked.slice(-4),
      merchant.webhook_key.slice(-4),
      'Esc rotated nothing',
    );
    await opener.click();
    const auditBefore = (await auditOf(cookie)).length;
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    await card.getByText(/^Rotated\. The old key signs too until /).waitFor();
    const info = (await ui<{ masked: string; previous_key_valid_until: string }>(cookie, 'GET', '/ui/webhook-key')).body;
    const untilMs = Date.parse(info.previous_key_valid_until);
    assert.ok(Math.abs(untilMs - (Date.now() + 24 * 60 * 60 * 1000)) < 5 * 60 * 1000, 'the old key stays valid for 24 h');
    await card.getByText(/The previous key signs too until/).waitFor();
    await card.getByRole('button', { name: 'Copy webhook key' }).click();
    await card.getByText('Webhook key copied.').waitFor();
    const newKey = String(await page.evaluate('navigator.clipboard.readText()'));
    assert.match(newKey, /^whsec_/);
    assert.notEqual(newKey, merchant.webhook_key);
    await card.getByLabel('Webhook key, masked').getByText(newKey.slice(-4), { exact: false }).waitFor();
    const audit = await auditOf(cookie);
    assert.deepEqual(
      audit.slice(0, audit.length - auditBefore).map((e) => [e.action, e.staff_id]),
      [['webhook_key_rotate', staff.admin.id]],
    );
    await shot(page, PREFIX, 'key-rotated', WIDE);

    const eventId = await eventOf(await pay('/ok', 31));
    const received = await until(
      'the postback after the rotation',
      async () => receiver.received.find((p) => p.headers['webhook-id'] === eventId),
      (p) => p !== undefined,
    );
    assert.ok(received);
    const signed = webhookHeaders(received.headers);
    assert.equal(signed['webhook-signature'].split(' ').length, 2, 'two signatures during the 24 h');
    assert.deepEqual(new Webhook(merchant.webhook_key).verify(received.raw, signed), received.body, 'the old key still verifies');
    assert.deepEqual(new Webhook(newKey).verify(received.raw, signed), received.body, 'the new key verifies');
  } finally {
    await context.close();
  }
  assert.deepEqual(problems, []);
});

void test('the Test outbox previews an e-mail in a sandboxed frame and a postback as JSON; a cashier is kept out', async () => {
  for (const size of [WIDE, NARROW]) {
    const { context, page } = await openApp(browser, gateway.url, size, '#/postbacks', problems);
    const main = page.getByRole('main');
    try {
      await openPostbacks(page, 'office');
      await main.getByRole('navigation', { name: 'Postbacks' }).getByRole('link', { name: 'Test outbox' }).click();
      await page.waitForURL(/#\/postbacks\/outbox$/);
      await main.getByRole('heading', { name: 'Test outbox', level: 1 }).waitFor();
      const table = main.getByRole('table', { name: 'Sent e-mails and postbacks, newest first' });
      await table.locator('tbody tr[data-row-id]').first().waitFor();
      await main.getByLabel('Kind', { exact: true }).selectOption('email');
      await page.waitForURL(/kind=email/);
      await main.getByRole('status').getByText('1–1 of 1').waitFor();
      await table.getByRole('link', { name: /^Preview e-mail: Your invoice INV-2041 from Corner Bakery/ }).click();
      await page.waitForURL(/item=e\./);
      const frame = main.locator('iframe.email-frame');
      await frame.waitFor();
      assert.equal(await frame.getAttribute('sandbox'), '', 'the frame may run nothing');
      assert.equal(await frame.getAttribute('title'), 'E-mail preview: Your invoice INV-2041 from Corner Bakery');
      const inside = page.frameLocator('iframe.email-frame');
      await inside.getByText('Hello Lena Vogel,').waitFor();
      assert.match((await inside.locator('a').first().getAttribute('href')) ?? '', /\/pay\//);
      assert.equal(await inside.locator('script').count(), 0);
      await shot(page, PREFIX, 'outbox-email', size, size.width < 1100);

      await main.getByLabel('Kind', { exact: true }).selectOption('postback');
      await page.waitForURL(/kind=postback/);
      const first = table.locator('tbody tr[data-row-id]').first();
      await first.getByRole('link').click();
      await page.waitForURL(/item=p\./);
      const json = main.getByLabel('Postback body, pretty-printed');
      await json.waitFor();
      const text = (await json.textContent()) ?? '';
      const parsed = JSON.parse(text) as Record<string, unknown>;
      assert.equal(text, JSON.stringify(parsed, null, 2), 'pretty-printed JSON');
      assert.ok(typeof parsed.event_id === 'string' && typeof parsed.checksum === 'string');
      await main.getByRole('table', { name: 'Headers it was signed and sent with' }).waitFor();
      await shot(page, PREFIX, 'outbox-postback', size, size.width < 1100);
    } finally {
      await context.close();
    }
  }

  const { context, page } = await openApp(browser, gateway.url, WIDE, '#/postbacks', problems);
  try {
    const main = page.getByRole('main');
    await main.getByLabel('Login', { exact: true }).fill('anna');
    await main.locator('input[type=password]').fill('1234');
    await page.keyboard.press('Enter');
    await page.getByRole('banner').getByText('Anna Berg').waitFor();
    await main.getByRole('heading', { name: 'Not open to your role', exact: true }).waitFor();
    assert.equal(await main.getByRole('table').count(), 0, 'no postbacks shown to a cashier');
    assert.equal(
      await page.getByRole('navigation', { name: 'Product areas' }).getByRole('link', { name: 'Postbacks' }).count(),
      0,
      'no Postbacks in the menu',
    );
    const cookie = await cookieOf(context);
    for (const path of ['/ui/postbacks', '/ui/webhook-key', '/ui/test-outbox'])
      assert.equal((await fetch(new URL(path, gateway.url), { headers: { cookie } })).status, 403, `${path}: 403 for a cashier`);
    await shot(page, PREFIX, 'cashier-kept-out', WIDE);
  } finally {
    await context.close();
  }
  assert.deepEqual(problems, []);
});
