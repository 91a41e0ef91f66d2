/**
 * Every screen size a till has (issue "The till", item 2) and axe-core on every till screen (item 3),
 * in Chromium against the real `gateway serve`. At 800x1280 (tablet, portrait), 1024x768, 1366x768
 * and 1920x1080 the cashier walks login, amount (12.50, 1,234,567.89 and the largest amount,
 * 999,999,999.99), the confirmation above the till's usual limit, waiting for the card with the test
 * reader, the PIN pad, processing, checking, approved with the receipt, declined, failed, today's
 * sales with the refund dialog, the shortcuts, the set-my-PIN dialog and closing the day. On each
 * screen the test measures that nothing is cut or covered: the page never scrolls sideways, no box
 * clips its text (amounts shrink to fit instead), no control's label ends in "…" (it reads as cut),
 * no element reaches outside the window, every button and link is at least 44x44 px (keypad and PIN
 * keys 48x48, the PIN keys all alike), the reader's buttons never cover a card number; below 1100 px
 * the side menu is folded behind the Menu button. axe-core
 * (WCAG 2.0-2.2 A and AA rules) finds no violation. Screenshots:
 * docs/screenshots/till-<width>x<height>-<screen>.png.
 * The page's Content-Security-Policy allows no inline script, so the context bypasses it to inject
 * axe-core (tests/e2e/cashier.test.ts checks the policy itself).
 * Needs a built renderer (`npm run build:renderer`; `npm test` builds it first).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const TRACK2 = ';4111111111111111=30121010000000000000?';

const SIZES = [
  { width: 800, height: 1280 },
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;
type Size = (typeof SIZES)[number];
/** Below this width the side menu folds behind the Menu button. */
const MENU_FOLDS_BELOW = 1100;

/**
 * Measurements inside the page (plain JS: the tests' TypeScript has no DOM types). Each returns a
 * list of problems, empty when the screen is fine.
 */
const MEASURE = `
globalThis.__sizes = {
  describe(el) {
    const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    return el.tagName.toLowerCase() + cls + ' "' + (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 50) + '"';
  },
  shown(el) {
    const rect = el.getBoundingClientRect();
    return rect.width > 1 && rect.height > 1 && el.checkVisibility({ visibilityProperty: true }) && !el.closest('.visually-hidden');
  },
  /** Nothing reaches outside the window, no box clips its content sideways, the page does not scroll sideways. */
  cut() {
    const problems = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) problems.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
    for (const root of document.querySelectorAll('header, main, dialog[open]')) {
      for (const el of [root, ...root.querySelectorAll('*')]) {
        if (!this.shown(el)) continue;
        const rect = el.getBoundingClientRect();
        if (rect.right > width + 0.5 || rect.left < -0.5) problems.push(this.describe(el) + ' reaches outside the window: ' + Math.round(rect.left) + '..' + Math.round(rect.right) + ' of ' + width);
        if (getComputedStyle(el).overflowX !== 'visible' && !el.closest('[aria-hidden="true"]') && el.scrollWidth > el.clientWidth + 1) {
          problems.push(this.describe(el) + ' cuts its content: ' + el.scrollWidth + ' > ' + el.clientWidth);
        }
        // A control's words never spill over its edge, and never end in "…", which reads as a label cut short.
        if (el.matches('button, a, .tab') && el.scrollWidth > el.clientWidth + 1) problems.push(this.describe(el) + ' spills over its edge: ' + el.scrollWidth + ' > ' + el.clientWidth);
        if (el.matches('button, a, .tab') && /(…|\\.\\.\\.)$/.test((el.textContent || '').trim())) problems.push(this.describe(el) + ' ends in an ellipsis');
      }
    }
    return problems;
  },
  /** Every button and link is at least min x min px. */
  targets(min) {
    const problems = [];
    for (const el of document.querySelectorAll('header button, header a, main button, main a, dialog[open] button, dialog[open] a, #side-nav a')) {
      if (!this.shown(el)) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width < min - 0.01 || rect.height < min - 0.01) problems.push(this.describe(el) + ' is ' + rect.width.toFixed(1) + 'x' + rect.height.toFixed(1));
    }
    return problems;
  },
  /** Keys of a pad: at least min x min and all of one size. */
  keys(selector, min) {
    const boxes = [...document.querySelectorAll(selector)].filter((el) => this.shown(el)).map((el) => el.getBoundingClientRect());
    if (boxes.length === 0) return ['no keys ' + selector];
    const problems = [];
    for (const box of boxes) {
      if (box.width < min || box.height < min) problems.push(selector + ' key of ' + box.width.toFixed(1) + 'x' + box.height.toFixed(1));
      if (Math.abs(box.width - boxes[0].width) > 1 || Math.abs(box.height - boxes[0].height) > 1) problems.push(selector + ' keys differ: ' + box.width.toFixed(1) + 'x' + box.height.toFixed(1) + ' and ' + boxes[0].width.toFixed(1) + 'x' + boxes[0].height.toFixed(1));
    }
    return problems;
  },
  /** The test reader: every card number whole, and no button over any card number. */
  reader() {
    const problems = [];
    const numbers = [...document.querySelectorAll('.sim-card-number')];
    const buttons = [...document.querySelectorAll('.sim-reader button')].map((b) => [b, b.getBoundingClientRect()]);
    if (numbers.length === 0) problems.push('no test cards listed');
    for (const number of numbers) {
      const n = number.getBoundingClientRect();
      if (number.scrollWidth > number.clientWidth + 1) problems.push(this.describe(number) + ' is cut');
      for (const [button, b] of buttons) {
        if (b.left < n.right && n.left < b.right && b.top < n.bottom && n.top < b.bottom) problems.push(this.describe(button) + ' covers ' + this.describe(number));
      }
    }
    return problems;
  },
  /** Amounts (and the other one-line texts that shrink): the whole text fits its box. */
  amounts() {
    return [...document.querySelectorAll('.amount-value, .fit-line, .total dd')]
      .filter((el) => this.shown(el))
      .map((el) => ({ text: (el.textContent || '').trim(), fits: el.scrollWidth <= el.clientWidth, fontSize: parseFloat(getComputedStyle(el).fontSize) }));
  },
};
`;

