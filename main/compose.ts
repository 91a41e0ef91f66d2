/**
 * Builds the gateway for either host: open db -> migrate -> repositories -> core. Plain Node, so
 * the Electron main process, the headless CLI and the tests all assemble the same thing.
 */
import { MovableClock } from './infra/movable-clock.js';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger as PinoLogger } from 'pino';
import type Database from 'better-sqlite3';
import { listBackups, pruneBackups, writeBackup } from '../db/backups.js';
import { migrate, type MigrationReport } from '../db/migrate.js';
import { DATABASE_FILE, openDatabase } from '../db/open.js';
import { releaseQueueClaims, SqliteStore } from '../db/sqlite-store.js';
import { migratePostgres } from '../db/postgres/migrate.js';
import { ensureKeyCheckPostgres, ensureKeyCheckSqlite, verifyDataKeyPostgres, verifyDataKeySqlite } from '../db/key-check.js';
import { createPool, PgStore } from '../db/postgres/pg-store.js';
import { createGateway, type Gateway } from './core/gateway.js';
import { qrCodes } from './infra/qrcodes.js';
import type { Clock, Ids, Vault } from './core/kernel.js';
import { systemClock, uuidIds } from './infra/ids.js';
import { coreLogger, createLogger } from './infra/logger.js';
import { createVault, loadDataKey } from './infra/vault.js';
import { Simulator } from './processor/simulator.js';
import { createPostbackSender } from './infra/postback-sender.js';
import type { DeliverySettings, PostbackSender } from './core/postbacks/delivery.js';
import type { Mailer } from './core/mail/ports.js';
import type { MailQueueSettings } from './core/mail/mail-queue.js';
import { createSmtpMailer, testOutboxMailer } from './infra/mailer.js';
import { createEscPosPrinter } from './infra/receipt-printer.js';
import { centreConnection } from './infra/centre-connection.js';
import type { ReceiptPrinter } from './core/receipts/ports.js';
import type { Processor } from './core/payments/ports.js';
import type { PrintQueueSettings } from './core/receipts/print-queue.js';
import { listeningUrl, type Settings } from './settings.js';

/** The version a till reports to its centre (package.json's). */
const GATEWAY_VERSION = '0.1.0';

/** The first scheduled backup of a data directory without any comes soon after the start. */
const FIRST_BACKUP_MS = 10 * 60 * 1000;

/**
 * Scheduled online backups (docs/operations.md "Backups"): every `backupIntervalHours` a copy goes
 * to the backup directory and the oldest beyond `backupKeep` are deleted. A failed backup is
 * logged and tried again at the next interval; the gateway keeps serving either way.
 */
function scheduleBackups(
  db: Database.Database,
  settings: Settings,
  logger: PinoLogger,
  clock: Clock,
): { stop(): Promise<void> } | undefined {
  if (settings.backupIntervalHours <= 0) return undefined;
  const dir = settings.backupDir ?? join(settings.dataDir, 'backups');
  const intervalMs = settings.backupIntervalHours * 60 * 60 * 1000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const plan = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = (async () => {
          try {
            const file = await writeBackup(db, dir, clock.now());
            const deleted = pruneBackups(dir, settings.backupKeep);
            logger.info({ file, deleted: deleted.length }, 'scheduled backup written');
          } catch (error) {
            logger.error({ err: error, dir }, 'scheduled backup failed');
          }
        })().finally(() => {
          running = undefined;
          plan(intervalMs);
        });
      },
      Math.max(0, delayMs),
    );
    timer.unref();
  };
  const latest = listBackups(dir)[0];
  plan(latest ? latest.at.getTime() + intervalMs - clock.now().getTime() : Math.min(intervalMs, FIRST_BACKUP_MS));
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

export interface ComposeOptions {
  settings: Settings;
  logger?: PinoLogger;
  /** The data key; headless hosts load it from the environment or the key file when omitted. */
  dataKey?: Buffer;
  /** Where dataKey came from, for the message of a key that does not open the database. */
  dataKeySource?: string;
  clock?: Clock;
  ids?: Ids;
  /** better-sqlite3 binary for this runtime's ABI; omitted under plain Node (node_modules' build). */
  nativeBinding?: string;
  /** Start background jobs (scheduled settlements and expiries, postback delivery). Default true. */
  background?: boolean;
  /** Replaces the HTTP postback sender (tests of failure modes). */
  postbackSender?: PostbackSender;
  /** Postback delivery limits beside the settings' retry scale (tests: e.g. a longer timeout on a busy machine). */
  postbackDelivery?: Partial<Omit<DeliverySettings, 'retryScale'>>;
  /** Replaces the invoice mailer (default: the local test outbox; tests of failure modes). */
  mailer?: Mailer;
  /** Invoice e-mail retry schedule (tests use short delays). */
  mail?: Partial<MailQueueSettings>;
  /** Replaces the ESC/POS receipt printer adapter (tests of failure modes). */
  receiptPrinter?: ReceiptPrinter;
  /** Receipt auto-print retry schedule (tests use short delays). */
  receiptPrints?: Partial<PrintQueueSettings>;
  /** Replaces the Test environment's simulator (tests of a gateway running another environment). */
  processor?: (simulator: Simulator) => Processor;
}

