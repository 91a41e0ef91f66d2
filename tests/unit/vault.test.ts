import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createVault, DATA_KEY_FILE, loadDataKey } from '../../main/infra/vault.js';
import { tempDataDir } from '../helpers/gateway-process.js';

const PAN = '4111111111111111';

/** Flips one bit of the decoded payload at `index` (negative: from the end). */
function tamper(sealed: string, index: number): string {
  const [version, payload = ''] = sealed.split('.');
  const raw = Buffer.from(payload, 'base64');
  const at = index < 0 ? raw.length + index : index;
  raw[at] = (raw[at] ?? 0) ^ 0x01;
  return `${version}.${raw.toString('base64')}`;
}

describe('vault seal/open', () => {
  const vault = createVault(randomBytes(32));

  test('round-trips text, including empty and non-ASCII', () => {
    for (const text of [PAN, '', 'DE89370400440532013000', 'Zoë – ß – 漢字 – 🙂', 'x'.repeat(10_000)]) {
      const sealed = vault.seal(text);
      assert.equal(vault.open(sealed), text);
    }
  });

  test('the sealed form hides the plaintext and differs on every seal (random IV)', () => {
    const a = vault.seal(PAN);
    const b = vault.seal(PAN);
    assert.notEqual(a, b);
    assert.match(a, /^v1\.[A-Za-z0-9+/]+=*$/);
    assert.ok(!a.includes(PAN) && !Buffer.from(a.slice(3), 'base64').toString('latin1').includes(PAN));
  });

  test('a tampered sealed value fails: IV, tag or ciphertext', () => {
    const sealed = vault.seal(PAN);
    for (const index of [0, 11, 12, 27, 28, -1]) {
      assert.throws(() => vault.open(tamper(sealed, index)), `byte ${index}`);
    }
  });

  test('a truncated sealed value fails, even when the cut only shortens the tag', () => {
    const sealed = vault.seal(PAN);
    const [, payload = ''] = sealed.split('.');
    const raw = Buffer.from(payload, 'base64');
    assert.throws(() => vault.open(`v1.${raw.subarray(0, raw.length - 1).toString('base64')}`));
    // An empty plaintext seals to IV + tag only; cutting the tag down to 12 or 4 bytes must not verify.
    const empty = Buffer.from(vault.seal('').split('.')[1] ?? '', 'base64');
    assert.equal(empty.length, 28);
    for (const length of [24, 16, 12]) {
      assert.throws(() => vault.open(`v1.${empty.subarray(0, length).toString('base64')}`), `${length} bytes`);
    }
  });

  test('a wrong key fails', () => {
    const sealed = vault.seal(PAN);
    assert.throws(() => createVault(randomBytes(32)).open(sealed));
  });

  test('unknown formats fail', () => {
    for (const sealed of ['', 'v1.', 'v2.AAAA', PAN, 'v1']) assert.throws(() => vault.open(sealed), sealed);
  });

  test('only 32-byte keys are accepted', () => {
    assert.throws(() => createVault(randomBytes(16)), /32 bytes/);
    assert.throws(() => createVault(Buffer.alloc(0)), /32 bytes/);
  });
});

describe('loadDataKey', () => {
  test('creates data.key with mode 0600 on first use and reuses it', { skip: process.platform === 'win32' }, () => {
    const dir = tempDataDir('tillgate-vault-');
    const file = join(dir, DATA_KEY_FILE);
    assert.equal(existsSync(file), false);
    const first = loadDataKey(dir, {});
    assert.equal(first.key.length, 32);
    assert.equal(first.source, file);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const content = readFileSync(file, 'utf8');
    assert.deepEqual(Buffer.from(content, 'base64'), first.key);

    const second = loadDataKey(dir, {});
    assert.deepEqual(second.key, first.key, 'the same key is reused');
    assert.equal(readFileSync(file, 'utf8'), content, 'the file is not rewritten');
    // A value sealed with the first load opens with the second.
    assert.equal(createVault(second.key).open(createVault(first.key).seal(PAN)), PAN);
  });

  test('tightens a key file that others can read', { skip: process.platform === 'win32' }, () => {
    const dir = tempDataDir('tillgate-vault-');
    const file = join(dir, DATA_KEY_FILE);
    const key = randomBytes(32);
    writeFileSync(file, key.toString('base64'));
    chmodSync(file, 0o644);
    assert.deepEqual(loadDataKey(dir, {}).key, key);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  test('GATEWAY_DATA_KEY wins over the key file and creates no file', () => {
    const dir = tempDataDir('tillgate-vault-');
    const envKey = randomBytes(32);
    const loaded = loadDataKey(dir, { GATEWAY_DATA_KEY: envKey.toString('base64') });
    assert.deepEqual(loaded.key, envKey);
    assert.equal(loaded.source, 'GATEWAY_DATA_KEY');
    assert.equal(existsSync(join(dir, DATA_KEY_FILE)), false);

    const fileKey = loadDataKey(dir, {}).key;
    assert.notDeepEqual(fileKey, envKey);
    assert.deepEqual(
      loadDataKey(dir, { GATEWAY_DATA_KEY: `  ${envKey.toString('base64')}\n` }).key,
      envKey,
      'surrounding whitespace is fine',
    );
  });

  test('a bad GATEWAY_DATA_KEY is rejected with its name', () => {
    const dir = tempDataDir('tillgate-vault-');
    for (const bad of [randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), 'not a key', 'short']) {
      assert.throws(() => loadDataKey(dir, { GATEWAY_DATA_KEY: bad }), /GATEWAY_DATA_KEY must hold 32 bytes/, bad);
    }
    assert.equal(existsSync(join(dir, DATA_KEY_FILE)), false, 'no fallback to a new key file');
  });

  test('a corrupt key file is rejected with its path', () => {
    const dir = tempDataDir('tillgate-vault-');
    const file = join(dir, DATA_KEY_FILE);
    writeFileSync(file, 'garbage', { mode: 0o600 });
    assert.throws(
      () => loadDataKey(dir, {}),
      (error: unknown) => error instanceof Error && error.message.includes(file),
    );
    assert.equal(readFileSync(file, 'utf8'), 'garbage', 'the file is not replaced');
  });
});
