// What stalls the gateway's event loop while a bench runs: run a bench with this file as the
// gateway (it starts bin/gateway.js in its own process after installing the watchers):
//
//   BENCH_GATEWAY_BIN=bench/loop-stalls.mjs node --import tsx bench/payments.ts --rounds 1 --no-ceiling
//
// Each second it appends to LOOP_STALLS_LOG (default: <tmpdir>/tillgate-loop-stalls.log) the V8
// old and new space in use and, when the loop was late by more than 15 ms, the worst delay
// (perf_hooks.monitorEventLoopDelay); every garbage collection over 4 ms with its kind and duration;
// and every gap over 22 ms between two 10 ms timer ticks, with its time. V8_FLAGS (e.g.
// `--no-page-promotion`) are set before the gateway loads. docs/benchmarks.md "Steady p99" reads it.
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

const LOG = process.env.LOOP_STALLS_LOG ?? join(tmpdir(), 'tillgate-loop-stalls.log');
const line = (text) => appendFileSync(LOG, `${new Date().toISOString()} ${text}\n`);
if (process.env.V8_FLAGS) v8.setFlagsFromString(process.env.V8_FLAGS);

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
setInterval(() => {
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, (s.space_used_size / 2 ** 20).toFixed(1)]));
  const worst = delay.max / 1e6;
  line(
    `old_mb=${spaces.old_space} new_mb=${spaces.new_space}${worst > 15 ? ` max_loop_delay_ms=${worst.toFixed(1)} p99_ms=${(delay.percentile(99) / 1e6).toFixed(1)}` : ''}`,
  );
  delay.reset();
}, 1000).unref();

let last = Date.now();
setInterval(() => {
  const now = Date.now();
  if (now - last > 22) line(`gap_ms=${now - last}`);
  last = now;
}, 10).unref();

const kinds = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.duration > 4)
      line(
        `gc=${kinds[entry.detail?.kind] ?? entry.detail?.kind} ms=${entry.duration.toFixed(1)} heap_mb=${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)}`,
      );
  }
}).observe({ entryTypes: ['gc'] });

await import(new URL('../bin/gateway.js', import.meta.url).href);
