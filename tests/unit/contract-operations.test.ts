// The contract's table of operations (contract/operation-table.ts) is the gateway's HTTP interface: every
// route Fastify registers is in it (apart from the pages, static files and documentation listed
// here), every entry is registered with its method and path, and a change to the contract breaks the
// renderer's type-check (its `call` derives args and answers from the contract).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { programWith } from '../helpers/ts-program.js';
import { OPERATIONS } from '../../contract/operation-table.js';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../main/http/server.js';
import { createLogger } from '../../main/infra/logger.js';
import { resolveSettings } from '../../main/settings.js';
import { composeForTest, tempDir } from '../helpers/api.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Routes outside the contract: HTML pages, static files, health and the documentation, by path. */
const NOT_OPERATIONS: RegExp[] = [
  /^\/$/,
  /^\/health$/,
  /^\/openapi\.json$/,
  /^\/docs(\/.*)?$/, // Swagger UI's two pages and their files
  /^\/app/, // the renderer's built files (or the "not built" answer)
  /^\/receipt\/:token$/, // the customer's receipt page
  /^\/checkout\//, // the hosted checkout pages
  /^\/pay\//, // the invoice pay pages and a transaction's simulated card-entry and 3-D Secure pages
];

/** Every `METHOD path` Fastify answers, from printRoutes' tree (HEAD routes Fastify adds for GET left out). */
function registeredRoutes(app: FastifyInstance): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*) \(([A-Z, ]+)\)$/.exec(line) ?? /^((?:[│ ] {3})*)[├└]── (.*)$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const path = `${stack[depth - 1] ?? ''}${match[2] ?? ''}`;
    stack.push(path);
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD')) found.push(`${method} ${path}`);
  }
  return found;
}

describe('the contract has the routes', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let routes: string[];

  before(async () => {
    // The movable clock of `--sim-clock movable` (no test clock): POST /test/clock is registered only then.
    const dir = tempDir();
    const composition = await composeForTest({
      settings: resolveSettings(dir, { 'sim-clock': 'movable' }, {}),
      dataKey: randomBytes(32),
      logger: createLogger({ level: 'silent' }),
    });
    app = await buildServer(composition.gateway);
    close = async () => {
      await app.close();
      await composition.close();
    };
    routes = registeredRoutes(app);
  });

  after(async () => {
    await close();
  });

  test('the route list is read in full (the parse of printRoutes works)', () => {
    for (const known of ['GET /health', 'POST /rest/payment', 'GET /ui/tills', 'PUT /ui/tills/:till_id', 'GET /openapi.json']) {
      assert.ok(routes.includes(known), `${known} among ${routes.length} routes`);
    }
    assert.ok(routes.length > 140, `${routes.length} routes`);
  });

  test('every entry of the table is registered with its method and path', () => {
    for (const [name, { method, path }] of Object.entries(OPERATIONS)) {
      assert.ok(routes.includes(`${method} ${path}`), `${name}: ${method} ${path} is not registered`);
      assert.ok(app.hasRoute({ method, url: path }), `${name}: ${method} ${path}`);
    }
  });

  test('every route Fastify registers is an operation of the table, a page, a static file or the documentation', () => {
    const table = new Set(Object.values(OPERATIONS).map(({ method, path }) => `${method} ${path}`));
    const outside = routes.filter(
      (route) => !table.has(route) && !NOT_OPERATIONS.some((page) => page.test(route.slice(route.indexOf(' ') + 1))),
    );
    assert.deepEqual(outside, [], 'routes missing from contract/operation-table.ts');
  });

  test('the document names each operation of the table by its contract name', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { operationId?: string }>>;
    }>();
    for (const [name, { method, path }] of Object.entries(OPERATIONS)) {
      const documented = doc.paths[path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[method.toLowerCase()];
      assert.equal(documented?.operationId, name, `${method} ${path}`);
    }
  });
});

// ---- the renderer's type-check follows the contract -----------------------------------------------

/** The program of renderer/tsconfig.json with `overlay` files' text in place of what is on disk. */
function rendererProgram(overlay: Record<string, string> = {}, oldProgram?: ts.Program): ts.Program {
  return programWith('renderer/tsconfig.json', overlay, oldProgram);
}

/** `file(line): message` of each error the program reports in the renderer's own files (or in `only` of them). */
function rendererErrors(program: ts.Program, only?: string[]): string[] {
  const files = program
    .getSourceFiles()
    .filter((f) => (only ? only.map((o) => join(root, o)).includes(f.fileName) : f.fileName.startsWith(join(root, 'renderer/src/'))));
  if (only) assert.equal(files.length, only.length, `all of ${only.join(', ')} are in the program`);
  return files
    .flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)])
    .map(
      (d) =>
        `${d.file?.fileName.slice(root.length + 1)}(${d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : 0}): ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
}

/** `file` as on disk with `from` replaced by `to` (which must be there). */
function edited(file: string, from: string, to: string): Record<string, string> {
  const text = ts.sys.readFile(join(root, file)) ?? '';
  assert.ok(text.includes(from), `${file} holds ${from}`);
  return { [file]: text.replace(from, to) };
}

describe('a change to the contract breaks the renderer type-check', () => {
  let baseline: ts.Program;

  before(() => {
    baseline = rendererProgram();
  });

  test('as it is, the renderer type-checks', () => {
    assert.deepEqual(rendererErrors(baseline), []);
  });

  test('an operation renamed in the table: its calls no longer compile', () => {
    const client = 'renderer/src/tills/tills-client.ts';
    assert.deepEqual(rendererErrors(baseline, [client]), []);
    const errors = rendererErrors(rendererProgram(edited('contract/operation-table.ts', "'tills.list':", "'tills.all':"), baseline), [
      client,
    ]);
    assert.ok(
      errors.some((e) => e.includes('"tills.list"') && e.includes('is not assignable')),
      `the call of tills.list should fail: ${errors.join('\n')}`,
    );
  });

  test("an answer's field changed type in the contract: the screens that read it no longer compile", () => {
    // The till list's `tills` become plain strings: the screens reading a listed till's fields break.
    const screens = ['renderer/src/tills/this-till-store.ts', 'renderer/src/settings/tills.tsx'];
    assert.deepEqual(rendererErrors(baseline, screens), []);
    const errors = rendererErrors(
      rendererProgram(edited('contract/api/tills.ts', 'tills: Type.Array(TillSchema,', 'tills: Type.Array(Type.String(),'), baseline),
      screens,
    );
    for (const screen of screens)
      assert.ok(
        errors.some((e) => e.startsWith(screen)),
        `${screen} should fail: ${errors.join('\n')}`,
      );
  });
});
