/**
 * The back office's network tokens and checkouts in Debian Chromium against the real `gateway serve`
 * (issue 16, 1 and 2), as a back_office user, with real data (tokens of many cards, some suspended,
 * failed or archived; checkout sessions open, paid and cancelled): the token list pages and filters
 * in the URL; the card form says the API's words about a bad card number and a past expiry before
 * sending, then creates a token that becomes active; the token data is masked, revealed on request
 * (an audit entry under the user, read through the API) and masked again after 30 seconds
 * (Playwright's clock jumps them); a cryptogram is shown once with Copy and pays through the API; the
 * simulator suspends, resumes and refreshes; the token is archived after confirmation. A checkout for
 * a phone order shows its link with Copy and a QR code that decodes to it; the customer opens the
 * link and pays by card; the detail shows the completed session and its transaction; another open
 * session is cancelled. Each action is checked through the API, and every change is in the audit
 * log under the user. A cashier is kept out. axe-core on every screen and dialog, Esc closes dialogs,
 * no console error. Screenshots docs/screenshots/backoffice-tokens-*.png and
 * backoffice-checkouts-*.png at 1366x900 and 1024x768. Needs a built renderer (`npm run build:renderer`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
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
  type Size,
} from '../helpers/back-office-browser.js';
import { basicAuth, createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import { EXPIRY_YEAR, freshPan, luhnComplete } from '../helpers/payments.js';
import { makeTempDir } from '../helpers/temp.js';

const TOKENS = 'backoffice-tokens';
const CHECKOUTS = 'backoffice-checkouts';
const YY = String(EXPIRY_YEAR).slice(2);

interface Token {
  id: string;
  status: string;
  network: string;
  last_token_refresh: string | null;
}
interface TokenRow extends Token {
  token_last_four: string;
  card_last_four: string;
}
interface CheckoutView {
  checkout_id: string;
  status: string;
  order_id: string;
  total_amount: number;
  transaction_id: string | null;
  url: string;
}
interface AuditEntry {
  action: string;
  staff_id: string | null;
  subject_id: string | null;
  detail: string | null;
}

let gateway: GatewayProcess;
let browser: Browser;
let auth = '';
let officeId = '';
let officePassword = '';
const problems: string[] = [];
const seeded = { activeToken: '', suspendedToken: '', openForCancel: '', openForNarrow: '', paid: '' };

async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: '' },
): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, gateway.url), {
    method,
    headers: {
      authorization: auth,
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(headers.authorization === '' ? {} : headers),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

const tokenOf = async (id: string) => (await api<{ data: Token }>('GET', `/v2/network_tokens/${id}`)).body.data;
const checkoutOf = async (id: string) => (await api<CheckoutView>('GET', `/rest/checkouts/${id}`)).body;

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen`);
}

async function createToken(pan: string, holder?: string): Promise<string> {
  const created = await api<{ data: Token }>('POST', '/v2/network_tokens', {
    card_number: pan,
    expiry_month: 12,
    expiry_year: EXPIRY_YEAR,
    ...(holder ? { card_holder: holder } : {}),
  });
  assert.ok(created.status === 201 || created.status === 200, JSON.stringify(created.body));
  return created.body.data.id;
}

/** A form post to a hosted page, as the customer's browser sends it. */
const post = (path: string, form: Record<string, string>) =>
  fetch(new URL(path, gateway.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', origin: new URL(gateway.url).origin },
    body: new URLSearchParams(form).toString(),
  });

