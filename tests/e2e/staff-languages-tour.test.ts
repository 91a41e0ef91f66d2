/**
 * Issue 36's "done when" (D21): Chromium with de-DE, pt-PT, hr-HR and the pseudo-locale en-XA goes
 * through the log-in, a sale with a PIN retry, Today's sales, Close the day (its X report) and three
 * back-office screens (transactions, invoices, network tokens), each in its language: no English
 * word left (tests/helpers/language-checks.ts: words of the English catalogue the language's own
 * catalogue lacks; for en-XA, any plain English word), no text cut off, at 1024x768 and, for the
 * till, 800x1280 too. The shop speaks the language (Settings); for en-XA the computer's pseudo-locale
 * overrides it. Screenshots docs/screenshots/till-<language>.png and transactions-<language>.png.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import type { MessageId } from '../../contract/i18n/catalogues.js';
import type { MessageValues } from '../../contract/i18n/format.js';
import { launchChromium } from '../helpers/browser.js';
import { createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import { clippedTexts, englishLeft, say, type ScreenLanguage } from '../helpers/language-checks.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/** Each run: the computer's locale, the shop's language (Settings), and the file name of its screenshots. */
const RUNS: ReadonlyArray<{ language: ScreenLanguage; locale: string; shop: 'de' | 'pt' | 'hr' | 'en'; name: string }> = [
  { language: 'de', locale: 'de-DE', shop: 'de', name: 'de' },
  { language: 'pt', locale: 'pt-PT', shop: 'pt', name: 'pt' },
  { language: 'hr', locale: 'hr-HR', shop: 'hr', name: 'hr' },
  { language: 'pseudo', locale: 'en-XA', shop: 'en', name: 'pseudo' },
];

/**
 * Names and data on the screens, the same in every language: the shop's and people's names, card
 * brands, the product, and the first till's name and id ("Till 1", TILL-1: data the gateway gives the
 * first till, which the shop renames in Settings -> Tills).
 */
const DATA_WORDS = ['Tillgate', 'Mastercard', 'Visa', 'Bäckerei', 'Sprachen', 'Kasia', 'Olga', 'Owner', 'Cashier', 'Till'];

let gateway: GatewayProcess;
let browser: Browser;

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

/** A shop of its own per language, with a cashier (PIN 1470) and an admin (PIN 2580), its language set through Settings' API. */
async function shopFor(run: (typeof RUNS)[number]): Promise<void> {
  const merchant = createMerchant(gateway.dataDir, `Sprachen Bäckerei ${run.name}`);
  for (const [role, login, pin, name] of [
    ['cashier', `kasia-${run.name}`, '1470', 'Kasia Cashier'],
    ['admin', `olga-${run.name}`, '2580', 'Olga Owner'],
  ] as const) {
    const made = runGateway([
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
      '--pin',
      pin,
      '--name',
      name,
      '--json',
    ]);
    assert.equal(made.status, 0, made.stderr);
  }
  const login = await fetch(new URL('/ui/session', gateway.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: `olga-${run.name}`, pin: '2580' }),
  });
  assert.equal(login.status, 200, await login.text());
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const profile = (await (await fetch(new URL('/ui/profile', gateway.url), { headers: { cookie } })).json()) as {
    name: string;
    currency: string;
  };
  const saved = await fetch(new URL('/ui/profile', gateway.url), {
    method: 'PUT',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: profile.name, currency: profile.currency, language: run.shop }),
  });
  assert.equal(saved.status, 200, await saved.text());
}

