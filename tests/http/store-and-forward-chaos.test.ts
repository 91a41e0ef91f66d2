// 1,000 stored sales with kill -9 at random points (issue 26, part 3): a centre (either engine) and
// a joined till, real processes, a TCP proxy of the test's own between them. With the link cut, POS
// software sends 1,000 card-present sales to the till, four at a time, and the till is killed (kill -9)
// at random moments and started again; a sale whose answer was lost is sent again with its key. Then
// the link is restored, and while the till forwards, the till and then the centre are killed and
// started again. At the end every acknowledged sale is at the centre exactly once, under the id the
// till answered, and the sums at the till and at the centre are equal. The random moments come from a
// seed printed with the test (TILLGATE_CHAOS_SEED=... repeats a run).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { prng } from '../../bench/seed.js';
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

const SALES = 1000;
const WORKERS = 4;
const SEED = Number(process.env.TILLGATE_CHAOS_SEED ?? Date.now() % 100_000);

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const value = await probe().catch((error: unknown) => {
      last = error;
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? ` (last: ${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface Sale {
  order: string;
  key: string;
  amountCents: number;
  pan: string;
  answer?: string;
}

describe(`1,000 stored sales, kill -9 at random points (seed ${SEED})`, () => {
  let centre: GatewayProcess;
  let till: GatewayProcess;
  let tillDir = '';
  let proxy: TcpProxy;
  let merchant: MerchantCredentials;
  let auth = '';

  before(async () => {
    centre = await startGateway();
    merchant = createMerchant(centre.dataDir, 'Chaos Bakery');
    auth = basicAuth(merchant);
    const admin = runGateway([
      'staff',
      'create',
      '--data-dir',
      centre.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--role',
      'back_office',
      '--login',
      'mira',
      '--name',
      'Mira',
      '--pin',
      '3690',
      '--json',
    ]);
    assert.equal(admin.status, 0, admin.stderr);
    const invite = runGateway([
      'till',
      'invite',
      '--data-dir',
      centre.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--till-id',
      'TILL-5',
      '--json',
    ]);
    assert.equal(invite.status, 0, invite.stderr);
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(centre.url).port) });
    tillDir = tempDataDir('till-chaos-');
    const joined = await runGatewayAsync([
      'till',
      'join',
      '--data-dir',
      tillDir,
      '--centre',
      proxy.url,
      '--code',
      (JSON.parse(invite.stdout) as { code: string }).code,
      '--json',
    ]);
    assert.equal(joined.status, 0, joined.stderr);
    const limits = runGateway([
      'till',
      'limits',
      '--data-dir',
      centre.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--till-id',
      'TILL-5',
      '--count',
      '2000',
      '--total-per-currency',
      '100000',
      '--json',
    ]);
    assert.equal(limits.status, 0, limits.stderr);
    till = await startGateway({ dataDir: tillDir, sqlite: true });
  });

  after(async () => {
    await till?.stop();
    await proxy?.close();
    await centre?.stop();
  });

  test('0 lost, 0 twice, equal sums at till and centre', async () => {
    const logIn = async () => {
      const response = await fetch(`${till.url}/ui/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'mira', pin: '3690' }),
      });
      return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    };
    const link = async () => {
      const response = await fetch(`${till.url}/ui/till/link`, { headers: { cookie: await logIn() } });
      return (await response.json()) as {
        state: string;
        limits: { count: number } | null;
        stored: { count: number; totals: Array<{ amount: number }> };
      };
    };
    await until(
      'the till to hold the limits the centre set',
      async () => ((await link()).limits?.count === 2000 ? true : undefined),
      20_000,
    );
    proxy.cut();
    await until('the till to notice the centre is away', async () => ((await link()).state === 'away' ? true : undefined), 10_000);

    const next = prng(SEED);
    const prefix = `chaos-${randomUUID().slice(0, 8)}`;
    const sales: Sale[] = Array.from({ length: SALES }, (_, i) => ({
      order: `${prefix}-${i}`,
      key: randomUUID(),
      amountCents: 100 + Math.floor(next() * 9000),
      pan: freshPan(),
    }));
    const kills = [0, 1, 2].map(() => 100 + Math.floor(next() * (SALES - 200))).sort((a, b) => a - b);
    let acknowledged = 0;
    let restarting: Promise<void> | undefined;

    const send = async (sale: Sale): Promise<boolean> => {
      const body = posPayment(sale.amountCents / 100, { pan: sale.pan, entry: 'chip', order: sale.order });
      (body.pos_data as { terminal: { id: string } }).terminal.id = 'TILL-5';
      try {
        const response = await fetch(`${till.url}/rest/payment`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': sale.key },
          body: JSON.stringify(body),
        });
        const answer = (await response.json()) as { status?: string; transaction_id?: string };
        if (response.status !== 200) return false;
        assert.equal(answer.status, 'stored', JSON.stringify(answer));
        if (sale.answer !== undefined) assert.equal(answer.transaction_id, sale.answer, 'a retry answers the same stored sale');
        sale.answer = answer.transaction_id;
        return true;
      } catch {
        return false; // the till was killed under this request: sent again with the same key
      }
    };
    const queue = [...sales];
    const worker = async () => {
      for (;;) {
        await restarting;
        const sale = queue.shift();
        if (!sale) return;
        if (await send(sale)) {
          acknowledged += 1;
          if (kills.length && acknowledged >= (kills[0] ?? Infinity) && !restarting) {
            kills.shift();
            restarting = (async () => {
              await till.kill9();
              till = await startGateway({ dataDir: tillDir, sqlite: true });
            })();
            await restarting;
            restarting = undefined;
          }
        } else {
          queue.push(sale);
          await restarting;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    assert.equal(acknowledged >= SALES, true);
    const held = await link();
    assert.equal(held.stored.count, SALES, 'every acknowledged sale is stored, once');
    const total = sales.reduce((sum, s) => sum + s.amountCents, 0);
    assert.equal(Math.round((held.stored.totals[0]?.amount ?? 0) * 100), total);

    // Forwarding, with the till and then the centre killed on the way (the link slowed so that both
    // kills land while sales are still being forwarded: at 150 ms a chunk each batch of 50 takes at
    // least 0.3 s, so the 1,000 take 6 s or more, and the centre's kill at 500 leaves plenty to do;
    // at 40 ms a faster centre took all of them before the kill).
    proxy.delayMs = 150;
    proxy.restore();
    const atCentre = async () => {
      const found = new Map<string, { id: string; amount: number }>();
      for (let offset = 0; ; offset += 500) {
        const page = (await (
          await fetch(`${centre.url}/rest/transactions?limit=500&offset=${offset}`, { headers: { authorization: auth } })
        ).json()) as Array<{ transaction_id: string; order_id: string; amount: number }>;
        for (const t of page) {
          if (!t.order_id.startsWith(`${prefix}-`)) continue;
          assert.ok(!found.has(t.order_id), `order ${t.order_id} twice at the centre`);
          found.set(t.order_id, { id: t.transaction_id, amount: t.amount });
        }
        if (page.length < 500) return found;
      }
    };
    await until('forwarding to start', async () => ((await atCentre()).size >= 150 ? true : undefined));
    await till.kill9();
    assert.ok((await atCentre()).size < SALES, 'the till is killed while it forwards');
    till = await startGateway({ dataDir: tillDir, sqlite: true });
    await until('forwarding to go on', async () => ((await atCentre()).size >= 500 ? true : undefined));
    await centre.kill9();
    const beforeKill = centre;
    centre = await startGateway({ dataDir: beforeKill.dataDir });
    const part = await atCentre();
    assert.ok(part.size < SALES, `the centre is killed while sales are forwarded to it (${part.size} there)`);
    proxy.retarget(Number(new URL(centre.url).port));
    const forwarded = await until('every stored sale at the centre', async () => {
      const found = await atCentre();
      return found.size === SALES ? found : undefined;
    });
    for (const sale of sales) assert.equal(forwarded.get(sale.order)?.id, sale.answer, `${sale.order} under the id the till answered`);
    assert.equal(Math.round([...forwarded.values()].reduce((sum, t) => sum + t.amount, 0) * 100), total, 'the sums agree');
    await until('the till to hold nothing more', async () => ((await link()).stored.count === 0 ? true : undefined));
  });
});
