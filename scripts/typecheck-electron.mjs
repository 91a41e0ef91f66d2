#!/usr/bin/env node
// Type-checks the Electron shell and the preload (tsconfig.electron.json) against Electron's own
// types. Those types come with the electron package, which is optional: installs on machines that
// cannot fetch Electron still have them when run with ELECTRON_SKIP_BINARY_DOWNLOAD=1. Without them
// the check is skipped locally, but in CI (CI set) a missing check is a failure, never a pass.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronTypes = join(root, 'node_modules', 'electron', 'electron.d.ts');
const inCi = Boolean(process.env.CI) && !['0', 'false'].includes(String(process.env.CI).toLowerCase());

if (!existsSync(electronTypes)) {
  const message =
    'electron shell type-check skipped: electron types not installed (reinstall with ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm install)';
  if (inCi) {
    console.error(`${message}\nCI is set, so this is an error: the shell must be type-checked in CI.`);
    process.exit(1);
  }
  console.log(message);
  process.exit(0);
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.electron.json'), '--noEmit'], { cwd: root, stdio: 'inherit' });
if (result.error) {
  console.error(`could not run tsc: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
