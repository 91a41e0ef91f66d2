/**
 * Browser end-to-end: the real `gateway serve` serves the renderer at /app/ (one staff login, the
 * areas of the role, deep links) and Swagger UI at /docs; headless Chromium loads both. Nothing may leave the gateway's origin, break the CSP or log an
 * error. Screenshots land in docs/screenshots/.
 * Needs a built renderer (`npm run build:renderer`; `npm test` builds it first).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const EXPECTED_API_VERSION = '3.21.5';
const VIEWPORT = { width: 1024, height: 768 };
const PAGES = ['/app/', '/docs', '/docs/back-office'] as const;

let gateway: GatewayProcess;
let browser: Browser;
let officePassword = '';

before(async () => {
  if (!existsSync(RENDERER_INDEX)) {
    throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  }
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  const merchant = createMerchant(gateway.dataDir, 'Corner Bakery');
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
  officePassword = (JSON.parse(office.stdout) as { password: string }).password;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

interface Visit {
  page: Page;
  /** Every URL the page asked for, including its own document. */
  requests: string[];
  /** Console errors, CSP violations, uncaught exceptions and failed requests, up to now. */
  problems: () => Promise<string[]>;
  close: () => Promise<void>;
}

/** Records CSP violations inside the page, so none is missed when the console event comes late. */
const RECORD_CSP_VIOLATIONS = `
  globalThis.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    globalThis.__cspViolations.push(event.effectiveDirective + ' blocked ' + (event.blockedURI || 'inline') + ' from ' + (event.sourceFile || '?'));
  });
`;

/** What each page shows once it has done its work: the health check answered, the spec rendered. */
const RENDERED: Record<(typeof PAGES)[number], (page: Page) => Promise<void>> = {
  '/app/': (page) =>
    page
      .getByRole('status')
      .getByText(/^Gateway (running|not available)/)
      .waitFor({ timeout: 10_000 }),
  '/docs': (page) => page.locator('.swagger-ui .info .title').waitFor({ timeout: 45_000 }),
  '/docs/back-office': (page) => page.locator('.swagger-ui .info .title').waitFor({ timeout: 45_000 }),
};

