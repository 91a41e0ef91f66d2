/**
 * ISO 9564 format 0 (ISO-0) PIN blocks for the till's PIN pad, encrypted with TDES-ECB under the
 * terminal's double-length PIN key (decisions.md D3), in the browser: node-forge, no Node crypto.
 * Mirrors main/processor/pin-block.ts (the gateway's side); tests/unit/renderer-pin-block.test.ts
 * proves both agree. Nothing here logs, stores or reports a PIN, a PAN or a block: error messages
 * name the problem only.
 *
 * Clear block = PIN field XOR PAN field, each 8 bytes:
 *   PIN field: `0`, the PIN length as one hex nibble, the PIN digits, `F` padding to 16 nibbles;
 *   PAN field: `0000` and the 12 rightmost PAN digits excluding the check digit.
 */
import forge from 'node-forge';

const PIN_PATTERN = /^\d{4,12}$/;
const PAN_PATTERN = /^\d{12,19}$/;
const KEY_PATTERN = /^[0-9A-Fa-f]{32}$/;

/** The shortest and longest PIN an ISO-0 block carries. */
export const PIN_MIN_LENGTH = 4;
export const PIN_MAX_LENGTH = 12;

function panField(pan: string): string {
  if (!PAN_PATTERN.test(pan)) throw new Error('The card number must be 12 to 19 digits');
  return `0000${pan.slice(0, -1).slice(-12).padStart(12, '0')}`;
}

function xorHex(a: string, b: string): string {
  let out = '';
  for (let i = 0; i < 16; i += 1) out += (Number.parseInt(a[i] ?? '0', 16) ^ Number.parseInt(b[i] ?? '0', 16)).toString(16);
  return out.toUpperCase();
}

/** The clear ISO-0 block as 16 uppercase hex characters. Throws on a malformed PIN or PAN. */
export function clearPinBlock(pin: string, pan: string): string {
  if (!PIN_PATTERN.test(pin)) throw new Error('The PIN must be 4 to 12 digits');
  const pinField = `0${pin.length.toString(16)}${pin}`.padEnd(16, 'F');
  return xorHex(pinField, panField(pan));
}

/**
 * The ISO-0 block encrypted with TDES-ECB (no padding: the block is exactly one cipher block)
 * under the double-length key `keyHex` (32 hex characters, K1K2, used as K1K2K1), as 16 uppercase
 * hex characters. Throws on a malformed PIN, PAN or key.
 */
export function encryptPinBlock(pin: string, pan: string, keyHex: string): string {
  if (!KEY_PATTERN.test(keyHex)) throw new Error('The PIN key must be a double-length TDES key of 32 hex characters');
  const clear = clearPinBlock(pin, pan);
  const key = forge.util.hexToBytes(`${keyHex}${keyHex.slice(0, 16)}`);
  const cipher = forge.cipher.createCipher('3DES-ECB', forge.util.createBuffer(key));
  cipher.start();
  cipher.update(forge.util.createBuffer(forge.util.hexToBytes(clear)));
  // No padding (forge's ECB would add a PKCS#7 block): the clear block is exactly one 8-byte block.
  (cipher.mode as typeof cipher.mode & { pad: () => boolean }).pad = () => true;
  if (!cipher.finish()) throw new Error('The PIN block could not be encrypted');
  const block = cipher.output.toHex().toUpperCase();
  if (block.length !== 16) throw new Error('The PIN block could not be encrypted');
  return block;
}
