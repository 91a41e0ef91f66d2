/**
 * Host settings: defaults, then `settings.json` in the data dir, then GATEWAY_* environment
 * variables, then command-line flags. docs/operations.md lists every setting.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isTimeZone } from './core/dashboard/periods.js';

export const SETTINGS_FILE = 'settings.json';

export interface Settings {
  dataDir: string;
  host: string;
  port: number;
  /** Base of pay links and hosted pages; null derives it from the listening address. */
  publicUrl: string | null;
  simDelayMs: number;
  /** How long the slow-answer test card makes a card-present payment wait. */
  simSlowAnswerMs: number;
  /** How long the simulated processor takes to answer a capture, reversal, refund or payout. */
  simFollowUpMs: number;
  /** 'movable': the Test environment's clock can be moved forward (POST /test/clock), to rehearse hours in seconds. */
  simClock: 'system' | 'movable';
  postbackRetryScale: number;
  /** How long a postback claim keeps other instances off a record; null: the send timeout plus 30 s. */
  postbackClaimLeaseMs: number | null;
  logLevel: string;
  /** JSON lines (for machines: files, journals, log shippers) or readable lines for a terminal. */
  logFormat: 'json' | 'pretty';
  idempotencyRetentionHours: number;
  configurationCacheMs: number;
  postbackPrivateAddresses: 'allow' | 'deny';
  lockoutMaxFailures: number;
  lockoutWindowMinutes: number;
  lockoutMinutes: number;
  /** Hours between scheduled online backups; 0 turns them off. */
  backupIntervalHours: number;
  /** How many scheduled backups are kept (the oldest go first). */
  backupKeep: number;
  /** Where scheduled backups go; null: `backups` in the data directory. */
  backupDir: string | null;
  /** TLS certificate and key (PEM files) for listening beyond loopback; none: a self-signed one. */
  tlsCert: string | null;
  tlsKey: string | null;
  /** SMTP for invoice e-mails; without a host they go to the local test outbox. */
  smtpHost: string | null;
  smtpPort: number;
  smtpSecurity: 'implicit' | 'starttls' | 'none';
  smtpUser: string | null;
  smtpPassword: string | null;
  mailFrom: string;
  /** The till asks for confirmation before charging more than this, in the merchant's currency. */
  tillConfirmAbove: number;
  /** The shop's time zone (IANA) for the dashboard's days and hours; null: the host's. */
  timeZone: string | null;
  /** PostgreSQL (postgres://...) for several instances on one database; null: SQLite in the data directory. */
  databaseUrl: string | null;
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };
interface SettingSpec {
  key: Exclude<keyof Settings, 'dataDir'>;
  env: string;
  flag: string;
  parse: (raw: unknown) => Parsed;
  describe: string;
}

const number =
  (min: number, max: number, integer: boolean) =>
  (raw: unknown): Parsed => {
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      return { ok: false, message: `must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}` };
    }
    return { ok: true, value };
  };
const oneOf =
  (...allowed: string[]) =>
  (raw: unknown): Parsed =>
    typeof raw === 'string' && allowed.includes(raw)
      ? { ok: true, value: raw }
      : { ok: false, message: `must be one of ${allowed.join(', ')}` };
const text =
  (pattern: RegExp, what: string) =>
  (raw: unknown): Parsed =>
    typeof raw === 'string' && pattern.test(raw) ? { ok: true, value: raw } : { ok: false, message: `must be ${what}` };

