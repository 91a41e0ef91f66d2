/**
 * The headless host: `gateway serve`, merchants, partners, shops and terminals, staff, `migrate`,
 * `backup`. Output meant for people goes to stdout as plain lines (or JSON with --json); logs go to
 * stderr.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { migrate, type MigrationReport } from '../db/migrate.js';
import { migratePostgres } from '../db/postgres/migrate.js';
import { createPool } from '../db/postgres/pg-store.js';
import { checkBackup, restoreBackup } from '../db/backups.js';
import { acquireInstanceLock, InstanceLockedError, type InstanceLock } from '../db/instance-lock.js';
import {
  compareChecks,
  exportToFile,
  importFromFile,
  moveToPostgres,
  postgresSource,
  sqliteSource,
  type CheckLine,
  type ImportResult,
  type MoveSource,
} from '../db/move.js';
import { ensureKeyCheckPostgres, ensureKeyCheckSqlite, verifyDataKeyPostgres, verifyDataKeySqlite } from '../db/key-check.js';
import { DATABASE_FILE, openDatabase } from '../db/open.js';
import { composeOnEngine, type Composition, type GatewayStore } from './compose.js';
import { createLogger } from './infra/logger.js';
import { tlsFor, type TlsMaterial } from './infra/tls.js';
import { isLocalOnlyUrl, PUBLIC_URL_SETTING } from '../contract/links.js';
import { ErrorCode } from '../contract/codes.js';
import { createVault, loadDataKey } from './infra/vault.js';
import { buildServer, isUiBuilt } from './http/server.js';
import { defaultDataDir, listeningUrl, resolveSettings, SETTING_SPECS, SettingsError, type Settings } from './settings.js';

const USAGE = `Usage: gateway <command> [options]

Commands:
  serve              serve the REST API, hosted pages and back-office UI
  merchant create    create a merchant with API credentials (--name NAME [--currency EUR]
                     [--partner ID] [--json])
  merchant list      list merchants
  merchant assign    give a merchant to a partner (--merchant ID --partner ID)
  partner create     create a partner with its own API credentials (--name NAME [--json]);
                     prints the password once
  partner list       list partners
  shop create        create a shop of a merchant (--merchant ID --name NAME [--json])
  shop list          list a merchant's shops and their terminals (--merchant ID [--json])
  terminal assign    assign a terminal id to a shop (--shop ID --terminal-id T [--json])
  terminal unassign  take a terminal out of its shop (--merchant ID --terminal-id T)
  till create        add a till to a merchant's shop (--merchant ID --till-id TILL-2 [--name NAME]
                     [--shop ID] [--json]); its id is the terminal id of its payments
  till list          list a merchant's tills, who has each open, retired ones too (--merchant ID [--json])
  till invite        a one-time pairing code for a till on another computer (--merchant ID --till-id T
                     [--json]); valid 24 hours
  till limits        what a joined till may store while this gateway is away (--merchant ID --till-id T
                     [--per-payment N] [--total-per-currency N] [--count N] [--age-hours N] [--json]); 0 turns it off
  till join          make this data directory a till of a centre (--centre URL --code CODE [--json]):
                     https:// with the certificate the code pins, or http:// to this computer only
  staff create       create a staff account for the UI (--merchant ID --role cashier|back_office|admin
                     [--login L] [--name NAME] [--pin 1234] [--json]); prints the password once
  migrate            bring the database schema up to date
  backup --to FILE   write a consistent copy of the database (SQLite online backup)
  restore --from FILE
                     check a backup (integrity, schema version, data key), then put it in place of
                     the database (the current one is kept beside it); refused while a gateway runs
                     on the data directory, and on a till holding stored sales not yet forwarded
                     (--discard-stored-sales overrides). --check only checks.
  export --to FILE   write every table of the database (the data directory's SQLite, or --database)
                     to a new JSON-lines file with its schema version, row counts, money sums and
                     SHA-256 (docs/operations.md "Moving to PostgreSQL"); SQLite needs the gateway
                     stopped
  import --from FILE --database postgres://...
                     read an export into an empty PostgreSQL database (migrated first) in one
                     transaction; compares row counts and money sums with the file's and commits
                     only if all are equal. --delete-existing-data empties a non-empty database first
  move-to-postgres --database postgres://...
                     export + import without a file: the data directory's SQLite into PostgreSQL
                     (the gateway stopped); the same checks. Start the PostgreSQL instances with the
                     same data key (GATEWAY_DATA_KEY = the data directory's data.key)

Common options:
  --data-dir DIR     data directory (default: GATEWAY_DATA_DIR or ${defaultDataDir()})
  --json             machine-readable output

serve options:
${SETTING_SPECS.map((s) => `  --${s.flag.padEnd(30)} ${s.describe} (env ${s.env})`).join('\n')}
`;

export class UsageError extends Error {
  override name = 'UsageError';
}

type Values = Record<string, string | boolean | undefined>;

function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

function parse(argv: string[]) {
  const options = Object.fromEntries([
    ['data-dir', { type: 'string' }],
    ['json', { type: 'boolean' }],
    ['help', { type: 'boolean', short: 'h' }],
    ['name', { type: 'string' }],
    ['currency', { type: 'string' }],
    ['to', { type: 'string' }],
    ['from', { type: 'string' }],
    ['check', { type: 'boolean' }],
    ['delete-existing-data', { type: 'boolean' }],
    ['discard-stored-sales', { type: 'boolean' }],
    ['merchant', { type: 'string' }],
    ['role', { type: 'string' }],
    ['login', { type: 'string' }],
    ['pin', { type: 'string' }],
    ['partner', { type: 'string' }],
    ['shop', { type: 'string' }],
    ['till-id', { type: 'string' }],
    ['centre', { type: 'string' }],
    ['code', { type: 'string' }],
    ['per-payment', { type: 'string' }],
    ['total-per-currency', { type: 'string' }],
    ['count', { type: 'string' }],
    ['age-hours', { type: 'string' }],
    ['terminal-id', { type: 'string' }],
    ...SETTING_SPECS.map((s) => [s.flag, { type: 'string' }]),
  ]) as Record<string, { type: 'string' | 'boolean'; short?: string }>;
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: values as Values, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function dataDirOf(values: Values): string {
  const dir = typeof values['data-dir'] === 'string' ? values['data-dir'] : defaultDataDir();
  const absolute = isAbsolute(dir) ? dir : resolve(dir);
  mkdirSync(absolute, { recursive: true, mode: 0o700 });
  return absolute;
}

function settingsOf(values: Values): Settings {
  return resolveSettings(dataDirOf(values), values);
}

export interface RunningServer {
  url: string;
  /** Set when the gateway serves HTTPS (beyond loopback, or with a configured certificate). */
  tls: TlsMaterial | undefined;
  composition: Composition<GatewayStore>;
  stop(): Promise<void>;
}

