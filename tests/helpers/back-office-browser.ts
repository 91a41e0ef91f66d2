/**
 * The back office in Debian Chromium against a real `gateway serve`, for the e2e tests of its
 * screens: a browser window of a size that records console errors, staff login, axe-core on a
 * screen or dialog, screenshots that first check axe and that nothing scrolls sideways, Esc closing
 * a dialog with focus back on its opener, and Tab kept inside an open dialog.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assertAxeClean, CHROMIUM_PATH, launchChromium } from './browser.js';

export const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

export const WIDE = { width: 1366, height: 900 } as const;
export const NARROW = { width: 1024, height: 768 } as const;
export type Size = { width: number; height: number };

/** Chromium, once the renderer is built and Chromium is there (else a clear error). */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return launchChromium();
}

/**
 * A window of `size` on `path` of the app (`#/...`), logged out, its console errors and uncaught
 * exceptions added to `problems`. `clock`: Playwright's clock is installed first (time flows as it
 * would, and the test may jump it forward).
 */
export async function openApp(
  browser: Browser,
  gatewayUrl: string,
  size: Size,
  path: string,
  problems: string[],
  options: { clock?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP: axe-core is injected as a script tag (ui.test.ts and cashier.test.ts check the app's own CSP).
  const context = await browser.newContext({ viewport: size, serviceWorkers: 'block', bypassCSP: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(gatewayUrl).origin });
  const page = await context.newPage();
  if (options.clock) await page.clock.install();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${size.width}: console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${size.width}: uncaught: ${error.message}`));
  await page.goto(new URL(`/app/${path}`, gatewayUrl).href, { waitUntil: 'networkidle' });
  return { context, page };
}

/** Logs in on the app's login screen with a password; waits for the name in the header. */
export async function loginWithPassword(page: Page, login: string, password: string, name: string): Promise<void> {
  const main = page.getByRole('main');
  await main.getByLabel('Login', { exact: true }).fill(login);
  await main.getByText('Password', { exact: true }).click();
  await main.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.keyboard.press('Enter');
  await page.getByRole('banner').getByText(name).waitFor();
}

export async function axe(page: Page, where: string): Promise<void> {
  await assertAxeClean(page, where);
}

/**
 * Settles, runs axe, checks that nothing scrolls sideways, then writes
 * docs/screenshots/<prefix>-<name>-<width>.png (`full`: the whole page, for long screens).
 */
export async function shot(page: Page, prefix: string, name: string, size: Size, full = false): Promise<void> {
  await page.waitForTimeout(250);
  await axe(page, `${prefix} ${name} at ${size.width}`);
  assert.ok(
    (await page.evaluate<number>('document.documentElement.scrollWidth')) <= size.width,
    `${name} at ${size.width}: no horizontal scroll`,
  );
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${prefix}-${name}-${size.width}.png`), fullPage: full });
}

/** Esc closes the open dialog and focus goes back to the control that opened it. */
export async function escCloses(page: Page, opener: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
  assert.equal(
    await page.evaluate<string>('document.activeElement?.textContent?.trim() ?? ""'),
    opener,
    'focus is back on the button that opened the dialog',
  );
}

/**
 * Tab never reaches the page behind an open dialog (showModal makes it inert): focus is on a control
 * of the dialog, or, for the one step past its last control, on the browser itself (no element).
 */
export async function focusTrapped(page: Page, tabs = 8): Promise<void> {
  let inside = 0;
  for (let i = 0; i < tabs; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate<string>(
      '(() => { const el = document.activeElement; if (!el || el === document.body) return "browser"; return el.closest("dialog[open]") ? "dialog" : "page: " + el.outerHTML.slice(0, 80); })()',
    );
    assert.ok(where === 'dialog' || where === 'browser', `focus stays in the dialog, not on ${where}`);
    if (where === 'dialog') inside += 1;
  }
  assert.ok(inside >= tabs / 2, 'Tab cycles through the dialog');
}

/** The staff session cookie of a browser context, for checking through the API what the screen did. */
export async function cookieOf(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}