export const SETTING_SPECS: readonly SettingSpec[] = [
  {
    key: 'host',
    env: 'GATEWAY_HOST',
    flag: 'host',
    parse: text(/^[\w.:-]+$/, 'a host name or IP address'),
    describe: 'address to listen on',
  },
  { key: 'port', env: 'GATEWAY_PORT', flag: 'port', parse: number(0, 65535, true), describe: 'TCP port (0 picks a free one)' },
  {
    key: 'publicUrl',
    env: 'GATEWAY_PUBLIC_URL',
    flag: 'public-url',
    parse: text(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'an http(s) URL'),
    describe: 'base of pay links and hosted pages',
  },
  {
    key: 'simDelayMs',
    env: 'GATEWAY_SIM_DELAY_MS',
    flag: 'sim-delay-ms',
    parse: number(0, 86_400_000, true),
    describe: 'duration of every simulated asynchronous step',
  },
  {
    key: 'simSlowAnswerMs',
    env: 'GATEWAY_SIM_SLOW_ANSWER_MS',
    flag: 'sim-slow-answer-ms',
    parse: number(0, 600_000, true),
    describe: 'how long the slow-answer test card keeps a card-present payment waiting',
  },
  {
    key: 'simFollowUpMs',
    env: 'GATEWAY_SIM_FOLLOW_UP_MS',
    flag: 'sim-follow-up-ms',
    parse: number(0, 600_000, true),
    describe: 'how long the simulated processor takes to answer a capture, reversal, refund or payout',
  },
  {
    key: 'simClock',
    env: 'GATEWAY_SIM_CLOCK',
    flag: 'sim-clock',
    parse: oneOf('system', 'movable'),
    describe:
      "movable: the Test environment's clock can be moved forward with POST /test/clock (a long outage rehearsed in seconds); never for real money",
  },
  {
    key: 'postbackRetryScale',
    env: 'GATEWAY_POSTBACK_RETRY_SCALE',
    flag: 'postback-retry-scale',
    parse: number(0.000001, 1000, false),
    describe: 'multiplies the postback retry schedule',
  },
  {
    key: 'postbackClaimLeaseMs',
    env: 'GATEWAY_POSTBACK_CLAIM_LEASE_MS',
    flag: 'postback-claim-lease-ms',
    parse: number(100, 3_600_000, true),
    describe: "how long an instance's claim on a postback lasts before another may take it over (default: the 10 s send timeout plus 30 s)",
  },
  {
    key: 'logLevel',
    env: 'GATEWAY_LOG_LEVEL',
    flag: 'log-level',
    parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    describe: 'log level',
  },
  {
    key: 'logFormat',
    env: 'GATEWAY_LOG_FORMAT',
    flag: 'log-format',
    parse: oneOf('json', 'pretty'),
    describe: 'log lines as JSON or readable (npm start: pretty)',
  },
  {
    key: 'idempotencyRetentionHours',
    env: 'GATEWAY_IDEMPOTENCY_RETENTION_HOURS',
    flag: 'idempotency-retention-hours',
    parse: number(1, 744, true),
    describe: 'how long idempotency keys are kept (1 h to 31 days)',
  },
  {
    key: 'configurationCacheMs',
    env: 'GATEWAY_CONFIGURATION_CACHE_MS',
    flag: 'configuration-cache-ms',
    parse: number(0, 3_600_000, true),
    describe: "how long a sale's configuration reads are used again at most should a change go unheard (0: read for every sale)",
  },
  {
    key: 'postbackPrivateAddresses',
    env: 'GATEWAY_POSTBACK_PRIVATE_ADDRESSES',
    flag: 'postback-private-addresses',
    parse: oneOf('allow', 'deny'),
    describe: 'postbacks to loopback and private addresses',
  },
  {
    key: 'lockoutMaxFailures',
    env: 'GATEWAY_LOCKOUT_MAX_FAILURES',
    flag: 'lockout-max-failures',
    parse: number(1, 10_000, true),
    describe: 'failed authentications from one source before a lock-out',
  },
  {
    key: 'lockoutWindowMinutes',
    env: 'GATEWAY_LOCKOUT_WINDOW_MINUTES',
    flag: 'lockout-window-minutes',
    parse: number(1, 1440, true),
    describe: 'window in which failures are counted',
  },
  {
    key: 'lockoutMinutes',
    env: 'GATEWAY_LOCKOUT_MINUTES',
    flag: 'lockout-minutes',
    parse: number(1, 1440, true),
    describe: 'length of a lock-out',
  },
  {
    key: 'backupIntervalHours',
    env: 'GATEWAY_BACKUP_INTERVAL_HOURS',
    flag: 'backup-interval-hours',
    parse: number(0, 720, false),
    describe: 'hours between scheduled online backups (0: off)',
  },
  { key: 'backupKeep', env: 'GATEWAY_BACKUP_KEEP', flag: 'backup-keep', parse: number(1, 1000, true), describe: 'scheduled backups kept' },
  {
    key: 'tlsCert',
    env: 'GATEWAY_TLS_CERT',
    flag: 'tls-cert',
    parse: text(/^.{1,1024}$/, 'a PEM file'),
    describe: 'TLS certificate (PEM): HTTPS with it on any address, loopback too (beyond loopback the default is a self-signed one)',
  },
  {
    key: 'tlsKey',
    env: 'GATEWAY_TLS_KEY',
    flag: 'tls-key',
    parse: text(/^.{1,1024}$/, 'a PEM file'),
    describe: 'TLS private key (PEM) for tlsCert',
  },
  {
    key: 'backupDir',
    env: 'GATEWAY_BACKUP_DIR',
    flag: 'backup-dir',
    parse: text(/^.{1,1024}$/, 'a directory'),
    describe: 'where scheduled backups go (default: backups in the data directory)',
  },
  {
    key: 'smtpHost',
    env: 'GATEWAY_SMTP_HOST',
    flag: 'smtp-host',
    parse: text(/^[\w.:-]+$/, 'a host name or IP address'),
    describe: 'SMTP server for invoice e-mails (none: local test outbox)',
  },
  { key: 'smtpPort', env: 'GATEWAY_SMTP_PORT', flag: 'smtp-port', parse: number(1, 65535, true), describe: 'SMTP port' },
  {
    key: 'smtpSecurity',
    env: 'GATEWAY_SMTP_SECURITY',
    flag: 'smtp-security',
    parse: oneOf('starttls', 'implicit', 'none'),
    describe: 'SMTP TLS: starttls (required), implicit, none',
  },
  { key: 'smtpUser', env: 'GATEWAY_SMTP_USER', flag: 'smtp-user', parse: text(/^\S{1,254}$/, 'a user name'), describe: 'SMTP user' },
  {
    key: 'smtpPassword',
    env: 'GATEWAY_SMTP_PASSWORD',
    flag: 'smtp-password',
    parse: text(/^.{1,1024}$/, 'a password'),
    describe: 'SMTP password (never logged)',
  },
  {
    key: 'mailFrom',
    env: 'GATEWAY_MAIL_FROM',
    flag: 'mail-from',
    parse: text(/^.{3,254}$/, 'a sender address such as Shop <billing@shop.example>'),
    describe: 'default sender of invoice e-mails',
  },
  {
    key: 'tillConfirmAbove',
    env: 'GATEWAY_TILL_CONFIRM_ABOVE',
    flag: 'till-confirm-above',
    parse: number(0, 999_999_999.99, false),
    describe: "the till asks for confirmation before charging more than this (merchant's currency)",
  },
  {
    key: 'timeZone',
    env: 'GATEWAY_TIME_ZONE',
    flag: 'time-zone',
    parse: (raw) =>
      typeof raw === 'string' && /^[A-Za-z0-9_+\-/]{1,64}$/.test(raw) && isTimeZone(raw)
        ? { ok: true, value: raw }
        : { ok: false, message: 'must be an IANA time zone such as Europe/Berlin' },
    describe: "the shop's time zone for the dashboard's days (default: this computer's)",
  },
  {
    key: 'databaseUrl',
    env: 'GATEWAY_DATABASE_URL',
    flag: 'database',
    parse: text(/^postgres(ql)?:\/\/\S+$/, 'a PostgreSQL URL such as postgres://user:password@host:5432/tillgate'),
    describe: 'PostgreSQL database for several instances (default: SQLite in the data directory); its password is never logged',
  },
];

