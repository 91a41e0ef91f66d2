// The CSV export is streamed, not built in memory (docs/decisions.md "Back office: transactions"):
// the real `gateway serve` exports 200,000 seeded transactions while this test reads the answer
// and samples the gateway's resident memory (/proc/PID/status). The file is far larger than what
// the process may grow by; a pause of the reader (a slow network) must not make the gateway read
// ahead either (the next chunk is read only when the socket takes the last one). Meanwhile the
// gateway keeps answering other requests.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { seed } from '../../bench/seed.js';
import { basicAuth, startGateway, tempDataDir, type GatewayProcess } from '../helpers/gateway-process.js';
import { sqliteOnly } from '../helpers/sql.js';

const ROWS = 200_000;
const MiB = 1024 * 1024;
/** What the gateway may grow by while it streams; a file of 200,000 rows held at once needs several times the file's size. */
const GROWTH_LIMIT_MIB = 48;

let gateway: GatewayProcess;
let auth = '';

function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** The rows are seeded into the SQLite database file (bench/seed.ts). */
const SQLITE = sqliteOnly('the export of rows seeded into the SQLite database file');

before(async () => {
  if (SQLITE.skip) return;
  const dataDir = tempDataDir('gateway-export-');
  const seeded = seed(dataDir, { count: ROWS, years: 1, events: false });
  auth = basicAuth(seeded.merchant);
  gateway = await startGateway({ dataDir });
});

after(async () => {
  await gateway?.stop();
});

void test(
  `exports ${ROWS.toLocaleString('en')} rows with bounded memory, at the reader's pace, answering other requests meanwhile`,
  SQLITE,
  async () => {
    const pid = gateway.child.pid as number;
    const url = (query: string) => new URL(`/rest/transactions/export?${query}`, gateway.url);
    // Warm up (compile the paths) and let the start-up garbage go.
    for (let i = 0; i < 3; i += 1) assert.equal((await fetch(url('limit=5000'), { headers: { authorization: auth } })).status, 200);
    await sleep(500);
    const baseline = rssMiB(pid);

    const response = await fetch(
      url(
        'columns=transaction_id,created_at,updated_at,status,payment_type,amount,currency,captured_amount,refunded_amount,order_id,card_brand,card_last_four,entry_mode,message&time_zone=Europe/Berlin',
      ),
      {
        headers: { authorization: auth },
      },
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-total-count'), String(ROWS));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let bytes = 0;
    let lines = 0;
    let peak = baseline;
    let paused = false;
    let duringPause = { before: 0, after: 0 };
    let lastSample = 0;
    const sideCalls: number[] = [];
    let sideCall: Promise<number> | undefined;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (const byte of value) if (byte === 10) lines += 1;
      if (Date.now() - lastSample > 50) {
        lastSample = Date.now();
        peak = Math.max(peak, rssMiB(pid));
      }
      if (!sideCall && bytes > 3 * MiB) {
        // Another request while the export streams at full speed: answered between two chunks.
        const started = performance.now();
        sideCall = fetch(new URL('/rest/transactions?limit=50&status=6', gateway.url), { headers: { authorization: auth } }).then(
          (list) => {
            sideCalls.push(performance.now() - started);
            return list.status;
          },
        );
      }
      if (!paused && bytes > 8 * MiB) {
        // A slow reader: the gateway must wait, not read the rest of the table into memory.
        paused = true;
        const before = rssMiB(pid);
        await sleep(1500);
        duringPause = { before, after: rssMiB(pid) };
        peak = Math.max(peak, duringPause.after);
      }
    }
    assert.equal(await sideCall, 200);
    const growth = peak - baseline;
    const fileMiB = bytes / MiB;
    console.log(
      `export: ${lines} lines, ${fileMiB.toFixed(1)} MiB; gateway RSS ${baseline.toFixed(1)} -> peak ${peak.toFixed(1)} MiB (+${growth.toFixed(1)}); pause ${duringPause.before.toFixed(1)} -> ${duringPause.after.toFixed(1)} MiB; list meanwhile ${sideCalls.map((ms) => ms.toFixed(0)).join(', ')} ms`,
    );
    assert.equal(lines, ROWS + 1, 'a header line and every row');
    assert.ok(fileMiB > 30, `the file (${fileMiB.toFixed(1)} MiB) is larger than the growth limit`);
    assert.ok(growth < GROWTH_LIMIT_MIB, `the gateway grew by ${growth.toFixed(1)} MiB while streaming ${fileMiB.toFixed(1)} MiB`);
    assert.ok(
      duringPause.after - duringPause.before < 16,
      `no read-ahead while the reader pauses: ${duringPause.before.toFixed(1)} -> ${duringPause.after.toFixed(1)} MiB`,
    );
    assert.ok((sideCalls[0] ?? Infinity) < 2000, `other requests are answered during the export (${String(sideCalls[0])} ms)`);
  },
);
