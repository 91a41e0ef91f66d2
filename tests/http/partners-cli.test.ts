// The merchant-management commands of the real `gateway` command (issue 17): partners with their own
// credentials, merchants created for or given to them, shops and terminals, used against a running
// server on the same data directory.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { basicAuth, runGateway, startGateway, type GatewayProcess, type MerchantCredentials } from '../helpers/gateway-process.js';
import { freshPan, posPayment, TEST_PIN } from '../helpers/payments.js';

interface PartnerCredentials {
  partner_id: string;
  api_key: string;
  api_password: string;
}

function json<T>(args: string[]): T {
  const result = runGateway(args);
  assert.equal(result.status, 0, `gateway ${args.join(' ')}: ${result.stderr}`);
  assert.equal(result.stdout.trim().split('\n').length, 1, 'one line of JSON');
  return JSON.parse(result.stdout) as T;
}

describe('gateway partner, shop and terminal commands', () => {
  let server: GatewayProcess;
  let dir: string;
  let partner: PartnerCredentials;
  let merchant: MerchantCredentials & { partner_id?: string };
  let shopA: string;
  let shopB: string;

  const call = (method: string, path: string, authorization: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  before(async () => {
    // Sales remember their configuration reads for up to an hour: only the store's word that they
    // changed (here, another process's commit) can make a sale see a command's change.
    server = await startGateway({ args: ['--configuration-cache-ms', String(60 * 60 * 1000)] });
    dir = server.dataDir;
  });

  after(async () => {
    await server.stop();
  });

  test('partner create --json prints exactly the partner id and its credentials, once; partner list shows it', () => {
    partner = json<PartnerCredentials>(['partner', 'create', '--data-dir', dir, '--name', 'POS Vendor', '--json']);
    assert.deepEqual(Object.keys(partner).sort(), ['api_key', 'api_password', 'partner_id']);
    assert.match(partner.api_key, /^tg_test_pt_[A-Za-z0-9_-]+$/);
    assert.ok(partner.api_password.length >= 24);
    const listed = json<Array<{ partner_id: string; name: string }>>(['partner', 'list', '--data-dir', dir, '--json']);
    assert.deepEqual(
      listed.map((p) => [p.partner_id, p.name]),
      [[partner.partner_id, 'POS Vendor']],
    );
    assert.ok(!JSON.stringify(listed).includes(partner.api_password));
  });

  test('merchant create --partner gives the merchant to the partner; an unknown partner exits 2 naming --partner', () => {
    merchant = json(['merchant', 'create', '--data-dir', dir, '--name', 'Corner Shop', '--partner', partner.partner_id, '--json']);
    assert.equal(merchant.partner_id, partner.partner_id);
    const unknown = runGateway(['merchant', 'create', '--data-dir', dir, '--name', 'Lost', '--partner', 'nobody']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /--partner no such partner/);
  });

  test('shop create --json prints the shop; terminal assign puts a terminal in one shop, moving it; shop list shows them', () => {
    const a = json<{ shop_id: string; merchant_id: string; name: string }>([
      'shop',
      'create',
      '--data-dir',
      dir,
      '--merchant',
      merchant.merchant_id,
      '--name',
      'High Street',
      '--json',
    ]);
    assert.deepEqual(Object.keys(a).sort(), ['merchant_id', 'name', 'shop_id']);
    assert.deepEqual([a.merchant_id, a.name], [merchant.merchant_id, 'High Street']);
    shopA = a.shop_id;
    shopB = json<{ shop_id: string }>([
      'shop',
      'create',
      '--data-dir',
      dir,
      '--merchant',
      merchant.merchant_id,
      '--name',
      'Station Road',
      '--json',
    ]).shop_id;
    const first = runGateway(['terminal', 'assign', '--data-dir', dir, '--shop', shopB, '--terminal-id', 'T-A1']);
    assert.equal(first.status, 0, first.stderr);
    const moved = runGateway(['terminal', 'assign', '--data-dir', dir, '--shop', shopA, '--terminal-id', 'T-A1']);
    assert.equal(moved.status, 0, moved.stderr);
    assert.match(moved.stdout, new RegExp(`Terminal T-A1 belongs to shop ${shopA} \\(moved from shop ${shopB}\\)`));
    assert.equal(runGateway(['terminal', 'assign', '--data-dir', dir, '--shop', shopB, '--terminal-id', 'T-B1', '--json']).status, 0);
    const shops = json<Array<{ shop_id: string; terminals: string[] }>>([
      'shop',
      'list',
      '--data-dir',
      dir,
      '--merchant',
      merchant.merchant_id,
      '--json',
    ]);
    assert.deepEqual(
      shops.map((s) => [s.shop_id, s.terminals]),
      [
        [shopA, ['T-A1']],
        [shopB, ['T-B1']],
      ],
    );
    const missing = runGateway(['terminal', 'assign', '--data-dir', dir, '--shop', shopA]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /terminal assign needs --terminal-id T/);
    const badShop = runGateway(['terminal', 'assign', '--data-dir', dir, '--shop', 'nope', '--terminal-id', 'T-9']);
    assert.equal(badShop.status, 2);
    assert.match(badShop.stderr, /--shop no such shop/);
  });

  test('till create adds a till beside the running server (named from its id, or named, in a shop); till list shows it and who has it open; a taken id or an unknown shop exits 2 naming the flag', async () => {
    const two = json<{ till_id: string; name: string; shop_id: string | null }>([
      'till',
      'create',
      '--data-dir',
      dir,
      '--merchant',
      merchant.merchant_id,
      '--till-id',
      'TILL-2',
      '--json',
    ]);
    assert.deepEqual([two.till_id, two.name, two.shop_id], ['TILL-2', 'Till 2', null]);
    const front = json<{ name: string; shop_id: string }>([
      'till',
      'create',
      '--data-dir',
      dir,
      '--merchant',
      merchant.merchant_id,
      '--till-id',
      'front-1',
      '--name',
      'Front counter',
      '--shop',
      shopA,
      '--json',
    ]);
    assert.deepEqual([front.name, front.shop_id], ['Front counter', shopA]);
    const tills = json<Array<{ till_id: string; name: string }>>([
      'till',
      'list',
      '--data-dir',
      dir,
      '--merchant',
      merchant.merchant_id,
      '--json',
    ]);
    assert.deepEqual(
      tills.map((t) => [t.till_id, t.name]),
      [
        ['TILL-1', 'Till 1'],
        ['TILL-2', 'Till 2'],
        ['front-1', 'Front counter'],
      ],
    );
    const taken = runGateway(['till', 'create', '--data-dir', dir, '--merchant', merchant.merchant_id, '--till-id', 'TILL-2']);
    assert.equal(taken.status, 2);
    assert.match(taken.stderr, /--till-id is taken/);
    const badShop = runGateway([
      'till',
      'create',
      '--data-dir',
      dir,
      '--merchant',
      merchant.merchant_id,
      '--till-id',
      'TILL-9',
      '--shop',
      'nope',
    ]);
    assert.equal(badShop.status, 2);
    assert.match(badShop.stderr, /--shop no such shop/);
    // In words too; and the till's terminal is one of its shop's.
    const text = runGateway(['till', 'list', '--data-dir', dir, '--merchant', merchant.merchant_id]);
    assert.match(text.stdout, /^TILL-2 {2}Till 2 {2}free$/m);
    assert.match(text.stdout, new RegExp(`^front-1 {2}Front counter {2}free {2}shop ${shopA}$`, 'm'));
    const shops = json<Array<{ shop_id: string; terminals: string[] }>>([
      'shop',
      'list',
      '--data-dir',
      dir,
      '--merchant',
      merchant.merchant_id,
      '--json',
    ]);
    assert.ok(shops.find((s) => s.shop_id === shopA)?.terminals.includes('front-1'));
  });

  test('till invite prints a one-time pairing code; the running server takes it once at /centre/join', async () => {
    const invite = json<{ code: string; till_id: string; expires_at: string }>([
      'till',
      'invite',
      '--data-dir',
      dir,
      '--merchant',
      merchant.merchant_id,
      '--till-id',
      'TILL-5',
      '--json',
    ]);
    assert.equal(invite.till_id, 'TILL-5');
    const join = (code: string) =>
      fetch(`${server.url}/centre/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code, till_version: 'test' }),
      });
    const joined = await join(invite.code);
    assert.equal(joined.status, 200, await joined.clone().text());
    assert.equal(((await joined.json()) as { till_id: string }).till_id, 'TILL-5');
    assert.equal((await join(invite.code)).status, 404, 'once');
    const unknown = runGateway(['till', 'invite', '--data-dir', dir, '--merchant', 'nope', '--till-id', 'TILL-6']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /--merchant no such merchant/);
  });

  test('the running server: the partner manages its merchant at once, a merchant key gets 403, and a shop switched off refuses its terminals', async () => {
    const partnerAuth = basicAuth(partner);
    const merchantAuth = basicAuth(merchant);
    const path = `/v2/merchants/${merchant.merchant_id}/shops/${shopA}/payment-methods/cardpos`;
    assert.equal((await call('GET', '/v2/payment-methods', partnerAuth)).status, 200);
    assert.equal((await call('GET', path, merchantAuth)).status, 403);
    const set = await call('PUT', path, partnerAuth, { enabled: false });
    assert.equal(set.status, 201, await set.clone().text());
    const pay = (terminal: string) =>
      call('POST', '/rest/payment', merchantAuth, {
        payment_type: 'cardpos',
        order_id: `cli-${terminal}-${Date.now()}`,
        amount: 12,
        currency: 'EUR',
        pos_data: {
          type: { terminal_entry_mode: 'contactless' },
          card: { number: '4111111111111111', expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 2 },
          terminal: { id: terminal },
        },
      });
    const refused = await pay('T-A1');
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as { error_code: number }).error_code, 1004);
    assert.equal((await pay('T-B1')).status, 200);
  });

  test('merchant assign gives an existing merchant to a partner; terminal unassign takes a terminal out of its shop', async () => {
    const second = json<PartnerCredentials>(['partner', 'create', '--data-dir', dir, '--name', 'Second Vendor', '--json']);
    const loose = json<MerchantCredentials>(['merchant', 'create', '--data-dir', dir, '--name', 'Loose Shop', '--json']);
    assert.equal((await call('GET', `/v2/merchants/${loose.merchant_id}/payment-methods`, basicAuth(second))).status, 404);
    const assigned = runGateway(['merchant', 'assign', '--data-dir', dir, '--merchant', loose.merchant_id, '--partner', second.partner_id]);
    assert.equal(assigned.status, 0, assigned.stderr);
    assert.equal((await call('GET', `/v2/merchants/${loose.merchant_id}/payment-methods`, basicAuth(second))).status, 200);
    const removed = runGateway(['terminal', 'unassign', '--data-dir', dir, '--merchant', merchant.merchant_id, '--terminal-id', 'T-A1']);
    assert.equal(removed.status, 0, removed.stderr);
    assert.match(removed.stdout, /Terminal T-A1 no longer belongs to shop/);
    const again = runGateway(['terminal', 'unassign', '--data-dir', dir, '--merchant', merchant.merchant_id, '--terminal-id', 'T-A1']);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /--terminal-id is not assigned to a shop of this merchant/);
  });
  test("a sale sees a terminal the command put in a shop beside the running server, though the server remembers its sales' configuration reads", async () => {
    const off = await call('PUT', `/v2/merchants/${merchant.merchant_id}/shops/${shopB}/payment-methods/cardpos`, basicAuth(partner), {
      enabled: false,
    });
    assert.ok(off.status === 200 || off.status === 201, await off.text());
    const sale = () =>
      call('POST', '/rest/payment', basicAuth(merchant), posPayment(12.5, { pan: freshPan(), pin: TEST_PIN, terminal: 'T-C1' }));
    for (const response of [await sale(), await sale()]) assert.equal(response.status, 200, await response.text());
    const assigned = runGateway(['terminal', 'assign', '--data-dir', dir, '--shop', shopB, '--terminal-id', 'T-C1']);
    assert.equal(assigned.status, 0, assigned.stderr);
    const refused = await sale();
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /cardpos is not enabled for this shop/);
  });
});