export const DEFAULTS: Omit<
  Settings,
  'dataDir' | 'publicUrl' | 'backupDir' | 'tlsCert' | 'tlsKey' | 'databaseUrl' | 'postbackClaimLeaseMs'
> = {
  host: '127.0.0.1',
  port: 8420,
  simDelayMs: 5000,
  simSlowAnswerMs: 15_000,
  simFollowUpMs: 0,
  simClock: 'system',
  postbackRetryScale: 1,
  logLevel: 'info',
  logFormat: 'json',
  idempotencyRetentionHours: 1,
  configurationCacheMs: 1000,
  postbackPrivateAddresses: 'allow',
  lockoutMaxFailures: 10,
  lockoutWindowMinutes: 10,
  lockoutMinutes: 15,
  backupIntervalHours: 24,
  backupKeep: 7,
  smtpHost: null,
  smtpPort: 587,
  smtpSecurity: 'starttls',
  smtpUser: null,
  smtpPassword: null,
  mailFrom: 'Tillgate <invoices@localhost>',
  tillConfirmAbove: 1000,
  timeZone: null,
};

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** Where the desktop app keeps its data (Electron's userData); `npm start` uses the same place. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GATEWAY_DATA_DIR) return env.GATEWAY_DATA_DIR;
  const app = 'Tillgate';
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', app);
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), app);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), app);
}

