/**
 * Benchmark 2: payment latency at a steady rate.
 *
 *   node --import tsx bench/steady-latency.ts [--rate 500] [--connections 20] [--seconds 30]
 *
 * `gateway serve` with default settings on a fresh data dir; POST /rest/payment (cardpos
 * approved, an Idempotency-Key each) due at a steady `--rate` over `--connections` keep-alive
 * connections from a separate process (open loop: a request that has to wait for a free
 * connection counts from when it was due, so queueing is not hidden). After 3 s of warm-up at
 * the same rate. Writes bench/results/steady-latency.json.
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { basicAuth, createMerchant, machine, paymentRequest, rssMiB, runLoad, startGateway, tempDir, writeResult } from './lib/procs.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '500' },
    connections: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '30' },
    args: { type: 'string', default: '' },
  },
});
const rate = Number(values.rate);
const connections = Number(values.connections);

const machineBefore = machine();
const dir = tempDir('tillgate-bench-steady-');
const merchant = createMerchant(dir);
const server = await startGateway(dir, { cpu: 0, args: values.args ? values.args.split(' ') : [] });
let result;
try {
  const request = paymentRequest(basicAuth(merchant));
  await runLoad({ host: server.host, port: server.port, connections, rate, durationMs: 3000, prefix: 'warm-', requests: [request] }, 1);
  result = await runLoad(
    {
      host: server.host,
      port: server.port,
      connections,
      rate,
      durationMs: Number(values.seconds) * 1000,
      prefix: 'run-',
      requests: [request],
    },
    1,
  );
} finally {
  console.log(`gateway RSS ${rssMiB(server.pid)} MiB`);
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  JSON.stringify({
    rps: result.requestsPerSecond,
    latencyMs: result.latencyMs,
    service: result.serviceLatencyMs,
    statuses: result.statuses,
  }),
);
const file = writeResult('steady-latency', {
  benchmark: `POST /rest/payment cardpos approved at a steady ${rate} req/s, ${connections} connections, open loop`,
  serverArgs: values.args || null,
  machine: machineBefore,
  machineAfter: { loadAverage: machine().loadAverage, otherNodeTestRuns: machine().otherNodeTestRuns },
  result,
});
console.log(`written ${file}`);
