/**
 * The customer's side in a real browser: the real `gateway serve`, payments and checkout sessions
 * created over the API with the merchant's Basic credentials, and headless Chromium doing what a
 * customer does on the hosted pages (card entry by keyboard, 3-D Secure, wallet and bank approval,
 * SEPA mandate, cancel, the postform page) at phone (390x844) and desktop (1024x768) sizes, until
 * it lands on the merchant's success_url / error_url, a small local receiver on 127.0.0.1. The API
 * must then show the result. Every request the pages make is recorded: none may leave the gateway's
 * origin except the final navigation to the merchant; no console error, no CSP violation.
 * Screenshots (en, de, pt, hr) land in docs/screenshots/pages-*.png.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DATABASE_FILE } from '../../db/open.js';
import { launchChromium } from '../helpers/browser.js';
import { basicAuth, createMerchant, startGateway, type GatewayProcess, type MerchantCredentials } from '../helpers/gateway-process.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1024, height: 768 };
const LANGS = ['en', 'de', 'pt', 'hr'] as const;
const LANGUAGE_NAMES = { en: 'English', de: 'Deutsch', pt: 'Português', hr: 'Hrvatski' } as const;
const YY = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');

let gateway: GatewayProcess;
let gatewayOrigin: string;
let merchant: MerchantCredentials;
let browser: Browser;
let receiver: Server;
let shop: string;
const postbacks: Array<Record<string, unknown>> = [];

/** Records CSP violations inside the page, so none is missed when the console event comes late. */
const RECORD_CSP_VIOLATIONS = `
  globalThis.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    globalThis.__cspViolations.push(event.effectiveDirective + ' blocked ' + (event.blockedURI || 'inline'));
  });
`;

function startReceiver(): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://receiver');
    if (request.method === 'POST' && url.pathname === '/postbacks') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        postbacks.push(JSON.parse(body) as Record<string, unknown>);
        response.writeHead(200).end('ok');
      });
      return;
    }
    if (url.pathname === '/ok' || url.pathname === '/err') {
      const title = url.pathname === '/ok' ? 'Thank you for your order' : 'Your payment did not go through';
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Shop</title><link rel="icon" href="data:,"><h1>${title}</h1>`);
      return;
    }
    if (url.pathname === '/merchant-form') {
      // The merchant's own page, building and submitting the postform client action's form.
      const target = url.searchParams.get('to') ?? '';
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><title>Shop</title><link rel="icon" href="data:,"><form id="f" method="post" action="${target}"><input type="hidden" name="order" value="42"></form><script>document.getElementById('f').submit()</script>`,
        );
      return;
    }
    response.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

