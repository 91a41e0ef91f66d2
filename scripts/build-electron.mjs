#!/usr/bin/env node
// Bundles the Electron shell with esbuild (`npm run build:electron`):
//   main/electron/main.ts -> dist/electron/main.cjs     (main process: Node, CommonJS)
//   preload/index.ts      -> dist/electron/preload.cjs  (sandboxed preload: one CommonJS file)
//
// Main process: every npm package stays external (`packages: 'external'`). electron-builder ships
// the production node_modules anyway, better-sqlite3 is native, and packages such as
// @fastify/swagger-ui read their own files next to their code, which bundling would break. The
// bundle holds only our TypeScript (main/, db/). Our ESM sources use `import.meta.url`
// (main/http/server.ts finds renderer/dist with it); CommonJS has no import.meta, so it is defined
// as the bundle's own file URL. dist/electron sits two levels below the root like main/http, so
// paths relative to it resolve to the same folders.
//
// Preload: a sandboxed preload may require('electron') and nothing else, so everything but
// 'electron' is inlined (the shared channel allow-list in particular).
import { mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'electron');
mkdirSync(outdir, { recursive: true });

const IMPORT_META_URL = '__tillgate_import_meta_url';

const common = {
  bundle: true,
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
  absWorkingDir: root,
};

const results = await Promise.all([
  build({
    ...common,
    entryPoints: [join(root, 'main/electron/main.ts')],
    outfile: join(outdir, 'main.cjs'),
    platform: 'node',
    target: 'node20',
    packages: 'external',
    external: ['electron'],
    define: { 'import.meta.url': IMPORT_META_URL },
    banner: { js: `const ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;` },
    metafile: true,
  }),
  build({
    ...common,
    entryPoints: [join(root, 'preload/index.ts')],
    outfile: join(outdir, 'preload.cjs'),
    platform: 'browser',
    target: 'chrome120',
    external: ['electron'],
    metafile: true,
  }),
]);

for (const result of results) {
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith('.map')) continue;
    console.log(`built ${relative(root, join(root, file))} (${(output.bytes / 1024).toFixed(1)} KiB)`);
  }
}

// import.meta.url is defined above; any other import.meta use (dirname, filename, resolve) would be
// empty in CommonJS and break at run time, so it fails the build instead.
const importMetaWarnings = results.flatMap((result) => result.warnings).filter((warning) => warning.text.includes('import.meta'));
if (importMetaWarnings.length > 0) {
  console.error('import.meta other than import.meta.url does not work in the CommonJS bundle; see the notes at the top of this script');
  process.exit(1);
}

// The preload must not pull anything but 'electron' at run time: a sandboxed preload cannot.
const preloadImports = Object.values(results[1].metafile.outputs).flatMap((output) =>
  output.imports.filter((i) => i.external).map((i) => i.path),
);
const forbidden = preloadImports.filter((path) => path !== 'electron');
if (forbidden.length > 0) {
  console.error(`preload.cjs requires ${forbidden.join(', ')}; a sandboxed preload may require only 'electron'`);
  process.exit(1);
}