let gateway: GatewayProcess;
let browser: Browser;
let merchantId: string;
const uncaught: string[] = [];

function staffCreate(role: string, login: string, pin: string, name: string): void {
  const result = runGateway([
    'staff',
    'create',
    '--data-dir',
    gateway.dataDir,
    '--merchant',
    merchantId,
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
  assert.equal(result.status, 0, `staff create ${login}: ${result.stderr}`);
}

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  merchantId = createMerchant(gateway.dataDir, 'Corner Bakery').merchant_id;
  staffCreate('cashier', 'anna', '1234', 'Anna Berg');
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

/** One window of one size, logged out. */
class Till {
  readonly name: string;
  private constructor(
    readonly size: Size,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {
    this.name = `${size.width}x${size.height}`;
  }

  static async open(size: Size): Promise<Till> {
    const context = await browser.newContext({ viewport: size, serviceWorkers: 'block', bypassCSP: true });
    await context.addInitScript({ content: MEASURE });
    const page = await context.newPage();
    page.on('pageerror', (error) => uncaught.push(`${size.width}x${size.height}: ${error.message}`));
    await page.goto(new URL('/app/#/cashier', gateway.url).href, { waitUntil: 'networkidle' });
    return new Till(size, context, page);
  }

  main() {
    return this.page.getByRole('main');
  }

  async login(): Promise<void> {
    // The till first settles an attempt another window left open (the last decline stays open
    // until the next charge or start resolves it); typing waits for that.
    const path = (response: { url(): string }) => new URL(response.url()).pathname;
    const open = this.page.waitForResponse((r) => path(r) === '/ui/till/attempt' && r.request().method() === 'GET');
    const resolved = this.page.waitForResponse((r) => path(r) === '/ui/till/attempt/resolve');
    resolved.catch(() => undefined);
    await this.main().getByLabel('Login', { exact: true }).fill('anna');
    await this.main().locator('input[type=password]').fill('1234');
    await this.page.keyboard.press('Enter');
    if (((await (await open).json()) as { attempt: unknown }).attempt) await resolved;
    await this.amountScreen();
  }

  async amountScreen(): Promise<void> {
    await this.main().getByRole('heading', { name: 'New sale' }).waitFor();
  }

  async measure<T>(expression: string): Promise<T> {
    return this.page.evaluate<T>(expression);
  }

  /** Nothing cut, covered or too small; axe finds nothing; then the screenshot. */
  async check(screen: string): Promise<void> {
    // Let transitions settle so the picture and the measurements show the state, not an animation frame.
    await this.page.waitForTimeout(200);
    const where = `${this.name} ${screen}`;
    assert.deepEqual(await this.measure<string[]>('__sizes.cut()'), [], `${where}: nothing is cut`);
    assert.deepEqual(await this.measure<string[]>('__sizes.targets(44)'), [], `${where}: every target is at least 44x44`);
    const amounts = await this.measure<{ text: string; fits: boolean }[]>('__sizes.amounts()');
    assert.deepEqual(
      amounts.filter((a) => !a.fits),
      [],
      `${where}: every amount shows whole`,
    );
    await this.axe(where);
    await this.page.screenshot({ path: `${SCREENSHOT_DIR}till-${this.name}-${screen}.png` });
  }

  async axe(where: string): Promise<void> {
    if (!(await this.measure<boolean>('typeof axe !== "undefined"'))) await this.page.addScriptTag({ path: AXE_PATH });
    const violations = await this.measure<{ id: string; help: string; nodes: string[] }[]>(
      `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} }, resultTypes: ['violations'] })
        .then((r) => r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 6).map((n) => n.target.join(' ') + ' | ' + (n.failureSummary || '').replace(/\\s+/g, ' ')) })))`,
    );
    assert.deepEqual(violations, [], `${where}: axe-core finds no violation`);
  }

  async amountShows(digits: string, shown: string): Promise<{ fontSize: number }> {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.type(digits);
    assert.equal(await this.main().locator('output.amount-value').textContent(), shown);
    const [amount] = (await this.measure<{ text: string; fits: boolean; fontSize: number }[]>('__sizes.amounts()')).filter(
      (a) => a.text === shown,
    );
    assert.ok(amount?.fits, `${this.name}: ${shown} shows whole (${JSON.stringify(amount)})`);
    return amount;
  }

  async close(): Promise<void> {
    // Log out, as a cashier leaving the till does: the till is free for the next window at once
    // (a window just closed would hold it until its beats have been missed for a minute).
    await this.page.evaluate(() => fetch('/ui/session', { method: 'DELETE', credentials: 'same-origin' }));
    await this.context.close();
  }
}

/** Holds a route's requests until released. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

for (const size of SIZES) {
  void test(`${size.width}x${size.height}: every till screen fits, nothing cut or covered, no axe violation`, async () => {
    const till = await Till.open(size);
    const { page } = till;
    const main = () => till.main();
    try {
      await main().getByRole('heading', { name: 'Staff login' }).waitFor();
      await till.check('login');
      await till.login();

      // The side menu: folded behind the Menu button on narrow screens, opened over the till, Esc closes it.
      const nav = page.getByRole('navigation', { name: 'Product areas' });
      const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
      await page.keyboard.type('1250');
      if (size.width < MENU_FOLDS_BELOW) {
        assert.equal(await nav.isVisible(), false, `${till.name}: the side menu is folded`);
        assert.equal(await menu.getAttribute('aria-expanded'), 'false');
        assert.equal(await menu.getAttribute('aria-controls'), 'side-nav');
        await menu.click();
        assert.equal(await menu.getAttribute('aria-expanded'), 'true');
        await nav.getByRole('link', { name: 'Cashier' }).waitFor();
        assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Cashier', 'focus goes to the first area');
        await till.check('menu');
        await page.keyboard.press('Escape');
        assert.equal(await nav.isVisible(), false, `${till.name}: Esc folds the menu`);
        assert.equal(await menu.getAttribute('aria-expanded'), 'false');
        assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Menu', 'focus goes back to the Menu button');
        assert.equal(await main().locator('output.amount-value').textContent(), '12.50', 'Esc closed the menu and left the amount alone');
        // Enter on the focused Menu button opens the menu again; the cashier goes back to Charge.
        await main()
          .getByRole('button', { name: /^Charge/ })
          .focus();
      } else {
        assert.equal(await nav.isVisible(), true, `${till.name}: the side menu shows`);
        assert.equal(await menu.isVisible(), false, `${till.name}: no Menu button`);
        const navBox = await nav.boundingBox();
        assert.ok(navBox && navBox.width <= 220, `${till.name}: the side menu keeps to 220 px`);
      }

      // Amounts shrink to fit rather than being cut: 12.50 at full size, up to 999,999,999.99.
      const small = await till.amountShows('1250', '12.50');
      const full = await till.amountShows('123456789', '1,234,567.89');
      assert.ok(small.fontSize >= 52, `${till.name}: 12.50 shows at full size (${small.fontSize}px)`);
      assert.ok(full.fontSize >= 32, `${till.name}: 1,234,567.89 stays large (${full.fontSize}px)`);
      assert.deepEqual(await till.measure<string[]>('__sizes.keys(".keypad .key", 48)'), [], `${till.name}: keypad keys`);
      await till.amountShows('1250', '12.50');
      await till.check('amount');
      await till.amountShows('99999999999', '999,999,999.99');
      await page.keyboard.type('9');
      assert.equal(await main().locator('output.amount-value').textContent(), '999,999,999.99', 'the keypad stops at the largest amount');
      await till.check('amount-largest');

      // Above the usual limit the till asks first: Esc goes back, Enter charges.
      await till.amountShows('150000', '1,500.00');
      await page.keyboard.press('Enter');
      const ask = page.getByRole('dialog', { name: 'Charge 1,500.00 EUR?' });
      await ask.waitFor();
      assert.match((await ask.textContent()) ?? '', /That is above this till’s usual limit of 1,000\.00 EUR/);
      await till.check('confirm');
      await page.keyboard.press('Escape');
      await ask.waitFor({ state: 'detached' });
      assert.equal(await main().locator('output.amount-value').textContent(), '1,500.00', 'Esc goes back with the amount');
      assert.equal(await main().getByRole('heading', { name: 'Tap, insert or swipe the card' }).count(), 0);

      await till.amountShows('99999999999', '999,999,999.99');
      await page.keyboard.press('Enter');
      const askLargest = page.getByRole('dialog', { name: 'Charge 999,999,999.99 EUR?' });
      await askLargest.waitFor();
      await page.keyboard.press('Enter');
      await main().getByRole('heading', { name: 'Tap, insert or swipe the card' }).waitFor();

      // Waiting for the card, with the test reader: a reader problem's words, cards listed without overlap.
      await main().getByRole('button', { name: 'Two cards' }).click();
      await main().getByText('More than one card was presented. Present one card only.').waitFor();
      assert.deepEqual(await till.measure<string[]>('__sizes.reader()'), [], `${till.name}: the reader's buttons cover no card number`);
      const reader = await main().getByRole('region', { name: 'Test card reader' }).boundingBox();
      assert.ok(
        reader && reader.y + reader.height <= size.height,
        `${till.name}: the whole reader is on screen (${JSON.stringify(reader)})`,
      );
      await till.check('waiting');

      // Contactless above 50.00: the PIN pad, its keys even and large.
      await main().getByRole('button', { name: 'Tap Mastercard 5555555555554444' }).click();
      await main().getByRole('region', { name: 'Enter the PIN' }).waitFor();
      await page.keyboard.type('12');
      assert.deepEqual(await till.measure<string[]>('__sizes.keys(".pin-keys .key", 48)'), [], `${till.name}: PIN keys`);
      await till.check('pin');

      // Processing, then the answer is lost (checking), then the resend is answered: approved.
      const processing = gate();
      const checking = gate();
      let calls = 0;
      await page.route('**/rest/payment', async (route) => {
        calls += 1;
        if (calls === 1) {
          await processing.wait;
          await route.fetch();
          await route.abort('connectionreset');
          return;
        }
        await checking.wait;
        await route.continue();
      });
      try {
        await page.keyboard.type('34');
        await page.keyboard.press('Enter');
        await main().getByRole('heading', { name: 'Waiting for the bank…' }).waitFor({ timeout: 5_000 });
        await till.check('processing');
        processing.open();
        await main().getByRole('heading', { name: 'Checking the payment' }).waitFor();
        await till.check('checking');
        checking.open();
        await main()
          .getByRole('status')
          .filter({ has: page.getByRole('heading', { name: 'Approved' }) })
          .waitFor({ timeout: 15_000 });
      } finally {
        processing.open();
        checking.open();
        await page.unroute('**/rest/payment');
      }
      await main().getByRole('article', { name: 'Receipt' }).getByText('999,999,999.99 EUR').waitFor();
      await till.check('approved');
      await main()
        .getByRole('button', { name: /New sale/ })
        .click();
      await till.amountScreen();

      // Declined.
      await till.amountShows('1500', '15.00');
      await page.keyboard.press('Enter');
      await main().getByRole('button', { name: 'Tap Visa 4000000000000002' }).click();
      await main()
        .getByRole('alert')
        .filter({ has: page.getByRole('heading', { name: 'Declined' }) })
        .waitFor();
      await till.check('declined');
      await page.keyboard.press('Escape');
      await till.amountScreen();

      // Failed: the gateway cannot be reached before the payment is sent.
      await page.route('**/ui/till/attempt', (route) =>
        route.request().method() === 'PUT' ? route.abort('connectionrefused') : route.continue(),
      );
      try {
        await till.amountShows('2000', '20.00');
        await page.keyboard.press('Enter');
        await main().getByRole('button', { name: 'Tap Visa 4111111111111111' }).click();
        await main()
          .getByRole('alert')
          .filter({ has: page.getByRole('heading', { name: 'Gateway not reachable' }) })
          .waitFor();
        await till.check('failed');
      } finally {
        await page.unroute('**/ui/till/attempt');
      }
      await page.keyboard.press('Escape');
      await till.amountScreen();

      // Shortcuts and the set-my-PIN dialog.
      await page.keyboard.press('?');
      const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await shortcuts.waitFor();
      assert.ok(
        await till.measure<boolean>(
          "(() => { const d = document.querySelector('dialog[open]'); return d.scrollHeight <= d.clientHeight; })()",
        ),
        `${till.name}: the shortcuts fit without scrolling`,
      );
      await till.check('shortcuts');
      await page.keyboard.press('Escape');
      await shortcuts.waitFor({ state: 'detached' });
      await page.getByRole('banner').getByRole('button', { name: 'Set my PIN' }).click();
      const setPin = page.getByRole('dialog', { name: 'Set my PIN' });
      await setPin.waitFor();
      await till.check('set-pin');
      await page.keyboard.press('Escape');
      await setPin.waitFor({ state: 'detached' });

      // Today's sales: totals whole, every Refund button on screen; the refund dialog.
      await main().getByRole('link', { name: 'Today’s sales' }).click();
      await main().getByLabel('Totals in EUR').waitFor();
      const refunds = main().getByRole('button', { name: /^Refund the sale/ });
      await refunds.first().waitFor();
      for (const button of await refunds.all()) {
        const box = await button.boundingBox();
        assert.ok(
          box && box.x >= 0 && box.x + box.width <= size.width,
          `${till.name}: a Refund button is on screen (${JSON.stringify(box)})`,
        );
      }
      await till.check('today');
      await refunds.first().click();
      const refund = page.getByRole('dialog', { name: 'Refund a sale' });
      await refund.waitFor();
      await till.check('refund');
      await page.keyboard.press('Escape');
      await refund.waitFor({ state: 'detached' });

      // Close the day: the Close day button reads whole (it used to read "Close day 1…", as if cut).
      await main().getByRole('link', { name: 'Close the day' }).click();
      const closeDay = main().getByRole('button', { name: 'Close day 1', exact: true });
      await closeDay.waitFor();
      assert.ok(
        await closeDay.evaluate(
          (button) =>
            button.scrollWidth <= button.clientWidth &&
            button.ownerDocument.defaultView?.getComputedStyle(button).textOverflow !== 'ellipsis' &&
            button.textContent?.trim() === 'Close day 1',
        ),
        `${till.name}: the Close day button shows its whole label`,
      );
      await till.check('close-day');
    } finally {
      await till.close();
    }
  });
}

