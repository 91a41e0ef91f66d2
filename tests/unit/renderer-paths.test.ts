// The renderer's URLs of operations (contract/paths.ts: the renderer's call, and the core's list URLs): params from the contract's path,
// encoded; query values left out when undefined; and the gateway has a route for each URL it makes
// (inject, no listening).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pathOf } from '../../contract/paths.js';
import { startTestGateway, type TestGateway } from '../helpers/api.js';

let gw: TestGateway;

before(async () => {
  gw = await startTestGateway();
});

after(async () => {
  await gw.close();
});

test('params fill the path, encoded; a path without params or query is the table path', () => {
  assert.equal(pathOf('tills.list'), '/ui/tills');
  assert.equal(pathOf('tills.update', { params: { till_id: 'TILL 2/a?b' } }), '/ui/tills/TILL%202%2Fa%3Fb');
  assert.equal(
    pathOf('reports.zPdf', { params: { sequence: '7' }, query: { terminal_id: 'TILL-2' } }),
    '/ui/reports/z/7.pdf?terminal_id=TILL-2',
  );
  assert.equal(pathOf('receipts.get', { params: { receipt_id: 'a b' } }), '/ui/receipts/a%20b');
});

test('query values that are undefined are left out; the others are encoded', () => {
  assert.equal(pathOf('reports.xPdf', { query: {} }), '/ui/reports/x.pdf');
  assert.equal(pathOf('reports.xPdf', { query: { terminal_id: undefined } }), '/ui/reports/x.pdf');
  assert.equal(
    pathOf('transactions.list', { query: { from: '2026-11-27T00:00:00+01:00', limit: '200' } }),
    '/rest/transactions?from=2026-11-27T00%3A00%3A00%2B01%3A00&limit=200',
  );
});

test('the gateway has a route for each URL (asked without credentials: 401, where an unknown path is 404)', async () => {
  for (const [method, url] of [
    ['PUT', pathOf('tills.update', { params: { till_id: 'TILL 2/a' } })],
    ['GET', pathOf('reports.zPdf', { params: { sequence: '3' }, query: { terminal_id: 'TILL-2' } })],
    ['GET', pathOf('transactions.refunds', { params: { transaction_id: 'x/y' } })],
  ] as const) {
    assert.equal((await gw.app.inject({ method, url })).statusCode, 401, `${method} ${url}`);
  }
  assert.equal((await gw.app.inject({ method: 'GET', url: '/ui/tills/TILL/2' })).statusCode, 404, 'an unencoded / makes another path');
});
