// The back-office lists' places in their URLs (renderer/src/*/…-search.ts): a typed-in or old URL
// keeps only what the API would take. Days go through the contract's one calendar-day rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchDay } from '../../renderer/src/ui/list-search.js';
import { invoiceListSearch } from '../../renderer/src/invoices/invoice-search.js';
import { transactionListSearch } from '../../renderer/src/transactions/transaction-search.js';

test('a day is a YYYY-MM-DD that exists', () => {
  assert.equal(searchDay(' 2024-02-29 '), '2024-02-29');
  for (const day of ['2025-02-29', '2026-13-01', '2026-11-31', '26-11-27', '2026-11-27T00:00', '', 20261127])
    assert.equal(searchDay(day), undefined, String(day));
});

test('the invoice list keeps its filters and drops what the API would refuse', () => {
  assert.deepEqual(
    invoiceListSearch({ url_name: ' shop ', status: 'paid', created_at_from: '2026-03-01', created_at_to: '2026-03-31', page: '2' }),
    {
      url_name: 'shop',
      status: 'paid',
      created_at_from: '2026-03-01',
      created_at_to: '2026-03-31',
      page: 2,
    },
  );
  assert.deepEqual(
    invoiceListSearch({ url_name: 'x'.repeat(101), status: 'lost', created_at_from: '2026-02-30', created_at_to: 'soon', page: '1' }),
    {},
  );
});

test('the transaction list keeps real days only', () => {
  assert.deepEqual(transactionListSearch({ from: '2026-11-01', to: '2026-11-27' }), { from: '2026-11-01', to: '2026-11-27' });
  assert.deepEqual(transactionListSearch({ from: '2026-11-31', to: '2026-11-2' }), {});
});
