/**
 * The staff screens speak the computer's language before anyone logs in, and the shop's once someone
 * has (D21, issue 36; the screens converted so far: the log-in). Real Chromium with de-DE, pt-PT,
 * hr-HR and en-US locales against a real gateway: the log-in's words, `<html lang>`, a missing field
 * named in the language, and the shop's language (Settings) taking over after the log-in.
 * Screenshots docs/screenshots/login-<language>.png.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { assertAxeClean, launchChromium } from '../helpers/browser.js';
import { createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

let gateway: GatewayProcess;
let browser: Browser;

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  const merchant = createMerchant(gateway.dataDir, 'Sprachen Bäckerei');
  const made = runGateway([
    'staff',
    'create',
    '--data-dir',
    gateway.dataDir,
    '--merchant',
    merchant.merchant_id,
    '--role',
    'cashier',
    '--login',
    'kasia',
    '--pin',
    '1470',
    '--name',
    'Kasia',
    '--json',
  ]);
  assert.equal(made.status, 0, made.stderr);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

const LOGIN: Record<string, { locale: string; lang: string; title: string; field: string; submit: string; missing: RegExp }> = {
  de: { locale: 'de-DE', lang: 'de', title: 'Anmeldung', field: 'Benutzername', submit: 'Anmelden', missing: /Benutzernamen und Ihre PIN/ },
  pt: {
    locale: 'pt-PT',
    lang: 'pt',
    title: 'Iniciar sessão',
    field: 'Utilizador',
    submit: 'Iniciar sessão',
    missing: /utilizador e o seu PIN/,
  },
  hr: {
    locale: 'hr-HR',
    lang: 'hr',
    title: 'Prijava djelatnika',
    field: 'Korisničko ime',
    submit: 'Prijava',
    missing: /korisničko ime i PIN/,
  },
  en: { locale: 'en-US', lang: 'en', title: 'Staff login', field: 'Login', submit: 'Log in', missing: /your login and your PIN/ },
};

for (const [language, expected] of Object.entries(LOGIN)) {
  test(`a ${expected.locale} computer: the log-in speaks ${language}, <html lang="${expected.lang}">, a missing PIN is named in it`, async () => {
    const context = await browser.newContext({ locale: expected.locale, viewport: { width: 1024, height: 768 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text());
    });
    await page.goto(new URL('/app/#/cashier', gateway.url).href, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: expected.title, level: 1 }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), expected.lang);
    await page.getByLabel(expected.field, { exact: true }).fill('kasia');
    await page.getByRole('button', { name: expected.submit, exact: true }).click();
    assert.match((await page.getByRole('alert').textContent()) ?? '', expected.missing);
    await assertAxeClean(page, `login ${language}`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}login-${language}.png` });
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("after the log-in the screens take the shop's language over the computer's (an English shop, a Croatian computer)", async () => {
  const context = await browser.newContext({ locale: 'hr-HR', viewport: { width: 1024, height: 768 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(new URL('/app/#/cashier', gateway.url).href, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Prijava djelatnika', level: 1 }).waitFor();
  // The shop is English: once logged in, the session says so and <html lang> follows the shop.
  await page.getByLabel('Korisničko ime', { exact: true }).fill('kasia');
  await page.locator('input[type=password]').fill('1470');
  await page.keyboard.press('Enter');
  await page.locator('html[lang="en"]').waitFor({ state: 'attached' });
  await page.getByRole('main').getByRole('heading', { name: 'New sale' }).waitFor();
  await context.close();
});
