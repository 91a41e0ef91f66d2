import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileErrors, validate } from '@readme/openapi-parser';
import { startTestGateway, type TestGateway } from '../helpers/api.js';

interface Operation {
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, unknown>;
  requestBody?: unknown;
  parameters?: Array<{ name: string; in: string }>;
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  security?: Array<Record<string, string[]>>;
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
  paths: Record<string, Record<string, Operation>>;
}

/** Absolute http(s) URLs in a text, except this server's own. */
function externalUrls(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"'<>)`]+/g)].map((m) => m[0]).filter((url) => !/^https?:\/\/(localhost|127\.0\.0\.1)([:/]|$)/.test(url));
}

/** JavaScript without whole-line `//` comments (a link in a comment loads nothing). */
function withoutLineComments(js: string): string {
  return js.replace(/^\s*\/\/.*$/gm, '');
}

describe('OpenAPI document and API docs', () => {
  let gw: TestGateway;
  let doc: OpenApiDocument;
  let raw: string;

  before(async () => {
    gw = await startTestGateway();
    const response = await gw.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    raw = response.body;
    doc = JSON.parse(raw) as OpenApiDocument;
  });

  after(async () => {
    await gw.close();
  });

  test('is a valid OpenAPI 3.1 document', async () => {
    assert.match(doc.openapi, /^3\.1\./);
    // validate() dereferences in place: give it its own copy.
    const result = await validate(JSON.parse(raw) as Parameters<typeof validate>[0]);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    assert.equal(result.specification, 'OpenAPI');
    assert.deepEqual(result.warnings, []);
  });

  test('a broken document is reported invalid (the validator is really checking)', async () => {
    const broken = JSON.parse(raw) as { info: Record<string, unknown> };
    delete broken.info.title;
    const result = await validate(broken as unknown as Parameters<typeof validate>[0]);
    assert.equal(result.valid, false);
  });

  test('info.version is 3.21.5', () => {
    assert.equal(doc.info.version, '3.21.5');
    assert.ok(doc.info.title.length > 0);
  });

  test('documents the transaction and mandate paths with basic auth', () => {
    assert.deepEqual(doc.components?.securitySchemes?.basicAuth, { type: 'http', scheme: 'basic' });
    const expected: Array<[string, string]> = [
      ['/rest/transactions', 'get'],
      ['/rest/transactions/{transaction_id}', 'get'],
      ['/rest/transactions/{transaction_id}/log', 'get'],
      ['/rest/create_mandate_reference', 'post'],
    ];
    for (const [path, method] of expected) {
      const operation = doc.paths[path]?.[method];
      assert.ok(operation, `${method.toUpperCase()} ${path} is documented`);
      const security = operation.security ?? doc.security;
      assert.ok(
        security?.some((requirement) => 'basicAuth' in requirement),
        `${method.toUpperCase()} ${path} requires basic auth`,
      );
      for (const status of ['401', '429']) assert.ok(operation.responses?.[status], `${method.toUpperCase()} ${path} documents ${status}`);
    }
    const mandate = doc.paths['/rest/create_mandate_reference']?.post;
    assert.ok(mandate?.requestBody, 'the mandate request body is documented');
    assert.ok(mandate.responses?.['200']);
    const headers = (mandate.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
    assert.ok(headers.includes('idempotency-key') && headers.includes('x-idempotency-key'), `idempotency headers: ${headers.join(', ')}`);
    const listParameters = (doc.paths['/rest/transactions']?.get?.parameters ?? []).map((p) => p.name);
    for (const name of ['from', 'to', 'status', 'currency', 'order_id']) assert.ok(listParameters.includes(name), `list documents ${name}`);
  });

  test('docs/api.md and docs/postbacks.md name every /rest and /v2 path of the document', () => {
    const guides = ['api.md', 'postbacks.md'].map((name) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8')).join('\n');
    // `{transaction_id}` and `:invoice_number` are both ways the guides write a path parameter.
    const normalize = (path: string) => path.replace(/\{[^}]+\}|:[a-z_]+/g, '{}');
    const documented = new Set([...guides.matchAll(/`(?:(?:GET|POST|PUT|PATCH|DELETE) )?((?:\/rest|\/v2)\/[^`?\s]*)/g)].map((m) => normalize(m[1] ?? '')));
    const missing = Object.keys(doc.paths).filter((path) => /^\/(rest|v2)\//.test(path) && !documented.has(normalize(path)));
    assert.deepEqual(missing, [], 'paths the guides do not mention');
    assert.ok(!/added issue by issue/.test(guides), 'the guides describe what is there');
  });

  test('documents only API paths: no internal routes', () => {
    for (const path of Object.keys(doc.paths)) {
      assert.ok(!['/health', '/openapi.json', '/', '/docs'].includes(path), `${path} is internal`);
      assert.ok(!path.startsWith('/docs'), `${path} is internal`);
    }
  });

  test('/docs serves Swagger UI that loads nothing from outside the server', async () => {
    let response = await gw.app.inject({ method: 'GET', url: '/docs' });
    for (let hops = 0; response.statusCode >= 300 && response.statusCode < 400 && hops < 3; hops += 1) {
      response = await gw.app.inject({ method: 'GET', url: String(response.headers.location) });
    }
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    const html = response.body;
    assert.match(html, /swagger-ui/i);
    assert.deepEqual(externalUrls(html), [], 'the HTML references no external URL');

    const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1] ?? '');
    const initializer = scripts.find((src) => src.endsWith('swagger-initializer.js'));
    assert.ok(initializer, `scripts: ${scripts.join(', ')}`);
    for (const src of scripts) assert.ok(!/^https?:|^\/\//.test(src), `${src} is served locally`);
    const js = await gw.app.inject({ method: 'GET', url: new URL(initializer, 'http://127.0.0.1/docs/').pathname });
    assert.equal(js.statusCode, 200);
    assert.match(js.body, /SwaggerUIBundle/);
    const code = withoutLineComments(js.body);
    assert.deepEqual(externalUrls(code), [], 'the initializer fetches nothing from outside');
    assert.ok(!code.includes('https://'), 'no https:// in the initializer code');
    assert.match(code, /"validatorUrl":\s*null/, 'the online validator badge is off');

    // The page's own CSP allows no outside host either.
    const csp = String(response.headers['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.ok(!/https:|http:|validator\.swagger\.io/.test(csp), `CSP: ${csp}`);
  });

  test('the spec behind /docs is the same document', async () => {
    const response = await gw.app.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(response.statusCode, 200);
    const docsSpec = JSON.parse(response.body) as OpenApiDocument;
    assert.equal(docsSpec.info.version, doc.info.version);
    assert.deepEqual(Object.keys(docsSpec.paths).sort(), Object.keys(doc.paths).sort());
  });
});