before(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  receiver = await startReceiver();
  shop = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  gateway = await startGateway({ args: ['--postback-private-addresses', 'allow'] });
  gatewayOrigin = new URL(gateway.url).origin;
  merchant = createMerchant(gateway.dataDir, 'Kaffeerösterei Müller');
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

// ---- API, as the merchant's server -------------------------------------------------------------

async function rest<T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(path, gateway.url), {
    method,
    headers: { authorization: basicAuth(merchant), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const parsed = (await response.json()) as T;
  assert.equal(response.status, 200, `${method} ${path}: ${JSON.stringify(parsed)}`);
  return parsed;
}

let orders = 0;
const redirect = () => ({ success_url: `${shop}/ok`, error_url: `${shop}/err`, postback_url: `${shop}/postbacks` });

async function startPayment(paymentType: string, extra: Record<string, unknown> = {}): Promise<{ id: string; url: string }> {
  orders += 1;
  const tx = await rest<{ transaction_id: string; status: string; client_action: string; action_data: { url: string } }>(
    'POST',
    '/rest/payment',
    {
      payment_type: paymentType,
      order_id: `web-${orders}`,
      amount: 24.9,
      currency: 'EUR',
      merchant_reference: `Order ${orders}`,
      ...redirect(),
      ...extra,
    },
  );
  // Banks take the customer with a form POST (postform); everything else is a plain redirect.
  assert.deepEqual([tx.status, tx.client_action], ['started', paymentType === 'bankredirect' ? 'postform' : 'redirect']);
  return { id: tx.transaction_id, url: tx.action_data.url };
}

const transaction = (id: string) =>
  rest<{ status: string; status_code: number; message: string | null; payment_method: string }>('GET', `/rest/transactions/${id}`);
const checkout = (id: string) => rest<{ status: string; transaction_id: string | null }>('GET', `/rest/checkouts/${id}`);

async function openCheckout(extra: Record<string, unknown> = {}): Promise<{ id: string; url: string }> {
  orders += 1;
  const body = await rest<{ checkout_id: string; status: string; action_data: { url: string } }>('POST', '/rest/checkouts', {
    merchant_name: 'Kaffeerösterei Müller',
    order_id: `A-${1000 + orders}`,
    reference: `INV ${1000 + orders}`,
    description: '2 × Espresso beans, 1 kg',
    currency: 'EUR',
    amount: 48,
    amount_taxes: 9.12,
    amount_shipping: 4.9,
    total_amount: 62.02,
    ...redirect(),
    ...extra,
  });
  assert.equal(body.status, 'open');
  return { id: body.checkout_id, url: body.action_data.url };
}

const FULL_CHECKOUT = {
  collect_dob: 1,
  collect_phone: 1,
  collect_gender: 1,
  collect_billing_address: 1,
  collect_shipping_address: 1,
  display_transaction_details: 1,
  display_manual_payment_instruction_to_customer: 1,
  payment_instruction_merchant_account_holder: 'Kaffeerösterei Müller GmbH',
  payment_instruction_merchant_iban: 'DE89370400440532013000',
  payment_instruction_merchant_bic: 'COBADEFFXXX',
  prefill_customer_info: {
    first_name: 'Ana',
    last_name: 'Horvat',
    address: 'Ilica 1',
    city: 'Zagreb',
    postal_code: '10000',
    country: 'HR',
    phone: '+385 1 234 5678',
  },
};

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// ---- the customer's browser --------------------------------------------------------------------

interface Recorded {
  url: string;
  type: string;
  navigation: boolean;
  method: string;
}

interface Customer {
  page: Page;
  context: BrowserContext;
  requests: Recorded[];
  /** Console errors, page errors, failed requests and CSP violations so far (from every page visited). */
  problems: string[];
  close(): Promise<void>;
}

async function customer(viewport: { width: number; height: number }, locale = 'en-GB'): Promise<Customer> {
  const context = await browser.newContext({ viewport, locale, serviceWorkers: 'block' });
  await context.addInitScript({ content: RECORD_CSP_VIOLATIONS });
  const requests: Recorded[] = [];
  const problems: string[] = [];
  context.on('request', (request) =>
    requests.push({
      url: request.url(),
      type: request.resourceType(),
      navigation: request.isNavigationRequest(),
      method: request.method(),
    }),
  );
  context.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? '?'})`));
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return {
    page,
    context,
    requests,
    problems,
    close: () => context.close(),
  };
}

async function cspViolations(page: Page): Promise<string[]> {
  if (!page.url().startsWith(gatewayOrigin)) return [];
  return page.evaluate<string[]>('globalThis.__cspViolations ?? []');
}

/**
 * Nothing but the gateway's origin, except document navigations to the merchant's pages
 * (success_url, error_url, and in the postform case the merchant's own form page).
 */
function assertStayedHome(c: Customer, merchantPaths: string[] = ['/ok', '/err']): void {
  assert.ok(c.requests.length > 2, 'requests were recorded');
  for (const request of c.requests) {
    if (request.url.startsWith('data:')) continue;
    const url = new URL(request.url);
    if (url.origin === gatewayOrigin) continue;
    assert.ok(
      url.origin === shop && request.navigation && request.type === 'document' && merchantPaths.includes(url.pathname),
      `request left the gateway's origin: ${request.method} ${request.type} ${request.url}`,
    );
  }
  const assets = c.requests.filter((r) => r.type === 'stylesheet' || r.type === 'script');
  assert.ok(assets.length > 0 && assets.every((r) => new URL(r.url).origin === gatewayOrigin), 'stylesheet and script from the gateway');
}

