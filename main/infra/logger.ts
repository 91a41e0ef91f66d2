/**
 * Structured logs (pino) that never carry secrets (decisions.md D13): known sensitive fields are
 * redacted by path, and card-number-like digit runs in messages are masked to first 6 / last 4.
 * JSON lines by default; `pretty` prints the same entries as readable lines for a person at a
 * terminal (`npm start`), after redaction and masking.
 */
import { isatty } from 'node:tty';
import { maskPans } from '../../contract/cards.js';
import pino, { type Logger as PinoLogger, type DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { Logger } from '../core/kernel.js';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'password',
  'api_password',
  'webhook_key',
  'card_number',
  'card_cvv',
  'cvv',
  'pin',
  'pin_block',
  'track2_data',
  'emv_data',
  'iban',
  'number',
  '*.password',
  '*.api_password',
  '*.webhook_key',
  '*.card_number',
  '*.card_cvv',
  '*.cvv',
  '*.pin',
  '*.pin_block',
  '*.track2_data',
  '*.emv_data',
  '*.iban',
  '*.number',
  '*.*.number',
  '*.*.track2_data',
  '*.*.emv_data',
  '*.*.block',
];

export { maskPans };

// Field names whose values are secrets wherever they appear (compared lower-case without _ or -,
// so cardNumber and card_number both match). REDACTED_PATHS alone stops at a fixed depth.
const SECRET_KEYS = new Set(
  [
    'authorization',
    'cookie',
    'password',
    'api_password',
    'webhook_key',
    'card_number',
    'card_cvv',
    'cvv',
    'pin',
    'pin_block',
    'block',
    'track2_data',
    'emv_data',
    'iban',
    'number',
  ].map((key) => key.replace(/[^a-z0-9]/g, '')),
);
const MAX_SCRUB_DEPTH = 12;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A copy of a logged value with secret fields redacted at any depth and card numbers masked in strings. */
function scrub(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskPans(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_SCRUB_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  // Class instances (errors, Fastify's request and reply) go to their serializers below.
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEYS.has(key.toLowerCase().replace(/[^a-z0-9]/g, '')) ? '[redacted]' : scrub(item, depth + 1);
  }
  return copy;
}

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

export type LogFormat = 'json' | 'pretty';

/** `[14:03:07] INFO: message {fields}` per entry, written synchronously so no line is lost at exit. */
function readableLines(fd: number): DestinationStream {
  const format = prettyFactory({ colorize: isatty(fd), translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true });
  const out = pino.destination({ fd, sync: true });
  return { write: (line: string) => void out.write(format(line)) };
}

export function createLogger(options: { level?: string; destination?: DestinationStream | number; format?: LogFormat } = {}): PinoLogger {
  const destination = options.destination ?? 2;
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (typeof arg === 'string' ? maskPans(arg) : arg)) as Parameters<typeof method>);
        },
      },
      formatters: {
        log: (object) => scrub(object, 0) as Record<string, unknown>,
      },
      serializers: {
        // Fastify's request serializer, with card numbers in the URL (path or query) masked.
        req: (req: RequestLike) =>
          isPlainObject(req)
            ? req
            : {
                method: req.method,
                url: typeof req.url === 'string' ? maskPans(req.url) : req.url,
                version: req.headers?.['accept-version'],
                host: req.host,
                remoteAddress: req.ip,
                remotePort: req.socket?.remotePort,
              },
        err: (error: Error) => {
          const serialized = pino.stdSerializers.err(error);
          serialized.message = maskPans(serialized.message);
          if (serialized.stack) serialized.stack = maskPans(serialized.stack);
          return serialized;
        },
      },
    },
    typeof destination !== 'number'
      ? destination
      : options.format === 'pretty'
        ? readableLines(destination)
        : pino.destination({ fd: destination, sync: false }),
  );
}

/** The core's Logger port over pino. */
export function coreLogger(logger: PinoLogger): Logger {
  return {
    info: (fields, message) => logger.info(fields, message),
    warn: (fields, message) => logger.warn(fields, message),
    error: (fields, message) => logger.error(fields, message),
  };
}
