/**
 * ISO 9564 format 0 (ISO-0) PIN blocks, encrypted with TDES-ECB under a double-length key
 * (decisions.md D3). Nothing here logs, and no error message carries a PIN, PAN or block (D13).
 *
 * Clear block = PIN field XOR PAN field, each 8 bytes:
 *   PIN field: `0`, the PIN length as one hex nibble, the PIN digits, `F` padding to 16 nibbles;
 *   PAN field: `0000` and the 12 rightmost PAN digits excluding the check digit (left-padded with
 *   zeros when the PAN is shorter).
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';

/** A named PIN encryption key of the terminal key store. */
export interface PinKey {
  readonly zoneId: string;
  readonly keyId: string;
  /** Double-length TDES key, 16 bytes. */
  readonly key: Buffer;
}

/** The published test key every merchant starts with (decisions.md D3). */
export const TEST_PIN_KEY: PinKey = Object.freeze({
  zoneId: 'test',
  keyId: '1',
  key: Buffer.from('0123456789ABCDEFFEDCBA9876543210', 'hex'),
});

const PIN_PATTERN = /^\d{4,12}$/;
const PAN_PATTERN = /^\d{12,19}$/;
const BLOCK_PATTERN = /^[0-9A-Fa-f]{16}$/;

function panField(pan: string): Buffer {
  if (!PAN_PATTERN.test(pan)) throw new Error('PAN must be 12 to 19 digits');
  const digits = pan.slice(0, -1).slice(-12).padStart(12, '0');
  return Buffer.from(`0000${digits}`, 'hex');
}

function xor(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.alloc(8);
  for (let i = 0; i < 8; i++) out[i] = (a[i] ?? 0) ^ (b[i] ?? 0);
  return out;
}

function checkKey(key: Buffer): void {
  if (key.length !== 16) throw new Error('PIN key must be a double-length TDES key of 16 bytes');
}

function tdes(mode: 'encrypt' | 'decrypt', key: Buffer, data: Buffer): Buffer {
  checkKey(key);
  const cipher = mode === 'encrypt' ? createCipheriv('des-ede-ecb', key, null) : createDecipheriv('des-ede-ecb', key, null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

function clearBlockBytes(pin: string, pan: string): Buffer {
  if (!PIN_PATTERN.test(pin)) throw new Error('PIN must be 4 to 12 digits');
  const pinField = Buffer.from(`0${pin.length.toString(16)}${pin}`.padEnd(16, 'F'), 'hex');
  return xor(pinField, panField(pan));
}

/** The clear ISO-0 block as 16 uppercase hex characters. Throws on a malformed PIN or PAN. */
export function clearPinBlock(pin: string, pan: string): string {
  return clearBlockBytes(pin, pan).toString('hex').toUpperCase();
}

/** The ISO-0 block encrypted with TDES-ECB under `key`, as 16 uppercase hex characters. */
export function encryptPinBlock(pin: string, pan: string, key: Buffer): string {
  return tdes('encrypt', key, clearBlockBytes(pin, pan)).toString('hex').toUpperCase();
}

/**
 * Decrypts an encrypted ISO-0 block for `pan` and returns the PIN, or undefined when the block is
 * not 16 hex characters or does not decrypt to a well-formed ISO-0 block for that PAN (first
 * nibble 0, length 4-12, that many decimal digits, then only `F`). Throws on a malformed PAN or key.
 */
export function decryptPinBlock(block: string, pan: string, key: Buffer): string | undefined {
  const field = panField(pan);
  checkKey(key);
  if (!BLOCK_PATTERN.test(block)) return undefined;
  const pinField = xor(tdes('decrypt', key, Buffer.from(block, 'hex')), field)
    .toString('hex')
    .toUpperCase();
  if (pinField[0] !== '0') return undefined;
  const length = Number.parseInt(pinField[1] ?? '', 16);
  if (!(length >= 4 && length <= 12)) return undefined;
  const pin = pinField.slice(2, 2 + length);
  const padding = pinField.slice(2 + length);
  if (!/^\d+$/.test(pin) || !/^F*$/.test(padding)) return undefined;
  return pin;
}
