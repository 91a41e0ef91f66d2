/**
 * bin/gateway.js runs dist/gateway/cli.mjs only while it is newer than every file it was built
 * from, so an edited source is never shadowed by an old bundle; and the real build lists its inputs.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
// @ts-expect-error plain JavaScript module without types (runs before any loader)
import { freshBundle } from '../../bin/bundle.js';

const find = freshBundle as (root: URL, name: string) => URL | undefined;
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function project(): { dir: string; root: URL; at: (file: string, seconds: number) => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tillgate-bundle-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'dist/gateway'), { recursive: true });
  mkdirSync(join(dir, 'main'), { recursive: true });
  writeFileSync(join(dir, 'main/cli.ts'), 'export {};\n');
  writeFileSync(join(dir, 'main/a.ts'), 'export {};\n');
  writeFileSync(join(dir, 'dist/gateway/cli.mjs'), 'export {};\n');
  writeFileSync(join(dir, 'dist/gateway/inputs.json'), JSON.stringify({ inputs: ['main/cli.ts', 'main/a.ts'] }));
  const base = Date.now() / 1000 - 1000;
  const at = (file: string, seconds: number) => utimesSync(join(dir, file), base + seconds, base + seconds);
  at('main/cli.ts', 0);
  at('main/a.ts', 0);
  at('dist/gateway/cli.mjs', 10);
  return { dir, root: pathToFileURL(`${dir}/`), at };
}

test('a bundle newer than all its inputs is used', () => {
  const { dir, root } = project();
  assert.equal(find(root, 'gateway')?.href, pathToFileURL(join(dir, 'dist/gateway/cli.mjs')).href);
});

test('an input edited after the build makes the bundle stale', () => {
  const { root, at } = project();
  at('main/a.ts', 20);
  assert.equal(find(root, 'gateway'), undefined);
});

test('a missing input, a missing list or a missing bundle means no bundle', () => {
  const a = project();
  rmSync(join(a.dir, 'main/a.ts'));
  assert.equal(find(a.root, 'gateway'), undefined);
  const b = project();
  rmSync(join(b.dir, 'dist/gateway/inputs.json'));
  assert.equal(find(b.root, 'gateway'), undefined);
  const c = project();
  rmSync(join(c.dir, 'dist/gateway/cli.mjs'));
  assert.equal(find(c.root, 'gateway'), undefined);
});

test('the real build lists our sources and the lock file as inputs, and its bundle runs', () => {
  const root = new URL('../../', import.meta.url);
  execFileSync(process.execPath, ['scripts/build-gateway.mjs'], { cwd: root, stdio: 'pipe' });
  const { inputs } = JSON.parse(readFileSync(new URL('dist/gateway/inputs.json', root), 'utf8')) as { inputs: string[] };
  for (const file of ['main/cli.ts', 'main/http/server.ts', 'db/sqlite-store.ts', 'main/core/payments/payments.ts', 'package-lock.json']) {
    assert.ok(inputs.includes(file), `${file} is an input`);
  }
  assert.ok(find(root, 'gateway'), 'fresh right after the build');
  const help = execFileSync(process.execPath, [new URL('dist/gateway/cli.mjs', root).pathname], { encoding: 'utf8' });
  assert.equal(help, '', 'the bundle only exports runCli; bin/gateway.js runs it');
  const usage = execFileSync(process.execPath, [new URL('bin/gateway.js', root).pathname, '--help'], { encoding: 'utf8' });
  assert.match(usage, /^Usage: gateway <command>/);
});
