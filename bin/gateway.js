#!/usr/bin/env node
// The `gateway` command. Runs the bundle dist/gateway/cli.mjs (`npm run build:gateway`; built by
// `npm install`, `npm run build` and `npm test`) when it is newer than every file it was built
// from; otherwise main/cli.ts through tsx's loader, so an edited source is never shadowed by an
// old bundle and no build step is needed. GATEWAY_FROM_SOURCE=1 always runs the sources.
import { freshBundle } from './bundle.js';

const bundle = process.env.GATEWAY_FROM_SOURCE === '1' ? undefined : freshBundle(new URL('../', import.meta.url), 'gateway');
let runCli;
if (bundle) {
  ({ runCli } = await import(bundle.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runCli } = await import('../main/cli.ts'));
}
const code = await runCli(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