/** The stores a host can run on: SQLite in the data directory, or PostgreSQL (settings.databaseUrl). */
export type GatewayStore = SqliteStore | PgStore;

export interface Composition<S extends GatewayStore = SqliteStore> {
  settings: Settings;
  gateway: Gateway;
  store: S;
  logger: PinoLogger;
  vault: Vault;
  migration: MigrationReport;
  /** The base URL of hosted pages and pay links; hosts set it once they listen (unless configured). */
  publicUrl(): string;
  setListeningUrl(url: string): void;
  /** The certificate fingerprint the host serves HTTPS with (pairing codes pin it). */
  setTlsFingerprint(fingerprint: string | null): void;
  /** Stops background jobs and closes the database after queued units commit. */
  close(): Promise<void>;
}

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/** The data key of this start and where it came from (the host's, or the environment or key file). */
function dataKeyOf(options: ComposeOptions): { vault: Vault; source: string } {
  const { key, source } = options.dataKey
    ? { key: options.dataKey, source: options.dataKeySource ?? 'the host' }
    : loadDataKey(options.settings.dataDir);
  return { vault: createVault(key), source };
}

/**
 * The gateway on SQLite in the data directory (settings.databaseUrl is not consulted). A data key
 * that cannot open the database's sealed data stops it before anything is written (db/key-check.ts).
 */