async function openCheckout(orderId: string, amount: number, description: string): Promise<CheckoutView> {
  const created = await api<{ checkout_id: string }>('POST', '/rest/checkouts', {
    merchant_name: 'Corner Bakery',
    order_id: orderId,
    description,
    currency: 'EUR',
    amount,
    total_amount: amount,
    success_url: 'https://shop.example/ok',
    error_url: 'https://shop.example/error',
    postback_url: 'http://127.0.0.1:9/postbacks',
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return checkoutOf(created.body.checkout_id);
}

before(async () => {
  browser = await launchBrowser();
  gateway = await startGateway();
  const merchant = createMerchant(gateway.dataDir, 'Corner Bakery');
  auth = basicAuth(merchant);
  const office = runGateway([
    'staff',
    'create',
    '--data-dir',
    gateway.dataDir,
    '--merchant',
    merchant.merchant_id,
    '--role',
    'back_office',
    '--login',
    'office',
    '--name',
    'Mira Novak',
    '--json',
  ]);
  assert.equal(office.status, 0, office.stderr);
  ({ staff_id: officeId, password: officePassword } = JSON.parse(office.stdout) as { staff_id: string; password: string });
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

  // Real tokens: 52 cards (two pages), Visa and Mastercard, one that fails, some suspended, refreshed, archived.
  const holders = ['Lena Vogel', 'Tomás Ferreira', 'Aisha Khan', 'Jonas Meyer'];
  const ids: string[] = [];
  for (let i = 0; i < 48; i++) ids.push(await createToken(freshPan(), holders[i % holders.length]));
  for (let i = 0; i < 3; i++)
    ids.push(
      await createToken(luhnComplete(`5412${String(process.pid % 10_000).padStart(4, '0')}${String(i).padStart(7, '0')}`), 'Ana Silva'),
    );
  await createToken('5105105105105100', 'Test Failing');
  await until(
    'tokens provisioned',
    () => api<{ data_set: Token[] }>('GET', '/v2/network_tokens?status=requested'),
    (r) => r.body.data_set.length === 0,
  );
  const [a, b, c, d] = ids.slice(-6);
  for (const id of [a, b]) assert.equal((await api('POST', `/v2/network_tokens/${id}/simulate`, { action: 'suspend' })).status, 200);
  assert.equal((await api('POST', `/v2/network_tokens/${c}/simulate`, { action: 'refresh' })).status, 200);
  assert.equal((await api('DELETE', `/v2/network_tokens/${d}`)).status, 202);
  seeded.suspendedToken = a ?? '';
  seeded.activeToken = ids[0] ?? '';

  // Checkout sessions: open ones, one paid by card through its page, one cancelled by the customer.
  seeded.openForCancel = (await openCheckout('WEB-2001', 18.5, 'Sourdough subscription, 4 weeks')).checkout_id;
  seeded.openForNarrow = (await openCheckout('WEB-2002', 42, 'Birthday cake with name')).checkout_id;
  const paid = await openCheckout('WEB-2003', 12.9, 'Croissants for the office');
  const chosen = await post(`/checkout/${paid.checkout_id}`, { method: 'cardecom' });
  assert.equal(chosen.status, 303, await chosen.text());
  const card = await post(chosen.headers.get('location') ?? '', {
    step: 'card',
    card_number: '4111 1111 1111 1111',
    expiry: `12/${YY}`,
    cvc: '123',
    holder: 'Lena Vogel',
  });
  assert.ok(card.status < 400, `card page answered ${card.status}`);
  await until(
    'seeded checkout paid',
    () => checkoutOf(paid.checkout_id),
    (s) => s.status === 'completed',
  );
  seeded.paid = paid.checkout_id;
  const dropped = await openCheckout('WEB-2004', 7.2, 'Two baguettes');
  assert.ok((await post(`/checkout/${dropped.checkout_id}/cancel`, {})).status < 400);
  await until(
    'seeded checkout cancelled',
    () => checkoutOf(dropped.checkout_id),
    (s) => s.status === 'cancelled',
  );
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

const loginOffice = (page: Page) => loginWithPassword(page, 'office', officePassword, 'Mira Novak');

async function auditAfter(cookie: string, before: number): Promise<AuditEntry[]> {
  const response = await fetch(new URL('/ui/audit', gateway.url), { headers: { cookie } });
  const entries = (await response.json()) as AuditEntry[];
  return entries.slice(0, entries.length - before).reverse();
}

async function auditCount(cookie: string): Promise<number> {
  const response = await fetch(new URL('/ui/audit', gateway.url), { headers: { cookie } });
  return ((await response.json()) as unknown[]).length;
}

void test('1366x900: a back-office user lists, creates, reveals, makes a cryptogram, simulates and archives tokens; opens, pays and cancels checkouts', async () => {
  const { context, page } = await openApp(browser, gateway.url, WIDE, '#/network-tokens', problems, { clock: true });
  const main = page.getByRole('main');
  const dialog = page.getByRole('dialog');
  try {
    await loginOffice(page);
    const cookie = await cookieOf(context);
    const auditBefore = await auditCount(cookie);
    await main.getByRole('heading', { name: 'Network tokens', level: 1, exact: true }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Product areas' });
    for (const area of ['Network tokens', 'Checkouts'])
      assert.ok(await nav.getByRole('link', { name: area }).isVisible(), `the menu opens ${area}`);

    // ---- list: 50 a page, filters in the URL ----------------------------------------------------
    const table = main.getByRole('table', { name: 'Network tokens, newest first' });
    await table.waitFor();
    const all = await api<{ data_set: TokenRow[]; metadata: { total_items: number } }>('GET', '/ui/network-tokens?per=50', undefined, {
      cookie,
    });
    assert.equal(all.status, 200);
    const total = all.body.metadata.total_items;
    assert.equal(total, 52);
    await main.getByRole('status').getByText(`1–50 of ${total}`).waitFor();
    const firstRow = table.locator('tbody tr[data-row-id]').first();
    const first = all.body.data_set[0];
    assert.ok(first);
    assert.equal(await firstRow.getAttribute('data-row-id'), first.id);
    assert.match((await firstRow.textContent()) ?? '', new RegExp(`•••• ${first.token_last_four}.*•••• ${first.card_last_four}`));
    await shot(page, TOKENS, 'list', WIDE);
    await main.getByRole('link', { name: 'Next page' }).click();
    await main.getByRole('status').getByText(`51–${total} of ${total}`).waitFor();
    assert.match(page.url(), /#\/network-tokens\?page=2$/);
    await main.getByLabel('Status', { exact: true }).selectOption('suspended');
    await page.waitForURL(/status=suspended/);
    assert.doesNotMatch(page.url(), /page=/, 'a new filter starts on its first page');
    const suspended = await api<{ data_set: Token[] }>('GET', '/v2/network_tokens?status=suspended');
    await main.getByRole('status').getByText(`1–2 of 2`).waitFor();
    assert.deepEqual(
      await table.locator('tbody tr[data-row-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-id'))),
      suspended.body.data_set.map((t) => t.id),
    );
    await main.getByLabel('Network', { exact: true }).selectOption('visa');
    await page.waitForURL(/network=visa/);
    await main.getByRole('status').getByText('1–2 of 2').waitFor();
    await page.reload({ waitUntil: 'networkidle' });
    assert.equal(await main.getByLabel('Status', { exact: true }).inputValue(), 'suspended', 'a reload keeps the filters');
    await shot(page, TOKENS, 'list-filtered', WIDE);
    await main.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/#\/network-tokens$/);

    // ---- create: the API's words before sending, then the token ----------------------------------
    await main.getByRole('link', { name: 'New token' }).click();
    await main.getByRole('heading', { name: 'New network token', exact: true }).waitFor();
    const cardNumber = main.getByLabel('Card number');
    await cardNumber.pressSequentially('4111111111111112');
    assert.equal(await cardNumber.inputValue(), '4111 1111 1111 1112', 'the number is grouped as it is typed');
    await main.getByLabel('Expiry').pressSequentially('0120');
    assert.equal(await main.getByLabel('Expiry').inputValue(), '01/20');
    await main.getByRole('button', { name: 'Create token' }).click();
    await main.getByRole('alert').getByText('2 things to fix').waitFor();
    const refused = await api<{ errors: Array<{ field: string; message: string }> }>('POST', '/v2/network_tokens', {
      card_number: '4111111111111112',
      expiry_month: 1,
      expiry_year: 2020,
    });
    assert.equal(refused.status, 400);
    const said = (field: string) => refused.body.errors.find((e) => e.field === field)?.message ?? '?';
    await main
      .locator('.field-error')
      .getByText(`Card number: ${said('card_number')}`, { exact: true })
      .waitFor();
    await main
      .locator('.field-error')
      .getByText(`Expiry: ${said('expiry_year')}`, { exact: true })
      .waitFor();
    assert.equal(await cardNumber.getAttribute('aria-invalid'), 'true');
    assert.equal(
      (await api<{ metadata: { total_items: number } }>('GET', '/v2/network_tokens')).body.metadata.total_items,
      total,
      'nothing was created',
    );
    await shot(page, TOKENS, 'create-error', WIDE, true);
    const pan = luhnComplete('555555000012345');
    await cardNumber.fill('');
    await cardNumber.pressSequentially(pan);
    await main.getByLabel('Expiry').fill('');
    await main.getByLabel('Expiry').pressSequentially(`12${YY}`);
    await main.getByLabel(/^CVV/).fill('123');
    await main.getByLabel(/^Card holder/).fill('Sofia Lindqvist');
    await main.getByLabel(/^E-mail/).fill('sofia@example.se');
    await main.getByRole('button', { name: 'Create token' }).click();
    const heading = main.getByRole('heading', { name: /^Token •••• \d{4}$/, level: 1 });
    await heading.waitFor();
    const tokenId = /#\/network-tokens\/([\w-]+)$/.exec(page.url())?.[1] ?? '';
    assert.ok(tokenId);
    await main.locator('.page-head').getByText('Active', { exact: true }).waitFor();
    const created = await tokenOf(tokenId);
    assert.deepEqual([created.status, created.network], ['active', 'mastercard']);
    const row = (await api<{ token: TokenRow }>('GET', `/ui/network-tokens/${tokenId}`, undefined, { cookie })).body.token;
    assert.equal(row.card_last_four, pan.slice(-4));
    assert.equal((await heading.textContent()) ?? '', `Token •••• ${row.token_last_four}`);
    assert.ok(!(await page.content()).includes(pan), 'the card number is nowhere on the page any more');

    // ---- reveal: masked, shown on request (audited), masked again after 30 s -------------------------
    const tokenData = main.getByRole('region', { name: 'Token data' });
    const masked = `•••• •••• •••• ${row.token_last_four}`;
    await tokenData.getByText(masked).waitFor();
    const { number, payment_account_reference: par } = (
      await api<{ data: { number: string; payment_account_reference: string } }>('GET', `/v2/network_tokens/${tokenId}/data`)
    ).body.data;
    assert.ok(!(await page.content()).includes(par), 'the token data is not on the page before the reveal');
    const beforeReveal = await auditCount(cookie);
    await tokenData.getByRole('button', { name: 'Reveal token data' }).click();
    await tokenData.getByText(number.replace(/(\d{4})(?=\d)/g, '$1 ')).waitFor();
    await tokenData.getByText(par).waitFor();
    const reveal = await auditAfter(cookie, beforeReveal);
    assert.deepEqual(
      reveal,
      [{ ...reveal[0], action: 'token_reveal', staff_id: officeId, subject_id: tokenId, detail: 'token data shown (back office)' }],
      'the reveal is in the audit log under the user',
    );
    await shot(page, TOKENS, 'detail-revealed', WIDE, true);
    await page.clock.fastForward(28_000);
    await tokenData.getByText(/Shown to you for [12] more seconds?/).waitFor();
    assert.ok((await page.content()).includes(par), 'still shown before the 30 seconds are over');
    await page.clock.fastForward(3_000);
    await tokenData.getByText(masked).waitFor();
    assert.ok(
      !(await page.content()).includes(par) && !(await page.content()).includes(number.replace(/(\d{4})(?=\d)/g, '$1 ')),
      'masked again after 30 seconds',
    );
    await tokenData.getByRole('button', { name: 'Reveal token data' }).waitFor();

    // ---- cryptogram: shown once with Copy; it pays --------------------------------------------
    await main.getByRole('button', { name: 'Create cryptogram' }).click();
    await dialog.getByRole('heading', { name: 'Create a cryptogram?' }).waitFor();
    await shot(page, TOKENS, 'cryptogram-dialog', WIDE);
    await focusTrapped(page);
    await dialog.getByRole('button', { name: 'Create cryptogram' }).click();
    await dialog.getByRole('heading', { name: 'DSRP cryptogram' }).waitFor();
    const authentication = await dialog.getByLabel('Authentication data', { exact: true }).inputValue();
    assert.match(authentication, /^[A-Za-z0-9+/]{27}=$/);
    await dialog.getByRole('button', { name: 'Copy authentication data' }).click();
    await dialog.getByText('Copied.').waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), authentication);
    await shot(page, TOKENS, 'cryptogram-shown', WIDE);
    await escCloses(page, 'Create cryptogram');
    assert.ok(!(await page.content()).includes(authentication), 'gone once the dialog closed');
    const payment = {
      payment_type: 'cardecom',
      order_id: 'TOKEN-PAY-1',
      amount: 9.5,
      currency: 'EUR',
      merchant_reference: 'Token pay 1',
      card_number: number,
      card_expiry_month: '12',
      card_expiry_year: String(EXPIRY_YEAR),
      threeds_wallet_cryptogram: authentication,
      threeds_wallet_cryptogram_eci: '05',
    };
    assert.equal(
      (await api<{ status_code: number }>('POST', '/rest/payment', payment)).body.status_code,
      3,
      'the cryptogram on screen pays',
    );

    // ---- the Test environment's token service -----------------------------------------------------
    const simulator = main.getByRole('region', { name: 'Test environment: token service' });
    await simulator.getByRole('button', { name: 'Suspend' }).click();
    await main.getByRole('status').getByText('The token service suspended the token.').waitFor();
    assert.equal((await tokenOf(tokenId)).status, 'suspended');
    await main.locator('.page-head').getByText('Suspended', { exact: true }).waitFor();
    await simulator.getByRole('button', { name: 'Resume' }).click();
    await main.getByRole('status').getByText('The token service resumed the token.').waitFor();
    await simulator.getByRole('button', { name: 'Refresh' }).click();
    await main.getByRole('status').getByText('The token service refreshed the token.').waitFor();
    const refreshed = await tokenOf(tokenId);
    assert.deepEqual([refreshed.status, typeof refreshed.last_token_refresh], ['active', 'string']);
    const history = main.getByRole('list', { name: 'Status history, oldest first' });
    assert.deepEqual(await history.locator('li .bo-tag').allTextContents(), [
      'Requested',
      'Active',
      'Suspended',
      'Active',
      'Refreshed by the network (still active)',
    ]);
    await shot(page, TOKENS, 'detail', WIDE, true);

    // ---- archive with confirmation -------------------------------------------------------------
    await main.getByRole('button', { name: 'Archive', exact: true }).click();
    await shot(page, TOKENS, 'archive-dialog', WIDE);
    await dialog.getByRole('button', { name: 'Archive token' }).click();
    await main.getByRole('status').getByText('Token archived: the network confirms in a moment.').waitFor();
    await main.locator('.page-head').getByText('Archived', { exact: true }).waitFor();
    assert.equal((await tokenOf(tokenId)).status, 'archived');
    assert.equal(await main.getByRole('button', { name: 'Archive', exact: true }).count(), 0);
    assert.ok(await tokenData.getByRole('button', { name: 'Reveal token data' }).isDisabled(), 'no token data for an archived token');

    // ---- checkouts: the list, a phone order, its link and QR code ----------------------------------
    await nav.getByRole('link', { name: 'Checkouts' }).click();
    await main.getByRole('heading', { name: 'Checkouts', level: 1, exact: true }).waitFor();
    const checkoutTable = main.getByRole('table', { name: 'Checkouts, newest first' });
    await checkoutTable.waitFor();
    await main.getByRole('status').getByText('1–4 of 4').waitFor();
    const paidRow = checkoutTable.locator(`tr[data-row-id="${seeded.paid}"]`);
    assert.match((await paidRow.textContent()) ?? '', /WEB-2003.*Croissants for the office.*12\.90 EUR.*Completed/);
    const paidSession = await checkoutOf(seeded.paid);
    assert.equal(
      await paidRow.getByRole('link', { name: /transaction of order WEB-2003/ }).getAttribute('href'),
      `#/transactions/${paidSession.transaction_id ?? '?'}`,
    );
    await shot(page, CHECKOUTS, 'list', WIDE);
    await main.getByLabel('Status', { exact: true }).selectOption('open');
    await main.getByRole('status').getByText('1–2 of 2').waitFor();
    await shot(page, CHECKOUTS, 'list-filtered', WIDE);
    await main.getByRole('button', { name: 'Clear filters' }).click();

    await main.getByRole('link', { name: 'New checkout' }).click();
    await main.getByRole('heading', { name: 'New checkout', exact: true }).waitFor();
    assert.equal(await main.getByLabel('Currency').inputValue(), 'EUR', "the shop's currency");
    await main.getByLabel('Order id').fill('PHONE-1001');
    await main.getByLabel(/^Amount/).fill('84,20');
    await main.getByLabel(/^Taxes/).fill('16');
    await main.getByLabel(/^Shipping/).fill('abc');
    await main.getByLabel(/^Postback URL/).fill('ftp://shop.example/postbacks');
    await main.getByRole('button', { name: 'Open checkout' }).click();
    await main.locator('.field-error').getByText('Shipping: must be a finite number', { exact: true }).waitFor();
    await main.getByLabel(/^Shipping/).fill('4.90');
    await main.getByText('Total for the customer: 105.10 EUR').waitFor();
    await main.getByRole('button', { name: 'Open checkout' }).click();
    const apiRefusal = await api<{ errors: Array<{ field: string; message: string }> }>(
      'POST',
      '/ui/checkouts',
      { order_id: 'PHONE-1001', currency: 'EUR', amount: 84.2, postback_url: 'ftp://shop.example/postbacks' },
      { cookie },
    );
    assert.equal(apiRefusal.status, 400);
    await main
      .locator('.field-error')
      .getByText(`Postback URL: ${apiRefusal.body.errors.find((e) => e.field === 'postback_url')?.message ?? '?'}`, { exact: true })
      .waitFor();
    await shot(page, CHECKOUTS, 'create-error', WIDE, true);
    await main.getByLabel(/^Postback URL/).fill('');
    await main.getByLabel(/^Description/).fill('Wedding cake, 3 tiers, delivered Saturday');
    await main.getByLabel('Language of the page').selectOption('de');
    await main.getByRole('checkbox', { name: 'Phone' }).check();
    await main.getByLabel(/^E-mail/).fill('lena.vogel@example.com');
    await main.getByRole('button', { name: 'Open checkout' }).click();
    await main.getByRole('heading', { name: 'Checkout PHONE-1001', level: 1 }).waitFor();
    const checkoutId = /#\/checkouts\/([\w-]+)$/.exec(page.url())?.[1] ?? '';
    const opened = await checkoutOf(checkoutId);
    assert.deepEqual([opened.status, opened.total_amount, opened.order_id], ['open', 105.1, 'PHONE-1001']);
    const qr = main.getByRole('img', { name: 'QR code of the checkout link of order PHONE-1001' });
    const link = main.getByLabel('Checkout link');
    const [qrBox, linkBox] = [await qr.boundingBox(), await link.boundingBox()];
    assert.ok(qrBox && linkBox && linkBox.x > qrBox.x + qrBox.width - 1, 'the link sits beside the QR code');
    const png = join(makeTempDir('checkout-qr-'), 'qr.png');
    await qr.screenshot({ path: png });
    const decoded = execFileSync('zbarimg', ['-q', '--raw', png], { encoding: 'utf8' }).trim();
    assert.equal(decoded, await link.inputValue(), 'the QR code on screen is the link beside it');
    assert.equal(decoded, opened.url, "and the API's url");
    await main.getByRole('button', { name: 'Copy link' }).click();
    await main.getByText('Checkout link copied.').waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), decoded);
    await shot(page, CHECKOUTS, 'detail', WIDE, true);

    // ---- the customer opens the link and pays by card ------------------------------------------------
    const customer = await browser.newContext({ viewport: { width: 800, height: 900 }, locale: 'de-DE' });
    try {
      const customerPage = await customer.newPage();
      await customerPage.goto(decoded);
      await customerPage.getByLabel('Telefon').fill('+49 30 1234567');
      await customerPage.getByRole('radio', { name: /^Karte/ }).check();
      await customerPage.getByRole('button', { name: 'Weiter' }).click();
      await customerPage.getByLabel('Kartennummer').fill('4111111111111111');
      await customerPage.getByLabel(/^Gültig bis/).fill(`12/${YY}`);
      await customerPage.getByLabel('CVC').fill('123');
      await customerPage.getByLabel(/^Karteninhaber/).fill('Lena Vogel');
      await customerPage.getByRole('button', { name: 'Bezahlen', exact: true }).click();
      await customerPage.waitForURL(new RegExp(`/checkout/${checkoutId}`));
    } finally {
      await customer.close();
    }
    const done = await until(
      'the session completed',
      () => checkoutOf(checkoutId),
      (s) => s.status === 'completed',
    );
    const transactionCard = main.getByRole('region', { name: 'Transaction' });
    await transactionCard.getByText('Completed').waitFor({ timeout: 10_000 });
    await main.locator('.page-head').getByText('Completed', { exact: true }).waitFor();
    const transaction = (
      await api<{ status: string; amount: number; card_last_four: string }>('GET', `/rest/transactions/${done.transaction_id ?? '?'}`)
    ).body;
    assert.deepEqual([transaction.status, transaction.amount, transaction.card_last_four], ['completed', 105.1, '1111']);
    assert.equal(
      await transactionCard.getByRole('link', { name: 'Open transaction' }).getAttribute('href'),
      `#/transactions/${done.transaction_id ?? '?'}`,
    );
    await transactionCard.getByText('Visa •••• 1111').waitFor();
    await main.getByRole('region', { name: 'What the customer entered' }).getByText('+49 30 1234567').waitFor();
    assert.equal(await main.getByRole('button', { name: 'Cancel checkout' }).count(), 0, 'a completed session cannot be cancelled');
    await shot(page, CHECKOUTS, 'detail-paid', WIDE, true);

    // ---- cancel another open session --------------------------------------------------------
    await page.goto(new URL(`/app/#/checkouts/${seeded.openForCancel}`, gateway.url).href);
    await main.getByRole('heading', { name: 'Checkout WEB-2001', level: 1 }).waitFor();
    await main.getByRole('button', { name: 'Cancel checkout' }).click();
    await shot(page, CHECKOUTS, 'cancel-dialog', WIDE);
    await dialog.getByRole('button', { name: 'Cancel checkout' }).click();
    await main.getByRole('status').getByText('Checkout cancelled: its link takes no payment.').waitFor();
    await main.locator('.page-head').getByText('Cancelled', { exact: true }).waitFor();
    assert.equal((await checkoutOf(seeded.openForCancel)).status, 'cancelled');
    const page2 = await fetch(new URL(`/checkout/${seeded.openForCancel}`, gateway.url));
    assert.doesNotMatch(await page2.text(), /name="method"/, 'the link takes no payment');

    // ---- every change above is in the audit log under the back-office user --------------------
    const mine = (await auditAfter(cookie, auditBefore)).filter((e) => e.staff_id === officeId && e.action !== 'login');
    assert.deepEqual(
      mine.map((e) => [e.action, e.subject_id]),
      [
        ['token_create', tokenId],
        ['token_reveal', tokenId],
        ['token_cryptogram', tokenId],
        ['token_simulate', tokenId],
        ['token_simulate', tokenId],
        ['token_simulate', tokenId],
        ['token_archive', tokenId],
        ['checkout_create', checkoutId],
        ['checkout_cancel', seeded.openForCancel],
      ],
    );
    assert.ok(!JSON.stringify(mine).includes(pan) && !JSON.stringify(mine).includes(number), 'no card or token number in the audit log');
    assert.deepEqual(problems, [], 'no console error or uncaught exception');
  } finally {
    await context.close();
  }
});

