/**
 * The Test environment's data (decisions.md D6): test cards (their table is contract/test-cards.ts,
 * which the till's simulated reader lists too), SEPA IBANs and amount triggers. The simulator decides
 * from these tables and docs/test-environment.md lists them (tests/unit/test-environment-docs.test.ts).
 * Any future expiry and any CVV are accepted; the PIN of every test card is `1234`.
 */
import { TEST_CARDS, type TestCard } from '../../contract/test-cards.js';

export { TEST_CARDS, TEST_PIN, type TestCard, type TestCardRule } from '../../contract/test-cards.js';

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
