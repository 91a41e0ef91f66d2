/**
 * A small HTTP/1.1 load generator that runs in its own process (see runLoad in load.ts), so that
 * the server under test and the client never share an event loop. It speaks keep-alive HTTP over
 * raw sockets (no per-request objects of node:http), one request in flight per connection, and
 * records every latency. Two modes:
 *
 * - closed loop (`rate` absent): every connection sends its next request as soon as the previous
 *   answer is in, for `durationMs`;
 * - open loop (`rate` set): requests are due at a steady rate; a due request waits for a free
 *   connection, and its latency counts from the moment it was due (no coordinated omission).
 *
 * Request bodies and headers are templates: `{{n}}` becomes a number unique within the run (with
 * the run's `prefix`), so every payment gets its own order id and idempotency key.
 * Bounded: stops after `durationMs` (plus `graceMs` for answers in flight) or `maxRequests`.
 */
import { connect, type Socket } from 'node:net';

export interface LoadConfig {
  host: string;
  port: number;
  /** Several servers (instances behind a balancer): connection i goes to ports[i % length]. */
  ports?: number[];
  connections: number;
  durationMs: number;
  /** Open loop: requests per second over all connections. */
  rate?: number;
  maxRequests?: number;
  /** Answers still outstanding this long after the end are counted as timeouts. */
  graceMs?: number;
  /** Unique prefix for `{{n}}`. */
  prefix: string;
  /** One or more request templates, used in turn. */
  requests: Array<{ method: string; path: string; headers: Record<string, string>; body?: string }>;
}

export interface LoadResult {
  mode: 'closed' | 'open';
  connections: number;
  durationMs: number;
  targetRate: number | null;
  sent: number;
  completed: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  /** Open loop only: latency from the actual send (without queueing for a free connection). */
  serviceLatencyMs?: { p50: number; p99: number; max: number };
  /** Completed answers per whole second of the run. */
  perSecond: number[];
  /** Worst latency of each whole second (ms), to see stalls. */
  worstPerSecond: number[];
  sampleErrorBody?: string;
}

/** A request without `{{n}}` is the same bytes every time: build it once. */
function compile(config: LoadConfig): Array<Buffer | null> {
  return config.requests.map((r, index) => (JSON.stringify(r).includes('{{n}}') ? null : render(config, index, '')));
}