/** A start that cannot go on for a reason the operator can fix: printed as its message, without a stack. */
export class StartError extends Error {
  override name = 'StartError';
}

/** What to do about an address the gateway cannot listen on, or undefined for another failure. */
function listenProblem(error: unknown, settings: Settings): StartError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${settings.host}:${settings.port}`;
  const other = `start on another port: GATEWAY_PORT=${settings.port + 1} npm start, or gateway serve --port ${settings.port + 1} (0 picks a free port)`;
  if (code === 'EADDRINUSE')
    return new StartError(
      `port ${settings.port} on ${settings.host} is already in use (another gateway, or another program, listens there); stop it, or ${other}`,
    );
  if (code === 'EACCES') return new StartError(`this user may not listen on ${where} (ports below 1024 need privileges); ${other}`);
  if (code === 'EADDRNOTAVAIL')
    return new StartError(
      `${settings.host} is not an address of this computer; choose another with GATEWAY_HOST or --host (127.0.0.1 for this computer only, 0.0.0.0 for every network)`,
    );
  return undefined;
}

/** Starts the gateway on the configured address; resolves once it answers requests. */
export async function startServer(settings: Settings): Promise<RunningServer> {
  // One gateway per SQLite data directory: a second one stops here with a clear message. On
  // PostgreSQL several instances share one database by design (docs/scaling.md).
  const lock = settings.databaseUrl === null ? acquireInstanceLock(settings.dataDir) : { release: () => undefined };
  const logger = createLogger({ level: settings.logLevel, format: settings.logFormat });
  // Beyond loopback the gateway speaks HTTPS only (a configured or a self-signed certificate).
  let tls: TlsMaterial | undefined;
  try {
    tls = tlsFor(settings);
  } catch (error) {
    lock.release();
    throw error;
  }
  let composition: Composition<GatewayStore>;
  let app: Awaited<ReturnType<typeof buildServer>>;
  try {
    composition = await composeOnEngine({ settings, logger });
    // Per-request lines at debug: `--log-level debug` shows them (docs/operations.md).
    app = await buildServer(composition.gateway, {
      logger,
      requestLogLevel: 'debug',
      till: { confirmAbove: settings.tillConfirmAbove },
      ...(tls ? { https: tls } : {}),
    });
    await app.listen({ host: settings.host, port: settings.port });
  } catch (error) {
    lock.release();
    throw listenProblem(error, settings) ?? error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const url = listeningUrl(settings.host, port, tls !== undefined);
  composition.setListeningUrl(url);
  composition.setTlsFingerprint(tls?.fingerprint ?? null);
  let stopping: Promise<void> | undefined;
  return {
    url,
    tls,
    composition,
    stop: () => {
      stopping ??= (async () => {
        await app.close();
        await composition.close();
        lock.release();
        logger.flush();
      })();
      return stopping;
    },
  };
}

/** The start's line about customer links that open on this computer only, or undefined. */
export function localLinksNotice(server: RunningServer): string | undefined {
  const base = server.composition.publicUrl();
  if (!isLocalOnlyUrl(base)) return undefined;
  return `Note: pay links and QR codes start with ${base}, which a customer's phone cannot open. Set ${PUBLIC_URL_SETTING.env} (or ${PUBLIC_URL_SETTING.flag}) to an address customers reach, e.g. ${PUBLIC_URL_SETTING.env}=https://pay.yourshop.example`;
}

