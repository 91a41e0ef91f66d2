// The shop's books add up across tills and the centre (D19, issue 34): each card-present sale's till
// is decided once, when it is created, by one rule that is the same online and while the centre is
// away; a joined till's X and Z reports and the centre's view of that till count the same entries in
// the same day, also a stored sale declined when forwarded and a refund made at the centre. Real
// processes: a centre on the pass's engine, a till of its own, a till joined from its own data
// directory behind a TCP proxy of the test's own.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OTHER_TERMINALS_BOOK } from '../../contract/constants.js';
import { freshPan } from '../helpers/payments.js';
import { CASHIER, Shop } from '../helpers/shop.js';

const FORWARD_DECLINE = '4000000000000416';

interface Row {
  currency: string;
  approved: { count: number; amount: number };
  declined: { count: number; amount: number };
  refunded: { count: number; amount: number };
  net: number;
}
interface Report {
  sequence: number;
  totals: Row[];
  final_totals?: Row[];
  by_cashier: Array<Row & { name: string }>;
  stored_sales?: { provisional: boolean };
}

const row = (approved: [number, number], declined: [number, number], refunded: [number, number]): Row => ({
  currency: 'EUR',
  approved: { count: approved[0], amount: approved[1] },
  declined: { count: declined[0], amount: declined[1] },
  refunded: { count: refunded[0], amount: refunded[1] },
  net: Math.round((approved[1] - refunded[1]) * 100) / 100,
});