/** Opens path on the gateway in a fresh 1024x768 context and records what the page does. */
async function visit(path: (typeof PAGES)[number]): Promise<Visit> {
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block' });
  await context.addInitScript({ content: RECORD_CSP_VIOLATIONS });
  const requests: string[] = [];
  const problems: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  context.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? '?'})`));
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  const response = await page.goto(new URL(path, gateway.url).href, { waitUntil: 'networkidle' });
  assert.equal(response?.status(), 200, `GET ${path}`);
  await RENDERED[path](page);
  await page.waitForLoadState('networkidle');
  return {
    page,
    requests,
    problems: async () => [...problems, ...(await page.evaluate<string[]>('globalThis.__cspViolations')).map((v) => `CSP violation: ${v}`)],
    close: () => context.close(),
  };
}

async function readHealthVersion(): Promise<string> {
  const response = await fetch(new URL('/health', gateway.url));
  assert.equal(response.status, 200);
  const body = (await response.json()) as { status: string; version: string };
  assert.equal(body.status, 'ok');
  return body.version;
}

void test('/app/ asks for one login for the whole app (with the gateway status), then shows the areas of the role and the gateway page', async () => {
  const version = await readHealthVersion();
  assert.equal(version, EXPECTED_API_VERSION);
  const { page, close } = await visit('/app/');
  try {
    assert.equal(await page.title(), 'Tillgate');
    const banner = page.getByRole('banner');
    assert.match((await banner.textContent()) ?? '', /Tillgate/);
    assert.match((await banner.textContent()) ?? '', /Test environment/);
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'Staff login' }).waitFor();
    await page.getByRole('status').getByText(`Gateway running, API version ${version}`, { exact: true }).waitFor({ timeout: 10_000 });
    assert.equal(await page.getByRole('navigation', { name: 'Product areas' }).count(), 0, 'no areas before login');
    await page.screenshot({ path: `${SCREENSHOT_DIR}foundation-login.png` });

    await main.getByLabel('Login', { exact: true }).fill('office');
    await main.getByText('Password', { exact: true }).click();
    await main.getByRole('textbox', { name: 'Password' }).fill(officePassword);
    await page.keyboard.press('Enter');
    await banner.getByText('Mira Novak').waitFor();

    // At 1024 px the areas fold behind the header's Menu button.
    const menu = banner.getByRole('button', { name: 'Menu' });
    await menu.click();
    const nav = page.getByRole('navigation', { name: 'Product areas' });
    const links = await nav.getByRole('link').allTextContents();
    for (const area of ['Dashboard', 'Cashier', 'Gateway'])
      assert.ok(links.includes(area), `navigation links ${area}: ${links.join(', ')}`);
    assert.equal(links[0], 'Dashboard', 'the back office starts on its first area, the dashboard');
    // The back office's areas are listed; Settings is an admin's.
    for (const area of ['Network tokens', 'Checkouts', 'Postbacks'])
      assert.ok(((await nav.textContent()) ?? '').includes(area), `lists ${area}`);
    assert.equal(await nav.getByText('Settings').count(), 0, 'Settings is not listed for back office');
    assert.equal(await nav.getByRole('button').count(), 0);
    await nav.getByRole('link', { name: 'Gateway' }).click();
    await main.getByRole('heading', { name: 'Gateway', exact: true }).waitFor();
    assert.match(page.url(), /#\/gateway$/, 'the screen has its own address');
    assert.ok(((await main.textContent()) ?? '').includes(new URL(gateway.url).origin), 'shows the API base URL');
    assert.equal(await main.getByRole('link', { name: 'API documentation' }).getAttribute('href'), '/docs');
    assert.equal(await main.getByRole('link', { name: 'OpenAPI document' }).getAttribute('href'), '/openapi.json');

    // 44 px targets, and the frame fits 1024 px without scrolling sideways.
    for (const target of await page.locator('main a, main button').all()) {
      const box = await target.boundingBox();
      assert.ok(box && box.height >= 44 && box.width >= 44, `target ${await target.textContent()} is at least 44x44 px`);
    }
    assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= VIEWPORT.width, 'no horizontal scroll');
    await page.screenshot({ path: `${SCREENSHOT_DIR}foundation-app-home.png`, fullPage: true });

    // Deep links: a reload keeps the place; back and forward move between screens.
    await page.goto(new URL('/app/#/cashier/sales', gateway.url).href);
    await main.getByRole('heading', { name: 'Today’s sales' }).waitFor();
    await page.reload({ waitUntil: 'networkidle' });
    await main.getByRole('heading', { name: 'Today’s sales' }).waitFor();
    await page.goBack();
    await main.getByRole('heading', { name: 'Gateway', exact: true }).waitFor();
    await page.goForward();
    await main.getByRole('heading', { name: 'Today’s sales' }).waitFor();
    // An address that is no screen says so.
    await page.goto(new URL('/app/#/no-such-screen', gateway.url).href);
    await main.getByRole('heading', { name: 'Nothing here' }).waitFor();
  } finally {
    await close();
  }
});

void test('/app/ shows a clear error and recovers with Retry when /health fails', async () => {
  const { page, close } = await visit('/app/');
  try {
    await page
      .getByRole('status')
      .getByText(/Gateway running/)
      .waitFor();
    // Make the next health check fail, then reload so the shell starts from a failed check.
    await page.route('**/health', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }));
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByRole('status').getByText('Gateway not available. The gateway answered HTTP 503 to the health check.').waitFor();
    await page.unroute('**/health');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('status').getByText(`Gateway running, API version ${EXPECTED_API_VERSION}`).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Retry' }).count(), 0);
  } finally {
    await close();
  }
});

void test('/docs and /docs/back-office render Swagger UI with the spec title, and every documented operation is on one of them', async () => {
  const spec = (await (await fetch(new URL('/openapi.json', gateway.url))).json()) as {
    paths: Record<string, Record<string, { tags?: string[] }>>;
  };
  const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
      .map(([method, op]) => ({ method, path, backOffice: op.tags?.[0] === 'Back-office UI' })),
  );
  assert.ok(
    operations.some(({ method, path }) => method === 'get' && path === '/rest/transactions'),
    'the spec documents GET /rest/transactions',
  );
  assert.ok(
    operations.some(({ backOffice }) => backOffice),
    'the spec documents the back-office routes',
  );

  for (const [where, backOffice, title, shotName] of [
    ['/docs', false, 'Tillgate payment gateway API', 'foundation-api-docs'],
    ['/docs/back-office', true, 'Tillgate payment gateway API: back-office routes', 'foundation-api-docs-back-office'],
  ] as const) {
    const { page, close } = await visit(where);
    try {
      await page.locator('.swagger-ui .info .title').getByText(title).waitFor({ timeout: 45_000 });
      for (const { method, path } of operations.filter((o) => o.backOffice === backOffice)) {
        const operation = page.locator(`.opblock-${method} .opblock-summary-path[data-path="${path}"]`);
        assert.equal(await operation.count(), 1, `${where} lists ${method.toUpperCase()} ${path}`);
        assert.ok(await operation.isVisible(), `${method.toUpperCase()} ${path} is visible`);
      }
      assert.equal(
        await page.locator('.opblock').count(),
        operations.filter((o) => o.backOffice === backOffice).length,
        `${where} lists only its own operations`,
      );
      await page.screenshot({ path: `${SCREENSHOT_DIR}${shotName}.png`, fullPage: true });
    } finally {
      await close();
    }
  }
});

for (const path of PAGES) {
  void test(`${path}: no request leaves the gateway's origin`, async () => {
    const origin = new URL(gateway.url).origin;
    const { requests, close } = await visit(path);
    await close();
    assert.ok(requests.length > 1, `${path} loaded its assets`);
    const foreign = requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
    assert.deepEqual(foreign, [], `${path} asked only ${origin}`);
  });

  void test(`${path}: no console error, CSP violation, uncaught exception or failed request`, async () => {
    const { problems, close } = await visit(path);
    try {
      assert.deepEqual(await problems(), [], `${path} ran cleanly`);
    } finally {
      await close();
    }
  });
}

