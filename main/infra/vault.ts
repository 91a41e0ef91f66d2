/**
 * Vault adapter (decisions.md D13): AES-256-GCM under a 32-byte data key. Headless hosts take the
 * key from GATEWAY_DATA_KEY (base64) or from `data.key` in the data dir (created with mode 0600);
 * the desktop app keeps that file encrypted with the OS keychain (main/electron).
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Vault } from '../core/kernel.js';

const VERSION = 'v1';
export const DATA_KEY_FILE = 'data.key';

export function createVault(key: Buffer): Vault {
  if (key.length !== 32) throw new Error('the data key must be 32 bytes');
  // A separate key for fingerprints, derived so that sealing and fingerprinting never share a key.
  const fingerprintKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'tillgate fingerprint v1', 32));
  return {
    fingerprint(plaintext) {
      return createHmac('sha256', fingerprintKey).update(plaintext, 'utf8').digest('base64url');
    },
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed) {
      const [version, payload] = sealed.split('.');
      if (version !== VERSION || !payload) throw new Error('sealed value has an unknown format');
      const raw = Buffer.from(payload, 'base64');
      // Insist on the full 16-byte tag: GCM would otherwise verify a truncated (weaker) one.
      if (raw.length < 28) throw new Error('sealed value is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12), { authTagLength: 16 });
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

function decodeKey(text: string, source: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes as base64`);
  return key;
}

/** The data key for a headless host: environment variable, else the key file (made on first run). */
export function loadDataKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): { key: Buffer; source: string } {
  const fromEnv = env.GATEWAY_DATA_KEY;
  if (fromEnv) return { key: decodeKey(fromEnv, 'GATEWAY_DATA_KEY'), source: 'GATEWAY_DATA_KEY' };
  const file = join(dataDir, DATA_KEY_FILE);
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return { key: decodeKey(readFileSync(file, 'utf8'), file), source: file };
}
