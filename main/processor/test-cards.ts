/**
 * The Test environment's data (decisions.md D6): test cards, SEPA IBANs and amount triggers.
 * The simulator decides from these tables and the README renders them, so both always agree.
 * Any future expiry and any CVV are accepted; the PIN of every test card is `1234`.
 */
import type { CardBrand } from '../../contract/cards.js';

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
  behaviour: string;
  rule: TestCardRule;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'visa', behaviour: 'approved', rule: { kind: 'approve' } },
  { number: '5555555555554444', brand: 'mastercard', behaviour: 'approved', rule: { kind: 'approve' } },
  {
    number: '4000000000000002',
    brand: 'visa',
    behaviour: 'declined `05 Do not honour`',
    rule: { kind: 'decline', code: '05', text: 'Do not honour' },
  },
  {
    number: '4000000000009995',
    brand: 'visa',
    behaviour: 'declined `51 Insufficient funds`',
    rule: { kind: 'decline', code: '51', text: 'Insufficient funds' },
  },
  {
    number: '4000000000000069',
    brand: 'visa',
    behaviour: 'declined `54 Expired card` (whatever expiry is sent)',
    rule: { kind: 'decline', code: '54', text: 'Expired card' },
  },
  {
    number: '4000000000003220',
    brand: 'visa',
    behaviour: '3-D Secure challenge on `cardecom` (e-commerce entry); approved once authenticated; approved on other entries',
    rule: { kind: 'challenge' },
  },
  {
    number: '5555555551234561',
    brand: 'mastercard',
    behaviour:
      'card-present: always asks for online PIN (contactless, chip, swipe; any amount; a swiped card must be inserted); PIN `1234` approves, another PIN declines `55`; approved without PIN on other entries. Its PIN block equals the D6 test vector (PAN 5555555551234567: ISO-0 leaves out the check digit)',
    rule: { kind: 'always_pin' },
  },
  {
    number: '4000000000000119',
    brand: 'visa',
    behaviour: 'processor error (status 11, `Simulated processor failure`)',
    rule: { kind: 'error', text: 'Simulated processor failure' },
  },
  {
    number: '4000000000001505',
    brand: 'visa',
    behaviour: 'card-present: approved after 15 s (`--sim-slow-answer-ms`), to rehearse the till\'s "still processing" screens',
    rule: { kind: 'slow_answer' },
  },
  {
    number: '4000000000001513',
    brand: 'visa',
    behaviour:
      'card-present: approved, but the answer never reaches the till (the gateway drops the connection, also on a retry with the same key), to rehearse "checking" and an unknown outcome; the till resolves it',
    rule: { kind: 'lost_answer' },
  },
  {
    number: '4000000000000416',
    brand: 'visa',
    behaviour:
      'store-and-forward: a till whose centre is away stores it as approved; declined `51 Insufficient funds` when the till forwards it (approved when the centre answers at once), to rehearse a forwarded decline',
    rule: { kind: 'declines_when_forwarded', code: '51', text: 'Insufficient funds' },
  },
  {
    number: '5105105105105100',
    brand: 'mastercard',
    behaviour: 'approved for payments; network-token provisioning fails for it',
    rule: { kind: 'token_provisioning_fails' },
  },
];

/** Behaviour of any number not in {@link TEST_CARDS}, for the README. */
export const OTHER_CARDS_BEHAVIOUR =
  'any other Luhn-valid number of 12-19 digits: approved (brand from the BIN: 4 Visa; 51-55, 2221-2720 Mastercard; 34, 37 Amex; 6011, 65 Discover); a number failing Luhn: declined `14 Invalid card number`; an expiry before the current month: declined `54 Expired card`';

export function findTestCard(number: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.number === number);
}

// ---- SEPA direct debit ----------------------------------------------------------------------

export type TestIbanRule =
  | { kind: 'settle' }
  /** Accepted at submission, returned at settlement (status chargeback). */
  | { kind: 'return'; code: string; text: string }
  /** Rejected at submission (declined). */
  | { kind: 'reject'; code: string; text: string };

export interface TestIban {
  iban: string;
  behaviour: string;
  rule: TestIbanRule;
}

export const TEST_IBANS: readonly TestIban[] = [
  { iban: 'DE89370400440532013000', behaviour: 'settles', rule: { kind: 'settle' } },
  {
    iban: 'DE78370400440532013004',
    behaviour: 'accepted, then returned `AM04 Insufficient funds`',
    rule: { kind: 'return', code: 'AM04', text: 'Insufficient funds' },
  },
  {
    iban: 'DE51370400440532013005',
    behaviour: 'rejected at submission `AC01 Incorrect account number`',
    rule: { kind: 'reject', code: 'AC01', text: 'Incorrect account number' },
  },
];

export const OTHER_IBANS_BEHAVIOUR =
  'any other valid IBAN settles; an invalid IBAN is rejected `AC01 Incorrect account number`; a currency other than EUR is rejected `AM03 Currency not allowed`; an amount of zero or less is rejected `AM12 Invalid amount`';

export function findTestIban(iban: string): TestIban | undefined {
  return TEST_IBANS.find((entry) => entry.iban === iban);
}

// ---- amount triggers (card-present) -----------------------------------------------------------

export interface AmountTrigger {
  /** The decimal part of the amount in hundredths, e.g. 51 for "12.51". */
  decimals: string;
  code: string;
  text: string;
  behaviour: string;
}

/**
 * On card-present entries (contactless, chip, swipe) these amounts decline with any card, before
 * any PIN is asked (and whatever PIN is sent), so a cashier can rehearse every screen.
 * Trailing zeros do not count: in KWD (3 decimals) 12.510 is 12.51 and triggers, 12.515 does not.
 * Currencies without decimals (JPY, exponent 0) have no amount triggers.
 */
export const AMOUNT_TRIGGERS: readonly AmountTrigger[] = [
  { decimals: '51', code: '51', text: 'Insufficient funds', behaviour: 'declined `51 Insufficient funds`' },
  { decimals: '55', code: '55', text: 'Incorrect PIN', behaviour: 'declined `55 Incorrect PIN` without asking for a PIN' },
  { decimals: '75', code: '75', text: 'PIN tries exceeded', behaviour: 'declined `75 PIN tries exceeded`' },
];

/**
 * The trigger an amount hits, given its currency exponent: the amount's decimal part must be
 * exactly .51, .55 or .75 (for exponent 2 the last two minor digits; for exponent 3 and more the
 * first two decimals followed by zeros only). Exponents 0 and 1 never trigger.
 */
export function amountTrigger(amountMinor: number, exponent: number): AmountTrigger | undefined {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0 || !Number.isInteger(exponent) || exponent < 2) return undefined;
  const scale = 10 ** (exponent - 2);
  const fraction = amountMinor % 10 ** exponent;
  if (fraction % scale !== 0) return undefined;
  const hundredths = String(fraction / scale).padStart(2, '0');
  return AMOUNT_TRIGGERS.find((trigger) => trigger.decimals === hundredths);
}
