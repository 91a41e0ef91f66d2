// The back office's transactions over inject() on real SQLite (docs/decisions.md "Back office:
// transactions"): the list's new filters (payment type, card last four, exact and ranged amounts,
// the one search box) and keyset paging with `starting_after`, every bad field named in one 400,
// the detail (/ui/transactions/{id}), capture / release / refund by a back-office session in the
// audit log under the staff member's name, the CSV export (columns, time zone, parts, formulas
// defused, never a card number) and what a cashier may not do (D9).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { assertApiError } from '../helpers/api.js';
import {
  api,
  cardPayment,
  newMerchant,
  orderId,
  posPayment,
  SETTLING_IBAN,
  startHarness,
  type Api,
  type Harness,
} from '../helpers/payments.js';
import type { TestMerchant } from '../helpers/api.js';
import { EXPORT_COLUMNS } from '../../contract/transaction-list.js';

const COOKIE = 'tillgate_session';
const VISA = '4111111111111111';
const MASTERCARD = '5555555555554444';
const DECLINED = '4000000000000002';

interface Tx {
  transaction_id: string;
  status_code: number;
  status: string;
  amount: number;
  currency: string;
  order_id: string | null;
  payment_method: string;
  card_last_four?: string;
  created_at: string;
}

interface Detail {
  transaction: Tx;
  amounts: Record<string, number | boolean>;
  included_fees: string;
  card: { brand: string; last_four: string; entry_mode: string | null } | null;
  customer: Record<string, string>;
  merchant_reference: string | null;
  events: Array<{ type: string; amount: number; status: number }>;
  refunds: Array<{ refund_id: string; amount: number; merchant_reference?: string }>;
}