async function assertNoProblems(c: Customer): Promise<void> {
  const found = [...c.problems, ...(await cspViolations(c.page)).map((v) => `CSP violation: ${v}`)];
  assert.deepEqual(found, []);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(100);
  await page.screenshot({ path: `${SCREENSHOT_DIR}pages-${name}.png`, fullPage: true });
}

/** Buttons, links and inputs of the page are at least 44 px high; nothing scrolls sideways. */
async function assertTouchFriendly(page: Page, where: string): Promise<void> {
  for (const target of await page
    .locator(
      'main button:visible, main a.btn:visible, main input:not([type=hidden]):not([type=radio]):not([type=checkbox]):visible, main select:visible, nav a:visible',
    )
    .all()) {
    const box = await target.boundingBox();
    const name = ((await target.textContent()) || (await target.getAttribute('name')) || '').trim();
    assert.ok(box && box.height >= 44 && box.width >= 44, `${where}: "${name}" is ${box?.width}x${box?.height}`);
  }
  const width = await page.evaluate<number>('document.documentElement.scrollWidth');
  assert.ok(width <= (page.viewportSize()?.width ?? 0), `${where}: no horizontal scroll (${width})`);
}

async function landOn(page: Page, path: '/ok' | '/err', transactionId?: string): Promise<URL> {
  await page.waitForURL((url) => url.origin === shop && url.pathname === path, { timeout: 15_000 });
  const url = new URL(page.url());
  if (transactionId) assert.equal(url.searchParams.get('transaction_id'), transactionId);
  return url;
}

async function payByCard(page: Page, pan: string, holder = 'Ana Horvat'): Promise<void> {
  await page.getByLabel('Card number').fill(pan);
  await page.getByLabel('Expiry').fill(`12/${YY}`);
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Cardholder').fill(holder);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
}

// ---- payments created over the API ---------------------------------------------------------------

