#!/usr/bin/env node
// Bundles the headless gateway (`npm run build:gateway`): main/cli.ts -> dist/gateway/cli.mjs,
// which bin/gateway.js runs whenever it is newer than every file it was built from.
//
// Why: running main/ through tsx's loader hooks costs ~0.5 s at every start (each of ~150 files
// and ~400 package files resolved and transformed one by one) and memory for the loader; one
// bundled file starts in about half the time (docs/benchmarks.md, cold start).
//
// Our code and most packages are inlined. Kept external, loaded from node_modules as usual:
// better-sqlite3 (native addon), @fastify/static and @fastify/swagger-ui (they read their own
// files next to their code), nodemailer (loaded only when SMTP is set, and large), pdfkit (reads its
// fonts' metrics from its own data folder; loaded only when a Z report is exported as PDF).
// dist/gateway sits two levels below the root like main/http, so `new URL('../../renderer/dist/',
// import.meta.url)` in main/http/static.ts finds the same folder from the bundle.
//
// dist/gateway/inputs.json lists every file the bundle was built from (from esbuild's metafile),
// so the launcher can tell a stale bundle from a fresh one without building.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'gateway');
mkdirSync(outdir, { recursive: true });

const result = await build({
  entryPoints: [join(root, 'main/cli.ts')],
  outfile: join(outdir, 'cli.mjs'),
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', '@fastify/static', '@fastify/swagger-ui', 'nodemailer', 'pdfkit'],
  // Inlined CommonJS packages call require(); an ES module has none, so the bundle makes one.
  banner: {
    js: "import { createRequire as __tillgateCreateRequire } from 'node:module'; const require = __tillgateCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});

const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.includes('(disabled)'));
writeFileSync(join(outdir, 'inputs.json'), `${JSON.stringify({ inputs: [...inputs, 'package-lock.json'] })}\n`);
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`built ${relative(root, join(outdir, 'cli.mjs'))} (${(bytes / 1024).toFixed(0)} KiB from ${inputs.length} files)`);
