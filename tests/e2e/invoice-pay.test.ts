// The invoice pay page in a real browser (decisions.md D11): the real `gateway serve` process, an
// invoice created over the API with the merchant's Basic auth, its paylink opened in Chromium, paid
// by card, and the invoice `paid` over the API; then a customer who switches to German, is declined
// (51), reads why in German on the invoice page and pays with another card, still in German.
// Screenshots: docs/screenshots/pages-invoice-en.png, pages-invoice-declined-de.png.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { type Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { basicAuth, createMerchant, startGateway, type GatewayProcess, type MerchantCredentials } from '../helpers/gateway-process.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const YY = String(new Date().getUTCFullYear() + 3).slice(2);

let gateway: GatewayProcess;
let merchant: MerchantCredentials;
let browser: Browser;

before(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  merchant = createMerchant(gateway.dataDir, 'Kaffeerösterei Müller');
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

async function rest<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(path, gateway.url), {
    method,
    headers: { authorization: basicAuth(merchant), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

interface Wrapper {
  invoice: { uuid: string; debt_claim_number: string; status: string };
  paylink: string;
}

describe('invoice pay page (Chromium)', () => {
  test('open the paylink, pay by card, the invoice is paid', async () => {
    const created = await rest<Wrapper>('POST', '/rest/invoices', {
      url_name: merchant.channel.url_name,
      invoice: {
        amount: '49.90',
        currency: 'EUR',
        first_name: 'Ada',
        last_name: 'Lovelace',
        description: 'Coffee subscription, March',
        locale: 'en',
      },
    });
    const context = await browser.newContext({ viewport: { width: 800, height: 900 }, locale: 'en-GB' });
    try {
      const page = await context.newPage();
      const paylink = new URL(new URL(created.paylink).pathname, gateway.url).toString();
      await page.goto(paylink);
      await page.getByRole('heading', { name: `Invoice ${created.invoice.debt_claim_number}` }).waitFor();
      assert.ok((await page.content()).includes('Coffee subscription, March'));
      await page.screenshot({ path: `${SCREENSHOT_DIR}pages-invoice-en.png`, fullPage: true });
      await page.getByRole('button', { name: 'Pay now' }).click();
      await page.getByLabel('Card number').fill('4111111111111111');
      await page.getByLabel('Expiry').fill(`12/${YY}`);
      await page.getByLabel('CVC').fill('123');
      await page.getByLabel('Cardholder').fill('Ada Lovelace');
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.getByRole('heading', { name: 'Invoice paid' }).waitFor();
      const read = await rest<Wrapper>('GET', `/rest/invoices/${encodeURIComponent(created.invoice.debt_claim_number)}`);
      assert.equal(read.invoice.status, 'paid');
    } finally {
      await context.close();
    }
  });

  test('declined in German: the invoice page says why in German, another card pays it', async () => {
    const created = await rest<Wrapper>('POST', '/rest/invoices', {
      url_name: merchant.channel.url_name,
      invoice: {
        amount: '23.40',
        currency: 'EUR',
        first_name: 'Jana',
        last_name: 'Keller',
        description: 'Kaffeebohnen, 2 kg',
        locale: 'en',
      },
    });
    const number = created.invoice.debt_claim_number;
    const context = await browser.newContext({ viewport: { width: 800, height: 900 }, locale: 'en-GB' });
    try {
      const page = await context.newPage();
      await page.goto(new URL(new URL(created.paylink).pathname, gateway.url).toString());
      await page.getByRole('heading', { name: `Invoice ${number}` }).waitFor();
      // The customer chooses German on the page; every later page keeps it.
      await page.getByRole('link', { name: 'Deutsch' }).click();
      await page.getByRole('heading', { name: `Rechnung ${number}` }).waitFor();
      const payByCard = async (pan: string) => {
        await page.getByRole('button', { name: 'Jetzt bezahlen' }).click();
        await page.getByLabel('Kartennummer').fill(pan);
        await page.getByLabel('Gültig bis').fill(`12/${YY}`);
        await page.getByLabel('CVC').fill('123');
        await page.getByLabel('Karteninhaber').fill('Jana Keller');
        await page.getByRole('button', { name: 'Bezahlen', exact: true }).click();
      };
      await payByCard('4000000000009995');
      await page.getByRole('heading', { name: `Rechnung ${number}` }).waitFor();
      const notice = page.getByRole('alert').filter({ hasText: 'Ihre Karte wurde abgelehnt' });
      await notice.waitFor();
      assert.equal(
        (await notice.innerText()).replace(/\s+/g, ' ').trim(),
        'Ihre Karte wurde abgelehnt: nicht genügend Guthaben. Es wurde nichts abgebucht. Versuchen Sie eine andere Karte oder Zahlungsart.',
      );
      assert.equal(await page.locator('html').getAttribute('lang'), 'de');
      assert.match(page.url(), /[?&]lang=de(&|$)/);
      const content = await page.content();
      for (const leak of ['4000000000009995', '4000 0000 0000 9995', '•••• 9995']) assert.ok(!content.includes(leak), leak);
      assert.equal((await rest<Wrapper>('GET', `/rest/invoices/${encodeURIComponent(number)}`)).invoice.status, 'pending');
      await page.screenshot({ path: `${SCREENSHOT_DIR}pages-invoice-declined-de.png`, fullPage: true });

      await payByCard('4111111111111111');
      await page.getByRole('heading', { name: 'Rechnung bezahlt' }).waitFor();
      assert.equal((await rest<Wrapper>('GET', `/rest/invoices/${encodeURIComponent(number)}`)).invoice.status, 'paid');
    } finally {
      await context.close();
    }
  });
});
