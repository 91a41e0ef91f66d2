/**
 * Browser end-to-end of Settings -> Shops and terminals (issue 17) against the real `gateway serve`:
 * an admin adds two shops, assigns this till's terminal (TILL-1) to one and moves it to the other,
 * takes it out again; a partner's CVM limit for the shop reaches the till (GET /ui/terminal); a back
 * office login is kept out of Settings. axe-core (WCAG 2.2 AA) finds no violation, nothing scrolls
 * sideways; screenshots docs/screenshots/backoffice-settings-*.png at 1366x900 and 1024x768.
 * Needs a built renderer (`npm run build:renderer`) and Debian's chromium.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { assertAxeClean, launchChromium } from '../helpers/browser.js';
import { basicAuth, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WIDE = { width: 1366, height: 900 } as const;
const NARROW = { width: 1024, height: 768 } as const;

let gateway: GatewayProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let merchantId: string;
let partner: { partner_id: string; api_key: string; api_password: string };
const problems: string[] = [];

function cli(args: string[]): string {
  const result = runGateway([...args, '--data-dir', gateway.dataDir]);
  assert.equal(result.status, 0, `gateway ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  partner = JSON.parse(cli(['partner', 'create', '--name', 'POS Vendor', '--json'])) as typeof partner;
  merchantId = (
    JSON.parse(cli(['merchant', 'create', '--name', 'Corner Bakery', '--partner', partner.partner_id, '--json'])) as { merchant_id: string }
  ).merchant_id;
  cli(['staff', 'create', '--merchant', merchantId, '--role', 'admin', '--login', 'owner', '--pin', '4711', '--name', 'Olga Owner']);
  cli(['staff', 'create', '--merchant', merchantId, '--role', 'back_office', '--login', 'office', '--pin', '9999', '--name', 'Mira Novak']);
  browser = await launchChromium();
  // bypassCSP: axe-core is injected as a script tag; the app's own CSP is checked in cashier.test.ts.
  context = await browser.newContext({ viewport: WIDE, serviceWorkers: 'block', bypassCSP: true });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
});

after(async () => {
  await context?.close();
  await browser?.close();
  await gateway?.stop();
});

const main = () => page.getByRole('main');

async function axe(where: string): Promise<void> {
  await assertAxeClean(page, where);
}

/** axe, nothing scrolls sideways, then the screenshot at the page's current size. */
async function shot(name: string): Promise<void> {
  const size = page.viewportSize() ?? WIDE;
  await axe(`${name} at ${size.width}`);
  assert.ok(
    (await page.evaluate<number>('document.documentElement.scrollWidth')) <= size.width,
    `${name} at ${size.width}: no horizontal scroll`,
  );
  await page.screenshot({ path: join(SCREENSHOT_DIR, `backoffice-settings-${name}-${size.width}.png`), fullPage: true });
}

async function login(name: string, pin: string): Promise<void> {
  await main().getByLabel('Login', { exact: true }).fill(name);
  await main().locator('input[type=password]').fill(pin);
  await page.keyboard.press('Enter');
}

async function tillCvmLimit(): Promise<number> {
  return page.evaluate(
    async () => ((await (await fetch('/ui/terminal', { credentials: 'same-origin' })).json()) as { cvm_limit: number }).cvm_limit,
  );
}

