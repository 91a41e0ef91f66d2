/**
 * A real HTTP postback receiver for tests: node:http on 127.0.0.1 (never another address), which
 * records every request (headers, raw body, parsed body) and answers with a programmable status,
 * or never answers ('hang') until it is closed.
 */
import { readFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPostback {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  /** performance.now() when the body had arrived. */
  at: number;
}

/** The answer to the n-th request (0-based): a status code, or 'hang' to never answer. */
export type Responder = (request: { path: string; index: number; raw: string }) => number | 'hang';

export interface Receiver {
  port: number;
  url(path?: string): string;
  received: ReceivedPostback[];
  /** Replaces the answer for the requests that follow. */
  respond(responder: Responder | number | 'hang'): void;
  /** Resolves once `count` requests arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedPostback[]>;
  /** Requests that arrived but were not answered (hanging). */
  hanging(): number;
  /** Closes the listener and every connection (hanging requests end with a socket error). */
  close(): Promise<void>;
}

export function headerText(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  if (typeof value !== 'string') throw new Error(`header ${name} missing or repeated: ${JSON.stringify(value)}`);
  return value;
}

export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** The headers Standard Webhooks verification needs, as plain strings. */
export function webhookHeaders(headers: IncomingHttpHeaders): WebhookHeaders {
  return {
    'webhook-id': headerText(headers, 'webhook-id'),
    'webhook-timestamp': headerText(headers, 'webhook-timestamp'),
    'webhook-signature': headerText(headers, 'webhook-signature'),
  };
}

/** `delayMs`: every answer comes this long after the request (a receiver that takes its time). */
export async function startReceiver(
  options: { port?: number; respond?: Responder | number | 'hang'; delayMs?: number } = {},
): Promise<Receiver> {
  const received: ReceivedPostback[] = [];
  const fixed = options.respond ?? 200;
  let responder: Responder = typeof fixed === 'function' ? fixed : () => fixed;
  let waiters: Array<{ count: number; resolve: () => void }> = [];
  const open = new Set<http.ServerResponse>();
  let index = 0;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // recorded as an empty body; the test will notice
      }
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, raw, body, at: performance.now() });
      const answer = responder({ path, index, raw });
      index += 1;
      waiters = waiters.filter((w) => {
        if (received.length >= w.count) w.resolve();
        return received.length < w.count;
      });
      if (answer === 'hang') {
        open.add(response);
        response.on('close', () => open.delete(response));
        return;
      }
      const finish = () => {
        response.statusCode = answer;
        if (answer >= 300 && answer < 400) response.setHeader('location', '/redirected');
        response.end(answer >= 200 && answer < 300 ? 'ok' : 'no');
      };
      if (options.delayMs) setTimeout(finish, options.delayMs);
      else finish();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    url: (path = '/postbacks') => `http://127.0.0.1:${port}${path}`,
    received,
    respond(next) {
      responder = typeof next === 'function' ? next : () => next;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} postbacks in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice());
          },
        });
      });
    },
    hanging: () => open.size,
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
/**
 * A port nothing listens on, to stand for a receiver that is down, and that nothing else will take
 * before the test opens it: it lies below the kernel's ephemeral range (where every `listen(0)` of
 * the tests running in parallel and every outgoing connection's local port come from), so only an
 * explicit bind to that very number could race for it.
 */
export async function closedPort(): Promise<number> {
  const ephemeralStart = ephemeralRangeStart();
  const low = Math.max(10_000, ephemeralStart - 12_000);
  for (let tries = 0; tries < 50; tries += 1) {
    const port = low + Math.floor(Math.random() * (ephemeralStart - low));
    const server = http.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return port;
    }
  }
  throw new Error('no free port below the ephemeral range');
}

function ephemeralRangeStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 11_000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}
