/**
 * `npm start` (bin/start.js) without Electron prints to a person: its own messages, the
 * `Back-office UI: <url>` line CI reads, and log entries as readable lines on stderr, never a raw
 * JSON line (issue 25, item 7). Where Electron is installed npm start opens the desktop app instead,
 * which this test does not drive: it is skipped there.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDataDir } from '../helpers/gateway-process.js';

const START = fileURLToPath(new URL('../../bin/start.js', import.meta.url));

function electronInstalled(): boolean {
  try {
    const path: unknown = createRequire(import.meta.url)('electron');
    return typeof path === 'string' && existsSync(path);
  } catch {
    return false;
  }
}

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

test(
  'npm start prints readable lines only, the UI line as CI reads it, and stops on SIGTERM',
  { skip: electronInstalled() && 'Electron is installed: npm start opens the desktop app' },
  async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, GATEWAY_DATA_DIR: tempDataDir('tillgate-start-'), GATEWAY_PORT: '0', CI: '1' };
    // What npm start chooses by itself, whatever the shell running the tests set.
    delete env.GATEWAY_LOG_FORMAT;
    delete env.GATEWAY_LOG_LEVEL;
    const child = spawn(process.execPath, [START], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    // Its last line says it is up; then it is stopped as a service manager would.
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Press Ctrl+C to stop.')) resolve();
      });
      void exited.then((code) => reject(new Error(`npm start exited with ${String(code)} before it was up:\n${stdout}\n${stderr}`)));
    });
    const out = stdout.split('\n');
    const ui = out.map((line) => /^Back-office UI: (http:\/\/127\.0\.0\.1:\d+)\/app\/$/.exec(line)?.[1]).find(Boolean);
    assert.ok(ui, `the Back-office UI line:\n${stdout}`);
    // An answer means the start's synchronous tail, which installs the SIGTERM handler after printing, has run.
    assert.equal((await fetch(`${ui}/health`)).status, 200);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, `stopped cleanly:\n${stderr}`);

    const err = stderr.split('\n');
    assert.deepEqual([...out, ...err].filter(isJsonObject), [], 'lines printed as raw JSON');
    // The log is still there, on stderr where docs/operations.md says, as a readable line.
    assert.ok(
      err.some((line) => /^\[\d\d:\d\d:\d\d\] INFO: Server listening at http:\/\/127\.0\.0\.1:\d+$/.test(line)),
      `a readable log line on stderr:\n${stderr}`,
    );
    // It says that it listens once (the log line), not twice in a row.
    assert.equal([...out, ...err].filter((line) => /listening/i.test(line)).length, 1, `"listening" once:\n${stdout}\n${stderr}`);
  },
);
