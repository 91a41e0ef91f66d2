// A two-hour outage of the centre, rehearsed in seconds with the Test environment's movable clock
// (issue 26, part 3): a centre and a joined till, both started with `--sim-clock movable`, a TCP proxy
// of the test's own between them. While the link is cut the till stores its card-present sales and
// the cashier's view of the link says how many, how much, how old and how long is left; the centre's
// list of tills warns once the till has been silent for more than 15 minutes; past the age limit the
// till refuses to store with the reason; once the link is back every stored sale reaches the centre
// once and the sums agree.
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

interface LinkStatus {
  joined: boolean;
  state: string;
  stored: { count: number; totals: Array<{ currency: string; amount: number }>; oldest_at: string | null; age_limit_at: string | null };
}
interface TillRow {
  till_id: string;
  day: { sequence: number; open: boolean };
  remote: { warning: string | null; stored: { count: number }; last_seen_at: string | null } | null;
}

async function logIn(url: string, login: string, pin: string): Promise<string> {
  const response = await fetch(`${url}/ui/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, pin }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

describe('a two-hour outage of the centre, with the movable clock', () => {
  let centre: GatewayProcess;
  let till: GatewayProcess;
  let proxy: TcpProxy;
  let merchant: MerchantCredentials;

  before(async () => {
    centre = await startGateway({ args: ['--sim-clock', 'movable'] });
    merchant = createMerchant(centre.dataDir, 'Outage Bakery');
    const admin = runGateway([
      'staff',
      'create',
      '--data-dir',
      centre.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--role',
      'admin',
      '--login',
      'olga',
      '--name',
      'Olga',
      '--pin',
      '2580',
      '--json',
    ]);
    assert.equal(admin.status, 0, admin.stderr);
    // A manager works at the till; an admin's hashes never reach one (D20).
    const manager = runGateway([
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
    assert.equal(manager.status, 0, manager.stderr);
    const invite = runGateway([
      'till',
      'invite',
      '--data-dir',
      centre.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--till-id',
      'TILL-7',
      '--json',
    ]);
    assert.equal(invite.status, 0, invite.stderr);
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(centre.url).port) });
    const dir = tempDataDir('till-outage-');
    const joined = await runGatewayAsync([
      'till',
      'join',
      '--data-dir',
      dir,
      '--centre',
      proxy.url,
      '--code',
      (JSON.parse(invite.stdout) as { code: string }).code,
      '--json',
    ]);
    assert.equal(joined.status, 0, joined.stderr);
    till = await startGateway({ dataDir: dir, sqlite: true, args: ['--sim-clock', 'movable'] });
  });

  after(async () => {
    await till?.stop();
    await proxy?.close();
    await centre?.stop();
  });

  test('stored for two hours: the cashier sees count, total, age and time left; the centre warns after 15 minutes; a Z closed meanwhile is provisional; past the age limit the till refuses; kept across a restart, a restore over them refused; back: every sale once, equal sums, the Z final', async () => {
    let tillCookie = await logIn(till.url, 'mira', '3690');
    let centreCookie = await logIn(centre.url, 'olga', '2580');
    const link = async () => (await (await fetch(`${till.url}/ui/till/link`, { headers: { cookie: tillCookie } })).json()) as LinkStatus;
    const centreTill = async () =>
      ((await (await fetch(`${centre.url}/ui/tills`, { headers: { cookie: centreCookie } })).json()) as { tills: TillRow[] }).tills.find(
        (t) => t.till_id === 'TILL-7',
      );
    const advance = async (url: string, seconds: number) => {
      const response = await fetch(`${url}/test/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_seconds: seconds }),
      });
      assert.equal(response.status, 200, await response.clone().text());
    };
    const prefix = `outage-${randomUUID().slice(0, 8)}`;
    const sell = async (amount: number, n: number) => {
      const body = posPayment(amount, { pan: freshPan(), entry: 'chip', order: `${prefix}-${n}` });
      (body.pos_data as { terminal: { id: string } }).terminal.id = 'TILL-7';
      const response = await fetch(`${till.url}/rest/payment`, {
        method: 'POST',
        headers: { authorization: basicAuth(merchant), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        body: (await response.json()) as { status: string; transaction_id: string; error_code?: number; message?: string },
      };
    };

    await until('the till to report to the centre', async () => ((await link()).state === 'online' ? true : undefined));
    assert.equal((await centreTill())?.remote?.warning, null);
    proxy.cut();
    await until('the till to notice within 3 s', async () => ((await link()).state === 'away' ? true : undefined), 5000);

    // Two hours, ten minutes at a time, on both clocks: three sales every ten minutes.
    let n = 0;
    let total = 0;
    for (let step = 0; step < 12; step++) {
      for (let i = 0; i < 3; i++) {
        n += 1;
        const amount = 1 + (n % 7) + 0.25;
        const sale = await sell(amount, n);
        assert.equal(sale.body.status, 'stored', JSON.stringify(sale.body));
        total += amount;
      }
      await advance(till.url, 600);
      await advance(centre.url, 600);
    }
    // Two hours on the clocks: the staff sessions ended meanwhile (idle).
    tillCookie = await logIn(till.url, 'mira', '3690');
    const status = await link();
    assert.equal(status.stored.count, 36);
    assert.deepEqual(status.stored.totals, [{ currency: 'EUR', amount: Math.round(total * 100) / 100 }]);
    const oldest = Date.parse(status.stored.oldest_at ?? '');
    assert.equal(Date.parse(status.stored.age_limit_at ?? ''), oldest + 24 * 3_600_000, 'the time left runs to the age limit (24 h)');
    centreCookie = await logIn(centre.url, 'olga', '2580');
    const warned = await centreTill();
    assert.match(warned?.remote?.warning ?? '', /Not heard from for 1[12]\d minutes/, JSON.stringify(warned));

    // The till's day closed while it holds stored sales: the Z report counts them and is provisional.
    const closed = await fetch(`${till.url}/ui/reports/z`, {
      method: 'POST',
      headers: { cookie: tillCookie, 'idempotency-key': randomUUID() },
    });
    assert.equal(closed.status, 201, await closed.clone().text());
    const z = (await closed.json()) as {
      sequence: number;
      totals: Array<{ approved: { count: number } }>;
      stored_sales?: { provisional: boolean; pending: Array<{ count: number }> };
    };
    assert.equal(z.totals[0]?.approved.count, 36);
    assert.deepEqual([z.stored_sales?.provisional, z.stored_sales?.pending[0]?.count], [true, 36]);

    // Past the age limit nothing more is stored, and the till says why.
    await advance(till.url, 22 * 3600 + 60);
    const refused = await sell(5, ++n);
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error_code, 5005);
    assert.match(refused.body.message ?? '', /older than 24 hours/);

    // Stopped and started again (as after an upgrade): the stored sales are kept, and it says so; a
    // restore over them is refused unless told to discard them.
    const dir = till.dataDir;
    await till.stop();
    const backup = `${dir}/before.db`;
    assert.equal(runGateway(['backup', '--data-dir', dir, '--to', backup]).status, 0);
    const restore = runGateway(['restore', '--data-dir', dir, '--from', backup]);
    assert.equal(restore.status, 1);
    assert.match(restore.stderr, /holds 36 stored sale\(s\) not yet forwarded .* --discard-stored-sales/);
    till = await startGateway({ dataDir: dir, sqlite: true, args: ['--sim-clock', 'movable'] });
    assert.match(
      till.stdout(),
      /This till holds 36 stored sale\(s\) \(\d+\.\d\d EUR\) taken while .* did not answer: they are kept and forwarded/,
    );
    await advance(till.url, 23 * 3600);

    proxy.restore();
    // A day later for the till's clock: its staff session ended meanwhile.
    tillCookie = await logIn(till.url, 'mira', '3690');
    await until('every stored sale forwarded', async () => ((await link()).stored.count === 0 ? true : undefined), 30_000);
    // The same Z report is final now: its figures as closed, nothing pending.
    const final = (await (
      await fetch(`${till.url}/ui/reports/z/${z.sequence}`, { headers: { cookie: tillCookie } })
    ).json()) as typeof z & { stored_sales?: { forwarded: Array<{ count: number }> } };
    assert.equal(final.totals[0]?.approved.count, 36);
    assert.deepEqual(
      [final.stored_sales?.provisional, final.stored_sales?.pending, final.stored_sales?.forwarded[0]?.count],
      [false, [], 36],
    );
    const atCentre = (await (
      await fetch(`${centre.url}/rest/transactions?limit=500`, { headers: { authorization: basicAuth(merchant) } })
    ).json()) as Array<{ order_id: string; amount: number; status: string }>;
    const ours = atCentre.filter((t) => t.order_id.startsWith(`${prefix}-`));
    assert.equal(ours.length, 36, 'none lost, none twice');
    assert.equal(new Set(ours.map((t) => t.order_id)).size, 36);
    assert.equal(Math.round(ours.reduce((sum, t) => sum + t.amount, 0) * 100), Math.round(total * 100), 'the sums agree');
    assert.equal(
      await until('the warning to clear', async () => ((await centreTill())?.remote?.warning === null ? true : undefined)),
      true,
    );
    // The centre shows the till's day as the till closed it (day 2 now, nothing sold since).
    const day = (await centreTill())?.day;
    assert.deepEqual([day?.sequence, day?.open], [2, false]);
  });
});
