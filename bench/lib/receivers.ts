/**
 * Postback receivers for bench/postbacks.ts, in their own process (forked with IPC): N HTTP
 * servers on 127.0.0.1 that answer every POST with 204. Sends {ports} once listening and
 * {count, firstAt, lastAt} (Date.now() of the first and last postback) on each 'stats' message.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const n = Math.max(1, Math.min(64, Number(process.argv[2] ?? 1)));
let count = 0;
let firstAt: number | null = null;
let lastAt: number | null = null;
const servers: http.Server[] = [];
for (let i = 0; i < n; i += 1) {
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (request, response) => {
    request.resume();
    request.on('end', () => {
      count += 1;
      const now = Date.now();
      firstAt ??= now;
      lastAt = now;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
}
process.send?.({ ports: servers.map((s) => (s.address() as AddressInfo).port) });
process.on('message', (message) => {
  if (message === 'stats') process.send?.({ count, firstAt, lastAt });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
// Bounded: never outlive the benchmark by more than an hour.
setTimeout(() => process.exit(0), 60 * 60 * 1000).unref();
