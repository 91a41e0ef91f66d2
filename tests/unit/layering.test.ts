// The layering rules of architecture.md are real: each forbidden import is reported, each allowed one is not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error -- the ESLint config is plain JavaScript without type declarations
import { layeringRules } from '../../eslint.config.js';

const linter = new Linter({ configType: 'flat' });
const config = [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } }, ...(layeringRules as Linter.Config[])];

function violations(filename: string, code: string): string[] {
  return linter.verify(code, config, { filename }).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

test('main/core may not import adapters or hosts', () => {
  for (const source of ['fastify', 'better-sqlite3', 'electron', 'pino', '../../db/open.js', '../http/server.js', '../infra/vault.js', '../compose.js']) {
    const found = violations('main/core/payments/capture.ts', `import { x } from '${source}';\nexport const y = x;`);
    assert.equal(found.length, 1, `import of ${source} from main/core should be reported`);
    assert.match(found[0] ?? '', /no-restricted-imports/);
  }
  assert.deepEqual(violations('main/core/payments/capture.ts', "import { createHash } from 'node:crypto';\nimport { x } from '../ports.js';\nexport const y = [x, createHash];"), []);
});

test('only main/electron and preload may import electron', () => {
  assert.equal(violations('main/http/server.ts', "import { app } from 'electron';\nexport const a = app;").length, 1);
  assert.equal(violations('db/open.ts', "import { app } from 'electron';\nexport const a = app;").length, 1);
  assert.deepEqual(violations('main/electron/main.ts', "import { app } from 'electron';\nexport const a = app;"), []);
  assert.deepEqual(violations('preload/index.ts', "import { contextBridge } from 'electron';\nexport const c = contextBridge;"), []);
});

test('the renderer imports no node: module and the core only as types', () => {
  assert.equal(violations('renderer/src/app.tsx', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;").length, 1);
  assert.equal(violations('renderer/src/app.tsx', "import { compose } from '../../main/compose.js';\nexport const c = compose;").length, 1);
  assert.deepEqual(violations('renderer/src/app.tsx', "import type { Gateway } from '../../main/core/gateway.js';\nexport type G = Gateway;"), []);
});
