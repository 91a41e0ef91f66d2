// The layering rules of docs/decisions.md "Feature modules (issue 28)" are real: each forbidden
// import is reported, each allowed one is not.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import ts from 'typescript';
// @ts-expect-error -- the ESLint config is plain JavaScript without type declarations
import { coreFeatures, cycleRules, layeringRules } from '../../eslint.config.js';
import { makeTempDir } from '../helpers/temp.js';

const linter = new Linter({ configType: 'flat' });
const parser = { files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } };
const config = [parser, ...(layeringRules as Linter.Config[])];

function violations(filename: string, code: string): string[] {
  return linter.verify(code, config, { filename }).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

/** One import of `source` (a value, or a type with `kind` 'type'), used so nothing is unused. */
function importOf(source: string, kind: 'value' | 'type' = 'value'): string {
  return kind === 'type'
    ? `import type { X } from '${source}';\nexport type Y = X;`
    : `import { x } from '${source}';\nexport const y = x;`;
}

test('main/core may not import adapters or hosts', () => {
  for (const source of [
    'fastify',
    'better-sqlite3',
    'electron',
    'pino',
    '../../db/open.js',
    '../http/server.js',
    '../infra/vault.js',
    '../compose.js',
    '../../settings.js',
  ]) {
    const found = violations('main/core/payments/capture.ts', `import { x } from '${source}';\nexport const y = x;`);
    assert.equal(found.length, 1, `import of ${source} from main/core should be reported`);
    assert.match(found[0] ?? '', /no-restricted-imports/);
  }
  assert.deepEqual(
    violations(
      'main/core/payments/capture.ts',
      "import { createHash } from 'node:crypto';\nimport { x } from '../kernel.js';\nexport const y = [x, createHash];",
    ),
    [],
  );
  assert.deepEqual(
    violations('main/core/gateway.ts', importOf('./settings/back-office-settings.js')),
    [],
    'the settings feature is not the host settings',
  );
});

test('only main/electron and preload may import electron', () => {
  assert.equal(violations('main/http/server.ts', "import { app } from 'electron';\nexport const a = app;").length, 1);
  assert.equal(violations('db/open.ts', "import { app } from 'electron';\nexport const a = app;").length, 1);
  assert.deepEqual(violations('main/electron/main.ts', "import { app } from 'electron';\nexport const a = app;"), []);
  assert.deepEqual(violations('preload/index.ts', "import { contextBridge } from 'electron';\nexport const c = contextBridge;"), []);
});

test('the renderer imports no node: module, nothing of main/ or db/, and the contract: values from contract/*.ts, types from contract/api', () => {
  assert.equal(violations('renderer/src/app.tsx', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;").length, 1);
  assert.equal(violations('renderer/src/till-screen/till.tsx', importOf('crypto')).length, 1);
  assert.equal(violations('renderer/src/app.tsx', "import { compose } from '../../main/compose.js';\nexport const c = compose;").length, 1);
  assert.equal(
    violations('renderer/src/app.tsx', "import type { Gateway } from '../../main/core/gateway.js';\nexport type G = Gateway;").length,
    1,
    'not even a type: the contract has it',
  );
  assert.equal(violations('renderer/src/sales/today.tsx', importOf('../../../db/sqlite-store.js', 'type')).length, 1);
  assert.deepEqual(
    violations(
      'renderer/src/sales/today.tsx',
      "import { TransactionStatus } from '../../../contract/codes.js';\nexport const s = TransactionStatus;",
    ),
    [],
  );
  assert.deepEqual(violations('renderer/src/till-screen/money.ts', importOf('../../../contract/money.js')), []);
  assert.deepEqual(violations('renderer/src/till-screen/till-client.ts', importOf('../../../contract/api/payments.js', 'type')), []);
  const schema = violations('renderer/src/till-screen/till-client.ts', importOf('../../../contract/api/payments.js'));
  assert.equal(schema.length, 1, 'a schema value would pull TypeBox into the bundle');
  assert.match(schema[0] ?? '', /types only/);
});

test("the renderer writes no gateway path: it names the contract's operation", () => {
  for (const code of [
    "export const p = '/ui/tills';",
    'export const p = (id: string) => `/rest/transactions/${id}/refunds`;',
    "export const p = '/v2/network_tokens';",
  ]) {
    const found = violations('renderer/src/tills/tills-client.ts', code);
    assert.equal(found.length, 1, code);
    assert.match(found[0] ?? '', /belongs to the contract/);
  }
  assert.deepEqual(
    violations('renderer/src/dashboard/dashboard.tsx', "export const links = ['/docs#/Postbacks', '#/network-tokens', '/app/'];"),
    [],
  );
  assert.equal(
    violations('renderer/src/app.tsx', 'const a = 1;\nexport default a;').length,
    1,
    'default exports stay refused in the renderer',
  );
  assert.deepEqual(violations('tests/http/tills.test.ts', "export const p = '/ui/tills';"), [], 'tests call the API as a client does');
});

test("main writes no gateway path either: routes, hooks, the centre connection and the core's list URLs name operations", () => {
  for (const file of [
    'main/http/routes/tills/routes.ts',
    'main/http/till-relay.ts',
    'main/infra/centre-connection.ts',
    'main/core/network-tokens/network-tokens.ts',
    'main/electron/api-bridge.ts',
  ]) {
    const found = violations(file, "export const p = '/centre/heartbeat';");
    assert.equal(found.length, 1, file);
    assert.match(found[0] ?? '', /belongs to the contract/);
  }
  assert.deepEqual(
    violations('main/http/openapi-examples.ts', "export const p = '/v2/network_tokens';"),
    [],
    "the document's examples show paths as a client writes them",
  );
});

test('a core message names no route: it says the operation or the thing in words', () => {
  for (const code of [
    "export const m = 'Status cannot be set here; use PUT /rest/invoices/:invoice_number/status_change.';",
    'export const m = (type: string) => `${type} does not support /rest/authorize`;',
    "export const m = 'choose this screen\\'s till first (PUT /ui/session/till)';",
    "export const m = 'switch it on with /v2/merchants/{id}/payment-methods';",
    "export const m = 'the till is joined (see /centre/join)';",
  ]) {
    const found = violations('main/core/invoices/invoices.ts', code);
    assert.equal(found.length, 1, code);
    assert.match(found[0] ?? '', /does not name a route/);
  }
  assert.deepEqual(
    violations(
      'main/core/receipts/receipts.ts',
      "export const m = 'must be a printer device such as /dev/usb/lp0, COM3';\nexport const u = (base: string, token: string) => `${base}/receipt/${token}`;",
    ),
    [],
    'a device path and a customer page are no API route',
  );
  assert.deepEqual(
    violations('main/core/invoices/invoices.ts', 'export const m = "Status cannot be set here; the invoice\'s status change sets it.";'),
    [],
  );
  assert.deepEqual(
    violations('main/core/till-attempts/attempts.ts', "import type { X } from '../centre/ports.js';\nexport type Y = X;"),
    [],
    'a relative import of a feature folder is no route',
  );
});

test('db imports no main/http and no electron', () => {
  for (const source of ['../main/http/server.js', '../main/http/routes/payments/routes.js', '../main/electron/main.js', 'electron']) {
    const found = violations('db/sqlite-store.ts', importOf(source));
    assert.equal(found.length, 1, `import of ${source} from db should be reported`);
    assert.match(found[0] ?? '', /no-restricted-imports/);
  }
  assert.deepEqual(
    violations(
      'db/staff/repositories.ts',
      "import Database from 'better-sqlite3';\nimport type { Store } from '../../main/core/unit-of-work.js';\nimport { ErrorCode } from '../../contract/codes.js';\nexport const d = [Database, ErrorCode];\nexport type S = Store;",
    ),
    [],
  );
});

test('main/http imports no db', () => {
  for (const source of ['../../../../db/sqlite-store.js', '../../../../db/staff/repositories.js', 'better-sqlite3', 'electron']) {
    assert.equal(
      violations('main/http/routes/payments/routes.ts', importOf(source)).length,
      1,
      `import of ${source} from main/http should be reported`,
    );
  }
  assert.deepEqual(
    violations(
      'main/http/routes/payments/routes.ts',
      `${importOf('../../../core/gateway.js', 'type')}\nimport { PaymentRequestSchema } from '../../../../contract/api/payments.js';\nexport const p = PaymentRequestSchema;`,
    ),
    [],
  );
});

test('contract/ imports nothing of the project and nothing of Node', () => {
  const leaving: Array<[string, string]> = [
    ['contract/money.ts', '../main/core/errors.js'],
    ['contract/money.ts', '../renderer/src/till-screen/money.js'],
    ['contract/codes.ts', '../db/migrate.js'],
    ['contract/api/payments.ts', '../../main/core/payments/request.js'],
    ['contract/api/payments.ts', '../../../elsewhere.js'],
  ];
  for (const [file, source] of leaving) {
    const found = violations(file, importOf(source));
    assert.equal(found.length, 1, `${file} importing ${source} should be reported`);
    assert.match(found[0] ?? '', /nothing of the project outside contract/);
  }
  for (const source of ['node:crypto', 'fs', 'buffer', 'fastify', 'better-sqlite3', 'react', 'electron']) {
    assert.equal(violations('contract/api/common.ts', importOf(source)).length, 1, `${source} from contract/ should be reported`);
  }
  for (const global of ['Buffer.from("a")', 'process.env.X']) {
    assert.equal(violations('contract/cards.ts', `export const x = ${global};`).length, 1, `${global} in contract/ should be reported`);
  }
  assert.deepEqual(
    violations(
      'contract/money.ts',
      `${importOf('currency-codes')}\nimport { MAX_AMOUNT_TEXT } from './constants.js';\nexport const m = MAX_AMOUNT_TEXT;`,
    ),
    [],
  );
  assert.deepEqual(
    violations(
      'contract/api/payments.ts',
      "import { Type } from '@sinclair/typebox';\nimport { PAYMENT_TYPES } from '../constants.js';\nimport { Str } from './common.js';\nexport const s = [Type, PAYMENT_TYPES, Str];",
    ),
    [],
  );
});

test('an import cycle is reported', () => {
  const dir = makeTempDir('tillgate-cycle-');
  mkdirSync(join(dir, 'feature'));
  const a = "import { b } from './b.js';\nexport const a = () => b;\n";
  writeFileSync(join(dir, 'feature/a.ts'), a);
  writeFileSync(join(dir, 'feature/b.ts'), "import { a } from './a.js';\nexport const b = () => a;\n");
  writeFileSync(join(dir, 'feature/c.ts'), "import { a } from './a.js';\nexport const c = () => a;\n");
  const cycles = [parser, ...(cycleRules as Linter.Config[])];
  // The rule reads the imported files from disk: lint where they are.
  const here = new Linter({ configType: 'flat', cwd: dir });
  const found = here.verify(a, cycles, { filename: join(dir, 'feature/a.ts') });
  assert.deepEqual(
    found.map((m) => m.ruleId),
    ['import/no-cycle'],
  );
  assert.deepEqual(
    here.verify("import { a } from './a.js';\nexport const c = () => a;\n", cycles, { filename: join(dir, 'feature/c.ts') }),
    [],
    'c only uses a: no cycle',
  );
});

const features = coreFeatures as Record<string, string[]>;

test('every folder of main/core is a feature of the table, and the table has no cycle', () => {
  const folders = readdirSync('main/core', { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  assert.deepEqual([...folders].sort(), Object.keys(features).sort(), 'a new folder must say which features it uses');
  // Kahn's sort: every feature can be placed after all it uses.
  const placed = new Set<string>();
  let progress = true;
  while (progress) {
    progress = false;
    for (const [feature, uses] of Object.entries(features)) {
      if (!placed.has(feature) && uses.every((used) => placed.has(used))) {
        placed.add(feature);
        progress = true;
      }
    }
  }
  assert.deepEqual([...placed].sort(), Object.keys(features).sort(), 'the features left over use each other in a loop');
  for (const uses of Object.values(features)) for (const used of uses) assert.ok(used in features, `${used} is a feature`);
});

test('a core feature imports only the features it lists, and never gateway.ts', () => {
  const unlisted = violations('main/core/payments/capture.ts', importOf('../invoices/invoices.js'));
  assert.equal(unlisted.length, 1, 'payments does not list invoices');
  assert.match(unlisted[0] ?? '', /may import only the features it lists/);
  assert.equal(
    violations('main/core/mandates/mandates.ts', importOf('../payments/ports.js', 'type')).length,
    1,
    'not even a type of a feature it does not list',
  );
  assert.equal(violations('main/core/transactions/queries.ts', importOf('../postbacks/postbacks.js')).length, 1);
  assert.equal(
    violations('main/core/network-tokens/network-tokens.ts', importOf('../gateway.js', 'type')).length,
    1,
    'the composition is above every feature',
  );
  assert.equal(
    violations('main/core/payments/capture.ts', importOf('../../http/server.js')).length,
    1,
    'the core rules still hold in a feature',
  );
  assert.deepEqual(
    violations('main/core/payments/capture.ts', importOf('../network-tokens/network-tokens.js')),
    [],
    'payments lists tokens',
  );
  assert.deepEqual(
    violations(
      'main/core/payments/capture.ts',
      `${importOf('../kernel.js', 'type')}\nimport { apiError } from '../errors.js';\nimport { t } from './ports.js';\nexport const e = [apiError, t];`,
    ),
    [],
  );
});

test('the kernel files of main/core import no feature, the unit of work included', () => {
  assert.equal(violations('main/core/errors.ts', importOf('./payments/ports.js', 'type')).length, 1);
  assert.equal(violations('main/core/scheduler.ts', importOf('./postbacks/delivery.js')).length, 1);
  assert.deepEqual(violations('main/core/scheduler.ts', importOf('./kernel.js', 'type')), []);
  assert.equal(violations('main/core/unit-of-work.ts', importOf('./payments/payments.js', 'type')).length, 1);
  assert.equal(
    violations('main/core/unit-of-work.ts', importOf('./payments/ports.js', 'type')).length,
    1,
    "not even a feature's ports: each feature declares its view",
  );
  assert.deepEqual(violations('main/core/unit-of-work.ts', importOf('./kernel.js', 'type')), []);
  assert.deepEqual(violations('main/core/gateway.ts', importOf('./invoices/invoices.js')), [], 'the composition takes every feature');
});

test('main/infra and main/processor have import rules of their own', () => {
  for (const source of ['../http/server.js', '../../db/open.js', '../processor/simulator.js', '../compose.js', 'electron']) {
    assert.equal(violations('main/infra/mailer.ts', importOf(source)).length, 1, `main/infra importing ${source} should be reported`);
  }
  assert.deepEqual(
    violations(
      'main/infra/mailer.ts',
      `${importOf('../core/mail/ports.js', 'type')}\nimport { minorToAmount } from '../../contract/money.js';\nexport const m = minorToAmount;`,
    ),
    [],
  );
  for (const source of [
    '../infra/vault.js',
    '../http/server.js',
    '../../db/open.js',
    '../core/payments/payments.js',
    '../core/gateway.js',
  ]) {
    assert.equal(
      violations('main/processor/simulator.ts', importOf(source)).length,
      1,
      `main/processor importing ${source} should be reported`,
    );
  }
  assert.deepEqual(
    violations(
      'main/processor/simulator.ts',
      `${importOf('../core/payments/ports.js', 'type')}\nimport { c } from '../core/kernel.js';\nexport const k = c;`,
    ),
    [],
  );
});

test('no file of main/core is over 600 lines: a feature grows by files beside its use cases', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );
  const long = files('main/core')
    .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length }))
    .filter(({ lines }) => lines > 600);
  assert.deepEqual(long, []);
});

