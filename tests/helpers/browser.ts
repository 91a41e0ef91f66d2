/**
 * What every browser test shares: Debian's Chromium started the one way this machine allows
 * (never a downloaded browser), and the axe-core check of a page against WCAG 2.2 AA.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** Headless Chromium with the machine's flags (and any extra ones a test needs). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export const AXE_TAGS: readonly string[] = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  help: string;
  /** Up to six offending elements: selector | why. */
  nodes: string[];
}

/**
 * axe-core's violations of the page as it is now. The script is evaluated through the DevTools
 * protocol, so the app's own Content-Security-Policy stays in force for everything else.
 */
export async function axeViolations(page: Page, tags: readonly string[] = AXE_TAGS): Promise<AxeViolation[]> {
  if (!(await page.evaluate<boolean>('typeof axe !== "undefined"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate<AxeViolation[]>(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(tags)} }, resultTypes: ['violations'] })
      .then((r) => r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 6).map((n) => n.target.join(' ') + ' | ' + (n.failureSummary || '').replace(/\\s+/g, ' ')) })))`,
  );
}

/** Fails naming `where` and each violation when axe-core finds any. */
export async function assertAxeClean(page: Page, where: string, tags: readonly string[] = AXE_TAGS): Promise<void> {
  assert.deepEqual(await axeViolations(page, tags), [], `${where}: axe-core finds no violation`);
}
