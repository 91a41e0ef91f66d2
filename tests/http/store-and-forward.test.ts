// Tills joined to a centre, selling on while it is away (issue 26, parts 1 and 2), with real
// processes: a centre (`gateway serve`, on either engine), tills (`gateway serve` on their own data
// directories, joined with `gateway till join`), and a TCP proxy of the test's own between each till
// and the centre to cut and restore the link. POS software calls the till with the merchant's own
// credentials. While the centre answers, sales go to it; while it does not, card-present sales are
// stored within the limits; once it answers again every stored sale reaches it exactly once, whatever
// is killed meanwhile.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  basicAuth,
  createMerchant,
  runGateway,
  runGatewayAsync,
  startGateway,
  tempDataDir,
  type GatewayProcess,
  type MerchantCredentials,
} from '../helpers/gateway-process.js';
import { freshPan, posPayment } from '../helpers/payments.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../helpers/shop.js';

const FORWARD_DECLINE = '4000000000000416';

interface Answer {
  transaction_id: string;
  status_code: number;
  status: string;
  message: string | null;
  error_code: number;
  errors?: Array<{ field: string; message: string }>;
}

interface Till {
  id: string;
  dir: string;
  proxy: TcpProxy;
  process: GatewayProcess;
}

describe('tills joined to a centre: store and forward', () => {
  let centre: GatewayProcess;
  let merchant: MerchantCredentials;
  let auth = '';
  const tills: Till[] = [];

  /** A card-present sale sent by POS software to a till. */
  const sell = async (till: Till, amount: number, options: { pan?: string; key?: string; terminal?: string; order?: string } = {}) => {
    const body = posPayment(amount, { pan: options.pan ?? freshPan(), entry: 'chip', ...(options.order ? { order: options.order } : {}) });
    (body.pos_data as { terminal: { id: string } }).terminal.id = options.terminal ?? till.id;
    const response = await fetch(`${till.process.url}/rest/payment`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': options.key ?? randomUUID() },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer };
  };
  const atCentre = async (transactionId: string) => {
    const response = await fetch(`${centre.url}/rest/transactions/${transactionId}`, { headers: { authorization: auth } });
    return response.status === 200 ? ((await response.json()) as { status_code: number; amount: number }) : undefined;
  };
  const centreCount = async (orderPrefix: string) => {
    const list = (await (await fetch(`${centre.url}/rest/transactions?limit=500`, { headers: { authorization: auth } })).json()) as Array<{
      order_id: string;
    }>;
    return list.filter((t) => t.order_id.startsWith(orderPrefix)).length;
  };

  const joinTill = async (id: string): Promise<Till> => {
    const invite = runGateway([
      'till',
      'invite',
      '--data-dir',
      centre.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--till-id',
      id,
      '--json',
    ]);
    assert.equal(invite.status, 0, invite.stderr);
    const { code } = JSON.parse(invite.stdout) as { code: string };
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(centre.url).port) });
    const dir = tempDataDir('till-');
    const joined = await runGatewayAsync(['till', 'join', '--data-dir', dir, '--centre', proxy.url, '--code', code, '--json']);
    assert.equal(joined.status, 0, joined.stderr);
    assert.equal((JSON.parse(joined.stdout) as { till_id: string }).till_id, id);
    const process = await startGateway({ dataDir: dir, sqlite: true });
    const till = { id, dir, proxy, process };
    tills.push(till);
    return till;
  };

  before(async () => {
    centre = await startGateway({ args: ['--sim-slow-answer-ms', '3000'] });
    merchant = createMerchant(centre.dataDir, 'Chain Bakery');
    auth = basicAuth(merchant);
    for (const [role, login, name, pin] of [
      ['cashier', 'kasia', 'Kasia', '1470'],
      ['admin', 'olga', 'Olga', '2580'],
      ['back_office', 'mira', 'Mira', '3690'],
    ] as const) {
      const made = runGateway([
        'staff',
        'create',
        '--data-dir',
        centre.dataDir,
        '--merchant',
        merchant.merchant_id,
        '--role',
        role,
        '--login',
        login,
        '--name',
        name,
        '--pin',
        pin,
        '--json',
      ]);
      assert.equal(made.status, 0, made.stderr);
    }
  });

  after(async () => {
    for (const till of tills) {
      await till.process.stop();
      await till.proxy.close();
    }
    await centre?.stop();
  });

  test('a joined till sends its sales to the centre; POS software uses the merchant credentials it always had', async () => {
    const till = await joinTill('TILL-2');
    const sale = await sell(till, 12.5);
    assert.equal(sale.status, 200, JSON.stringify(sale.body));
    assert.equal(sale.body.status, 'completed');
    assert.equal((await atCentre(sale.body.transaction_id))?.status_code, 3, 'the transaction of record is at the centre');
    // Other calls go on to the centre too.
    const list = await fetch(`${till.process.url}/rest/transactions/${sale.body.transaction_id}`, { headers: { authorization: auth } });
    assert.equal(list.status, 200);
    const wrong = await fetch(`${till.process.url}/rest/transactions`, {
      headers: { authorization: basicAuth({ api_key: merchant.api_key, api_password: 'wrong' }) },
    });
    assert.equal(wrong.status, 401, 'the till checks the credentials itself');
  });

  test('the centre away: card-present sales are stored (status 13) within the limits, other calls wait (503, 5005); back: each stored sale reaches the centre once, a forwarded decline is declined there', async () => {
    const till = tills[0] as Till;
    till.proxy.cut();
    const stored: Answer[] = [];
    for (const amount of [10, 20.5, 30]) {
      const sale = await sell(till, amount);
      assert.equal(sale.status, 200, JSON.stringify(sale.body));
      assert.deepEqual([sale.body.status_code, sale.body.status], [13, 'stored']);
      stored.push(sale.body);
    }
    const declining = await sell(till, 4.16, { pan: FORWARD_DECLINE });
    assert.equal(declining.body.status, 'stored');
    // A replayed request answers the same stored sale, not a second one.
    const repeat = { key: randomUUID(), pan: freshPan(), order: `replayed-${randomUUID().slice(0, 8)}` };
    const once = await sell(till, 7, repeat);
    const again = await sell(till, 7, repeat);
    assert.equal(again.body.transaction_id, once.body.transaction_id, JSON.stringify([once, again]));
    // Above the per-payment limit (100.00): refused, with the reason.
    const tooBig = await sell(till, 100.01);
    assert.equal(tooBig.status, 503);
    assert.equal(tooBig.body.error_code, 5005);
    assert.match(JSON.stringify(tooBig.body), /at most 100\.00 EUR/);
    // A refund of a stored sale waits until it is forwarded, and says so.
    const early = await fetch(`${till.process.url}/rest/refund`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ transaction_id: stored[0]?.transaction_id, amount: 1 }),
    });
    const earlyBody = (await early.json()) as Answer;
    assert.equal(earlyBody.error_code, 1002, JSON.stringify(earlyBody));
    assert.deepEqual(
      earlyBody.errors?.map((e) => e.field),
      ['transaction_id'],
    );
    assert.match(JSON.stringify(earlyBody), /once it has been forwarded/);
    // Reads are answered from the till's own copies meanwhile, marked so; other calls wait.
    const copies = await fetch(`${till.process.url}/rest/transactions`, { headers: { authorization: auth } });
    assert.deepEqual([copies.status, copies.headers.get('x-till-view')], [200, 'copies']);
    const ids = ((await copies.json()) as Answer[]).map((t) => t.transaction_id);
    for (const sale of stored) assert.ok(ids.includes(sale.transaction_id), 'the stored sales are in its copies');
    const waits = await fetch(`${till.process.url}/rest/postbacks`, { headers: { authorization: auth } });
    assert.equal(waits.status, 503);
    assert.equal(((await waits.json()) as Answer).error_code, 5005);
    for (const sale of stored) assert.equal(await atCentre(sale.transaction_id), undefined, 'not at the centre yet');

    till.proxy.restore();
    for (const sale of [...stored, once.body]) {
      const found = await until(`stored sale ${sale.transaction_id} at the centre`, () => atCentre(sale.transaction_id));
      assert.equal(found.status_code, 3);
    }
    const declined = await until('the forwarded decline', () => atCentre(declining.body.transaction_id));
    assert.equal(declined.status_code, 6);
  });

  test("the cashier screen at a joined till: its sales go to the centre as the cashier's, are stored while the centre is away, and a sale whose answer was lost is asked of the centre, never charged twice", async () => {
    const till = tills[0] as Till;
    const login = await fetch(`${till.process.url}/ui/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'kasia', pin: '1470' }),
    });
    assert.equal(login.status, 200, await login.clone().text());
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const ui = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${till.process.url}${path}`, {
        method,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    /** The till screen's sale: its attempt first, then the payment with the attempt's key. */
    const sale = async (amount: number, pan = freshPan()) => {
      const key = randomUUID();
      const order = `screen-${randomUUID().slice(0, 8)}`;
      const attempt = await ui('PUT', '/ui/till/attempt', { order_id: order, idempotency_key: key, amount, currency: 'EUR' });
      assert.equal(attempt.status, 201, JSON.stringify(attempt.body));
      const body = posPayment(amount, { pan, entry: 'chip', order });
      (body.pos_data as { terminal: { id: string } }).terminal.id = till.id;
      return ui('POST', '/rest/payment', body, { 'idempotency-key': key });
    };
    const resolve = () => ui('POST', '/ui/till/attempt/resolve');

    // The sale declined when forwarded (the test before) is shown to the cashier until marked seen.
    const link = await ui('GET', '/ui/till/link');
    const declines = link.body.declines as Array<{ transaction_id: string; amount: number; card_last_four: string; message: string }>;
    assert.deepEqual(
      declines.map((d) => [d.amount, d.card_last_four]),
      [[4.16, '0416']],
      JSON.stringify(link.body),
    );
    assert.match(declines[0]?.message ?? '', /^51 /);
    const seen = await ui('POST', `/ui/till/link/declines/${declines[0]?.transaction_id ?? ''}/seen`);
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    assert.deepEqual(seen.body.declines, []);

    const online = await sale(11);
    assert.equal(online.body.status, 'completed', JSON.stringify(online.body));
    const resolved = await resolve();
    assert.equal(resolved.body.state, 'approved');
    assert.equal((resolved.body.transaction as { transaction_id: string }).transaction_id, online.body.transaction_id);
    assert.equal((await atCentre(String(online.body.transaction_id)))?.status_code, 3);

    till.proxy.cut();
    const stored = await until('the till to notice the centre is away', async () => {
      const attempt = await sale(12);
      if (attempt.body.status === 'stored') return attempt;
      await resolve();
      return undefined;
    });
    const storedResolution = await resolve();
    assert.equal(storedResolution.body.state, 'approved', 'a stored sale is approved at the till: it is not charged again');
    assert.equal((storedResolution.body.transaction as { status: string; transaction_id: string }).status, 'stored');

    // The answer is lost: the slow card (3 s at this centre) is charging there when the link is cut.
    till.proxy.restore();
    await until('the till to see the centre again', async () => {
      const r = await ui('GET', '/ui/till/link');
      return (r.body.state as string) === 'online' ? true : undefined;
    });
    const pending = sale(13, '4000000000001505');
    await new Promise((r) => setTimeout(r, 800));
    till.proxy.cut();
    const lost = await pending;
    assert.equal(lost.status, 503, JSON.stringify(lost.body));
    assert.equal(lost.body.error_code, 5005);
    const waiting = await resolve();
    assert.equal(waiting.body.state, 'in_progress', 'the centre may have charged it: the till waits, it does not take it for not charged');
    const next = await ui('PUT', '/ui/till/attempt', {
      order_id: `screen-${randomUUID().slice(0, 8)}`,
      idempotency_key: randomUUID(),
      amount: 14,
      currency: 'EUR',
    });
    assert.equal(next.status, 409, 'no new sale while the last one is unknown');
    till.proxy.restore();
    const after = await until('the centre to tell how the lost sale ended', async () => {
      const r = await resolve();
      return r.body.state === 'in_progress' ? undefined : r;
    });
    assert.equal(after.body.state, 'approved', JSON.stringify(after.body));
    const charged = after.body.transaction as { transaction_id: string };
    assert.equal((await atCentre(charged.transaction_id))?.status_code, 3, 'charged once, at the centre');

    // The till keeps its own copies: its receipts and its day report work as on any gateway, and the
    // day is provisional until the stored sale is forwarded.
    const receipt = await ui('GET', `/ui/receipts/${String(online.body.transaction_id)}`);
    assert.equal(receipt.status, 200, JSON.stringify(receipt.body));
    assert.deepEqual([receipt.body.amount, receipt.body.terminal_id], [11, till.id]);
    const storedReceipt = await ui('GET', `/ui/receipts/${String(stored.body.transaction_id)}`);
    assert.equal(storedReceipt.status, 200, JSON.stringify(storedReceipt.body));
    type Figures = { approved: { count: number; amount: number }; refunded: { count: number; amount: number } };
    const day = async () =>
      (await ui('GET', '/ui/reports/x')).body as {
        by_cashier: Array<Figures & { name: string }>;
        stored_sales?: { provisional: boolean; pending: unknown[]; forwarded: Array<{ count: number }> };
      };
    const kasia = (report: Awaited<ReturnType<typeof day>>) => report.by_cashier.find((row) => row.name === 'Kasia');
    await until('the stored sale at the centre', () => atCentre(String(stored.body.transaction_id)));
    const final = await until('the day to be final', async () => {
      const report = await day();
      return report.stored_sales?.provisional === false ? report : undefined;
    });
    assert.deepEqual(kasia(final)?.approved, { count: 3, amount: 36 }, 'the sale online, the stored one, the one whose answer was lost');
    assert.ok((final.stored_sales?.forwarded[0]?.count ?? 0) >= 1);

    // A refund at the till is made at the centre, as the cashier's, with a manager's approval checked here.
    const approval = await ui('POST', '/ui/approvals', { action: 'refund', login: 'mira', pin: '3690' });
    assert.equal(approval.status, 200, JSON.stringify(approval.body));
    const refund = await ui(
      'POST',
      '/rest/refund',
      { transaction_id: online.body.transaction_id, amount: 4 },
      { 'x-manager-approval': String(approval.body.approval_token), 'idempotency-key': randomUUID() },
    );
    assert.equal(refund.status, 200, JSON.stringify(refund.body));
    const refunded = await fetch(`${centre.url}/rest/transactions/${String(online.body.transaction_id)}`, {
      headers: { authorization: auth },
    });
    assert.equal(((await refunded.json()) as { status: string }).status, 'partly_refunded', 'refunded at the centre');
    assert.deepEqual(kasia(await day())?.refunded, { count: 1, amount: 4 }, "and counted in the till's day");
  });

  test('three tills store at once, the links are cut and restored again and again, a till is killed (kill -9) while forwarding: every stored sale reaches the centre exactly once', async () => {
    const more = [await joinTill('TILL-3'), await joinTill('TILL-4')];
    const all = [tills[0] as Till, ...more];
    for (const till of all) till.proxy.cut();
    const prefix = `chaos-${randomUUID().slice(0, 8)}`;
    const sent: Array<{ till: Till; id: string; amount: number }> = [];
    let n = 0;
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        all.map(async (till) => {
          for (let i = 0; i < 6; i++) {
            n += 1;
            const amount = 1 + (n % 9);
            const body = posPayment(amount, { pan: freshPan(), entry: 'chip', order: `${prefix}-${till.id}-${round}-${i}` });
            (body.pos_data as { terminal: { id: string } }).terminal.id = till.id;
            const response = await fetch(`${till.process.url}/rest/payment`, {
              method: 'POST',
              headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
              body: JSON.stringify(body),
            });
            const answer = (await response.json()) as Answer;
            assert.equal(answer.status, 'stored', JSON.stringify(answer));
            sent.push({ till, id: answer.transaction_id, amount });
          }
        }),
      );
    }
    // Restore, cut in the middle of forwarding, restore; kill one till while it forwards and start it again.
    for (const till of all) till.proxy.restore();
    await new Promise((resolve) => setTimeout(resolve, 150));
    (all[1] as Till).proxy.cut();
    const victim = all[2] as Till;
    await victim.process.kill9();
    await new Promise((resolve) => setTimeout(resolve, 300));
    (all[1] as Till).proxy.restore();
    victim.process = await startGateway({ dataDir: victim.dir, sqlite: true });
    for (const sale of sent) await until(`sale ${sale.id}`, () => atCentre(sale.id), 60_000);
    assert.equal(await centreCount(prefix), sent.length, 'no sale twice, none lost');
  });
});
