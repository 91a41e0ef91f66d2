/**
 * What a copied till data file gives a PIN guesser (D20; docs/reliability.md "A stolen till").
 *
 *   node --import tsx bench/pin-guess.ts [--guesses 40]
 *
 * A joined till keeps its staff's PIN and password hashes (scrypt N=16384, r=8, p=1, as the centre
 * made them) sealed by its data key (AES-256-GCM). This measures, on this machine, one core:
 * - the cost of one offline guess against an opened hash (what a guesser who also has the data key,
 *   or who had a file from before the hashes were sealed, pays), and from it the time to try every
 *   4-digit and every 6-digit PIN;
 * - that a sealed hash without the data key verifies nothing (openHash gives no hash to guess against).
 * Writes bench/results/pin-guess.json.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createVault } from '../main/infra/vault.js';
import { hashPassword, openHash, sealHash, verifyPassword } from '../main/core/merchants/credentials.js';
import { machine, writeResult } from './lib/procs.js';

const { values } = parseArgs({ options: { guesses: { type: 'string', default: '40' } } });
const guesses = Math.max(5, Number(values.guesses));

const pinHash = await hashPassword('4711');
const vault = createVault(randomBytes(32));
const sealed = sealHash(vault, pinHash);

// One core: guesses one after another (scrypt runs in libuv's pool; awaiting each keeps it to one).
await verifyPassword('0000', pinHash);
const started = process.hrtime.bigint();
let found = false;
for (let i = 0; i < guesses; i += 1) found ||= await verifyPassword(String(i).padStart(4, '0'), pinHash);
const perGuessMs = Number(process.hrtime.bigint() - started) / 1e6 / guesses;

const withoutKey = openHash(undefined, sealed);
const withOtherKey = openHash(createVault(randomBytes(32)), sealed);
const result = {
  machine: machine(),
  scrypt: { N: 16384, r: 8, p: 1 },
  guesses,
  per_guess_ms: Number(perGuessMs.toFixed(1)),
  all_4_digit_pins_minutes: Number(((perGuessMs * 10_000) / 60_000).toFixed(1)),
  all_6_digit_pins_hours: Number(((perGuessMs * 1_000_000) / 3_600_000).toFixed(1)),
  sealed_without_key_gives_hash: withoutKey !== undefined,
  sealed_with_another_key_gives_hash: withOtherKey !== undefined,
  sealed_with_the_key_gives_hash: openHash(vault, sealed) === pinHash,
  found_by_accident: found,
};
writeResult('pin-guess', result);
console.log(
  `pin-guess: ${result.per_guess_ms} ms per guess on one core (scrypt N=16384) | every 4-digit PIN ${result.all_4_digit_pins_minutes} min, every 6-digit ${result.all_6_digit_pins_hours} h, given the data key | sealed hash without the data key: ${result.sealed_without_key_gives_hash ? 'OPENED' : 'nothing to guess against'}`,
);