export function resolveSettings(dataDir: string, flags: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = process.env): Settings {
  const file = join(dataDir, SETTINGS_FILE);
  let fromFile: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new SettingsError(`${file} is not valid JSON: ${(error as Error).message.split('\n')[0]}`);
    }
    if (typeof fromFile !== 'object' || fromFile === null || Array.isArray(fromFile))
      throw new SettingsError(`${file} must hold a JSON object`);
    const known = new Set(SETTING_SPECS.map((s) => s.key));
    for (const key of Object.keys(fromFile))
      if (!known.has(key as SettingSpec['key'])) throw new SettingsError(`${file}: unknown setting "${key}"`);
  }
  const resolved: Record<string, unknown> = { ...DEFAULTS };
  for (const spec of SETTING_SPECS) {
    const sources: Array<[unknown, string]> = [
      [fromFile[spec.key], `${file}: ${spec.key}`],
      [env[spec.env], `environment variable ${spec.env}`],
      [flags[spec.flag], `--${spec.flag}`],
    ];
    for (const [raw, where] of sources) {
      if (raw === undefined) continue;
      const parsed = spec.parse(raw);
      if (!parsed.ok) throw new SettingsError(`${where} ${parsed.message}`);
      resolved[spec.key] = parsed.value;
    }
  }
  resolved.dataDir = dataDir;
  resolved.publicUrl = typeof resolved.publicUrl === 'string' ? resolved.publicUrl.replace(/\/+$/, '') : null;
  resolved.backupDir = typeof resolved.backupDir === 'string' ? resolve(dataDir, resolved.backupDir) : null;
  resolved.tlsCert = typeof resolved.tlsCert === 'string' ? resolve(dataDir, resolved.tlsCert) : null;
  resolved.tlsKey = typeof resolved.tlsKey === 'string' ? resolve(dataDir, resolved.tlsKey) : null;
  resolved.databaseUrl = typeof resolved.databaseUrl === 'string' ? resolved.databaseUrl : null;
  resolved.postbackClaimLeaseMs = typeof resolved.postbackClaimLeaseMs === 'number' ? resolved.postbackClaimLeaseMs : null;
  return resolved as unknown as Settings;
}

/**
 * The first start keeps this computer's time zone as the shop's (`timeZone` in settings.json), so the
 * shop's days and times stay where they were when the computer's zone changes or the data moves to
 * another computer; a zone set already (file, environment, flag) is left alone. Answers the zone.
 */
export function keepShopTimeZone(settings: Pick<Settings, 'dataDir' | 'timeZone'>, hostZone: string): string {
  if (settings.timeZone) return settings.timeZone;
  const file = join(settings.dataDir, SETTINGS_FILE);
  const current = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  if (typeof current.timeZone !== 'string') writeFileSync(file, `${JSON.stringify({ ...current, timeZone: hostZone }, null, 2)}\n`);
  return hostZone;
}

/** The public URL for a server listening on host:port when none was configured. */
export function listeningUrl(host: string, port: number, https = false): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `${https ? 'https' : 'http'}://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