/** A till that holds stored sales says so at every start (after an upgrade too): they are kept, and forwarded. */
async function storedSalesNotice(server: RunningServer): Promise<string | undefined> {
  const status = await server.composition.gateway.tillLink.linkStatus();
  if (!status.joined || status.stored.count === 0) return undefined;
  const totals = status.stored.totals.map((t) => `${t.amount.toFixed(2)} ${t.currency}`).join(' + ');
  return `This till holds ${status.stored.count} stored sale(s) (${totals}) taken while ${status.centre_url ?? 'its centre'} did not answer: they are kept and forwarded as soon as it answers.`;
}

async function serve(values: Values): Promise<void> {
  const settings = settingsOf(values);
  const server = await startServer(settings);
  if (!isUiBuilt()) out(`The back-office UI is not built, so ${server.url}/app/ explains how: npm run build:renderer`);
  const notice = localLinksNotice(server);
  if (notice) out(notice);
  if (server.tls) {
    out(
      `HTTPS only on ${settings.host}: ${server.tls.selfSigned ? `a self-signed certificate (${join(settings.dataDir, 'tls', 'self-signed.crt')})` : 'the configured certificate'}`,
    );
    out(`certificate fingerprint (SHA-256): ${server.tls.fingerprint}`);
  }
  const held = await storedSalesNotice(server);
  if (held) out(held);
  out(`listening on ${server.url}`);
  const shutdown = (signal: string) => {
    server.composition.logger.info({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server.composition.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** The core's field errors as the flags that caused them (`terminal_id` -> `--terminal-id`). */
function flagErrors(errors: ReadonlyArray<{ field: string; message: string }>): string {
  return errors.map((e) => `--${e.field.replaceAll('_', '-')} ${e.message}`).join('; ');
}

/** Runs a command against the data directory's gateway without background jobs. */
async function withGateway<T>(values: Values, body: (composition: Composition<GatewayStore>) => Promise<T>): Promise<T> {
  const composition = await composeOnEngine({ settings: settingsOf(values), logger: createLogger({ level: 'warn' }), background: false });
  try {
    return await body(composition);
  } finally {
    await composition.close();
  }
}

function needs(values: Values, command: string, ...flags: string[]): void {
  const missing = flags.filter((flag) => typeof values[flag] !== 'string');
  if (missing.length)
    throw new UsageError(
      `${command} needs ${missing.map((flag) => `--${flag} ${flag === 'name' ? 'NAME' : flag === 'terminal-id' ? 'T' : 'ID'}`).join(' ')}`,
    );
}

async function merchantCreate(values: Values): Promise<void> {
  if (typeof values.name !== 'string') throw new UsageError('merchant create needs --name NAME');
  const name = values.name;
  await withGateway(values, async (composition) => {
    const created = await composition.gateway.merchants.create({
      name,
      ...(typeof values.currency === 'string' ? { currency: values.currency } : {}),
      ...(typeof values.partner === 'string' ? { partnerId: values.partner } : {}),
    });
    if (!created.ok) throw new UsageError(flagErrors(created.error.errors));
    const m = created.value;
    if (values.json) {
      out(
        JSON.stringify({
          merchant_id: m.merchant_id,
          api_key: m.api_key,
          api_password: m.api_password,
          webhook_key: m.webhook_key,
          channel: m.channel,
          ...(m.partner_id ? { partner_id: m.partner_id } : {}),
        }),
      );
    } else {
      out(`Merchant "${m.name}" created (${m.merchant_id})`);
      out(`  API key:      ${m.api_key}`);
      out(`  API password: ${m.api_password}   (shown once; store it now)`);
      out(`  Webhook key:  ${m.webhook_key}`);
      out(`  Channel:      ${m.channel.url_name}`);
      if (m.partner_id) out(`  Partner:      ${m.partner_id}`);
    }
  });
}

async function merchantAssign(values: Values): Promise<void> {
  needs(values, 'merchant assign', 'merchant', 'partner');
  await withGateway(values, async (composition) => {
    const assigned = await composition.gateway.partners.assignMerchant(values.merchant as string, values.partner as string);
    if (!assigned.ok) throw new UsageError(flagErrors(assigned.error.errors));
    if (values.json) out(JSON.stringify(assigned.value));
    else out(`Merchant ${assigned.value.merchant_id} is managed by partner ${assigned.value.partner_id ?? ''}`);
  });
}

async function partnerCreate(values: Values): Promise<void> {
  needs(values, 'partner create', 'name');
  await withGateway(values, async (composition) => {
    const created = await composition.gateway.partners.create({ name: values.name as string });
    if (!created.ok) throw new UsageError(flagErrors(created.error.errors));
    const p = created.value;
    if (values.json) out(JSON.stringify({ partner_id: p.partner_id, api_key: p.api_key, api_password: p.api_password }));
    else {
      out(`Partner "${p.name}" created (${p.partner_id})`);
      out(`  API key:      ${p.api_key}`);
      out(`  API password: ${p.api_password}   (shown once; store it now)`);
    }
  });
}

async function partnerList(values: Values): Promise<void> {
  await withGateway(values, async (composition) => {
    const partners = await composition.gateway.partners.list();
    if (values.json) out(JSON.stringify(partners));
    else for (const p of partners) out(`${p.partner_id}  ${p.name}`);
  });
}

async function shopCreate(values: Values): Promise<void> {
  needs(values, 'shop create', 'merchant', 'name');
  await withGateway(values, async (composition) => {
    const created = await composition.gateway.partners.createShop(values.merchant as string, values.name as string);
    if (!created.ok) throw new UsageError(flagErrors(created.error.errors));
    const shop = created.value;
    if (values.json) out(JSON.stringify({ shop_id: shop.shop_id, merchant_id: shop.merchant_id, name: shop.name }));
    else out(`Shop "${shop.name}" created (${shop.shop_id})`);
  });
}

async function shopList(values: Values): Promise<void> {
  needs(values, 'shop list', 'merchant');
  await withGateway(values, async (composition) => {
    const shops = await composition.gateway.partners.listShops(values.merchant as string);
    if (values.json) out(JSON.stringify(shops));
    else
      for (const shop of shops)
        out(`${shop.shop_id}  ${shop.name}${shop.terminals.length ? `  terminals: ${shop.terminals.join(', ')}` : ''}`);
  });
}

async function terminalAssign(values: Values): Promise<void> {
  needs(values, 'terminal assign', 'shop', 'terminal-id');
  await withGateway(values, async (composition) => {
    const assigned = await composition.gateway.partners.assignTerminal({
      shopId: values.shop as string,
      terminalId: values['terminal-id'] as string,
    });
    if (!assigned.ok) throw new UsageError(flagErrors(assigned.error.errors));
    const a = assigned.value;
    if (values.json) out(JSON.stringify(a));
    else
      out(`Terminal ${a.terminal_id} belongs to shop ${a.shop_id}${a.previous_shop_id ? ` (moved from shop ${a.previous_shop_id})` : ''}`);
  });
}

async function tillCreate(values: Values): Promise<void> {
  needs(values, 'till create', 'merchant', 'till-id');
  await withGateway(values, async (composition) => {
    const input = {
      till_id: values['till-id'] as string,
      ...(typeof values.name === 'string' ? { name: values.name } : {}),
      ...(typeof values.shop === 'string' ? { shop_id: values.shop } : {}),
    };
    const created = await composition.gateway.tills.create(values.merchant as string, input, { staffId: null });
    if (!created.ok)
      throw new UsageError(flagErrors(created.error.errors.map((e) => (e.field === 'shop_id' ? { ...e, field: 'shop' } : e))));
    const till = created.value;
    if (values.json) out(JSON.stringify(till));
    else out(`Till ${till.till_id} "${till.name}" added${till.shop_id ? ` to shop ${till.shop_id}` : ''}`);
  });
}

async function tillInvite(values: Values): Promise<void> {
  needs(values, 'till invite', 'merchant', 'till-id');
  await withGateway(values, async (composition) => {
    // The code pins the certificate this gateway serves (its host setting decides whether it does).
    composition.setTlsFingerprint(tlsFor(composition.settings)?.fingerprint ?? null);
    const made = await composition.gateway.centre.invite(values.merchant as string, values['till-id'] as string, { staffId: null });
    if (!made.ok) throw new UsageError(flagErrors(made.error.errors));
    const invite = made.value;
    if (values.json) out(JSON.stringify(invite));
    else {
      out(`Pairing code for till ${invite.till_id} (one use, until ${invite.expires_at}):`);
      out(`  ${invite.code}`);
      out(`On the till: npx gateway till join --data-dir DIR --centre URL_OF_THIS_GATEWAY --code ${invite.code}`);
    }
  });
}

async function tillLimits(values: Values): Promise<void> {
  needs(values, 'till limits', 'merchant', 'till-id');
  await withGateway(values, async (composition) => {
    const link = (await composition.gateway.store.read((r) => r.centre.links(values.merchant as string))).find(
      (l) => l.tillId === values['till-id'],
    );
    if (!link) throw new UsageError(`--till-id: till ${String(values['till-id'])} is not joined from another computer`);
    const number = (flag: string, fallback: number) => {
      const raw = values[flag];
      if (raw === undefined) return fallback;
      const value = Number(raw);
      if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(value) || value < 0)
        throw new UsageError(`--${flag}: must be a number, 0 or more`);
      return value;
    };
    const limits = {
      per_payment: number('per-payment', link.limits.per_payment),
      total_per_currency: number('total-per-currency', link.limits.total_per_currency),
      count: Math.floor(number('count', link.limits.count)),
      age_hours: number('age-hours', link.limits.age_hours),
    };
    const set = await composition.gateway.centre.setLimits(values.merchant as string, values['till-id'] as string, limits, {
      staffId: null,
    });
    if (!set.ok) throw new UsageError(flagErrors(set.error.errors));
    if (values.json) out(JSON.stringify(set.value));
    else
      out(
        `Till ${set.value.till_id} may store: ${limits.per_payment} per sale, ${limits.total_per_currency} per currency, ${limits.count} sales, ${limits.age_hours} hours (0 turns storing off).`,
      );
  });
}

async function tillJoin(values: Values): Promise<void> {
  needs(values, 'till join', 'centre', 'code');
  await withGateway(values, async (composition) => {
    await composition.gateway.tillLink.ready();
    const joined = await composition.gateway.tillLink.join((values.centre as string).replace(/\/+$/, ''), values.code as string);
    if (!joined.ok) {
      if (joined.error.error_code === ErrorCode.centreAway) throw new StartError(joined.error.message);
      throw new UsageError(flagErrors(joined.error.errors));
    }
    const j = joined.value;
    if (values.json) out(JSON.stringify(j));
    else {
      out(
        `This gateway is till ${j.till_id} "${j.till_name}" of ${j.merchant_name}, joined to ${j.centre_url}${j.fingerprint ? ` (certificate ${j.fingerprint} pinned)` : ''}.`,
      );
      out(
        `While the centre is away it stores card-present sales up to ${j.limits.per_payment} each, ${j.limits.total_per_currency} in all per currency, ${j.limits.count} sales, ${j.limits.age_hours} hours.`,
      );
      out('Start it with: npx gateway serve --data-dir (this directory)');
    }
  });
}

async function tillList(values: Values): Promise<void> {
  needs(values, 'till list', 'merchant');
  await withGateway(values, async (composition) => {
    const { tills } = await composition.gateway.tills.list(values.merchant as string, null, { retired: true });
    if (values.json) out(JSON.stringify(tills));
    else {
      for (const till of tills) {
        const state = till.retired_at
          ? 'retired'
          : till.holder
            ? `open on a screen${till.holder.staff_name ? ` (${till.holder.staff_name})` : ''}`
            : 'free';
        out(`${till.till_id}  ${till.name}  ${state}${till.shop_id ? `  shop ${till.shop_id}` : ''}`);
      }
    }
  });
}

async function terminalUnassign(values: Values): Promise<void> {
  needs(values, 'terminal unassign', 'merchant', 'terminal-id');
  await withGateway(values, async (composition) => {
    const removed = await composition.gateway.partners.unassignTerminal(values.merchant as string, values['terminal-id'] as string);
    if (!removed.ok) throw new UsageError(flagErrors(removed.error.errors));
    if (values.json) out(JSON.stringify(removed.value));
    else out(`Terminal ${removed.value.terminal_id} no longer belongs to shop ${removed.value.previous_shop_id}`);
  });
}

async function merchantList(values: Values): Promise<void> {
  const composition = await composeOnEngine({ settings: settingsOf(values), logger: createLogger({ level: 'warn' }), background: false });
  try {
    const merchants = await composition.gateway.merchants.list();
    if (values.json) out(JSON.stringify(merchants));
    else for (const m of merchants) out(`${m.merchant_id}  ${m.currency}  ${m.name}`);
  } finally {
    await composition.close();
  }
}

async function staffCreate(values: Values): Promise<void> {
  if (typeof values.merchant !== 'string') throw new UsageError('staff create needs --merchant ID');
  if (typeof values.role !== 'string') throw new UsageError('staff create needs --role cashier|back_office|admin');
  const composition = await composeOnEngine({ settings: settingsOf(values), logger: createLogger({ level: 'warn' }), background: false });
  try {
    const created = await composition.gateway.staff.create({
      merchantId: values.merchant,
      role: values.role,
      ...(typeof values.login === 'string' ? { login: values.login } : {}),
      ...(typeof values.name === 'string' ? { displayName: values.name } : {}),
      ...(typeof values.pin === 'string' ? { pin: values.pin } : {}),
    });
    if (!created.ok) throw new UsageError(created.error.errors.map((e) => `--${e.field} ${e.message}`).join('; '));
    const s = created.value;
    if (values.json) out(JSON.stringify({ staff_id: s.staff_id, login: s.login, password: s.password }));
    else {
      out(`Staff account ${s.login} (${s.role}) created (${s.staff_id})`);
      out(`  Password: ${s.password}   (shown once)`);
    }
  } finally {
    await composition.close();
  }
}

async function migrateCommand(values: Values): Promise<void> {
  const settings = settingsOf(values);
  // The data key is checked as at every start: a wrong one stops here before anything is written.
  const { key, source } = loadDataKey(settings.dataDir);
  const vault = createVault(key);
  let report: MigrationReport;
  if (settings.databaseUrl !== null) {
    const pool = createPool(settings.databaseUrl);
    try {
      await verifyDataKeyPostgres(pool, vault, source);
      report = await migratePostgres(pool);
      await ensureKeyCheckPostgres(pool, vault, source, new Date());
    } finally {
      await pool.end();
    }
  } else {
    const db = openDatabase(join(dataDirOf(values), DATABASE_FILE));
    try {
      verifyDataKeySqlite(db, vault, source);
      report = migrate(db);
      ensureKeyCheckSqlite(db, vault, source, new Date());
    } finally {
      db.close();
    }
  }
  if (values.json) out(JSON.stringify(report));
  else
    out(
      report.applied.length
        ? `migrated from version ${report.from} to ${report.to}: ${report.applied.join(', ')}`
        : `schema is up to date (version ${report.to})`,
    );
}

async function backup(values: Values): Promise<void> {
  if (typeof values.to !== 'string') throw new UsageError('backup needs --to FILE');
  const target = resolve(values.to);
  if (existsSync(target)) throw new UsageError(`${target} exists already; choose a new file`);
  const source = join(dataDirOf(values), DATABASE_FILE);
  if (!existsSync(source)) throw new UsageError(`no database at ${source}`);
  const db = openDatabase(source);
  try {
    const result = await db.backup(target);
    if (values.json) out(JSON.stringify({ file: target, pages: result.totalPages }));
    else out(`backup written to ${target} (${result.totalPages} pages)`);
  } finally {
    db.close();
  }
}

function restore(values: Values): number {
  if (typeof values.from !== 'string') throw new UsageError('restore needs --from FILE');
  const file = resolve(values.from);
  const dataDir = dataDirOf(values);
  const vault = createVault(loadDataKey(dataDir).key);
  const check = checkBackup(file, (sealed) => {
    try {
      vault.open(sealed);
      return true;
    } catch {
      return false;
    }
  });
  const report = {
    file,
    schema_version: check.schemaVersion ?? null,
    merchants: check.merchants ?? null,
    transactions: check.transactions ?? null,
  };
  if (!check.ok) {
    process.stderr.write(`gateway: ${file} cannot be restored:\n${check.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return 1;
  }
  if (values.check) {
    out(
      values.json
        ? JSON.stringify({ ok: true, ...report })
        : `${file} can be restored: schema ${report.schema_version}, ${report.merchants} merchants, ${report.transactions} transactions`,
    );
    return 0;
  }
  // Nothing may write the database while it is replaced.
  const lock = acquireInstanceLock(dataDir);
  try {
    // A till's stored sales exist nowhere else until forwarded: a restore over them would lose them.
    const held = storedSalesIn(dataDir);
    if (held > 0 && values['discard-stored-sales'] !== true) {
      process.stderr.write(
        `gateway: this till holds ${held} stored sale(s) not yet forwarded to its centre; restoring would lose them. Start it with the centre reachable until they are forwarded (Settings -> Tills at the centre shows it), or add --discard-stored-sales.\n`,
      );
      return 1;
    }
    const { replaced } = restoreBackup(dataDir, file, new Date());
    // An older backup is brought up to this gateway's schema now, not at the next start.
    const db = openDatabase(join(dataDir, DATABASE_FILE));
    try {
      migrate(db);
    } finally {
      db.close();
    }
    if (values.json) out(JSON.stringify({ ok: true, ...report, previous: replaced }));
    else
      out(
        `restored ${file}: ${report.merchants} merchants, ${report.transactions} transactions${replaced ? `; the previous database is kept as ${replaced}` : ''}`,
      );
  } finally {
    lock.release();
  }
  return 0;
}

/** How many stored sales of a till's journal are not forwarded yet (0 without a database or a journal). */
function storedSalesIn(dataDir: string): number {
  const file = join(dataDir, DATABASE_FILE);
  if (!existsSync(file)) return 0;
  const db = openDatabase(file);
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'stored_payments'").get();
    return table
      ? Number((db.prepare('SELECT COUNT(*) AS n FROM stored_payments WHERE forwarded_at IS NULL').get() as { n: number }).n)
      : 0;
  } finally {
    db.close();
  }
}

/** The checks side by side; a line that differs says so. */
function printChecks(lines: CheckLine[], json: boolean, extra: Record<string, unknown>): void {
  if (json) {
    out(JSON.stringify({ ...extra, checks: lines }));
    return;
  }
  const width = Math.max(5, ...lines.map((l) => l.name.length));
  out(`${'check'.padEnd(width)}  ${'source'.padStart(14)}  ${'target'.padStart(14)}`);
  for (const line of lines) {
    out(
      `${line.name.padEnd(width)}  ${String(line.source ?? '-').padStart(14)}  ${String(line.target ?? '-').padStart(14)}${line.equal ? '' : '  DIFFERS'}`,
    );
  }
}

/**
 * The data directory's SQLite as a source, with the instance lock held: an export of a running
 * gateway would miss what it takes meanwhile, so it must be stopped.
 */
async function sqliteDataDirSource(values: Values, command: string): Promise<{ source: MoveSource; close(): Promise<void> }> {
  const dataDir = dataDirOf(values);
  const file = join(dataDir, DATABASE_FILE);
  if (!existsSync(file)) throw new UsageError(`no database at ${file}`);
  let lock: InstanceLock;
  try {
    lock = acquireInstanceLock(dataDir);
  } catch (error) {
    if (error instanceof InstanceLockedError) {
      throw new Error(
        `${command} needs the gateway stopped: ${error.message.replace(/ Stop it first, or use another --data-dir\.$/, '')}. Stop it (and the desktop app on this data directory), then run ${command} again; payments taken during an export would be missing from it.`,
      );
    }
    throw error;
  }
  const db = openDatabase(file);
  try {
    const source = await sqliteSource(db);
    return {
      source,
      async close() {
        await source.close();
        db.close();
        lock.release();
      },
    };
  } catch (error) {
    db.close();
    lock.release();
    throw error;
  }
}

async function exportCommand(values: Values): Promise<void> {
  if (typeof values.to !== 'string') throw new UsageError('export needs --to FILE');
  const target = resolve(values.to);
  if (existsSync(target)) throw new UsageError(`${target} exists already; choose a new file`);
  const settings = settingsOf(values);
  let opened: { source: MoveSource; close(): Promise<void> };
  if (settings.databaseUrl !== null) {
    const pool = createPool(settings.databaseUrl, { max: 1 });
    try {
      const source = await postgresSource(pool);
      opened = {
        source,
        close: async () => {
          await source.close();
          await pool.end();
        },
      };
    } catch (error) {
      await pool.end();
      throw error;
    }
  } else {
    opened = await sqliteDataDirSource(values, 'export');
  }
  try {
    const result = await exportToFile(opened.source, target, new Date());
    const total = Object.values(result.rows).reduce((sum, n) => sum + n, 0);
    if (values.json) out(JSON.stringify({ file: target, rows: result.rows, checks: result.checks }));
    else {
      const lines = compareChecks(result.checks, {});
      const width = Math.max(...lines.map((l) => l.name.length));
      for (const line of lines) out(`${line.name.padEnd(width)}  ${String(line.source).padStart(14)}`);
      out(`exported ${total} rows of ${Object.keys(result.rows).length} tables to ${target}`);
    }
  } finally {
    await opened.close();
  }
}

function reportImport(result: ImportResult, values: Values, what: string): number {
  const total = Object.values(result.rows).reduce((sum, n) => sum + n, 0);
  printChecks(result.lines, values.json === true, { committed: result.committed, rows: result.rows });
  if (!result.committed) {
    process.stderr.write(
      `gateway: ${what}: the counts or sums of the target differ from the source's (lines marked DIFFERS); the import was rolled back and nothing was written\n`,
    );
    return 1;
  }
  if (!values.json)
    out(
      `${what}: ${total} rows imported; all ${result.lines.length} counts and sums are equal. Start the gateways on PostgreSQL with the same data key (GATEWAY_DATA_KEY).`,
    );
  return 0;
}

function postgresTarget(values: Values, command: string): string {
  const settings = settingsOf(values);
  if (settings.databaseUrl === null) throw new UsageError(`${command} needs --database postgres://... (or GATEWAY_DATABASE_URL)`);
  return settings.databaseUrl;
}

async function importCommand(values: Values): Promise<number> {
  if (typeof values.from !== 'string') throw new UsageError('import needs --from FILE');
  const file = resolve(values.from);
  if (!existsSync(file)) throw new UsageError(`${file} does not exist`);
  const pool = createPool(postgresTarget(values, 'import'), { max: 2 });
  try {
    return reportImport(await importFromFile(file, pool, { deleteExisting: values['delete-existing-data'] === true }), values, 'import');
  } finally {
    await pool.end();
  }
}

async function moveToPostgresCommand(values: Values): Promise<number> {
  const url = postgresTarget(values, 'move-to-postgres');
  const opened = await sqliteDataDirSource(values, 'move-to-postgres');
  const pool = createPool(url, { max: 2 });
  try {
    return reportImport(
      await moveToPostgres(opened.source, pool, { deleteExisting: values['delete-existing-data'] === true }),
      values,
      'move-to-postgres',
    );
  } finally {
    await pool.end();
    await opened.close();
  }
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parse(argv);
    const command = positionals.join(' ');
    if (values.help || command === '' || command === 'help') {
      out(USAGE);
      return command === '' && !values.help ? 2 : 0;
    }
    switch (command) {
      case 'serve':
        await serve(values);
        return -1; // keeps running
      case 'merchant create':
        await merchantCreate(values);
        return 0;
      case 'merchant list':
        await merchantList(values);
        return 0;
      case 'merchant assign':
        await merchantAssign(values);
        return 0;
      case 'partner create':
        await partnerCreate(values);
        return 0;
      case 'partner list':
        await partnerList(values);
        return 0;
      case 'shop create':
        await shopCreate(values);
        return 0;
      case 'shop list':
        await shopList(values);
        return 0;
      case 'terminal assign':
        await terminalAssign(values);
        return 0;
      case 'terminal unassign':
        await terminalUnassign(values);
        return 0;
      case 'staff create':
        await staffCreate(values);
        return 0;
      case 'till create':
        await tillCreate(values);
        return 0;
      case 'till list':
        await tillList(values);
        return 0;
      case 'till invite':
        await tillInvite(values);
        return 0;
      case 'till limits':
        await tillLimits(values);
        return 0;
      case 'till join':
        await tillJoin(values);
        return 0;
      case 'migrate':
        await migrateCommand(values);
        return 0;
      case 'backup':
        await backup(values);
        return 0;
      case 'restore':
        return restore(values);
      case 'export':
        await exportCommand(values);
        return 0;
      case 'import':
        return await importCommand(values);
      case 'move-to-postgres':
        return await moveToPostgresCommand(values);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof StartError) {
      process.stderr.write(`gateway: ${error.message}\n`);
      return 1;
    }
    if (error instanceof UsageError || error instanceof SettingsError) {
      process.stderr.write(`gateway: ${error.message}\n(see gateway --help)\n`);
      return 2;
    }
    process.stderr.write(`gateway: ${(error as Error).message}\n`);
    return 1;
  }
}
