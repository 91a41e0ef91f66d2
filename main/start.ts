/**
 * `npm start` without Electron: the same gateway headless on the desktop data dir. On first run
 * it creates a merchant and prints its API credentials once; it prints where the back-office UI
 * is and opens it in Chromium's --app window when Chromium and a display are available.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { InstanceLockedError } from '../db/instance-lock.js';
import { localLinksNotice, startServer, StartError, type RunningServer } from './cli.js';
import { setUpFirstRun } from './first-run.js';
import { hostTimeZone } from './core/dashboard/periods.js';
import { defaultDataDir, keepShopTimeZone, resolveSettings, SettingsError, type Settings } from './settings.js';

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
  out(`Mode: headless gateway (${reason})`);
  let server: RunningServer;
  let settings: Settings;
  try {
    settings = resolveSettings(dataDir);
    server = await startServer(settings);
  } catch (error) {
    // What the operator can fix is said in a line; anything else keeps its stack (a bug).
    if (!(error instanceof StartError || error instanceof InstanceLockedError || error instanceof SettingsError)) throw error;
    process.stderr.write(`npm start: ${error.message}\n`);
    process.exitCode = 1;
    return;
  }
  // Stopping cleanly works from the moment the gateway listens, not only once everything is printed.
  const running = server;
  const shutdown = () => {
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  const { gateway } = server.composition;

  const first = await setUpFirstRun(gateway);
  if (first) {
    const timeZone = keepShopTimeZone(settings, hostTimeZone());
    out();
    out(
      `First run: created the merchant "${first.merchantName}" (time zone ${timeZone}, setting timeZone). Its credentials are shown this once:`,
    );
    out(`  API key:      ${first.apiKey}`);
    out(`  API password: ${first.apiPassword}`);
    out(`  Webhook key:  ${first.webhookKey}`);
    out(`  UI login (admin):   ${first.admin.login} / ${first.admin.password}`);
    out(`  UI login (cashier): ${first.cashier.login} / ${first.cashier.password}  or PIN ${first.cashier.pin}`);
    // The commands act on this data directory only when told so (their default is another one).
    out(`  (more merchants: npx gateway merchant create --data-dir ${JSON.stringify(dataDir)} --name NAME;`);
    out(
      `   more staff: npx gateway staff create --data-dir ${JSON.stringify(dataDir)} --merchant ${first.merchantId} --role back_office --login LOGIN --name NAME)`,
    );
  } else {
    out(`Merchants: ${(await gateway.merchants.list()).map((m) => m.name).join(', ')} (credentials were shown at first run)`);
  }
  out();
  out(`Back-office UI: ${server.url}/app/`);
  out(`API docs:       ${server.url}/docs`);
  out(`Data:           ${dataDir}`);
  const notice = localLinksNotice(server);
  if (notice) out(notice);
  if (server.tls) out(`HTTPS certificate fingerprint (SHA-256): ${server.tls.fingerprint}`);

  const chromium = findChromium();
  const display = process.platform !== 'linux' || Boolean(process.env.DISPLAY ?? process.env.WAYLAND_DISPLAY);
  if (chromium && display && !process.env.CI) {
    const browser = spawn(
      chromium,
      [
        `--app=${server.url}/app/`,
        `--user-data-dir=${join(dataDir, 'chromium-profile')}`,
        '--no-first-run',
        '--disable-background-networking',
        '--disable-sync',
        '--disable-component-update',
      ],
      { stdio: 'ignore', detached: true },
    );
    browser.on('error', () => out('Could not open Chromium; open the back-office URL in a browser.'));
    browser.unref();
    out('Opened the back-office UI in a Chromium app window.');
  } else {
    out('Open the back-office URL in a browser (no Chromium window: chromium or a display is missing).');
  }
  out('Press Ctrl+C to stop.');
}