void test('1024x768: every token and checkout screen and dialog fits, passes axe, and its dialogs close on Esc', async () => {
  const { context, page } = await openApp(browser, gateway.url, NARROW, '#/network-tokens', problems);
  const main = page.getByRole('main');
  const dialog = page.getByRole('dialog');
  try {
    await loginOffice(page);
    await main
      .getByRole('status')
      .getByText(/^1–50 of \d+$/)
      .waitFor();
    await shot(page, TOKENS, 'list', NARROW);
    await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
    for (const area of ['Network tokens', 'Checkouts'])
      await page.getByRole('navigation', { name: 'Product areas' }).getByRole('link', { name: area }).waitFor();
    await page.keyboard.press('Escape');
    await page.goto(new URL('/app/#/network-tokens?status=suspended', gateway.url).href);
    await main.getByRole('status').getByText('1–2 of 2').waitFor();
    await shot(page, TOKENS, 'list-filtered', NARROW);

    await page.goto(new URL('/app/#/network-tokens/new', gateway.url).href);
    await main.getByLabel('Card number').pressSequentially('5105105105105101');
    await main.getByLabel('Expiry').pressSequentially('1399');
    await main.getByRole('button', { name: 'Create token' }).click();
    await main.getByRole('alert').getByText('2 things to fix').waitFor();
    await shot(page, TOKENS, 'create-error', NARROW, true);

    await page.goto(new URL(`/app/#/network-tokens/${seeded.activeToken}`, gateway.url).href);
    await main.getByRole('heading', { name: /^Token •••• \d{4}$/ }).waitFor();
    await shot(page, TOKENS, 'detail', NARROW, true);
    await main.getByRole('button', { name: 'Reveal token data' }).click();
    await main.getByText(/Shown to you for \d+ more seconds/).waitFor();
    await shot(page, TOKENS, 'detail-revealed', NARROW, true);
    await main.getByRole('button', { name: 'Hide now' }).click();
    await main.getByRole('button', { name: 'Reveal token data' }).waitFor();
    for (const [button, name] of [
      ['Create cryptogram', 'cryptogram-dialog'],
      ['Archive', 'archive-dialog'],
    ] as const) {
      await main.getByRole('button', { name: button, exact: true }).click();
      await dialog.waitFor();
      await shot(page, TOKENS, name, NARROW);
      await escCloses(page, button);
    }
    await main.getByRole('button', { name: 'Create cryptogram', exact: true }).click();
    await dialog.getByRole('button', { name: 'Create cryptogram' }).click();
    await dialog.getByLabel('Authentication data', { exact: true }).waitFor();
    await shot(page, TOKENS, 'cryptogram-shown', NARROW);
    await escCloses(page, 'Create cryptogram');

    await page.goto(new URL('/app/#/checkouts', gateway.url).href);
    await main.getByRole('table', { name: 'Checkouts, newest first' }).waitFor();
    await main
      .getByRole('status')
      .getByText(/^1–\d+ of \d+$/)
      .waitFor();
    await shot(page, CHECKOUTS, 'list', NARROW);
    await page.goto(new URL('/app/#/checkouts?status=completed', gateway.url).href);
    await main
      .getByRole('status')
      .getByText(/^1–\d+ of \d+$/)
      .waitFor();
    await shot(page, CHECKOUTS, 'list-filtered', NARROW);
    await page.goto(new URL('/app/#/checkouts/new', gateway.url).href);
    await main.getByLabel(/^Amount/).fill('x');
    await main.getByRole('button', { name: 'Open checkout' }).click();
    await main.locator('.field-error').getByText('Amount: must be a finite number').waitFor();
    await shot(page, CHECKOUTS, 'create-error', NARROW, true);
    await page.goto(new URL(`/app/#/checkouts/${seeded.openForNarrow}`, gateway.url).href);
    await main.getByRole('img', { name: /QR code of the checkout link/ }).waitFor();
    await shot(page, CHECKOUTS, 'detail', NARROW, true);
    await main.getByRole('button', { name: 'Cancel checkout', exact: true }).click();
    await dialog.waitFor();
    await shot(page, CHECKOUTS, 'cancel-dialog', NARROW);
    await escCloses(page, 'Cancel checkout');
    assert.equal((await checkoutOf(seeded.openForNarrow)).status, 'open', 'Esc cancels nothing');
    await page.goto(new URL(`/app/#/checkouts/${seeded.paid}`, gateway.url).href);
    await main.getByRole('region', { name: 'Transaction' }).getByRole('link', { name: 'Open transaction' }).waitFor();
    await shot(page, CHECKOUTS, 'detail-paid', NARROW, true);
    assert.deepEqual(problems, [], 'no console error or uncaught exception');
  } finally {
    await context.close();
  }
});