function render(config: LoadConfig, index: number, id: string): Buffer {
  const r = config.requests[index % config.requests.length];
  if (!r) throw new Error('no request template');
  const fill = (text: string) => (id === '' ? text : text.split('{{n}}').join(id));
  const body = fill(r.body ?? '');
  const headers = Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${fill(v)}\r\n`)
    .join('');
  return Buffer.from(
    `${r.method} ${fill(r.path)} HTTP/1.1\r\nHost: ${config.host}:${config.port}\r\nConnection: keep-alive\r\n${headers}` +
      (r.body !== undefined ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : '') +
      `\r\n${body}`,
  );
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return round(sorted[index] ?? 0);
}

const round = (v: number) => Math.round(v * 1000) / 1000;

class Latencies {
  private data = new Float64Array(1 << 16);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
}

/** Parses HTTP/1.1 responses (Content-Length or chunked) from a byte stream. */
class ResponseParser {
  private buffer: Buffer = Buffer.alloc(0);
  onResponse: (status: number, body: Buffer) => void = () => undefined;

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const head = this.buffer.toString('latin1', 0, headerEnd);
      const status = Number(head.slice(9, 12));
      const lengthMatch = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      const bodyStart = headerEnd + 4;
      if (lengthMatch?.[1]) {
        const end = bodyStart + Number(lengthMatch[1]);
        if (this.buffer.length < end) return;
        const body = this.buffer.subarray(bodyStart, end);
        this.buffer = this.buffer.subarray(end);
        this.onResponse(status, body);
      } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
        let offset = bodyStart;
        const parts: Buffer[] = [];
        let done = false;
        for (;;) {
          const lineEnd = this.buffer.indexOf('\r\n', offset);
          if (lineEnd < 0) break;
          const size = parseInt(this.buffer.toString('latin1', offset, lineEnd), 16);
          if (size === 0) {
            if (this.buffer.length < lineEnd + 4) break;
            offset = lineEnd + 4;
            done = true;
            break;
          }
          if (this.buffer.length < lineEnd + 2 + size + 2) break;
          parts.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
          offset = lineEnd + 2 + size + 2;
        }
        if (!done) return;
        this.buffer = this.buffer.subarray(offset);
        this.onResponse(status, Buffer.concat(parts));
      } else {
        // No body (e.g. 204).
        this.buffer = this.buffer.subarray(bodyStart);
        this.onResponse(status, Buffer.alloc(0));
      }
    }
  }
}

export async function runLoadInProcess(config: LoadConfig): Promise<LoadResult> {
  const templates = compile(config);
  const latencies = new Latencies();
  const service = new Latencies();
  const statuses: Record<string, number> = {};
  const perSecond: number[] = [];
  const worstPerSecond: number[] = [];
  let sent = 0;
  let completed = 0;
  let errors = 0;
  let sampleErrorBody: string | undefined;
  let counter = 0;
  const open = config.rate !== undefined;
  const start = performance.now();
  const endAt = start + config.durationMs;
  const maxRequests = config.maxRequests ?? Number.POSITIVE_INFINITY;
  let stopping = false;

  // Open loop: due times of requests waiting for a connection.
  const backlog: number[] = [];
  const idle: Conn[] = [];

  interface Conn {
    socket: Socket;
    parser: ResponseParser;
    busy: boolean;
    dueAt: number;
    sentAt: number;
    closed: boolean;
  }

  const finished = new Promise<void>((resolveFinished) => {
    let live = 0;
    const maybeDone = () => {
      if (stopping && live === 0) resolveFinished();
    };

    const send = (conn: Conn, dueAt: number) => {
      const index = counter;
      counter += 1;
      sent += 1;
      conn.busy = true;
      conn.dueAt = dueAt;
      conn.sentAt = performance.now();
      const fixed = templates[index % templates.length];
      conn.socket.write(fixed ?? render(config, index, `${config.prefix}${index}`));
    };

    const next = (conn: Conn) => {
      conn.busy = false;
      const now = performance.now();
      if (stopping || now >= endAt || sent >= maxRequests) {
        stopping = true;
        conn.closed = true;
        conn.socket.end();
        return;
      }
      if (!open) send(conn, now);
      else if (backlog.length > 0) send(conn, backlog.shift() as number);
      else idle.push(conn);
    };

    const openConnection = (index: number): void => {
      const port = config.ports?.length ? (config.ports[index % config.ports.length] as number) : config.port;
      const socket = connect({ host: config.host, port, noDelay: true });
      const conn: Conn = { socket, parser: new ResponseParser(), busy: false, dueAt: 0, sentAt: 0, closed: false };
      live += 1;
      socket.on('data', (chunk: Buffer) => conn.parser.push(chunk));
      conn.parser.onResponse = (status, body) => {
        const now = performance.now();
        completed += 1;
        latencies.push(now - conn.dueAt);
        if (open) service.push(now - conn.sentAt);
        const second = Math.floor((now - start) / 1000);
        perSecond[second] = (perSecond[second] ?? 0) + 1;
        worstPerSecond[second] = Math.max(worstPerSecond[second] ?? 0, round(now - conn.dueAt));
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status >= 400 && sampleErrorBody === undefined) sampleErrorBody = body.toString('utf8').slice(0, 500);
        next(conn);
      };
      socket.on('connect', () => next(conn));
      socket.on('error', () => {
        if (conn.busy) errors += 1;
        conn.busy = false;
      });
      socket.on('close', () => {
        live -= 1;
        const i = idle.indexOf(conn);
        if (i >= 0) idle.splice(i, 1);
        if (!conn.closed && !stopping && performance.now() < endAt) openConnection(index);
        maybeDone();
      });
    };

    for (let i = 0; i < config.connections; i += 1) openConnection(i);

    let ticker: NodeJS.Timeout | undefined;
    if (open) {
      const interval = 1000 / (config.rate as number);
      let due = start;
      ticker = setInterval(() => {
        const now = performance.now();
        while (due <= now && due < endAt && sent + backlog.length < maxRequests) {
          const conn = idle.pop();
          if (conn) send(conn, due);
          else backlog.push(due);
          due += interval;
        }
      }, 1);
    }

    setTimeout(() => {
      stopping = true;
      if (ticker) clearInterval(ticker);
      for (const conn of idle.splice(0)) {
        conn.closed = true;
        conn.socket.end();
      }
      maybeDone();
      // Bounded: answers not in after the grace period are timeouts.
      setTimeout(() => {
        live = 0;
        resolveFinished();
      }, config.graceMs ?? 10_000).unref();
    }, config.durationMs);
  });

  await finished;
  const elapsed = Math.min(performance.now() - start, config.durationMs + (config.graceMs ?? 10_000));
  const sorted = latencies.sorted();
  let sum = 0;
  for (const v of sorted) sum += v;
  const result: LoadResult = {
    mode: open ? 'open' : 'closed',
    connections: config.connections,
    durationMs: Math.round(elapsed),
    targetRate: config.rate ?? null,
    sent,
    completed,
    errors,
    timeouts: sent - completed - errors,
    statuses,
    requestsPerSecond: Math.round((completed / Math.min(elapsed, config.durationMs)) * 1000),
    latencyMs: {
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      p999: percentile(sorted, 99.9),
      max: round(sorted[sorted.length - 1] ?? 0),
      mean: round(sorted.length ? sum / sorted.length : 0),
    },
    perSecond: Array.from(perSecond.slice(0, Math.ceil(config.durationMs / 1000)), (v) => v ?? 0),
    worstPerSecond: Array.from(worstPerSecond.slice(0, Math.ceil(config.durationMs / 1000)), (v) => v ?? 0),
    ...(sampleErrorBody !== undefined ? { sampleErrorBody } : {}),
  };
  if (open) {
    const s = service.sorted();
    result.serviceLatencyMs = { p50: percentile(s, 50), p99: percentile(s, 99), max: round(s[s.length - 1] ?? 0) };
  }
  return result;
}
