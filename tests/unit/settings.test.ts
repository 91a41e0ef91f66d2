import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, keepShopTimeZone, listeningUrl, resolveSettings, SETTINGS_FILE, SettingsError } from '../../main/settings.js';
import { tempDataDir } from '../helpers/gateway-process.js';

function dirWithSettings(content: unknown): string {
  const dir = tempDataDir('tillgate-settings-');
  writeFileSync(join(dir, SETTINGS_FILE), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

function settingsError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof SettingsError, `expected a SettingsError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected a SettingsError');
}

describe('resolveSettings', () => {
  test('defaults when there is no file, env or flag', () => {
    const dir = tempDataDir('tillgate-settings-');
    const settings = resolveSettings(dir, {}, {});
    assert.deepEqual(settings, {
      ...DEFAULTS,
      dataDir: dir,
      publicUrl: null,
      backupDir: null,
      tlsCert: null,
      tlsKey: null,
      databaseUrl: null,
      postbackClaimLeaseMs: null,
    });
    assert.equal(settings.host, '127.0.0.1', 'loopback unless asked');
    assert.equal(settings.port, 8420);
    assert.equal(settings.idempotencyRetentionHours, 1);
  });

  test('precedence: defaults < settings.json < environment < flags', () => {
    const dir = dirWithSettings({ port: 9001, logLevel: 'warn', lockoutMaxFailures: 7, simDelayMs: 100 });
    const env = { GATEWAY_PORT: '9002', GATEWAY_LOG_LEVEL: 'debug', GATEWAY_SIM_DELAY_MS: '200' };
    const flags = { port: '9003' };
    const settings = resolveSettings(dir, flags, env);
    assert.equal(settings.port, 9003, 'flag beats env and file');
    assert.equal(settings.logLevel, 'debug', 'env beats file');
    assert.equal(settings.simDelayMs, 200, 'env beats file');
    assert.equal(settings.lockoutMaxFailures, 7, 'file beats default');
    assert.equal(settings.lockoutMinutes, DEFAULTS.lockoutMinutes, 'default when nobody sets it');

    assert.equal(resolveSettings(dir, {}, env).port, 9002, 'env beats file');
    assert.equal(resolveSettings(dir, {}, {}).port, 9001, 'file beats default');
    assert.equal(resolveSettings(dir, { 'log-level': 'error' }, env).logLevel, 'error', 'flag beats env');
  });

  test('numbers from env and flags are parsed; file values may be numbers or numeric strings', () => {
    const dir = dirWithSettings({ lockoutWindowMinutes: '30', postbackRetryScale: 0.001 });
    const settings = resolveSettings(
      dir,
      { 'lockout-max-failures': '3', 'idempotency-retention-hours': '744', 'postback-claim-lease-ms': '3000' },
      { GATEWAY_LOCKOUT_MINUTES: '5' },
    );
    assert.equal(settings.postbackClaimLeaseMs, 3000);
    assert.equal(settings.lockoutMaxFailures, 3);
    assert.equal(settings.idempotencyRetentionHours, 744);
    assert.equal(settings.lockoutMinutes, 5);
    assert.equal(settings.lockoutWindowMinutes, 30);
    assert.equal(settings.postbackRetryScale, 0.001);
  });

  test("the till's confirmation ceiling: 1,000.00 by default, set by file, env or flag, in the merchant's currency", () => {
    const dir = tempDataDir('tillgate-settings-');
    assert.equal(resolveSettings(dir, {}, {}).tillConfirmAbove, 1000);
    assert.equal(resolveSettings(dir, {}, { GATEWAY_TILL_CONFIRM_ABOVE: '250.50' }).tillConfirmAbove, 250.5);
    assert.equal(resolveSettings(dir, { 'till-confirm-above': '5000' }, { GATEWAY_TILL_CONFIRM_ABOVE: '250' }).tillConfirmAbove, 5000);
    assert.equal(resolveSettings(dirWithSettings({ tillConfirmAbove: 750 }), {}, {}).tillConfirmAbove, 750);
    assert.match(
      settingsError(() => resolveSettings(dir, { 'till-confirm-above': '-1' }, {})),
      /--till-confirm-above must be a number from 0 to 999999999.99/,
    );
  });

  test('public URL: trailing slashes are dropped', () => {
    const dir = tempDataDir('tillgate-settings-');
    assert.equal(resolveSettings(dir, { 'public-url': 'https://shop.example.com/pay/' }, {}).publicUrl, 'https://shop.example.com/pay');
  });

  test('PostgreSQL: --database or GATEWAY_DATABASE_URL; a bad one is named without repeating it (it may hold a password)', () => {
    const dir = tempDataDir('tillgate-settings-');
    const url = 'postgres://gateway:s3cret@db.shop.example:5432/tillgate';
    assert.equal(resolveSettings(dir, { database: url }, {}).databaseUrl, url);
    assert.equal(resolveSettings(dir, {}, { GATEWAY_DATABASE_URL: url }).databaseUrl, url);
    assert.throws(
      () => resolveSettings(dir, { database: 'mysql://gateway:s3cret@db' }, {}),
      (error: unknown) =>
        error instanceof SettingsError && /^--database must be a PostgreSQL URL/.test(error.message) && !error.message.includes('s3cret'),
    );
  });

  test('a bad value in settings.json names the file and the setting', () => {
    const dir = dirWithSettings({ port: 70000 });
    const message = settingsError(() => resolveSettings(dir, {}, {}));
    assert.ok(message.includes(join(dir, SETTINGS_FILE)), message);
    assert.match(message, /port/);
    assert.match(message, /0 to 65535/);
  });

  test('a bad environment value names the variable', () => {
    const dir = tempDataDir('tillgate-settings-');
    const message = settingsError(() => resolveSettings(dir, {}, { GATEWAY_PORT: 'eighty' }));
    assert.match(message, /environment variable GATEWAY_PORT/);
    const level = settingsError(() => resolveSettings(dir, {}, { GATEWAY_LOG_LEVEL: 'loud' }));
    assert.match(level, /GATEWAY_LOG_LEVEL/);
    assert.match(level, /one of fatal, error, warn, info, debug, trace, silent/);
  });

  test('a bad flag names the flag', () => {
    const dir = tempDataDir('tillgate-settings-');
    assert.match(
      settingsError(() => resolveSettings(dir, { port: '-1' }, {})),
      /--port/,
    );
    assert.match(
      settingsError(() => resolveSettings(dir, { 'lockout-max-failures': '0' }, {})),
      /--lockout-max-failures/,
    );
    assert.match(
      settingsError(() => resolveSettings(dir, { 'lockout-max-failures': '2.5' }, {})),
      /--lockout-max-failures must be a whole number/,
    );
    // D8: retention up to 31 days.
    assert.match(
      settingsError(() => resolveSettings(dir, { 'idempotency-retention-hours': '745' }, {})),
      /--idempotency-retention-hours/,
    );
    assert.match(
      settingsError(() => resolveSettings(dir, { 'public-url': 'ftp://x' }, {})),
      /--public-url/,
    );
  });

  test('a bad value is reported even when a later source would override it', () => {
    const dir = dirWithSettings({ port: 'not-a-port' });
    const message = settingsError(() => resolveSettings(dir, { port: '9000' }, {}));
    assert.ok(message.includes(SETTINGS_FILE), message);
  });

  test('an unknown key in settings.json is rejected by name', () => {
    const dir = dirWithSettings({ port: 9000, prot: 9001 });
    const message = settingsError(() => resolveSettings(dir, {}, {}));
    assert.match(message, /unknown setting "prot"/);
    assert.ok(message.includes(join(dir, SETTINGS_FILE)));
    // The data dir is not a setting of the file.
    assert.match(
      settingsError(() => resolveSettings(dirWithSettings({ dataDir: '/elsewhere' }), {}, {})),
      /unknown setting "dataDir"/,
    );
  });

  test('settings.json must be a JSON object', () => {
    assert.match(
      settingsError(() => resolveSettings(dirWithSettings('{ "port": '), {}, {})),
      /not valid JSON/,
    );
    assert.match(
      settingsError(() => resolveSettings(dirWithSettings('[1, 2]'), {}, {})),
      /JSON object/,
    );
    assert.match(
      settingsError(() => resolveSettings(dirWithSettings('null'), {}, {})),
      /JSON object/,
    );
  });

  test('unrelated flags and environment variables are ignored', () => {
    const dir = tempDataDir('tillgate-settings-');
    const settings = resolveSettings(dir, { json: true, name: 'Shop', 'data-dir': '/x' }, { PATH: '/bin', GATEWAY_UNKNOWN: '1' });
    assert.deepEqual(settings, {
      ...DEFAULTS,
      dataDir: dir,
      publicUrl: null,
      backupDir: null,
      tlsCert: null,
      tlsKey: null,
      databaseUrl: null,
      postbackClaimLeaseMs: null,
    });
  });
});

describe('listeningUrl', () => {
  test('shows a reachable address for wildcard hosts and brackets IPv6', () => {
    assert.equal(listeningUrl('127.0.0.1', 8420), 'http://127.0.0.1:8420');
    assert.equal(listeningUrl('0.0.0.0', 1234), 'http://127.0.0.1:1234');
    assert.equal(listeningUrl('::1', 1234), 'http://[::1]:1234');
  });
});

describe("the shop's time zone at the first start", () => {
  test("keeps this computer's zone in settings.json, beside what the file holds; a zone set already stays", () => {
    const dir = dirWithSettings({ port: 8421 });
    assert.equal(keepShopTimeZone(resolveSettings(dir, {}, {}), 'Europe/Zagreb'), 'Europe/Zagreb');
    assert.deepEqual(JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8')), { port: 8421, timeZone: 'Europe/Zagreb' });
    assert.equal(resolveSettings(dir, {}, {}).timeZone, 'Europe/Zagreb', 'the next start reads it');
    // Set by the environment (or the file, or a flag): left alone, and nothing written.
    const other = tempDataDir('tillgate-settings-');
    assert.equal(keepShopTimeZone(resolveSettings(other, {}, { GATEWAY_TIME_ZONE: 'Europe/Lisbon' }), 'Europe/Zagreb'), 'Europe/Lisbon');
    assert.equal(existsSync(join(other, SETTINGS_FILE)), false);
  });
});
