/**
 * The Test environment's test cards (decisions.md D6): what the simulator does with each
 * (main/processor/simulator.ts), what the docs say, and how the till's simulated reader lists it
 * (renderer/src/till-screen/reader.ts), in one table. Node-free. Any future expiry and any CVV are
 * accepted; the PIN of every test card is `1234`.
 */
import type { CardBrand } from './cards.js';

/** The PIN of every test card (decisions.md D3). */
export const TEST_PIN = '1234';

/** What the simulator does with a test card; `behaviour` in {@link TestCard} says it in words. */
export type TestCardRule =
  | { kind: 'approve' }
  | { kind: 'decline'; code: string; text: string }
  /** 3-D Secure challenge on `ecommerce` entry until authenticated; approved otherwise. */
  | { kind: 'challenge' }
  /** Online PIN on every card-present entry (contactless, chip, swipe) and any amount. */
  | { kind: 'always_pin' }
  | { kind: 'error'; text: string }
  /** Approved for payments; the network-token service fails to provision a token for it. */
  | { kind: 'token_provisioning_fails' }
  /** Card-present: the bank answers (approves) only after the slow-answer time (15 s by default). */
  | { kind: 'slow_answer' }
  /** Card-present: approved, but the gateway's answer never reaches the till (its connection drops). */
  | { kind: 'lost_answer' }
  /** Approved, except a sale a till stored while its centre was away: declined when forwarded. */
  | { kind: 'declines_when_forwarded'; code: string; text: string };

export interface TestCard {
  number: string;
  brand: CardBrand;
  /** What the Test environment does with it (docs/test-environment.md's words). */
  behaviour: string;
  /**
   * The card on the till's simulated reader, in a few words; absent: not offered there (the 3-D
   * Secure and the token-provisioning cards rehearse nothing at a till). `joinedOnly`: listed only at a till joined to a
   * shop's gateway (it rehearses store-and-forward).
   */
  till?: { label: string; joinedOnly?: true };
  rule: TestCardRule;
}

/** The test cards, in the order the till's simulated reader lists those it offers. */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'visa', behaviour: 'approved', till: { label: 'Approves' }, rule: { kind: 'approve' } },
  { number: '5555555555554444', brand: 'mastercard', behaviour: 'approved', till: { label: 'Approves' }, rule: { kind: 'approve' } },
  {
    number: '5555555551234561',
    brand: 'mastercard',
    behaviour:
      'card-present: always asks for online PIN (contactless, chip, swipe; any amount; a swiped card must be inserted); PIN `1234` approves, another PIN declines `55`; approved without PIN on other entries. Its PIN block equals the D6 test vector (PAN 5555555551234567: ISO-0 leaves out the check digit)',
    till: { label: 'Always asks for the PIN' },
    rule: { kind: 'always_pin' },
  },
  {
    number: '4000000000000002',
    brand: 'visa',
    behaviour: 'declined `05 Do not honour`',
    till: { label: 'Declines (05)' },
    rule: { kind: 'decline', code: '05', text: 'Do not honour' },
  },
  {
    number: '4000000000009995',
    brand: 'visa',
    behaviour: 'declined `51 Insufficient funds`',
    till: { label: 'No funds (51)' },
    rule: { kind: 'decline', code: '51', text: 'Insufficient funds' },
  },
  {
    number: '4000000000000069',
    brand: 'visa',
    behaviour: 'declined `54 Expired card` (whatever expiry is sent)',
    till: { label: 'Expired (54)' },
    rule: { kind: 'decline', code: '54', text: 'Expired card' },
  },
  {
    number: '4000000000003220',
    brand: 'visa',
    behaviour: '3-D Secure challenge on `cardecom` (e-commerce entry); approved once authenticated; approved on other entries',
    rule: { kind: 'challenge' },
  },
  {
    number: '4000000000000119',
    brand: 'visa',
    behaviour: 'processor error (status 11, `Simulated processor failure`)',
    till: { label: 'Network error (11)' },
    rule: { kind: 'error', text: 'Simulated processor failure' },
  },
  {
    number: '4000000000001505',
    brand: 'visa',
    behaviour: 'card-present: approved after 15 s (`--sim-slow-answer-ms`), to rehearse the till\'s "still processing" screens',
    till: { label: 'Bank answers after 15 s' },
    rule: { kind: 'slow_answer' },
  },
  {
    number: '4000000000001513',
    brand: 'visa',
    behaviour:
      'card-present: approved, but the answer never reaches the till (the gateway drops the connection, also on a retry with the same key), to rehearse "checking" and an unknown outcome; the till resolves it',
    till: { label: 'Approves, answer lost' },
    rule: { kind: 'lost_answer' },
  },
  {
    number: '4000000000000416',
    brand: 'visa',
    behaviour:
      'store-and-forward: a till whose centre is away stores it as approved; declined `51 Insufficient funds` when the till forwards it (approved when the centre answers at once), to rehearse a forwarded decline',
    till: { label: 'Stored: approves; declines when forwarded', joinedOnly: true },
    rule: { kind: 'declines_when_forwarded', code: '51', text: 'Insufficient funds' },
  },
  {
    number: '5105105105105100',
    brand: 'mastercard',
    behaviour: 'approved for payments; network-token provisioning fails for it',
    rule: { kind: 'token_provisioning_fails' },
  },
];
