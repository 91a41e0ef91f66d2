/**
 * The desktop app's data key (decisions.md D13): 32 random bytes kept in `data.key.enc`, encrypted
 * by the OS keychain through Electron's safeStorage (DPAPI, macOS Keychain, libsecret/kwallet).
 * Where safeStorage is unavailable the app falls back to the headless host's plain key file
 * (`data.key`, mode 0600, main/infra/vault.ts) and says so in the log.
 *
 * The key is never replaced once data may be sealed under it: an encrypted key that cannot be
 * decrypted stops the app instead of making a new one (that would orphan every sealed value).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger as PinoLogger } from 'pino';
import { DATA_KEY_FILE, loadDataKey } from '../infra/vault.js';
import type { SafeStoragePort } from './ports.js';

export const ENCRYPTED_DATA_KEY_FILE = 'data.key.enc';

export interface DesktopDataKey {
  key: Buffer;
  /** Where the key came from: the encrypted file, the plain key file, or GATEWAY_DATA_KEY. */
  source: string;
  /** True when the key rests encrypted by the OS keychain. */
  protectedByKeychain: boolean;
}

export class DataKeyError extends Error {
  override name = 'DataKeyError';
}

function decodeKey(text: string, source: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new DataKeyError(`${source} does not hold a 32-byte key`);
  return key;
}

/** Writes the encrypted key through a temporary file, so a crash never leaves half a key behind. */
function writeEncryptedKey(file: string, key: Buffer, safeStorage: SafeStoragePort): void {
  const encrypted = safeStorage.encryptString(key.toString('base64'));
  // Read it back before relying on it: a keychain that cannot decrypt would lose the key.
  if (!decodeKey(safeStorage.decryptString(encrypted), 'the freshly encrypted data key').equals(key)) {
    throw new DataKeyError('safeStorage did not round-trip the data key');
  }
  const temporary = `${file}.tmp`;
  rmSync(temporary, { force: true });
  writeFileSync(temporary, encrypted, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, file);
}

export interface DesktopDataKeyOptions {
  safeStorage: SafeStoragePort;
  logger: Pick<PinoLogger, 'info' | 'warn'>;
  env?: NodeJS.ProcessEnv;
}

/** Call after app `ready` (safeStorage needs it). Creates the key on first run. */
export function loadDesktopDataKey(dataDir: string, options: DesktopDataKeyOptions): DesktopDataKey {
  const { safeStorage, logger } = options;
  const env = options.env ?? process.env;
  if (env.GATEWAY_DATA_KEY) {
    // An operator's explicit key wins on both hosts.
    return { ...loadDataKey(dataDir, env), protectedByKeychain: false };
  }

  const encryptedFile = join(dataDir, ENCRYPTED_DATA_KEY_FILE);
  const available = safeStorage.isEncryptionAvailable();
  if (existsSync(encryptedFile)) {
    if (!available) {
      throw new DataKeyError(
        `${encryptedFile} is encrypted with the OS keychain, which is not available now; unlock the keychain (or log in to the desktop session) and start again`,
      );
    }
    let text: string;
    try {
      text = safeStorage.decryptString(readFileSync(encryptedFile));
    } catch (error) {
      throw new DataKeyError(`${encryptedFile} could not be decrypted by the OS keychain: ${(error as Error).message}`);
    }
    return { key: decodeKey(text, encryptedFile), source: encryptedFile, protectedByKeychain: true };
  }

  if (!available) {
    logger.warn(
      { dataDir },
      'OS keychain encryption (safeStorage) is not available: the data key is kept in a plain file readable by this user only',
    );
    return { ...loadDataKey(dataDir, env), protectedByKeychain: false };
  }
  const backend = safeStorage.getSelectedStorageBackend?.();
  if (backend === 'basic_text') {
    logger.warn('no desktop keyring found (safeStorage backend basic_text): the data key is only obfuscated, not protected by a keychain');
  }

  const plainFile = join(dataDir, DATA_KEY_FILE);
  let key: Buffer;
  if (existsSync(plainFile)) {
    // The headless host ran on this folder first: adopt its key, or its sealed values are lost.
    key = loadDataKey(dataDir, env).key;
    logger.warn(
      { plainFile, encryptedFile },
      'adopted the plain data key of a headless run into the OS keychain; delete the plain file once no headless gateway uses this folder',
    );
  } else {
    key = randomBytes(32);
    logger.info({ encryptedFile }, 'created a new data key, encrypted with the OS keychain');
  }
  writeEncryptedKey(encryptedFile, key, safeStorage);
  return { key, source: encryptedFile, protectedByKeychain: true };
}