export function compose(options: ComposeOptions): Composition {
  const { vault, source } = dataKeyOf(options);
  const db = openDatabase(join(options.settings.dataDir, DATABASE_FILE), { nativeBinding: options.nativeBinding });
  let migration: MigrationReport;
  try {
    verifyDataKeySqlite(db, vault, source);
    migration = migrate(db);
    ensureKeyCheckSqlite(db, vault, source, (options.clock ?? systemClock).now());
    // The host that delivers (serve, the desktop app: one per data directory) takes over the
    // claims a crashed run left, at once (PostgreSQL instances wait for the lease instead).
    if (options.background ?? true) releaseQueueClaims(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return assemble(options, new SqliteStore(db), migration, vault);
}

/** The gateway on the configured engine: PostgreSQL when settings.databaseUrl is set, else SQLite. */
export async function composeOnEngine(options: ComposeOptions): Promise<Composition<GatewayStore>> {
  const url = options.settings.databaseUrl;
  if (url === null) return compose(options);
  const { vault, source } = dataKeyOf(options);
  // Migrations and the key check on a plain pool; the gateway's units on a pipelining one.
  const setup = createPool(url, { max: 2 });
  let migration: MigrationReport;
  try {
    await verifyDataKeyPostgres(setup, vault, source);
    migration = await migratePostgres(setup);
    await ensureKeyCheckPostgres(setup, vault, source, (options.clock ?? systemClock).now());
  } finally {
    await setup.end();
  }
  const logger = options.logger ?? createLogger({ level: options.settings.logLevel, format: options.settings.logFormat });
  // The store hears other instances' configuration changes on a connection of its own (a sale's
  // configuration reads are then remembered between sales: main/core/configuration-cache.ts).
  const listen = {
    url,
    onError: (error: unknown) => logger.warn({ err: error }, 'configuration listener: not hearing, sales read it each time'),
  };
  return assemble({ ...options, logger }, new PgStore(createPool(url, { pipeline: true }), { listen }), migration, vault);
}

function assemble<S extends GatewayStore>(options: ComposeOptions, store: S, migration: MigrationReport, vault: Vault): Composition<S> {
  const { settings } = options;
  const logger = options.logger ?? createLogger({ level: settings.logLevel, format: settings.logFormat });
  const movable = options.clock === undefined && settings.simClock === 'movable' ? new MovableClock() : undefined;
  const clock = options.clock ?? movable ?? systemClock;
  let listening = listeningUrl(settings.host, settings.port);
  const publicUrl = () => settings.publicUrl ?? listening;
  let fingerprint: string | null = null;
  const gateway = createGateway({
    store,
    clock,
    ids: options.ids ?? uuidIds,
    vault,
    logger: coreLogger(logger),
    processor: (options.processor ?? ((simulator: Simulator) => simulator))(
      new Simulator({ publicUrl, now: () => clock.now(), slowAnswerMs: settings.simSlowAnswerMs, followUpMs: settings.simFollowUpMs }),
    ),
    postbackSender: options.postbackSender ?? createPostbackSender({ privateAddresses: settings.postbackPrivateAddresses }),
    publicUrl,
    tlsFingerprint: () => fingerprint,
    centreConnection,
    ...(movable ? { movableClock: movable } : {}),
    version: GATEWAY_VERSION,
    qrCodes,
    mailer:
      options.mailer ??
      (settings.smtpHost
        ? createSmtpMailer({
            host: settings.smtpHost,
            port: settings.smtpPort,
            security: settings.smtpSecurity,
            user: settings.smtpUser,
            password: settings.smtpPassword,
            from: settings.mailFrom,
          })
        : testOutboxMailer),
    smtpMailer: createSmtpMailer,
    receiptPrinter: options.receiptPrinter ?? createEscPosPrinter(),
    settings: {
      ...(options.mail ? { mail: options.mail } : {}),
      ...(options.receiptPrints ? { receiptPrints: options.receiptPrints } : {}),
      payments: { simDelayMs: settings.simDelayMs, configurationCacheMs: settings.configurationCacheMs },
      postbacks: {
        ...options.postbackDelivery,
        retryScale: settings.postbackRetryScale,
        ...(settings.postbackClaimLeaseMs !== null ? { claimLeaseMs: settings.postbackClaimLeaseMs } : {}),
      },
      postbackPrivateAddresses: settings.postbackPrivateAddresses,
      ...(settings.timeZone ? { timeZone: settings.timeZone } : {}),
      instanceName: `${hostname()}:${process.pid}`,
      exclusiveDatabase: store instanceof SqliteStore,
      idempotencyRetentionMs: settings.idempotencyRetentionHours * 60 * 60 * 1000,
      lockout: {
        maxFailures: settings.lockoutMaxFailures,
        windowMs: settings.lockoutWindowMinutes * 60 * 1000,
        lockMs: settings.lockoutMinutes * 60 * 1000,
      },
    },
  });

  // On PostgreSQL this instance says it is alive, so its claims outlive it only by INSTANCE_DEAD_MS.
  gateway.instances.start((error) => logger.error({ err: error }, 'instance beat failed'));
  const purge = setInterval(() => {
    gateway.idempotency.purgeExpired().catch((error: unknown) => logger.error({ err: error }, 'idempotency purge failed'));
    gateway.auth.purgeStale().catch((error: unknown) => logger.error({ err: error }, 'lock-out purge failed'));
    gateway.staff.purgeExpiredApprovals().catch((error: unknown) => logger.error({ err: error }, 'approval purge failed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();
  // Each worker is woken by the commits that wrote to its queue, not by every commit.
  store.onCommit(() => gateway.postbackDelivery.wake(), 'postbacks');
  store.onCommit(() => gateway.mailQueue.wake(), 'mail');
  store.onCommit(() => gateway.receiptPrints.wake(), 'prints');
  // PostgreSQL is backed up by its own tools (docs/scaling.md); SQLite by the gateway.
  const backups =
    (options.background ?? true) && store instanceof SqliteStore ? scheduleBackups(store.db, settings, logger, clock) : undefined;
  if (options.background ?? true) {
    gateway.scheduler.start();
    gateway.postbackDelivery.start();
    gateway.mailQueue.start();
    gateway.receiptPrints.start();
    // A till: reports to its centre and forwards what it stored (nothing for an ordinary gateway).
    void gateway.tillLink.start().catch((error: unknown) => logger.error({ err: error }, 'till link failed to start'));
  }

  return {
    settings,
    gateway,
    store,
    logger,
    vault,
    migration,
    publicUrl,
    setListeningUrl(url) {
      listening = url;
    },
    setTlsFingerprint(value) {
      fingerprint = value;
    },
    async close() {
      clearInterval(purge);
      await gateway.instances.stop();
      await backups?.stop();
      await gateway.scheduler.stop();
      await gateway.postbackDelivery.stop();
      await gateway.mailQueue.stop();
      await gateway.receiptPrints.stop();
      await gateway.tillLink.stop();
      await store.close();
    },
  };
}
