/**
 * A shop as a chain runs it, with real processes: a centre (`gateway serve`, on the engine of the
 * test pass), its own tills, and tills joined from their own data directories (`gateway till join`),
 * each behind a TCP proxy of the test's own to cut and restore its link. POS software calls with the
 * merchant's credentials; staff log in with their PINs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  basicAuth,
  createMerchant,
  runGateway,
  runGatewayAsync,
  startGateway,
  tempDataDir,
  type GatewayProcess,
  type MerchantCredentials,
} from './gateway-process.js';
import { freshPan, posPayment } from './payments.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface JoinedTill {
  id: string;
  proxy: TcpProxy;
  process: GatewayProcess;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The shop's admin (PIN 2580), its manager (back office, PIN 3690) and a cashier (PIN 1470). An admin
 * logs in at the centre only: a joined till keeps the staff who work at a till (D20).
 */
export const ADMIN = { login: 'olga', pin: '2580', name: 'Olga' };
export const MANAGER = { login: 'mira', pin: '3690', name: 'Mira' };
export const CASHIER = { login: 'kasia', pin: '1470', name: 'Kasia' };

export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export class Shop {
  readonly tills = new Map<string, JoinedTill>();
  private readonly cookies = new Map<string, string>();

  private constructor(
    readonly centre: GatewayProcess,
    readonly merchant: MerchantCredentials,
  ) {}

  get auth(): string {
    return basicAuth(this.merchant);
  }

  /** A centre with the merchant, its admin and cashier, and its own tills besides TILL-1. */
  static async open(name: string, ownTills: readonly string[] = [], args: string[] = []): Promise<Shop> {
    const centre = await startGateway({ args });
    const shop = new Shop(centre, createMerchant(centre.dataDir, name));
    for (const [role, who] of [
      ['admin', ADMIN],
      ['back_office', MANAGER],
      ['cashier', CASHIER],
    ] as const) {
      const made = runGateway([
        'staff',
        'create',
        '--data-dir',
        centre.dataDir,
        '--merchant',
        shop.merchant.merchant_id,
        '--role',
        role,
        '--login',
        who.login,
        '--name',
        who.name,
        '--pin',
        who.pin,
        '--json',
      ]);
      assert.equal(made.status, 0, made.stderr);
    }
    for (const till of ownTills) {
      const made = runGateway(['till', 'create', '--data-dir', centre.dataDir, '--merchant', shop.merchant.merchant_id, '--till-id', till]);
      assert.equal(made.status, 0, made.stderr);
    }
    return shop;
  }

  /** A till joined from its own data directory, through a proxy of its own. */
  async join(id: string): Promise<JoinedTill> {
    const invite = runGateway([
      'till',
      'invite',
      '--data-dir',
      this.centre.dataDir,
      '--merchant',
      this.merchant.merchant_id,
      '--till-id',
      id,
      '--json',
    ]);
    assert.equal(invite.status, 0, invite.stderr);
    const { code } = JSON.parse(invite.stdout) as { code: string };
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(this.centre.url).port) });
    const dir = tempDataDir('till-');
    const joined = await runGatewayAsync(['till', 'join', '--data-dir', dir, '--centre', proxy.url, '--code', code, '--json']);
    assert.equal(joined.status, 0, joined.stderr);
    const process = await startGateway({ dataDir: dir, sqlite: true });
    const till = { id, proxy, process };
    this.tills.set(id, till);
    return till;
  }

  /** The base URL of the centre, or of a joined till. */
  urlOf(where: string): string {
    if (where === 'centre') return this.centre.url;
    const till = this.tills.get(where);
    if (!till) throw new Error(`no joined till ${where}`);
    return till.process.url;
  }

  /** POS software's call with the merchant's credentials. */
  async api(
    where: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer & { headers: Headers }> {
    const response = await fetch(`${this.urlOf(where)}${path}`, {
      method,
      headers: { authorization: this.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: response.headers };
  }

  /** A card-present sale POS software sends (`terminal`: its pos_data.terminal.id, or none). */
  sell(
    where: string,
    amount: number,
    options: { pan?: string; terminal?: string | null; order?: string; key?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const body = posPayment(amount, { pan: options.pan ?? freshPan(), entry: 'chip', ...(options.order ? { order: options.order } : {}) });
    const pos = body.pos_data as { terminal?: { id?: string } };
    if (options.terminal === null) delete pos.terminal;
    else if (options.terminal !== undefined) pos.terminal = { ...pos.terminal, id: options.terminal };
    return this.api(where, 'POST', '/rest/payment', body, {
      ...(options.key === null ? {} : { 'idempotency-key': options.key ?? randomUUID() }),
      ...options.headers,
    });
  }

  /** A staff session's call (logged in once per place and login): the admin at the centre, the manager at a till unless told. */
  async ui(
    where: string,
    method: string,
    path: string,
    body?: unknown,
    who: { login: string; pin: string } = where === 'centre' ? ADMIN : MANAGER,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const cookie = await this.cookie(where, who);
    const response = await fetch(`${this.urlOf(where)}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const answer = { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    if (response.status === 401) {
      this.cookies.delete(`${where}/${who.login}`);
      return this.ui(where, method, path, body, who, headers);
    }
    return answer;
  }

  private async cookie(where: string, who: { login: string; pin: string }): Promise<string> {
    const key = `${where}/${who.login}`;
    const known = this.cookies.get(key);
    if (known) return known;
    const login = await fetch(`${this.urlOf(where)}/ui/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: who.login, pin: who.pin }),
    });
    assert.equal(login.status, 200, await login.clone().text());
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    this.cookies.set(key, cookie);
    return cookie;
  }

  /** The link of a joined till as its cashier screen sees it. */
  async link(id: string): Promise<{ state: string; stored: { count: number } }> {
    return (await this.ui(id, 'GET', '/ui/till/link')).body as { state: string; stored: { count: number } };
  }

  /** Waits until a joined till's books are in step with the centre's (D19): all forwarded, applied and recorded. */
  async inStep(id: string, timeoutMs = 30_000): Promise<void> {
    // Two reports in step, the first received after now: the second was made after it (a till
    // reports one at a time), so after anything the test did before calling this.
    let since = new Date().toISOString();
    let seen = 0;
    await until(
      `${id} in step with the centre`,
      async () => {
        const tills = (await this.ui('centre', 'GET', '/ui/tills')).body.tills as Array<{
          till_id: string;
          remote: { books: string; last_seen_at: string | null } | null;
        }>;
        const remote = tills.find((t) => t.till_id === id)?.remote;
        const at = remote?.last_seen_at ?? '';
        if (remote?.books !== 'in_step') seen = 0;
        if (remote?.books !== 'in_step' || at <= since) return undefined;
        seen += 1;
        since = at;
        return seen >= 2 ? true : undefined;
      },
      timeoutMs,
    );
  }

  async stop(): Promise<void> {
    for (const till of this.tills.values()) {
      await till.process.stop();
      await till.proxy.close();
    }
    await this.centre.stop();
  }
}
