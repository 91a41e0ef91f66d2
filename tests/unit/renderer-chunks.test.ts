/**
 * The built renderer (renderer/dist, which `npm test` builds first) is split by screen: no chunk
 * above Vite's 500 kB warning, and what the app loads before the till shows (the entry and its
 * static imports) holds no back-office screen and none of their libraries (uPlot, TanStack Table
 * and Virtual, react-hook-form). Read from Vite's manifest (build.manifest in renderer/vite.config.ts).
 * The desktop window's app:// scheme serves each chunk under its CSP, as the gateway does at /app/.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { APP_ORIGIN, CONTENT_SECURITY_POLICY, createAppProtocolHandler, RENDERER_BASE } from '../../main/electron/security.js';

const DIST = fileURLToPath(new URL('../../renderer/dist/', import.meta.url));
const MANIFEST = join(DIST, '.vite', 'manifest.json');
/** Vite's chunkSizeWarningLimit (500 kB, counted in thousands of bytes). */
const CHUNK_LIMIT_BYTES = 500_000;

/** Screens opened from the back office or from the till's other tabs: each fetched when first opened. */
const LAZY_SCREENS = [
  'src/dashboard/dashboard.tsx',
  'src/transactions/transaction-list.tsx',
  'src/transactions/transaction-detail.tsx',
  'src/invoices/invoice-list.tsx',
  'src/invoices/invoice-form.tsx',
  'src/invoices/invoice-detail.tsx',
  'src/network-tokens/token-list.tsx',
  'src/network-tokens/token-form.tsx',
  'src/network-tokens/token-detail.tsx',
  'src/checkouts/checkout-list.tsx',
  'src/checkouts/checkout-form.tsx',
  'src/checkouts/checkout-detail.tsx',
  'src/postbacks/postback-list.tsx',
  'src/postbacks/postback-detail.tsx',
  'src/postbacks/test-outbox.tsx',
  'src/settings/settings-parts.tsx',
  'src/settings/staff.tsx',
  'src/settings/tills.tsx',
  'src/settings/audit-log.tsx',
  'src/sales/today.tsx',
  'src/reports/day-close.tsx',
];
/** Chunks of libraries only back-office screens use (named by codeSplitting.groups in vite.config.ts). */
const BACK_OFFICE_LIBRARIES = ['uplot', 'tables', 'forms'];

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

function readManifest(): Record<string, ManifestChunk> {
  assert.ok(existsSync(MANIFEST), `${MANIFEST} is missing: build the renderer first (npm run build:renderer).`);
  return JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
}

/** The manifest keys of `from` and every chunk it imports statically, however deep. */
function staticGraph(manifest: Record<string, ManifestChunk>, from: string, seen = new Set<string>()): Set<string> {
  if (seen.has(from)) return seen;
  seen.add(from);
  for (const next of manifest[from]?.imports ?? []) staticGraph(manifest, next, seen);
  return seen;
}

function entryKey(manifest: Record<string, ManifestChunk>): string {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  assert.equal(entries.length, 1, 'one entry, index.html');
  return entries[0]?.[0] ?? '';
}

test('no file of the built renderer is above the 500 kB chunk warning', () => {
  const assets = join(DIST, 'assets');
  const files = readdirSync(assets).filter((file) => file.endsWith('.js') || file.endsWith('.css'));
  assert.ok(files.length > 1, 'the renderer is built in more than one chunk');
  const big = files.map((file) => ({ file, bytes: statSync(join(assets, file)).size })).filter(({ bytes }) => bytes > CHUNK_LIMIT_BYTES);
  assert.deepEqual(big, [], 'chunks above 500 kB');
});

test('the till loads without any back-office screen or library', () => {
  const manifest = readManifest();
  const initial = staticGraph(manifest, entryKey(manifest));
  for (const screen of LAZY_SCREENS) {
    assert.equal(manifest[screen]?.isDynamicEntry, true, `${screen} is a chunk of its own, loaded when its route opens`);
    assert.ok(!initial.has(screen), `${screen} is not loaded up front`);
  }
  assert.equal(manifest['src/till-screen/till.tsx'], undefined, 'the till is part of the entry, not a chunk fetched after it');

  const named = (name: string) => Object.keys(manifest).filter((key) => manifest[key]?.name === name);
  for (const library of BACK_OFFICE_LIBRARIES) {
    const chunks = named(library);
    assert.equal(chunks.length, 1, `one "${library}" chunk`);
    assert.ok(!initial.has(chunks[0] ?? ''), `the ${library} chunk is not loaded up front`);
  }
  // The dashboard really pulls uPlot in, so the check above is about the chart library, not an empty name.
  assert.ok(staticGraph(manifest, 'src/dashboard/dashboard.tsx').has(named('uplot')[0] ?? ''), 'the dashboard imports the uplot chunk');
});

test('every stylesheet loads with the entry, none with a screen', () => {
  const manifest = readManifest();
  const entry = manifest[entryKey(manifest)];
  assert.equal(entry?.css?.length, 1, 'the entry brings the one stylesheet (renderer/src/app.css)');
  // A sheet fetched with its screen would come after styles.css and change the cascade (app.css says why).
  const withCss = Object.entries(manifest)
    .filter(([key, chunk]) => !chunk.isEntry && ((chunk.css?.length ?? 0) > 0 || key.endsWith('.css')))
    .map(([key]) => key);
  assert.deepEqual(withCss, [], 'chunks that bring a stylesheet of their own');
});

test("the desktop's app scheme serves every chunk, under the CSP that allows only the app's own scripts", async () => {
  const manifest = readManifest();
  const handler = createAppProtocolHandler(DIST, { warn: () => undefined });
  const files = new Set(Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])]));
  assert.match(CONTENT_SECURITY_POLICY, /script-src 'self'/);
  for (const file of files) {
    const response = await handler(new Request(`${APP_ORIGIN}${RENDERER_BASE}${file}`));
    assert.equal(response.status, 200, file);
    assert.match(response.headers.get('content-type') ?? '', file.endsWith('.css') ? /^text\/css/ : /^text\/javascript/, file);
    assert.equal(response.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY, file);
  }
});
