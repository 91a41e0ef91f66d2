/** API passwords are stored as scrypt hashes (decisions.md D9) and compared in constant time. */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';
import type { Vault } from '../kernel.js';

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** `whsec_` + base64 of 32 random bytes (decisions.md D7). */
export function newWebhookKey(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The mark of a password or PIN hash kept sealed by the data key (a joined till's replica, D20). */
const SEALED_HASH = 'sealed$';

/** A hash sealed by the vault: worthless to a guesser without the data key. */
export function sealHash(vault: Pick<Vault, 'seal'>, hash: string): string {
  return `${SEALED_HASH}${vault.seal(hash)}`;
}

/** The hash to verify against: a sealed one opened by the vault (none when it cannot be), any other as it is. */
export function openHash(vault: Pick<Vault, 'open'> | undefined, stored: string): string | undefined {
  if (!stored.startsWith(SEALED_HASH)) return stored;
  if (!vault) return undefined;
  try {
    return vault.open(stored.slice(SEALED_HASH.length));
  } catch {
    return undefined;
  }
}
