/**
 * Where a payment's CPU goes, from a V8 CPU profile of the bundled server (`--cpu-prof`):
 *
 *   node --import tsx bench/profile-summary.ts PROFILE.cpuprofile [--top 30] [--requests N] [--last SECONDS] [--callers AREA]
 *
 * Prints self time grouped by where the code lives (our folders, each package, Node's internals,
 * native work such as SQLite statements and fsync, garbage collection) and the top functions. With
 * --requests (the payments answered while profiling) each line is also given in microseconds per
 * payment. Idle time is left out of the percentages. --last counts only the profile's last seconds (the
 * measured window, without start-up and warm-up; give --requests the payments of that window).
 * --callers lists, for the self time spent in one area (`kysely`, `node:internal (native)`), the
 * first functions outside it on the stack: who asked for that work.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '30' },
    requests: { type: 'string' },
    last: { type: 'string' },
    callers: { type: 'string' },
  },
});
const file = positionals[0];
if (!file) throw new Error('usage: bench/profile-summary.ts PROFILE.cpuprofile [--top N] [--requests N]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** The bundle keeps each module's path in a comment only, so the function's own file decides where it lives. */
function area(node: ProfileNode): string {
  const { functionName: name, url } = node.callFrame;
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(program)') return 'V8 and native (program)';
  if (!url) {
    // Native functions: attribute them to the JavaScript that called them.
    let up = parent.get(node.id);
    while (up !== undefined) {
      const caller = byId.get(up);
      if (caller?.callFrame.url) return `${area(caller)} (native)`;
      up = parent.get(up);
    }
    return `native ${name}`;
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const source = bundledSource(url, node.callFrame.lineNumber);
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source ?? url);
  if (modules) return modules[1] as string;
  // Our own code in the bundle: its folder (main/core/payments, db/postgres, ...).
  if (source) return source.split('/').slice(0, -1).join('/') || source;
  return url.replace(/^file:\/\//, '').replace(/^.*\/(dist\/gateway\/)/, '$1');
}

/**
 * The bundle (esbuild) opens each module with a comment naming its path (`// node_modules/pg/lib/query.js`,
 * `// db/postgres/pg-sql.ts`): the module a line of the bundle came from, when the bundle is at hand.
 */
const bundles = new Map<string, Array<{ line: number; path: string }> | undefined>();
function bundledSource(url: string, line: number): string | undefined {
  if (!url.startsWith('file://') || !url.endsWith('.mjs')) return undefined;
  if (!bundles.has(url)) {
    try {
      const starts: Array<{ line: number; path: string }> = [];
      readFileSync(new URL(url), 'utf8')
        .split('\n')
        .forEach((text, index) => {
          const path = /^\/\/ ((?:node_modules\/)?[\w@.-]+\/[\w@./-]+\.[cm]?[jt]sx?)$/.exec(text)?.[1];
          if (path) starts.push({ line: index, path });
        });
      bundles.set(url, starts);
    } catch {
      bundles.set(url, undefined);
    }
  }
  const starts = bundles.get(url);
  if (!starts) return undefined;
  // The last module opened at or before the line (binary search).
  let low = 0;
  let high = starts.length - 1;
  let found: string | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const start = starts[middle] as { line: number; path: string };
    if (start.line <= line) {
      found = start.path;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

// A sample's time is the delta to the next sample; its moment, the sum of the deltas up to it.
let clock = 0;
const moments = profile.timeDeltas.map((delta) => (clock += delta));
const since = values.last ? clock - Number(values.last) * 1e6 : -Infinity;
const selfTime = new Map<number, number>();
profile.samples.forEach((id, index) => {
  if ((moments[index] ?? 0) < since) return;
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});
const areas = new Map<string, number>();
const functions = new Map<string, number>();
let busy = 0;
for (const [id, micros] of selfTime) {
  const node = byId.get(id);
  if (!node) continue;
  const where = area(node);
  if (where === 'idle') continue;
  busy += micros;
  areas.set(where, (areas.get(where) ?? 0) + micros);
  const name = `${node.callFrame.functionName || '(anonymous)'} ${where}:${node.callFrame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + micros);
}
// Inclusive time of the gateway's own functions: each sample counts once for every function on its stack.
const inclusive = new Map<string, number>();
for (const [id, micros] of selfTime) {
  const start = byId.get(id);
  if (!start || start.callFrame.functionName === '(idle)') continue;
  const seen = new Set<string>();
  for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
    const node = byId.get(up);
    if (!node || !/dist\/gateway|\/main\/|\/db\//.test(node.callFrame.url) || !node.callFrame.functionName) continue;
    const name = `${node.callFrame.functionName} ${area(node)}:${node.callFrame.lineNumber + 1}`;
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
  }
}
const requests = values.requests ? Number(values.requests) : undefined;
const line = (label: string, micros: number) =>
  `${((micros / busy) * 100).toFixed(1).padStart(5)} %${requests ? `  ${(micros / requests).toFixed(1).padStart(6)} us/payment` : ''}  ${label}`;
console.log(`busy ${(busy / 1e6).toFixed(2)} s of CPU${requests ? `, ${requests} payments: ${(busy / requests).toFixed(0)} us each` : ''}`);
console.log('\nby area');
for (const [where, micros] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(line(where, micros));
console.log('\ntop functions (self time)');
for (const [name, micros] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(line(name, micros));
console.log('\ntop gateway functions (inclusive: the function and all it calls)');
for (const [name, micros] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(line(name, micros));
if (values.callers) {
  const wanted = values.callers;
  const callers = new Map<string, number>();
  for (const [id, micros] of selfTime) {
    const node = byId.get(id);
    if (!node || area(node) !== wanted) continue;
    let up: number | undefined = id;
    while (up !== undefined && byId.get(up) && area(byId.get(up) as ProfileNode) === wanted) up = parent.get(up);
    const names: string[] = [];
    for (; up !== undefined && names.length < 3; up = parent.get(up)) {
      const caller = byId.get(up) as ProfileNode;
      names.push(`${caller.callFrame.functionName || '(anonymous)'} ${area(caller)}:${caller.callFrame.lineNumber + 1}`);
    }
    const key = names.join(' < ') || '(root)';
    callers.set(key, (callers.get(key) ?? 0) + micros);
  }
  console.log(`\nwho calls into ${wanted} (its self time, by the first three callers outside it)`);
  for (const [name, micros] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(line(name, micros));
}