for (const size of [WIDE, NARROW] as Size[]) {
  void test(`${size.width}x${size.height}: a cashier is kept out of network tokens and checkouts`, async () => {
    const { context, page } = await openApp(browser, gateway.url, size, '#/network-tokens', problems);
    const main = page.getByRole('main');
    try {
      await main.getByLabel('Login', { exact: true }).fill('anna');
      await main.locator('input[type=password]').fill('1234');
      await page.keyboard.press('Enter');
      await page.getByRole('banner').getByText('Anna Berg').waitFor();
      await main.getByRole('heading', { name: 'Not open to your role', exact: true }).waitFor();
      assert.equal(await main.getByRole('table').count(), 0, 'no token is shown');
      if (size.width >= 1100) {
        const nav = page.getByRole('navigation', { name: 'Product areas' });
        for (const area of ['Network tokens', 'Checkouts'])
          assert.equal(await nav.getByRole('link', { name: area }).count(), 0, `the menu has no ${area} for a cashier`);
      }
      const cookie = await cookieOf(context);
      for (const path of [
        '/ui/network-tokens',
        `/ui/network-tokens/${seeded.activeToken}`,
        '/ui/checkouts',
        `/ui/checkouts/${seeded.paid}`,
        '/v2/network_tokens',
      ]) {
        assert.equal((await fetch(new URL(path, gateway.url), { headers: { cookie } })).status, 403, `${path}: 403 for a cashier`);
      }
      const reveal = await fetch(new URL(`/ui/network-tokens/${seeded.activeToken}/reveal`, gateway.url), {
        method: 'POST',
        headers: { cookie },
      });
      assert.equal(reveal.status, 403);
      await shot(page, TOKENS, 'cashier-kept-out', size);
      await page.goto(new URL('/app/#/checkouts', gateway.url).href);
      await main.getByRole('heading', { name: 'Not open to your role', exact: true }).waitFor();
      await shot(page, CHECKOUTS, 'cashier-kept-out', size);
      await main.getByRole('button', { name: 'Switch user' }).click();
      await main.getByRole('heading', { name: 'Staff login', exact: true }).waitFor();
      await loginOffice(page);
      await main.getByRole('heading', { name: 'Checkouts', level: 1, exact: true }).waitFor();
      assert.deepEqual(problems, [], 'no console error or uncaught exception');
    } finally {
      await context.close();
    }
  });
}