/** A non-loopback IPv4 address of this machine, as a till on the shop's network would use. */
function lanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
}

void test(
  'on a LAN address the gateway serves /docs and /app/ over HTTPS only (self-signed certificate)',
  { skip: lanAddress() ? false : 'no non-loopback IPv4 address' },
  async () => {
    const lanGateway = await startGateway({ args: ['--host', lanAddress() ?? ''] });
    // A till trusts the gateway's self-signed certificate once (its fingerprint is printed at start).
    const context = await browser.newContext({ viewport: VIEWPORT, ignoreHTTPSErrors: true });
    try {
      assert.match(lanGateway.url, /^https:\/\//, 'beyond loopback the gateway speaks HTTPS');
      const failed: string[] = [];
      const page = await context.newPage();
      page.on('requestfailed', (request) => failed.push(`${request.url()} (${request.failure()?.errorText ?? '?'})`));
      await page.goto(new URL('/docs', lanGateway.url).href, { waitUntil: 'networkidle' });
      assert.deepEqual(failed, [], 'every /docs asset loads');
      await page.locator('.swagger-ui .info .title').getByText('Tillgate payment gateway API').waitFor({ timeout: 45_000 });
      await page.goto(new URL('/app/', lanGateway.url).href, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Staff login' }).waitFor();
      assert.deepEqual(failed, [], 'every /app/ asset loads');
    } finally {
      await context.close();
      await lanGateway.stop();
    }
  },
);