// Data ownership (docs/decisions.md "Feature modules"): each feature sees a unit of work through its
// own view (`<Feature>Unit` in main/core/<feature>/ports.ts): the repositories of its own tables in
// full, the kernel's ports, and for another feature's data a narrow port (a Pick of that feature's
// repository, which the import rules above allow only from a feature it lists, or a type of its own).

/** Every feature's ports.ts, parsed: its interfaces, and its Unit's heritage and members. */
function featurePorts() {
  return Object.keys(features).map((feature) => {
    const file = `main/core/${feature}/ports.ts`;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const interfaces = source.statements.filter(ts.isInterfaceDeclaration);
    const units = interfaces.filter((i) => i.name.text.endsWith('Unit'));
    assert.equal(units.length, 1, `${file} declares one view of the unit of work (<Feature>Unit)`);
    const unit = units[0] as ts.InterfaceDeclaration;
    const heritage = (unit.heritageClauses ?? []).flatMap((h) => h.types.map((t) => t.expression.getText(source)));
    const members = unit.members
      .filter(ts.isPropertySignature)
      .map((m) => ({ name: m.name.getText(source), type: m.type as ts.TypeNode, text: m.type?.getText(source) ?? '' }));
    return {
      feature,
      file,
      unit: unit.name.text,
      heritage,
      members,
      repositories: interfaces.map((i) => i.name.text).filter((n) => n.endsWith('Repository')),
    };
  });
}