describe("the shop's books: one till per sale, the same figures at the till and the centre", () => {
  let shop: Shop;
  const book = (name: string) => encodeURIComponent(name);
  /** The X report of a book at the centre (an admin's session), or of a joined till at the till itself. */
  const x = async (where: string, terminal?: string) => {
    const answer = await shop.ui(where, 'GET', `/ui/reports/x${terminal ? `?terminal_id=${book(terminal)}` : ''}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as unknown as Report;
  };

  before(async () => {
    shop = await Shop.open('Books Bakery', ['TILL-2']);
    await shop.join('TILL-3');
  });

  after(async () => {
    await shop?.stop();
  });

  test("a sale is its till's: the till POS software names at the centre, a joined till's own whatever it names (but another till), a terminal that is no till on a line of its own; the same rule while the centre is away", async () => {
    const sold = async (where: string, amount: number, terminal?: string | null) => {
      const answer = await shop.sell(where, amount, { terminal });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    };
    // At the centre: its own till by id; a terminal that is no till, a joined till's id and none: other terminals.
    await sold('centre', 2, 'TILL-2');
    await sold('centre', 3, 'T-0001');
    await sold('centre', 4, 'TILL-3');
    await sold('centre', 5, null);
    // At the joined till: its own, whatever POS software names, except another till (D20: refused).
    await sold('TILL-3', 6, 'T-0001');
    const otherTill = async () => {
      const refused = await shop.sell('TILL-3', 7, { terminal: 'TILL-1' });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.deepEqual(
        (refused.body.errors as Array<{ field: string }>).map((e) => e.field),
        ['pos_data.terminal.id'],
      );
    };
    await otherTill();
    await sold('TILL-3', 8);
    // Away: the same rule (stored, not refused for a terminal id that is no till; refused for another till's).
    const till = shop.tills.get('TILL-3');
    assert.ok(till);
    till.proxy.cut();
    const stored = await sold('TILL-3', 9, 'T-0001');
    assert.equal(stored.status, 'stored', JSON.stringify(stored));
    await otherTill();
    till.proxy.restore();
    await shop.inStep('TILL-3');

    assert.deepEqual((await x('centre', 'TILL-2')).totals, [row([1, 2], [0, 0], [0, 0])]);
    assert.deepEqual((await x('centre', OTHER_TERMINALS_BOOK)).totals, [row([3, 12], [0, 0], [0, 0])]);
    assert.deepEqual((await x('centre', 'TILL-1')).totals, [], "POS software at the joined till named TILL-1: not Till 1's sale");
    const atTill = await x('TILL-3');
    assert.deepEqual(atTill.totals, [row([3, 23], [0, 0], [0, 0])]);
    assert.deepEqual((await x('centre', 'TILL-3')).totals, atTill.totals, "the centre's view of the joined till is the till's own X");

    // A screen at the centre never sells as the joined till (its chooser does not offer it either).
    const taken = await shop.ui('centre', 'PUT', '/ui/session/till', { till_id: 'TILL-3', screen_id: 'centre-screen' }, CASHIER);
    assert.equal(taken.status, 400, JSON.stringify(taken.body));
    assert.deepEqual(
      (taken.body.errors as Array<{ field: string }>).map((e) => e.field),
      ['till_id'],
    );

    // The shop's day has every book: its tills and the other terminals' line.
    const day = (await shop.ui('centre', 'GET', '/ui/reports/shop')).body as {
      totals: Row[];
      tills: Array<{ till_id: string; totals: Row[] }>;
    };
    assert.deepEqual(day.totals, [row([7, 37], [0, 0], [0, 0])], JSON.stringify(day));
  });

  test('a repeated sale (same order, amount and card at the same till, no Idempotency-Key) is refused with 4006 at the centre and at a joined till, online and away; a retry after a decline or a confirmed repeat is not', async () => {
    const pan = freshPan();
    const order = `repeat-${crypto.randomUUID().slice(0, 8)}`;
    const once = await shop.sell('centre', 12.3, { pan, order, terminal: 'TILL-2', key: null });
    assert.equal(once.body.status, 'completed', JSON.stringify(once.body));
    const again = await shop.sell('centre', 12.3, { pan, order, terminal: 'TILL-2', key: null });
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.error_code, 4006);
    assert.deepEqual(
      (again.body.errors as Array<{ field: string }>).map((e) => e.field),
      ['order_id'],
    );
    assert.match(String(again.body.message), new RegExp(String(once.body.transaction_id)));
    // Not the same sale: another till, another amount, another card; and a repeat the POS confirms.
    assert.equal((await shop.sell('centre', 12.3, { pan, order, terminal: 'T-0001', key: null })).status, 200);
    assert.equal((await shop.sell('centre', 12.4, { pan, order, terminal: 'TILL-2', key: null })).status, 200);
    assert.equal((await shop.sell('centre', 12.3, { order, terminal: 'TILL-2', key: null })).status, 200);
    assert.equal(
      (await shop.sell('centre', 12.3, { pan, order, terminal: 'TILL-2', key: null, headers: { 'x-repeat-sale': 'confirmed' } })).body
        .status,
      'completed',
    );
    // A retry after a decline is no repeat.
    const declinedOrder = `repeat-${crypto.randomUUID().slice(0, 8)}`;
    assert.equal((await shop.sell('centre', 5, { pan: '4000000000000002', order: declinedOrder, key: null })).body.status, 'declined');
    assert.equal((await shop.sell('centre', 5, { pan: '4000000000000002', order: declinedOrder, key: null })).status, 200);

    // At a joined till: online (the centre checks) and away (the till checks its own copies).
    const tillOrder = `repeat-${crypto.randomUUID().slice(0, 8)}`;
    const tillPan = freshPan();
    assert.equal((await shop.sell('TILL-3', 7.7, { pan: tillPan, order: tillOrder, key: null })).body.status, 'completed');
    const online = await shop.sell('TILL-3', 7.7, { pan: tillPan, order: tillOrder, key: null });
    assert.deepEqual([online.status, online.body.error_code], [409, 4006], JSON.stringify(online.body));
    const till = shop.tills.get('TILL-3');
    assert.ok(till);
    till.proxy.cut();
    const away = await shop.sell('TILL-3', 7.7, { pan: tillPan, order: tillOrder, key: null });
    assert.deepEqual([away.status, away.body.error_code], [409, 4006], JSON.stringify(away.body));
    const storedOrder = `repeat-${crypto.randomUUID().slice(0, 8)}`;
    assert.equal((await shop.sell('TILL-3', 8.8, { pan: tillPan, order: storedOrder, key: null })).body.status, 'stored');
    const storedAgain = await shop.sell('TILL-3', 8.8, { pan: tillPan, order: storedOrder, key: null });
    assert.deepEqual([storedAgain.status, storedAgain.body.error_code], [409, 4006], 'a stored sale sent again is not stored twice');

    // Reads while the centre is away: the till answers from its copies, and says so.
    const list = await shop.api('TILL-3', 'GET', '/rest/transactions?limit=500');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.headers.get('x-till-view'), 'copies');
    const rows = list.body as unknown as Array<{ order_id: string; status_code: number }>;
    assert.deepEqual(
      rows.filter((r) => r.order_id === storedOrder).map((r) => r.status_code),
      [13],
    );
    const storedId = rows.find((r) => r.order_id === storedOrder) as unknown as { transaction_id: string };
    const one = await shop.api('TILL-3', 'GET', `/rest/transactions/${storedId.transaction_id}`);
    assert.deepEqual([one.status, one.headers.get('x-till-view'), one.body.status], [200, 'copies', 'stored']);
    const elsewhere = await shop.api('TILL-3', 'GET', `/rest/transactions/${String(once.body.transaction_id)}`);
    assert.deepEqual([elsewhere.status, elsewhere.body.error_code], [503, 5005], 'a sale of another till: only the centre knows it');
    till.proxy.restore();
    await shop.inStep('TILL-3');
    const back = await shop.api('TILL-3', 'GET', `/rest/transactions/${storedId.transaction_id}`);
    assert.deepEqual(
      [back.status, back.headers.get('x-till-view'), back.body.status],
      [200, null, 'completed'],
      'online: the centre answers',
    );
  });

  test("a stored sale declined when forwarded is not taken once known, a refund made at the centre reaches the till's day, and a day the till closed is the centre's too", async () => {
    const till = shop.tills.get('TILL-3');
    assert.ok(till);
    // Start from a closed day at the till (the sales of the test before).
    assert.equal(
      (await shop.ui('TILL-3', 'POST', '/ui/reports/z', undefined, undefined, { 'idempotency-key': crypto.randomUUID() })).status,
      201,
    );
    await shop.inStep('TILL-3');

    till.proxy.cut();
    const declining = await shop.sell('TILL-3', 20, { pan: FORWARD_DECLINE });
    const kept = await shop.sell('TILL-3', 10);
    assert.deepEqual([declining.body.status, kept.body.status], ['stored', 'stored']);
    // Closed while away: the stored sales count as taken, provisionally.
    const closed = await shop.ui('TILL-3', 'POST', '/ui/reports/z', undefined, undefined, { 'idempotency-key': crypto.randomUUID() });
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    const z = closed.body as unknown as Report;
    assert.deepEqual([z.totals, z.stored_sales?.provisional], [[row([2, 30], [0, 0], [0, 0])], true]);
    till.proxy.restore();
    await shop.inStep('TILL-3');

    // At the centre the forwarded sale says when it was taken (stored) and when it arrived.
    const record = (await shop.api('centre', 'GET', `/rest/transactions/${String(kept.body.transaction_id)}`)).body as {
      till_id?: string;
      taken_at?: string;
      forwarded_at?: string;
      created_at: string;
    };
    assert.equal(record.till_id, 'TILL-3');
    assert.ok(record.taken_at && record.forwarded_at && record.taken_at < record.forwarded_at, JSON.stringify(record));
    const detail = (await shop.ui('centre', 'GET', `/ui/transactions/${String(kept.body.transaction_id)}`)).body as {
      till: { till_id: string } | null;
      stored: { stored_at: string; forwarded_at: string | null } | null;
    };
    assert.deepEqual(
      [detail.till?.till_id, detail.stored?.stored_at, detail.stored?.forwarded_at],
      ['TILL-3', record.taken_at, record.forwarded_at],
    );

    const final = (await shop.ui('TILL-3', 'GET', `/ui/reports/z/${z.sequence}`)).body as unknown as Report;
    assert.deepEqual(final.totals, z.totals, 'a closed day stays as it was closed');
    assert.deepEqual(final.final_totals, [row([1, 10], [1, 20], [0, 0])], 'the declined stored sale is declined, not taken');
    const atCentre = (await shop.ui('centre', 'GET', `/ui/reports/z/${z.sequence}?terminal_id=TILL-3`)).body as unknown as Report;
    assert.equal(atCentre.sequence, z.sequence, JSON.stringify(atCentre));
    assert.deepEqual(atCentre.totals, z.totals, 'the centre lists the day as the till closed it');
    assert.deepEqual(atCentre.final_totals, final.final_totals, "and its own records of the day's entries agree");

    // The open day: a sale at the till, a refund of it made at the centre (POS software there).
    const sale = await shop.sell('TILL-3', 15);
    assert.equal(sale.body.status, 'completed');
    const refund = await shop.api(
      'centre',
      'POST',
      '/rest/refund',
      { transaction_id: sale.body.transaction_id, amount: 5 },
      { 'idempotency-key': crypto.randomUUID() },
    );
    assert.equal(refund.status, 200, JSON.stringify(refund.body));
    // A forwarded decline seen in an X report: not taken.
    till.proxy.cut();
    assert.equal((await shop.sell('TILL-3', 30, { pan: FORWARD_DECLINE })).body.status, 'stored');
    till.proxy.restore();
    await shop.inStep('TILL-3');
    const open = await x('TILL-3');
    assert.deepEqual(open.totals, [row([1, 15], [1, 30], [1, 5])], JSON.stringify(open.totals));
    assert.deepEqual((await x('centre', 'TILL-3')).totals, open.totals);
    assert.equal((await x('centre', 'TILL-3')).sequence, open.sequence);
    // The refund made at the centre is on the till's copy of the sale: its receipt list shows it.
    const refunds = await shop.ui('TILL-3', 'GET', `/rest/transactions/${String(sale.body.transaction_id)}/refunds`, undefined, CASHIER);
    assert.equal(refunds.status, 200, JSON.stringify(refunds.body));

    // The centre closes no day of a till joined from another computer.
    const refused = await shop.ui('centre', 'POST', '/ui/reports/z?terminal_id=TILL-3', undefined, undefined, {
      'idempotency-key': crypto.randomUUID(),
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.deepEqual(
      (refused.body.errors as Array<{ field: string }>).map((e) => e.field),
      ['terminal_id'],
    );
  });
});