describe('hosted payment pages', () => {
  test('card, on a phone, by keyboard: lands on success_url and the API shows it completed', async () => {
    const { id, url } = await startPayment('cardecom');
    const c = await customer(PHONE);
    try {
      const response = await c.page.goto(url);
      assert.equal(response?.status(), 200);
      assert.match(String(response?.headers()['content-security-policy']), /^default-src 'none'; style-src 'self'; script-src 'self'/);
      await c.page.getByRole('heading', { name: 'Pay by card' }).waitFor();
      assert.ok((await c.page.locator('main').textContent())?.includes('€24.90'));
      await assertTouchFriendly(c.page, 'card page');
      await shot(c.page, 'card-en');

      // Keyboard only: type, Tab from field to field, Enter submits.
      await c.page.getByLabel('Card number').focus();
      await c.page.keyboard.type('4111111111111111');
      assert.equal(await c.page.getByLabel('Card number').inputValue(), '4111 1111 1111 1111', 'grouped as typed');
      assert.equal(await c.page.locator('#f-card_number-brand').textContent(), 'Visa');
      await c.page.keyboard.press('Tab');
      assert.equal(await c.page.evaluate('document.activeElement.id'), 'f-expiry');
      await c.page.keyboard.type(`12${YY}`);
      assert.equal(await c.page.getByLabel('Expiry').inputValue(), `12/${YY}`, 'the slash comes by itself');
      await c.page.keyboard.press('Tab');
      await c.page.keyboard.type('123');
      await c.page.keyboard.press('Tab');
      await c.page.keyboard.type('Ana Horvat');
      await c.page.keyboard.press('Enter');
      await landOn(c.page, '/ok', id);
      assert.equal(await c.page.getByRole('heading').textContent(), 'Thank you for your order');

      const tx = await transaction(id);
      assert.deepEqual([tx.status_code, tx.status], [3, 'completed']);
      assertStayedHome(c);
      await assertNoProblems(c);
      await until(
        'completed postback',
        async () => postbacks.filter((p) => p.transaction_id === id && p.status === 'completed').length,
        (n) => n > 0,
      );
    } finally {
      await c.close();
    }
  });

  test('the card page in de, pt and hr; wrong entries are caught before submit, in the page language, with focus on the first', async () => {
    const { id, url } = await startPayment('cardecom');
    const c = await customer(PHONE);
    try {
      for (const lang of ['de', 'pt', 'hr'] as const) {
        await c.page.goto(`${url}?lang=${lang}`);
        assert.equal(await c.page.getAttribute('html', 'lang'), lang);
        await shot(c.page, `card-${lang}`);
      }
      // The language switcher is a list of links.
      await c.page.getByRole('navigation').getByRole('link', { name: 'Deutsch' }).click();
      await c.page.getByRole('heading', { name: 'Mit Karte bezahlen' }).waitFor();
      const posts = () => c.requests.filter((r) => r.method === 'POST').length;
      await c.page.getByLabel('Kartennummer').fill('4111 1111 1111 1112');
      await c.page.getByLabel('Gültig bis').fill('01/20');
      await c.page.getByLabel('CVC').fill('12');
      await c.page.getByRole('button', { name: 'Bezahlen' }).click();
      await c.page.getByText('Diese Kartennummer ist ungültig. Prüfen Sie die Ziffern.').first().waitFor();
      assert.equal(posts(), 0, 'nothing was sent');
      assert.equal(await c.page.evaluate('document.activeElement.id'), 'f-card_number', 'focus on the first error');
      assert.equal(await c.page.getByLabel('Kartennummer').getAttribute('aria-invalid'), 'true');
      assert.equal(await c.page.locator('#f-expiry-error').textContent(), 'Diese Karte ist abgelaufen.');
      assert.equal(await c.page.locator('#f-cvc-error').textContent(), 'Die CVC hat 3 oder 4 Ziffern.');
      assert.equal(await c.page.locator('#f-holder-error').textContent(), 'Geben Sie den Namen auf der Karte ein.');
      const summary = c.page.getByRole('alert');
      assert.ok(await summary.isVisible());
      assert.equal(await summary.getByRole('link').count(), 4);
      await shot(c.page, 'card-errors-de');

      // Fixing the entries clears the messages and pays.
      await c.page.getByLabel('Kartennummer').fill('5555 5555 5555 4444');
      await c.page.getByLabel('Gültig bis').fill(`12/${YY}`);
      await c.page.getByLabel('CVC').fill('321');
      await c.page.getByLabel('Karteninhaber').fill('Ana Horvat');
      assert.equal(await c.page.locator('#f-card_number-error').textContent(), '');
      await c.page.getByRole('button', { name: 'Bezahlen' }).click();
      await landOn(c.page, '/ok', id);
      assert.equal((await transaction(id)).status, 'completed');
      assertStayedHome(c);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
  });

  test('3-D Secure on a desktop: Approve pays; Fail declines and lands on error_url', async () => {
    const approve = await startPayment('cardecom');
    const fail = await startPayment('cardecom');
    const c = await customer(DESKTOP);
    try {
      await c.page.goto(approve.url);
      await payByCard(c.page, '4000 0000 0000 3220');
      await c.page.getByRole('heading', { name: 'Confirm it’s you' }).waitFor();
      assert.equal(new URL(c.page.url()).pathname, `/pay/${approve.id}/3ds`);
      assert.ok((await c.page.locator('main').textContent())?.includes('•••• 3220'));
      await assertTouchFriendly(c.page, '3-D Secure page');
      await shot(c.page, '3ds-en');
      await c.page.getByRole('button', { name: 'Approve' }).click();
      await landOn(c.page, '/ok', approve.id);
      assert.equal((await transaction(approve.id)).status, 'completed');

      await c.page.goto(`${fail.url}?lang=hr`);
      await c.page.getByLabel('Broj kartice').fill('4000000000003220');
      await c.page.getByLabel('Vrijedi do').fill(`12/${YY}`);
      await c.page.getByLabel('CVC').fill('123');
      await c.page.getByLabel('Vlasnik kartice').fill('Ana Horvat');
      await c.page.getByRole('button', { name: 'Plati' }).click();
      await c.page.getByRole('heading', { name: 'Potvrdite da ste to vi' }).waitFor();
      await shot(c.page, '3ds-hr');
      await c.page.getByRole('button', { name: 'Neuspjeh' }).click();
      await landOn(c.page, '/err', fail.id);
      const tx = await transaction(fail.id);
      assert.deepEqual([tx.status, tx.message], ['declined', '05 Authentication failed']);

      // Coming back to the page later: the result, no second payment.
      await c.page.goto(`${gateway.url}/pay/${fail.id}/card?lang=pt`);
      await c.page.getByRole('heading', { name: 'Pagamento recusado' }).waitFor();
      assert.equal(await c.page.getByLabel('Número do cartão').count(), 0);
      await shot(c.page, 'declined-pt');
      assertStayedHome(c);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
  });

  test('wallet approval pays; a bank payment cancelled by the customer lands on error_url', async () => {
    const wallet = await startPayment('wallet');
    const bank = await startPayment('bankredirect');
    const c = await customer(PHONE, 'de-DE');
    try {
      await c.page.goto(wallet.url);
      await c.page.getByRole('heading', { name: 'In Ihrem Wallet bestätigen' }).waitFor({ timeout: 5000 });
      assert.equal(await c.page.getAttribute('html', 'lang'), 'de', 'Accept-Language chose German');
      await assertTouchFriendly(c.page, 'wallet page');
      await shot(c.page, 'wallet-de');
      await c.page.getByRole('button', { name: 'Bestätigen' }).click();
      await landOn(c.page, '/ok', wallet.id);
      assert.equal((await transaction(wallet.id)).status, 'completed');

      await c.page.goto(`${bank.url}?lang=pt`);
      await c.page.getByRole('heading', { name: 'Homebanking' }).waitFor();
      await shot(c.page, 'bank-pt');
      await c.page.getByRole('button', { name: 'Cancelar' }).click();
      await landOn(c.page, '/err', bank.id);
      assert.equal((await transaction(bank.id)).status, 'cancelled');
      assertStayedHome(c);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
  });

  test('postform: the gateway’s postform page and a merchant’s auto-submitted form both reach the bank page', async () => {
    const first = await startPayment('bankredirect');
    const second = await startPayment('bankredirect');
    const c = await customer(DESKTOP);
    try {
      await c.page.goto(`${gateway.url}/pay/${first.id}/postform`);
      await c.page.waitForURL(`${gateway.url}/pay/${first.id}/bank?lang=en`);
      assert.ok(
        c.requests.some((r) => r.method === 'POST' && r.url === `${gateway.url}/pay/${first.id}/bank?lang=en`),
        'the page posted itself',
      );
      await c.page.getByRole('heading', { name: 'Online banking' }).waitFor();
      await c.page.getByRole('button', { name: 'Approve' }).click();
      await landOn(c.page, '/ok', first.id);
      assert.equal((await transaction(first.id)).status, 'completed');

      // The merchant builds the form on its own page (postform integration): the bank page shows, takes no answer by itself.
      await c.page.goto(`${shop}/merchant-form?to=${encodeURIComponent(second.url)}`);
      await c.page.waitForURL(second.url);
      await c.page.getByRole('heading', { name: 'Online banking' }).waitFor();
      assert.equal((await transaction(second.id)).status, 'started');
      await shot(c.page, 'bank-en');
      await c.page.getByRole('button', { name: 'Approve' }).click();
      await landOn(c.page, '/ok', second.id);
      assert.equal((await transaction(second.id)).status, 'completed');
      assertStayedHome(c, ['/ok', '/err', '/merchant-form']);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
  });
});

// ---- hosted checkout sessions ----------------------------------------------------------------------

describe('hosted checkout', () => {
  async function fillDetails(page: Page): Promise<void> {
    await page.getByLabel('Date of birth').fill('1990-04-01');
    await page.getByLabel('Gender').selectOption('female');
  }

  test('the checkout page in en, de, pt and hr (desktop and phone)', async () => {
    const { url } = await openCheckout(FULL_CHECKOUT);
    const c = await customer(DESKTOP);
    try {
      await c.page.goto(url);
      for (const lang of LANGS) {
        await c.page.getByRole('navigation').getByRole('link', { name: LANGUAGE_NAMES[lang] }).click();
        await c.page.waitForURL(`${url}?lang=${lang}`);
        assert.equal(await c.page.getAttribute('html', 'lang'), lang);
        await assertTouchFriendly(c.page, `checkout ${lang}`);
        await shot(c.page, `checkout-${lang}`);
      }
      assertStayedHome(c);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
    const phone = await customer(PHONE);
    try {
      await phone.page.goto(url);
      await assertTouchFriendly(phone.page, 'checkout on a phone');
      await shot(phone.page, 'checkout-phone-en');
      await assertNoProblems(phone);
    } finally {
      await phone.close();
    }
  });

  test('card: details, Card, Continue, card page, Pay: success_url; the session and its transaction completed', async () => {
    const session = await openCheckout(FULL_CHECKOUT);
    const c = await customer(PHONE);
    try {
      await c.page.goto(session.url);
      await c.page.getByRole('heading', { name: 'Pay Kaffeerösterei Müller' }).waitFor();
      assert.equal(await c.page.getByLabel('Phone').inputValue(), '+385 1 234 5678', 'pre-filled');
      // Required details missing: caught in the page, focus on the first.
      await c.page.getByRole('button', { name: 'Continue' }).click();
      await c.page.locator('#f-dob-error').getByText('Fill in this field.').waitFor();
      assert.equal(await c.page.evaluate('document.activeElement.id'), 'f-dob');
      await fillDetails(c.page);
      await c.page.getByRole('radio', { name: /^Card/ }).check();
      await c.page.getByRole('button', { name: 'Continue' }).click();
      await c.page.getByRole('heading', { name: 'Pay by card' }).waitFor();
      const txId = /\/pay\/([\w-]+)\/card/.exec(c.page.url())?.[1] as string;
      assert.ok(txId);
      assert.equal((await checkout(session.id)).status, 'processing');
      await payByCard(c.page, '4111111111111111');
      await landOn(c.page, '/ok', txId);
      assert.equal((await transaction(txId)).status, 'completed');
      const done = await checkout(session.id);
      assert.deepEqual([done.status, done.transaction_id], ['completed', txId]);
      await until(
        'checkout postback',
        async () => postbacks.filter((p) => p.checkout_id === session.id).map((p) => p.status),
        (s) => s.includes('completed'),
      );
      assertStayedHome(c);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
  });

  test('3-D Secure card through the checkout: Approve, success_url, session completed', async () => {
    const session = await openCheckout();
    const c = await customer(DESKTOP);
    try {
      await c.page.goto(`${session.url}?lang=de`);
      await c.page.getByRole('radio', { name: /^Karte/ }).check();
      await c.page.getByRole('button', { name: 'Weiter' }).click();
      await c.page.getByLabel('Kartennummer').fill('4000 0000 0000 3220');
      await c.page.getByLabel('Gültig bis').fill(`12/${YY}`);
      await c.page.getByLabel('CVC').fill('123');
      await c.page.getByLabel('Karteninhaber').fill('Ana Horvat');
      await c.page.getByRole('button', { name: 'Bezahlen' }).click();
      await c.page.getByRole('heading', { name: 'Bestätigen Sie, dass Sie es sind' }).waitFor();
      await shot(c.page, '3ds-de');
      const txId = /\/pay\/([\w-]+)\/3ds/.exec(c.page.url())?.[1] as string;
      await c.page.getByRole('button', { name: 'Bestätigen' }).click();
      await landOn(c.page, '/ok', txId);
      assert.equal((await transaction(txId)).status, 'completed');
      assert.equal((await checkout(session.id)).status, 'completed');
      assertStayedHome(c);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
  });

  test('SEPA: mandate step with IBAN and account holder, success_url; settles and completes the session', async () => {
    const session = await openCheckout(FULL_CHECKOUT);
    const c = await customer(PHONE);
    try {
      await c.page.goto(`${session.url}?lang=pt`);
      await c.page.getByLabel('Data de nascimento').fill('1990-04-01');
      await c.page.getByLabel('Género').selectOption('female');
      await c.page.getByRole('radio', { name: /^Débito direto SEPA/ }).check();
      await c.page.getByRole('button', { name: 'Continuar' }).click();
      await c.page.getByRole('heading', { name: 'Autorização de débito direto SEPA' }).waitFor();
      assert.equal(await c.page.getByLabel('Titular da conta').inputValue(), 'Ana Horvat');
      await c.page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 01');
      await c.page.getByRole('button', { name: 'Confirmar e pagar' }).click();
      await c.page.locator('#f-iban-error').getByText('Este IBAN não é válido. Verifique-o e tente novamente.').waitFor();
      assert.equal(await c.page.locator('#f-mandate_accept-error').textContent(), 'Assinale a caixa para aceitar a autorização.');
      await shot(c.page, 'sepa-errors-pt');
      await c.page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
      await c.page.getByLabel('Aceito a autorização de débito direto SEPA').check();
      await shot(c.page, 'sepa-pt');
      await c.page.getByRole('button', { name: 'Confirmar e pagar' }).click();
      const landed = await landOn(c.page, '/ok');
      const txId = landed.searchParams.get('transaction_id') as string;
      assert.equal(landed.searchParams.get('checkout_id'), session.id);
      const tx = await until(
        'settlement',
        () => transaction(txId),
        (t) => t.status === 'completed',
      );
      assert.equal(tx.payment_method, 'dd');
      await until(
        'session completed',
        () => checkout(session.id),
        (s) => s.status === 'completed',
      );
      assertStayedHome(c);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
  });

  test('Cancel lands on error_url; the cancelled session shows it and takes no payment', async () => {
    const session = await openCheckout();
    const c = await customer(PHONE);
    try {
      await c.page.goto(`${session.url}?lang=hr`);
      await c.page.getByRole('button', { name: 'Odustani i vrati se na Kaffeerösterei Müller' }).click();
      const landed = await landOn(c.page, '/err');
      assert.equal(landed.searchParams.get('checkout_id'), session.id);
      assert.equal((await checkout(session.id)).status, 'cancelled');
      await c.page.goto(`${session.url}?lang=hr`);
      await c.page.getByRole('heading', { name: 'Naplata otkazana' }).waitFor();
      assert.equal(await c.page.getByRole('radio').count(), 0);
      await shot(c.page, 'checkout-cancelled-hr');
      assertStayedHome(c);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
  });

  test('an expired session shows it and takes no payment', async () => {
    const session = await openCheckout();
    // 24 hours pass: move the session's expiry and its scheduled task into the past.
    const db = new Database(join(gateway.dataDir, DATABASE_FILE));
    try {
      db.pragma('busy_timeout = 5000');
      const past = new Date(Date.now() - 1000).toISOString();
      db.prepare('UPDATE checkout_sessions SET expires_at = ? WHERE id = ?').run(past, session.id);
      db.prepare("UPDATE scheduled_tasks SET due_at = ? WHERE subject_id = ? AND kind = 'expire_checkout'").run(past, session.id);
    } finally {
      db.close();
    }
    const c = await customer(DESKTOP);
    try {
      await c.page.goto(`${session.url}?lang=de`);
      await c.page.getByRole('heading', { name: 'Bezahlvorgang abgelaufen' }).waitFor();
      assert.equal(await c.page.getByRole('radio').count(), 0);
      await shot(c.page, 'checkout-expired-de');
      // The scheduler notices at its next wake-up (any commit): the API says expired too.
      await openCheckout();
      await until(
        'session expired',
        () => checkout(session.id),
        (s) => s.status === 'expired',
      );
      assertStayedHome(c);
      await assertNoProblems(c);
    } finally {
      await c.close();
    }
  });
});
