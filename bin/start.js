#!/usr/bin/env node
// `npm start`: opens the Electron app where its binary is installed; otherwise starts the same
// gateway headless and says so. Builds what is missing first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function electronBinary() {
  try {
    const path = require('electron');
    return typeof path === 'string' && existsSync(path) ? { path } : { missing: 'its binary is not installed' };
  } catch (error) {
    return { missing: /Cannot find module/.test(String(error)) ? 'the electron package is not installed' : 'its binary is not installed' };
  }
}

if (!existsSync(new URL('../renderer/dist/index.html', import.meta.url))) {
  console.log('Building the UI (first start)...');
  // Vite's JavaScript API: its bin/ path is not among the files the package exports.
  const { build } = await import('vite');
  await build({ configFile: fileURLToPath(new URL('../renderer/vite.config.ts', import.meta.url)), logLevel: 'warn' });
}

const electron = electronBinary();
if (electron.path) {
  console.log('Mode: desktop app (Electron)');
  run(process.execPath, ['scripts/build-electron.mjs']);
  const child = spawn(electron.path, ['.'], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  // npm start talks to a person at a terminal: readable log lines among its messages, not JSON
  // (`gateway serve` keeps JSON; GATEWAY_LOG_FORMAT=json here brings it back).
  process.env.GATEWAY_LOG_FORMAT ??= 'pretty';
  const { register } = await import('tsx/esm/api');
  register();
  const { startHeadless } = await import('../main/start.ts');
  await startHeadless(`Electron not available: ${electron.missing}`);
}
