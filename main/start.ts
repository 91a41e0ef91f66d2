/**
 * `npm start` without Electron: the same gateway headless on the desktop data dir. On first run
 * it creates a merchant and prints its API credentials once; it prints where the back-office UI
 * is and opens it in Chromium's --app window when Chromium and a display are available.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from './cli.js';
import { defaultDataDir, resolveSettings } from './settings.js';

function out(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  }
  return undefined;
}

export async function startHeadless(reason: string): Promise<void> {
  const dataDir = defaultDataDir();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const settings = resolveSettings(dataDir);
  out(`Mode: headless gateway (${reason})`);
  const server = await startServer(settings);
  const { gateway } = server.composition;

  const existing = await gateway.merchants.list();
  if (existing.length === 0) {
    const created = await gateway.merchants.create({ name: 'My Shop' });
    if (!created.ok) throw new Error(created.error.message);
    const m = created.value;
    out();
    out('First run: created the merchant "My Shop". Its API credentials are shown this once:');
    out(`  API key:      ${m.api_key}`);
    out(`  API password: ${m.api_password}`);
    out(`  Webhook key:  ${m.webhook_key}`);
    const admin = await gateway.staff.create({ merchantId: m.merchant_id, role: 'admin', login: 'admin', displayName: 'Administrator' });
    const cashier = await gateway.staff.create({ merchantId: m.merchant_id, role: 'cashier', login: 'till', displayName: 'Till 1', pin: '2580' });
    if (admin.ok) out(`  UI login (admin):   admin / ${admin.value.password}`);
    if (cashier.ok) out(`  UI login (cashier): till / ${cashier.value.password}  or PIN 2580`);
    out('  (more merchants: npx gateway merchant create --name NAME; staff: npx gateway staff create)');
  } else {
    out(`Merchants: ${existing.map((m) => m.name).join(', ')} (credentials were shown at first run)`);
  }
  out();
  out(`Back-office UI: ${server.url}/app/`);
  out(`API docs:       ${server.url}/docs`);
  out(`Data:           ${dataDir}`);
  out(`listening on ${server.url}`);

  const chromium = findChromium();
  const display = process.platform !== 'linux' || Boolean(process.env.DISPLAY ?? process.env.WAYLAND_DISPLAY);
  if (chromium && display && !process.env.CI) {
    const browser = spawn(
      chromium,
      [`--app=${server.url}/app/`, `--user-data-dir=${join(dataDir, 'chromium-profile')}`, '--no-first-run', '--disable-background-networking', '--disable-sync', '--disable-component-update'],
      { stdio: 'ignore', detached: true },
    );
    browser.on('error', () => out('Could not open Chromium; open the back-office URL in a browser.'));
    browser.unref();
    out('Opened the back-office UI in a Chromium app window.');
  } else {
    out('Open the back-office URL in a browser (no Chromium window: chromium or a display is missing).');
  }
  out('Press Ctrl+C to stop.');

  const shutdown = () => {
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