/** Parses a CSV text (RFC 4180) into rows of fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows;
}

describe('back office: transactions', () => {
  let h: Harness;
  let shop: TestMerchant;
  let c: Api;
  let office: string;
  let officeId: string;
  let till: string;
  const ids: Record<string, string> = {};
  const bulk: string[] = [];

  const get = (url: string, token?: string): Promise<LightMyRequestResponse> =>
    h.app.inject({ method: 'GET', url, headers: token ? { cookie: `${COOKIE}=${token}` } : { authorization: shop.auth } });
  const asStaff = (token: string, url: string, body: unknown, key = crypto.randomUUID()) =>
    h.app.inject({
      method: 'POST',
      url,
      headers: { cookie: `${COOKIE}=${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      payload: JSON.stringify(body),
    });
  const list = async (query: string, token?: string): Promise<Tx[]> => {
    const response = await get(`/rest/transactions?${query}`, token);
    assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
    return response.json<Tx[]>();
  };
  const login = async (role: string, login: string, name: string) => {
    const created = await h.gateway.staff.create({ merchantId: shop.merchant_id, role, login, displayName: name });
    assert.ok(created.ok);
    const response = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login, password: created.value.password } });
    const token = response.cookies.find((cookie) => cookie.name === COOKIE)?.value;
    assert.ok(token, response.body);
    return { token, id: created.value.staff_id };
  };

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Corner Shop');
    c = api(h, shop);
    const staffOffice = await login('back_office', 'office', 'Mira Novak');
    office = staffOffice.token;
    officeId = staffOffice.id;
    till = (await login('cashier', 'till', 'Till One')).token;

    const pay = async (name: string, path: string, body: Record<string, unknown>) => {
      const answer = await c.ok<{ transaction_id: string }>(path, body);
      ids[name] = answer.transaction_id;
      h.clock.advance(1000);
    };
    // Some history first, for paging (each a second apart, so the order is known).
    for (let i = 0; i < 23; i += 1) {
      const answer = await c.ok<{ transaction_id: string }>('/rest/payment', cardPayment(VISA, 5 + i, { order_id: `bulk-${i}` }));
      bulk.unshift(answer.transaction_id);
      h.clock.advance(1000);
    }
    await pay(
      'visa',
      '/rest/payment',
      cardPayment(VISA, 12.5, {
        order_id: 'web-1001',
        first_name: 'Ana',
        last_name: 'Horvat',
        email: 'ana@example.com',
        city: 'Zagreb',
        additional_transaction_data: '=HYPERLINK("http://evil.example","click")',
        merchant_reference: 'Web order 1001',
      }),
    );
    await pay('kwd', '/rest/payment', cardPayment(MASTERCARD, 12.5, { currency: 'KWD', order_id: 'kw-1' }));
    await pay('jpy', '/rest/payment', cardPayment(MASTERCARD, 1250, { currency: 'JPY', order_id: 'jp-1' }));
    await pay('pos', '/rest/payment', posPayment(20, { pan: MASTERCARD, entry: 'chip', order: 'till-7' }));
    await pay('declined', '/rest/payment', cardPayment(DECLINED, 9.99, { order_id: 'web-1002' }));
    await pay('auth', '/rest/authorize', cardPayment(MASTERCARD, 80, { order_id: 'hotel-1' }));
    await pay('dd', '/rest/payment', {
      payment_type: 'dd',
      order_id: orderId('dd'),
      amount: 25,
      currency: 'EUR',
      iban: SETTLING_IBAN,
      account_holder: 'Ada Lovelace',
    });
    // An order id of four digits, like a card's last four.
    await pay('digits', '/rest/payment', cardPayment(VISA, 3, { order_id: '4444' }));
  });

  after(async () => {
    await h.close();
  });

  describe('the list: new filters', () => {
    test('payment_type: one or several', async () => {
      assert.deepEqual(
        (await list('payment_type=cardpos')).map((t) => t.transaction_id),
        [ids.pos],
      );
      const both = await list('payment_type=dd,cardpos');
      assert.deepEqual(
        both.map((t) => t.transaction_id),
        [ids.dd, ids.pos],
      );
    });

    test('card_last_four, alone and with a status', async () => {
      const mastercard = await list('card_last_four=4444');
      assert.deepEqual(
        mastercard.map((t) => t.transaction_id),
        [ids.auth, ids.pos, ids.jpy, ids.kwd],
      );
      assert.deepEqual(
        (await list('card_last_four=0002&status=6')).map((t) => t.transaction_id),
        [ids.declined],
      );
    });

    test("amount: exact in each currency's decimals, and a range", async () => {
      // 12.50 EUR and 12.500 KWD; 1250 JPY is not 12.50.
      assert.deepEqual(
        (await list('amount=12.50')).map((t) => t.transaction_id),
        [ids.kwd, ids.visa],
      );
      assert.deepEqual(
        (await list('amount=12.5&currency=EUR')).map((t) => t.transaction_id),
        [ids.visa],
      );
      assert.deepEqual(
        (await list('amount=1250')).map((t) => t.transaction_id),
        [ids.jpy],
      );
      const range = await list('amount_min=20&amount_max=25&limit=500');
      assert.deepEqual(
        range.map((t) => t.amount).sort((a, b) => a - b),
        [20, 20, 21, 22, 23, 24, 25, 25],
      );
    });

    test('search: a transaction id, an order id or a last four, in one box', async () => {
      assert.deepEqual(
        (await list(`search=${ids.visa ?? ''}`)).map((t) => t.transaction_id),
        [ids.visa],
      );
      assert.deepEqual(
        (await list(`search=${(ids.visa ?? '').toUpperCase()}`)).map((t) => t.transaction_id),
        [ids.visa],
        'a pasted id in capitals',
      );
      assert.deepEqual(
        (await list('search=web-1002')).map((t) => t.transaction_id),
        [ids.declined],
      );
      // "4444" is an order id and the last four of four Mastercard payments: all of them, once each.
      assert.deepEqual(
        (await list('search=4444')).map((t) => t.transaction_id),
        [ids.digits, ids.auth, ids.pos, ids.jpy, ids.kwd],
      );
      assert.deepEqual(
        (await list('search=4444&status=4')).map((t) => t.transaction_id),
        [ids.auth],
        'with the other filters',
      );
      assert.deepEqual(await list('search=nothing-like-this'), []);
    });

    test('starting_after pages like offset, page by page, and to the end', async () => {
      const all = await list('limit=500');
      assert.equal(all.length, 31);
      const pages: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await list(`limit=7${cursor ? `&starting_after=${cursor}` : ''}`);
        pages.push(...page.map((t) => t.transaction_id));
        if (page.length < 7) break;
        cursor = page.at(-1)?.transaction_id;
      }
      assert.deepEqual(
        pages,
        all.map((t) => t.transaction_id),
      );
      const byOffset = await list('limit=7&offset=14');
      assert.deepEqual(
        byOffset.map((t) => t.transaction_id),
        all.slice(14, 21).map((t) => t.transaction_id),
      );
      // With filters: the cursor is only a position.
      const visaPage = await list(`card_last_four=1111&limit=5&starting_after=${bulk[3] ?? ''}`);
      assert.deepEqual(
        visaPage.map((t) => t.transaction_id),
        bulk.slice(4, 9),
      );
    });

    test('every bad field is named in one 400, unknown parameters too', async () => {
      const response = await get(
        '/rest/transactions?currency=EURO&status=99&payment_type=card&card_last_four=12a&amount=1.23456&amount_min=x&from=yesterday&limit=0&search=&colour=red',
      );
      assertApiError(response, 400, 1001, [
        'currency',
        'status',
        'payment_type',
        'card_last_four',
        'amount',
        'amount_min',
        'from',
        'limit',
        'search',
        'colour',
      ]);
      assertApiError(await get('/rest/transactions?amount=12.505&currency=EUR'), 400, 1001, ['amount']);
      assertApiError(await get('/rest/transactions?amount_min=30&amount_max=20'), 400, 1001, ['amount_min']);
      assertApiError(await get('/rest/transactions?amount_max=1000000000'), 400, 1001, ['amount_max']);
      assertApiError(await get('/rest/transactions?amount=-5'), 400, 1001, ['amount']);
      assertApiError(await get(`/rest/transactions?starting_after=${ids.visa ?? ''}&offset=10`), 400, 1001, ['offset']);
      assertApiError(await get('/rest/transactions?starting_after=00000000-0000-7000-8000-000000000000'), 400, 1001, ['starting_after']);
      assertApiError(await get('/rest/transactions?status=3&status=8'), 400, 1001, ['status']);
    });

    test("another merchant's transaction is no cursor", async () => {
      const other = await newMerchant(h, 'Other Shop');
      const response = await h.app.inject({
        method: 'GET',
        url: `/rest/transactions?starting_after=${ids.visa ?? ''}`,
        headers: { authorization: other.auth },
      });
      assertApiError(response, 400, 1001, ['starting_after']);
    });
  });

  describe('the detail', () => {
    test('card summary, customer, fees, amounts, event log and refunds in one answer', async () => {
      const response = await get(`/ui/transactions/${ids.visa ?? ''}`, office);
      assert.equal(response.statusCode, 200, response.body);
      const detail = response.json<Detail>();
      assert.equal(detail.transaction.transaction_id, ids.visa);
      assert.deepEqual(detail.card, { brand: 'visa', last_four: '1111', entry_mode: 'ecommerce' });
      assert.deepEqual(detail.customer, { first_name: 'Ana', last_name: 'Horvat', email: 'ana@example.com', city: 'Zagreb' });
      assert.equal(detail.merchant_reference, 'Web order 1001');
      assert.match(detail.included_fees, /^\d+\.\d{2}$/);
      assert.deepEqual(
        {
          captured: detail.amounts.captured,
          refundable: detail.amounts.refundable,
          capturable: detail.amounts.capturable,
          releasable: detail.amounts.releasable,
        },
        { captured: 12.5, refundable: 12.5, capturable: 0, releasable: 0 },
      );
      assert.deepEqual(
        detail.events.map((e) => e.type),
        ['authorization', 'capture'],
      );
      assert.doesNotMatch(response.body, /4111111111111111|411111/, 'no card number beyond the last four');

      const pos = (await get(`/ui/transactions/${ids.pos ?? ''}`, office)).json<Detail>();
      assert.deepEqual(pos.card, { brand: 'mastercard', last_four: '4444', entry_mode: 'chip' });
      const auth = (await get(`/ui/transactions/${ids.auth ?? ''}`, office)).json<Detail>();
      assert.deepEqual(
        [auth.amounts.authorized, auth.amounts.capturable, auth.amounts.releasable, auth.amounts.refundable, auth.amounts.partial_reversal],
        [80, 80, 80, 0, true],
      );
      assertApiError(await get('/ui/transactions/00000000-0000-7000-8000-000000000000', office), 404, 3001);
      assertApiError(await get(`/ui/transactions/${ids.visa ?? ''}`), 401, 2001);
    });

    test('a back-office session captures part, releases the rest and refunds part; each in the audit log under the name', async () => {
      const capture = await asStaff(office, '/rest/capture', { transaction_id: ids.auth, amount: 50 });
      assert.equal(capture.statusCode, 200, capture.body);
      const tooMuch = await asStaff(office, '/rest/reverse', { transaction_id: ids.auth, amount: 30.01 });
      const refused = assertApiError(tooMuch, 400, 1003, ['amount']);
      assert.match(refused.message, /at most 30 EUR/);
      const release = await asStaff(office, '/rest/reverse', { transaction_id: ids.auth, amount: 30 });
      assert.equal(release.statusCode, 200, release.body);
      const refund = await asStaff(office, '/rest/refund', { transaction_id: ids.auth, amount: 20, merchant_reference: 'Returned goods' });
      assert.equal(refund.statusCode, 200, refund.body);

      const detail = (await get(`/ui/transactions/${ids.auth ?? ''}`, office)).json<Detail>();
      assert.deepEqual(
        [
          detail.amounts.authorized,
          detail.amounts.captured,
          detail.amounts.reversed,
          detail.amounts.refunded,
          detail.amounts.capturable,
          detail.amounts.releasable,
          detail.amounts.refundable,
        ],
        [50, 50, 30, 20, 0, 0, 30],
      );
      assert.deepEqual(
        detail.events.map((e) => e.type),
        ['authorization', 'capture', 'reversal', 'refund'],
      );
      assert.deepEqual(
        detail.refunds.map((r) => [r.amount, r.merchant_reference]),
        [[20, 'Returned goods']],
      );
      assert.equal(detail.transaction.status, 'partly_refunded');

      const audit = (await get('/ui/audit', office)).json<
        Array<{ action: string; staff_id: string; staff_name: string; subject_id: string; detail: string }>
      >();
      const mine = audit.filter((a) => a.subject_id === ids.auth).map((a) => [a.action, a.staff_id, a.staff_name, a.detail]);
      assert.deepEqual(mine.reverse(), [
        ['capture', officeId, 'Mira Novak', 'amount 50'],
        ['void', officeId, 'Mira Novak', 'amount 30'],
        ['refund', officeId, 'Mira Novak', 'amount 20; reason: Returned goods'],
      ]);
    });
  });

  describe('CSV export', () => {
    const exportOf = async (query: string, token?: string) => {
      const response = await get(`/rest/transactions/export?${query}`, token);
      assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
      return response;
    };

    test('the filter, chosen columns in their order, amounts as decimal text, timestamps in the time zone', async () => {
      const response = await exportOf(
        'columns=transaction_id,created_at,amount,currency,status,card_brand,card_last_four,entry_mode,order_id&time_zone=Asia/Kolkata&card_last_four=4444',
      );
      assert.match(String(response.headers['content-type']), /^text\/csv; charset=utf-8/);
      assert.match(String(response.headers['content-disposition']), /^attachment; filename="transactions-\d{8}-\d{4}\.csv"$/);
      assert.equal(response.headers['x-total-count'], '4');
      const rows = parseCsv(response.body);
      assert.deepEqual(rows[0], [
        'transaction_id',
        'created_at',
        'amount',
        'currency',
        'status',
        'card_brand',
        'card_last_four',
        'entry_mode',
        'order_id',
      ]);
      assert.deepEqual(
        rows.slice(1).map((r) => r[0]),
        [ids.auth, ids.pos, ids.jpy, ids.kwd],
      );
      const kwd = rows.find((r) => r[0] === ids.kwd) ?? [];
      assert.deepEqual(kwd.slice(2), ['12.500', 'KWD', 'completed', 'mastercard', '4444', 'ecommerce', 'kw-1']);
      assert.equal(rows.find((r) => r[0] === ids.jpy)?.[2], '1250');
      assert.equal(rows.find((r) => r[0] === ids.pos)?.[7], 'chip');
      // India is UTC+05:30 all year.
      for (const row of rows.slice(1)) assert.match(row[1] ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/);
      const pos = (await c.transaction(ids.pos ?? '')) as { created_at: string };
      const local = new Date(Date.parse(pos.created_at) + 330 * 60_000).toISOString().slice(0, 19);
      assert.equal(rows.find((r) => r[0] === ids.pos)?.[1], `${local}+05:30`);
    });

    test('default columns in UTC; formulas defused and commas quoted; never a card number', async () => {
      const response = await exportOf(
        'limit=10000&columns=transaction_id,created_at,additional_transaction_data,message,card_brand,card_last_four&search=web-1001',
      );
      const rows = parseCsv(response.body);
      assert.equal(rows[1]?.[2], `'=HYPERLINK("http://evil.example","click")`);
      assert.match(rows[1]?.[1] ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      const everything = await exportOf(`columns=${EXPORT_COLUMNS.join(',')}`);
      for (const pan of [VISA, MASTERCARD, DECLINED]) {
        assert.ok(!everything.body.includes(pan), `${pan} is not in the file`);
        assert.ok(!everything.body.includes(pan.slice(0, 6)), `the BIN of ${pan} is not in the file`);
      }
      // Ids are UUIDs, whose last group is now and then twelve decimal digits: not a card number.
      const withoutIds = everything.body.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');
      assert.doesNotMatch(withoutIds, /\d{12,19}/, 'no run of 12 to 19 digits');
      const plain = parseCsv((await exportOf('status=6')).body);
      assert.deepEqual(plain[0], [
        'transaction_id',
        'created_at',
        'status',
        'payment_type',
        'amount',
        'currency',
        'captured_amount',
        'refunded_amount',
        'order_id',
        'card_brand',
        'card_last_four',
        'till_id',
        'cashier',
        'taken_at',
        'forwarded_at',
      ]);
      assert.deepEqual(
        plain.slice(1).map((r) => [r[0], r[2], r[4], r[10]]),
        [[ids.declined, 'declined', '9.99', '0002']],
      );
    });

    test('in parts: limit, X-Next-Starting-After and header=0 give every row once', async () => {
      const whole = parseCsv((await exportOf('columns=transaction_id')).body)
        .slice(1)
        .map((r) => r[0]);
      assert.equal(whole.length, 31);
      const parts: string[] = [];
      let next: string | undefined;
      let first = true;
      for (let i = 0; i < 10; i += 1) {
        const response = await exportOf(`columns=transaction_id&limit=8${next ? `&starting_after=${next}&header=0` : ''}`);
        if (first) assert.equal(response.headers['x-total-count'], '31');
        const rows = parseCsv(response.body);
        parts.push(...(first ? rows.slice(1) : rows).map((r) => r[0] ?? ''));
        first = false;
        next = response.headers['x-next-starting-after'] as string | undefined;
        if (!next) break;
      }
      assert.deepEqual(parts, whole);
    });

    test('every bad field is named in one 400', async () => {
      assertApiError(
        await get(
          '/rest/transactions/export?columns=amount,pan&time_zone=Mars/Olympus&limit=20000&header=2&currency=EURO&payment_type=x&offset=1',
        ),
        400,
        1001,
        ['columns', 'time_zone', 'limit', 'header', 'currency', 'payment_type', 'offset'],
      );
      assertApiError(await get('/rest/transactions/export?columns='), 400, 1001, ['columns']);
    });

    test("a staff member's export is in the audit log with its filters", async () => {
      await exportOf('status=6&columns=transaction_id,amount&time_zone=Europe/Berlin', office);
      const audit = (await get('/ui/audit', office)).json<Array<{ action: string; staff_name: string; detail: string }>>();
      const entry = audit.find((a) => a.action === 'export');
      assert.ok(entry, 'export audited');
      assert.equal(entry.staff_name, 'Mira Novak');
      assert.equal(entry.detail, '1 rows; columns transaction_id,amount; time zone Europe/Berlin; filters status=6');
    });

    test('the document describes the new parameters and the export', async () => {
      const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
        paths: Record<
          string,
          { get?: { parameters?: Array<{ name: string }>; responses?: Record<string, { content?: Record<string, unknown> }> } }
        >;
      }>();
      const listParams = (doc.paths['/rest/transactions']?.get?.parameters ?? []).map((p) => p.name);
      for (const name of [
        'payment_type',
        'card_last_four',
        'amount',
        'amount_min',
        'amount_max',
        'search',
        'starting_after',
        'limit',
        'offset',
      ])
        assert.ok(listParams.includes(name), name);
      const exportOperation = doc.paths['/rest/transactions/export']?.get;
      assert.ok(exportOperation, 'export documented');
      assert.ok(Object.keys(exportOperation.responses?.['200']?.content ?? {}).includes('text/csv'));
      const exportParams = (exportOperation.parameters ?? []).map((p) => p.name);
      for (const name of ['columns', 'time_zone', 'limit', 'starting_after', 'header', 'status'])
        assert.ok(exportParams.includes(name), name);
    });
  });

  describe('a cashier (D9)', () => {
    test('still sees today only, with every new parameter, and neither the detail nor the export', async () => {
      // Tomorrow: everything so far is from yesterday.
      h.clock.advance(25 * 60 * 60 * 1000);
      // Sessions end after 12 hours: log in again.
      till = (await login('cashier', 'till-2', 'Till Two')).token;
      office = (await login('back_office', 'office-2', 'Jan Berg')).token;
      const today = await c.ok<{ transaction_id: string }>('/rest/payment', cardPayment(VISA, 7, { order_id: 'next-day' }));
      const since = encodeURIComponent(new Date(0).toISOString());
      assert.deepEqual(
        (await list(`from=${since}&limit=500&payment_type=cardecom&card_last_four=1111`, till)).map((t) => t.transaction_id),
        [today.transaction_id],
      );
      assert.deepEqual(
        (await list(`search=${ids.visa ?? ''}`, till)).map((t) => t.transaction_id),
        [],
        "yesterday's, found by its id",
      );
      assert.deepEqual(await list(`starting_after=${today.transaction_id}&limit=500`, till), []);
      assert.equal((await list('limit=500&payment_type=cardecom&card_last_four=1111', office)).length, 26);
      assertApiError(await get('/rest/transactions/export', till), 403, 2002);
      assertApiError(await get(`/ui/transactions/${ids.visa ?? ''}`, till), 403, 2002);
    });
  });
});