for (const run of RUNS) {
  describe(`the staff screens in ${run.locale}`, () => {
    let page: Page;
    const problems: string[] = [];
    const t = (id: MessageId, values?: MessageValues) => say(run.language, id, values);
    const main = () => page.getByRole('main');

    /** No English word and no text cut off on the screen now. */
    async function speaksItsLanguage(where: string): Promise<void> {
      await page.waitForTimeout(200);
      const english = await englishLeft(page, run.language, DATA_WORDS);
      const clipped = await clippedTexts(page);
      // What failed, as a picture beside the test's output (not docs: a failed run's screen).
      if (english.length + clipped.length > 0)
        await page.screenshot({ path: join(tmpdir(), `tour-${run.name}-${where.replace(/\W+/g, '-')}.png`) });
      assert.deepEqual(english, [], `${run.locale} ${where}: English left`);
      assert.deepEqual(clipped, [], `${run.locale} ${where}: text cut off`);
    }

    async function logIn(login: string, pin: string): Promise<void> {
      await page.getByRole('heading', { name: t('login.title'), level: 1 }).waitFor();
      await page.getByLabel(t('login.login'), { exact: true }).fill(login);
      await page.locator('input[type=password]').fill(pin);
      await page.keyboard.press('Enter');
    }

    before(async () => {
      await shopFor(run);
      const context = await browser.newContext({ locale: run.locale, viewport: { width: 1024, height: 768 }, serviceWorkers: 'block' });
      page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
    });

    after(async () => {
      await page?.context().close();
    });

    test('log-in, then a sale whose first PIN is wrong and whose second is right', async () => {
      await page.goto(new URL('/app/#/cashier', gateway.url).href, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: t('login.title'), level: 1 }).waitFor();
      await speaksItsLanguage('log-in');
      await logIn(`kasia-${run.name}`, '1470');
      await main()
        .getByRole('heading', { name: t('till.sale.title') })
        .waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), run.language === 'pseudo' ? 'en-XA' : run.language);
      await page.keyboard.type('8000');
      await speaksItsLanguage('till');
      await page.keyboard.press('Enter');
      await main()
        .getByRole('heading', { name: t('till.card.title') })
        .waitFor();
      await speaksItsLanguage('card prompt');
      await main()
        .getByRole('button', { name: t('till.testReader.present', { method: 'tap', brand: 'Mastercard', number: '5555555555554444' }) })
        .click();
      const pad = main().getByRole('region', { name: t('till.pin.title') });
      await pad.waitFor();
      await page.keyboard.type('9999');
      await speaksItsLanguage('PIN pad');
      await page.keyboard.press('Enter');
      const declined = main()
        .getByRole('alert')
        .filter({ has: page.getByRole('heading', { name: t('till.decline.55.title') }) });
      await declined.waitFor();
      assert.ok(
        (await declined.textContent())?.includes(t('till.decline.55', { tries: 2 })),
        'the retry says how many tries are left, in the language',
      );
      await speaksItsLanguage('wrong PIN');
      await declined.getByRole('button', { name: t('till.decline.retryPin') }).click();
      await pad.waitFor();
      await page.keyboard.type('1234');
      await page.keyboard.press('Enter');
      await main()
        .getByRole('status')
        .filter({ has: page.getByRole('heading', { name: t('common.approved') }) })
        .waitFor({ timeout: 15_000 });
      await speaksItsLanguage('approved');
      await page.screenshot({ path: `${SCREENSHOT_DIR}till-${run.name}.png` });
      // The till at 800x1280 (a tablet standing upright) in the same language: nothing cut off either.
      await page.setViewportSize({ width: 800, height: 1280 });
      try {
        await speaksItsLanguage('approved at 800x1280');
      } finally {
        await page.setViewportSize({ width: 1024, height: 768 });
      }
    });

    test("Today's sales and Close the day with its X report", async () => {
      await main()
        .getByRole('link', { name: t('till.cashier.sales') })
        .click();
      await main()
        .getByRole('heading', { name: t('sales.title'), level: 2 })
        .or(main().getByRole('heading', { name: t('sales.title') }))
        .first()
        .waitFor();
      await main().getByRole('table').first().waitFor();
      await speaksItsLanguage("Today's sales");
      await main()
        .getByRole('link', { name: t('till.cashier.close') })
        .click();
      await main()
        .getByRole('heading', { name: t('reports.dayClose.title') })
        .first()
        .waitFor();
      await speaksItsLanguage('Close the day');
    });

    test('the back office: transactions, invoices and network tokens', async () => {
      await page
        .getByRole('banner')
        .getByRole('button', { name: t('shell.logout') })
        .click();
      await logIn(`olga-${run.name}`, '2580');
      await page.goto(new URL('/app/#/transactions', gateway.url).href);
      await main()
        .getByRole('heading', { name: t('transactions.title'), level: 1 })
        .waitFor();
      await main().getByRole('table').getByRole('row').nth(1).waitFor();
      await speaksItsLanguage('transactions');
      await page.screenshot({ path: `${SCREENSHOT_DIR}transactions-${run.name}.png` });
      await page.goto(new URL('/app/#/invoices', gateway.url).href);
      await main()
        .getByRole('heading', { name: t('invoices.title'), level: 1 })
        .waitFor();
      await speaksItsLanguage('invoices');
      await page.goto(new URL('/app/#/network-tokens', gateway.url).href);
      await main()
        .getByRole('heading', { name: t('tokens.list.title'), level: 1 })
        .waitFor();
      await speaksItsLanguage('network tokens');
      assert.deepEqual(problems, []);
    });
  });
}
