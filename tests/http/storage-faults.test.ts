// A full disk and a read-only data directory (issue "Reliability and security", 8): requests that
// would write get a clear 503 (5003) saying why, nothing acknowledged is lost, and the gateway works
// again by itself once there is room, or the directory is writable, again. A real `gateway serve`
// on a small tmpfs that the test fills up and remounts read-only (needs root for mount; skipped
// where the machine does not allow it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  basicAuth,
  createMerchant,
  GATEWAY_BIN,
  startGateway,
  type GatewayProcess,
  type MerchantCredentials,
} from '../helpers/gateway-process.js';
import { cardPayment } from '../helpers/payments.js';
import { sqliteOnly } from '../helpers/sql.js';

// Nothing is made, mounted or started in the PostgreSQL pass (the hooks would run although every test skips).
const sqliteSkip = sqliteOnly('a full or read-only data directory under the SQLite database').skip;
const mountPoint = sqliteSkip ? join(tmpdir(), 'tillgate-small-disk-unused') : mkdtempSync(join(tmpdir(), 'tillgate-small-disk-'));
const mounted =
  !sqliteSkip && process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mountPoint]).status === 0;
const skip = sqliteSkip || (mounted ? false : 'mounting a small tmpfs needs root');

let gateway: GatewayProcess | undefined;
let merchant: MerchantCredentials;
const dataDir = join(mountPoint, 'data');
const filler = join(mountPoint, 'filler');

before(async () => {
  if (!mounted) return;
  merchant = createMerchant(dataDir, 'Small Disk');
  gateway = await startGateway({ dataDir, args: ['--backup-interval-hours', '0'] });
});

after(async () => {
  await gateway?.stop();
  if (mounted) spawnSync('umount', [mountPoint]);
  if (!sqliteSkip) rmSync(mountPoint, { recursive: true, force: true });
});

async function pay(amount: number): Promise<{ status: number; body: { transaction_id?: string; error_code?: number; message?: string } }> {
  const response = await fetch(`${gateway?.url ?? ''}/rest/payment`, {
    method: 'POST',
    headers: { authorization: basicAuth(merchant), 'content-type': 'application/json' },
    body: JSON.stringify(cardPayment('4111111111111111', amount, { additional_transaction_data: 'x'.repeat(2000) })),
  });
  return { status: response.status, body: (await response.json()) as { transaction_id?: string; error_code?: number; message?: string } };
}

async function storedIds(): Promise<Set<string>> {
  const response = await fetch(`${gateway?.url ?? ''}/rest/transactions?limit=500`, { headers: { authorization: basicAuth(merchant) } });
  return new Set(((await response.json()) as { transaction_id: string }[]).map((t) => t.transaction_id));
}

/** Fills the file system to the last byte. */
function fillDisk(): void {
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    closeSync(fd);
  }
  // What is left is less than a chunk: fill that too, byte by byte in small pieces.
  const tail = openSync(filler, 'a');
  try {
    for (;;) writeSync(tail, Buffer.alloc(512, 1));
  } catch {
    // full
  } finally {
    closeSync(tail);
  }
}

const acknowledged: string[] = [];

test(
  'a full disk: 503 (5003) naming the cause, nothing acknowledged lost, and writing works again once there is room',
  { skip },
  async () => {
    for (let i = 1; i <= 5; i += 1) {
      const paid = await pay(i);
      assert.equal(paid.status, 200);
      acknowledged.push(paid.body.transaction_id ?? '');
    }
    fillDisk();
    let refused: Awaited<ReturnType<typeof pay>> | undefined;
    // The WAL may still have room for a few small writes; the disk does not for many.
    for (let i = 0; i < 200 && !refused; i += 1) {
      const answer = await pay(10 + i);
      if (answer.status === 200) acknowledged.push(answer.body.transaction_id ?? '');
      else refused = answer;
    }
    assert.ok(refused, 'a write was refused once the disk was full');
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error_code, 5003);
    assert.match(refused.body.message ?? '', /disk of the data directory is full/);
    // Reads go on, and every acknowledged payment is there.
    const stored = await storedIds();
    for (const id of acknowledged) assert.ok(stored.has(id), `acknowledged ${id} is stored`);

    rmSync(filler);
    const recovered = await pay(77);
    assert.equal(recovered.status, 200, 'the gateway writes again without a restart');
    acknowledged.push(recovered.body.transaction_id ?? '');
  },
);

test(
  'a read-only data directory: the gateway says so at start and starts once it is writable again; nothing acknowledged is lost',
  { skip },
  async () => {
    await gateway?.stop();
    gateway = undefined;
    assert.equal(spawnSync('mount', ['-o', 'remount,ro', mountPoint]).status, 0, 'remount read-only');
    try {
      const refused = spawnSync(process.execPath, [GATEWAY_BIN, 'serve', '--data-dir', dataDir, '--port', '0'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, new RegExp(`The data directory ${dataDir} is read-only`));
    } finally {
      assert.equal(spawnSync('mount', ['-o', 'remount,rw', mountPoint]).status, 0, 'remount read-write');
    }
    gateway = await startGateway({ dataDir, args: ['--backup-interval-hours', '0'] });
    const stored = await storedIds();
    for (const id of acknowledged) assert.ok(stored.has(id), `acknowledged ${id} survived`);
    assert.equal((await pay(6)).status, 200);
  },
);