/** The repositories a view names in full (`x: XRepository`) and those it narrows (`x: Pick<XRepository, ...>`). */
function namedRepositories(type: ts.TypeNode): { full: string | undefined; picked: string | undefined } {
  if (!ts.isTypeReferenceNode(type)) return { full: undefined, picked: undefined };
  const name = type.typeName.getText();
  if (name.endsWith('Repository')) return { full: name, picked: undefined };
  const first = type.typeArguments?.[0];
  if (name === 'Pick' && first && ts.isTypeReferenceNode(first) && first.typeName.getText().endsWith('Repository'))
    return { full: undefined, picked: first.typeName.getText() };
  return { full: undefined, picked: undefined };
}

test("each feature owns its repositories: its view names only its own in full, another feature's only narrowed, and only a listed one's", () => {
  const ports = featurePorts();
  const owner = new Map(ports.flatMap((p) => p.repositories.map((r) => [r, p.feature] as const)));
  const unitOf = new Map(ports.map((p) => [p.unit, p.feature]));
  for (const p of ports) {
    for (const base of p.heritage) {
      if (base === 'KernelUnit') continue;
      const feature = unitOf.get(base);
      assert.ok(
        feature && (features[p.feature] ?? []).includes(feature),
        `${p.unit} extends ${base}: only the view of a feature ${p.feature} lists (it runs that feature's code in its unit)`,
      );
    }
    for (const member of p.members) {
      const { full, picked } = namedRepositories(member.type);
      if (full)
        assert.equal(
          owner.get(full),
          p.feature,
          `${p.unit}.${member.name}: ${full} is ${owner.get(full) ?? 'nobody'}'s repository; another feature's is reached through a narrow port (Pick<...>)`,
        );
      if (picked && owner.get(picked) !== p.feature)
        assert.ok(
          (features[p.feature] ?? []).includes(owner.get(picked) ?? ''),
          `${p.unit}.${member.name}: ${picked} belongs to ${owner.get(picked)}, which ${p.feature} does not list`,
        );
    }
    for (const repository of p.repositories) {
      const kept = repository === 'OutboxRepository' ? 'outbox' : undefined;
      assert.ok(
        p.members.some((m) => namedRepositories(m.type).full === repository) || kept,
        `${repository} is used by ${p.unit}, the view of the feature that owns it`,
      );
    }
  }
  const owners = ports.flatMap((p) => p.members.filter((m) => namedRepositories(m.type).full).map((m) => m.name));
  assert.equal(new Set(owners).size, owners.length, 'a repository of the unit has one owning feature');
});