void test('the usual limit: exactly 1,000.00 charges at once; a swipe above it waits for the confirmation and is then charged', async () => {
  const till = await Till.open({ width: 1366, height: 768 });
  const { page } = till;
  const main = () => till.main();
  try {
    await till.login();
    const terminal = await page.evaluate<{ confirm_above: number }>(
      "fetch('/ui/terminal', { credentials: 'same-origin' }).then((r) => r.json())",
    );
    assert.equal(terminal.confirm_above, 1000, 'GET /ui/terminal gives the till its usual limit');

    await till.amountShows('100000', '1,000.00');
    await page.keyboard.press('Enter');
    await main().getByRole('heading', { name: 'Tap, insert or swipe the card' }).waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0, 'no question at the limit itself');
    await page.keyboard.press('Escape');
    await till.amountScreen();

    // A keyboard-wedge swipe with 1,000.01 typed: the question first, then the swiped card is charged.
    await till.amountShows('100001', '1,000.01');
    await page.keyboard.type(TRACK2);
    await page.keyboard.press('Enter');
    const ask = page.getByRole('dialog', { name: 'Charge 1,000.01 EUR?' });
    await ask.waitFor();
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Charge 1,000.01 EUR Enter', 'Enter charges');
    await page.keyboard.press('Enter');
    const approved = main()
      .getByRole('status')
      .filter({ has: page.getByRole('heading', { name: 'Approved' }) });
    await approved.waitFor({ timeout: 15_000 });
    assert.match((await main().getByRole('article', { name: 'Receipt' }).textContent()) ?? '', /Swipe.*1,000\.01 EUR/s);
  } finally {
    await till.close();
  }
  assert.deepEqual(uncaught, [], 'no uncaught error in any window');
});