void test('an admin adds shops and puts the till in one of them; Settings is in the menu', async () => {
  await page.goto(new URL('/app/#/settings', gateway.url).href, { waitUntil: 'networkidle' });
  await login('owner', '4711');
  await main().getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  assert.match(page.url(), /#\/settings$/, 'the deep link survived the login');
  await main().getByText('No shops yet').waitFor();
  assert.ok(
    (await page.getByRole('navigation', { name: 'Product areas' }).getByRole('link', { name: 'Settings' }).count()) === 1,
    'Settings is an area of the admin',
  );

  const shopName = main().getByLabel('Shop name');
  await shopName.fill('High Street');
  await main().getByRole('button', { name: 'Add shop' }).click();
  await main().getByRole('status').getByText('Shop High Street added.').waitFor();
  await shopName.fill('Station Road');
  await main().getByRole('button', { name: 'Add shop' }).click();
  await main().getByRole('status').getByText('Shop Station Road added.').waitFor();

  await main().getByLabel('Terminal id').fill('TILL-1');
  await main().getByLabel('Shop', { exact: true }).selectOption({ label: 'High Street' });
  await main().getByRole('button', { name: 'Assign terminal' }).click();
  await main().getByRole('status').getByText('Terminal TILL-1 belongs to High Street.').waitFor();
  await main().getByRole('list', { name: 'Terminals of High Street' }).getByText('TILL-1', { exact: true }).waitFor();
  await shot('shops');
  await page.setViewportSize(NARROW);
  await shot('shops');
  await page.setViewportSize(WIDE);

  // A terminal belongs to one shop: assigning it elsewhere moves it.
  await main().getByLabel('Terminal id').fill('TILL-1');
  await main().getByLabel('Shop', { exact: true }).selectOption({ label: 'Station Road' });
  await main().getByRole('button', { name: 'Assign terminal' }).click();
  await main().getByRole('status').getByText('Terminal TILL-1 moved from High Street to Station Road.').waitFor();
  assert.equal(await main().getByRole('list', { name: 'Terminals of High Street' }).count(), 0);
  await main().getByRole('list', { name: 'Terminals of Station Road' }).getByText('TILL-1', { exact: true }).waitFor();

  // The partner sets Station Road's contactless PIN limit: the till asks its terminal's.
  assert.equal(await tillCvmLimit(), 50);
  const shops = await page.evaluate(
    async () => (await (await fetch('/ui/shops', { credentials: 'same-origin' })).json()) as Array<{ shop_id: string; name: string }>,
  );
  const station = shops.find((s) => s.name === 'Station Road')?.shop_id ?? '';
  const set = await fetch(new URL(`/v2/merchants/${merchantId}/shops/${station}/payment-methods/cardpos`, gateway.url), {
    method: 'PUT',
    headers: { authorization: basicAuth(partner), 'content-type': 'application/json' },
    body: JSON.stringify({ cvm_limit: { EUR: 25 } }),
  });
  assert.equal(set.status, 201);
  assert.equal(await tillCvmLimit(), 25);

  await main().getByRole('button', { name: 'Take out terminal TILL-1' }).click();
  await main().getByRole('status').getByText('Terminal TILL-1 no longer belongs to Station Road.').waitFor();
  assert.equal(await tillCvmLimit(), 50);

  // A problem is said in words at its field, which is marked invalid and described by it.
  const terminalField = main().getByLabel('Terminal id');
  await terminalField.fill('has space');
  await main().getByRole('button', { name: 'Assign terminal' }).click();
  const refusal = 'A terminal id is 1 to 64 letters, digits or signs, without spaces, as the POS sends it.';
  await main().getByRole('alert').getByText(refusal).waitFor();
  assert.equal(await terminalField.getAttribute('aria-invalid'), 'true');
  const described = await Promise.all(
    ((await terminalField.getAttribute('aria-describedby')) ?? '').split(' ').map((id) => main().locator(`#${id}`).textContent()),
  );
  assert.match(described.join(' '), /1 to 64 letters/, 'the field is described by its problem');
  const shopField = main().getByLabel('Shop name');
  await shopField.fill('   ');
  await main().getByRole('button', { name: 'Add shop' }).click();
  await main().getByRole('alert').getByText('Give the shop a name.').waitFor();
  assert.equal(await shopField.getAttribute('aria-invalid'), 'true');
  await shot('refused');
  await page.setViewportSize(NARROW);
  await shot('refused');
  await page.setViewportSize(WIDE);
  assert.deepEqual(problems, []);
});

void test('a back-office login is kept out of Settings', async () => {
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  await page.goto(new URL('/app/#/settings', gateway.url).href, { waitUntil: 'networkidle' });
  await login('office', '9999');
  await main().getByRole('heading', { name: 'Not open to your role' }).waitFor();
  assert.match((await main().textContent()) ?? '', /This screen is for admin staff/);
  assert.equal(await page.getByRole('navigation', { name: 'Product areas' }).getByText('Settings').count(), 0);
});