test("the kernel view names only the kernel's ports, and the composition is every feature's view", () => {
  const unitOfWork = readFileSync('main/core/unit-of-work.ts', 'utf8');
  assert.doesNotMatch(unitOfWork, /from '\.\/(?!kernel\.js')/, 'unit-of-work.ts imports the kernel only');
  const gateway = readFileSync('main/core/gateway.ts', 'utf8');
  const composed = /export type GatewayUnit = ([^;]+);/.exec(gateway)?.[1] ?? '';
  assert.deepEqual(
    composed
      .split('&')
      .map((s) => s.trim())
      .sort(),
    featurePorts()
      .map((p) => p.unit)
      .sort(),
  );
});

/** The tables each file of db/ writes (INSERT, UPDATE, DELETE), schema history and engine moves aside. */
function tableWriters(): Map<string, Set<string>> {
  const writers = new Map<string, Set<string>>();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  const history = /^db\/(migrations|postgres)\/|^db\/(migrate|move|backups|instance-lock|key-check)\.ts$/;
  for (const file of walk('db').filter((f) => !history.test(f))) {
    const text = readFileSync(file, 'utf8');
    // SQL text, or a statement built with Kysely (db/typed-sql.ts): insertInto('t'), updateTable('t'), deleteFrom('t'),
    // and a queue's statements (db/queue-claim.ts: queueClaim/queueRelease/emailSettle(db, 't') update t's rows).
    const written =
      /\b(?:INSERT(?: OR IGNORE)? INTO|UPDATE|DELETE FROM)\s+([a-z_]+)\b|(?:\.(?:insertInto|updateTable|deleteFrom)|\b(?:queueClaim|queueRelease|emailSettle))\((?:\s*db,)?\s*'([a-z_]+)'/g;
    for (const match of text.matchAll(written)) {
      const table = (match[1] ?? match[2]) as string;
      if (['set', 'skip'].includes(table)) continue; // ON CONFLICT ... DO UPDATE SET, FOR UPDATE SKIP LOCKED
      const owner = file.startsWith('db/') && file.split('/').length > 2 ? `db/${file.split('/')[1]}/` : file;
      writers.set(table, (writers.get(table) ?? new Set()).add(owner));
    }
  }
  return writers;
}

test("each table is written by one feature's adapter (db/<feature>/) or the kernel's (db/kernel.ts)", () => {
  const shared = new Map<string, string>();
  for (const [table, by] of tableWriters()) {
    // The SQLite store, when it opens, gives back every queue claim: no other process can hold one.
    const written = [...by].filter((w) => w !== 'db/sqlite-store.ts');
    if (written.length !== 1) shared.set(table, written.join(', '));
  }
  assert.deepEqual(Object.fromEntries(shared), {});
  const kernel = [...tableWriters()]
    .filter(([, by]) => by.has('db/kernel.ts'))
    .map(([t]) => t)
    .sort();
  assert.deepEqual(kernel, ['audit_log', 'gateway_instances', 'operation_locks', 'scheduled_tasks']);
  // An adapter folder is named after the feature whose repositories it implements, and each feature that owns tables has one.
  const folders = readdirSync('db', { withFileTypes: true })
    .filter((e) => e.isDirectory() && !['migrations', 'postgres'].includes(e.name))
    .map((e) => e.name);
  assert.deepEqual(
    folders.filter((f) => !(f in features)),
    [],
    'a db/ folder that is no feature of main/core',
  );
  assert.deepEqual(
    featurePorts()
      .filter((p) => p.repositories.length > 0 && !folders.includes(p.feature))
      .map((p) => p.feature),
    [],
    'a feature whose tables have no adapter folder of their own',
  );
});

test("each table is described for Kysely once, by the feature that writes it (db/<feature>/tables.ts; the kernel's in db/kernel-tables.ts)", () => {
  const files = [
    'db/kernel-tables.ts',
    ...readdirSync('db', { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `db/${e.name}/tables.ts`)
      .filter((f) => existsSync(f)),
  ];
  const describedBy = new Map<string, string[]>();
  for (const file of files) {
    const owner = file === 'db/kernel-tables.ts' ? 'db/kernel.ts' : `${dirname(file)}/`;
    for (const [, table] of readFileSync(file, 'utf8').matchAll(/^ {2}([a-z_]+): \{/gm)) {
      describedBy.set(table as string, [...(describedBy.get(table as string) ?? []), owner]);
    }
  }
  assert.ok(describedBy.size > 30, `the described tables were found (${describedBy.size})`);
  const twice = [...describedBy].filter(([, by]) => by.length > 1);
  assert.deepEqual(twice, [], 'a table described by two features');
  const writers = tableWriters();
  const foreign = [...describedBy]
    .map(([table, [by]]) => [table, by, [...(writers.get(table) ?? [])].filter((w) => w !== 'db/sqlite-store.ts')] as const)
    .filter(([, by, written]) => written.length > 0 && !written.includes(by as string));
  assert.deepEqual(foreign, [], 'a table described by a feature that does not write it');
});
