/**
 * Structured logs (pino) that never carry secrets (decisions.md D13): known sensitive fields are
 * redacted by path, and card-number-like digit runs in messages are masked to first 6 / last 4.
 */
import pino, { type Logger as PinoLogger, type DestinationStream } from 'pino';
import type { Logger } from '../core/ports.js';

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

const PAN_LIKE = /\b(\d{6})\d{3,9}(\d{4})\b/g;

/** Masks digit runs of 13 to 19 digits (card and token numbers) to first 6 and last 4. */
export function maskPans(text: string): string {
  return text.replace(PAN_LIKE, (_m, first: string, last: string) => `${first}…${last}`);
}

export function createLogger(options: { level?: string; destination?: DestinationStream | number } = {}): PinoLogger {
  const destination = options.destination ?? 2;
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? maskPans(arg) : arg)) as Parameters<typeof method>,
          );
        },
      },
      serializers: {
        err: (error: Error) => {
          const serialized = pino.stdSerializers.err(error);
          serialized.message = maskPans(serialized.message);
          if (serialized.stack) serialized.stack = maskPans(serialized.stack);
          return serialized;
        },
      },
    },
    typeof destination === 'number' ? pino.destination({ fd: destination, sync: false }) : destination,
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
