/** What each payment type of this gateway supports (decisions.md D5); the types are the contract's. */
import { PAYMENT_TYPES, type PaymentType } from '../../../contract/constants.js';

export interface PaymentTypeCapabilities {
  description: string;
  /** Card-like types accept amount 0 (account check, card save). */
  accountCheck: boolean;
  payout: boolean;
  partialRefund: boolean;
  partialReversal: boolean;
  /** Separate authorization (POST /rest/authorize) with later capture or reverse. */
  authorize: boolean;
  recurring: boolean;
  subscription: boolean;
  register: boolean;
  /** null: every ISO 4217 currency. */
  currencies: readonly string[] | null;
  /** The customer is always sent to a page (so success_url etc. are required). */
  alwaysRedirects: boolean;
}

export const CAPABILITIES: Record<PaymentType, PaymentTypeCapabilities> = {
  cardecom: {
    description: 'Card, e-commerce: server-to-server card data or the hosted card page; 3-D Secure',
    accountCheck: true,
    payout: false,
    partialRefund: true,
    partialReversal: true,
    authorize: true,
    recurring: true,
    subscription: false,
    register: true,
    currencies: null,
    alwaysRedirects: false,
  },
  cardpos: {
    description: 'Card present at a POS terminal: contactless, chip or swipe; online PIN',
    accountCheck: true,
    payout: true,
    partialRefund: true,
    partialReversal: true,
    authorize: true,
    recurring: false,
    subscription: false,
    register: false,
    currencies: null,
    alwaysRedirects: false,
  },
  dd: {
    description: 'SEPA direct debit (B2C core scheme)',
    accountCheck: false,
    payout: false,
    partialRefund: true,
    partialReversal: false,
    authorize: false,
    recurring: true,
    subscription: false,
    register: false,
    currencies: ['EUR'],
    alwaysRedirects: false,
  },
  dd_b2b: {
    description: 'SEPA direct debit, business-to-business scheme (needs a B2B mandate)',
    accountCheck: false,
    payout: false,
    partialRefund: true,
    partialReversal: false,
    authorize: false,
    recurring: true,
    subscription: false,
    register: false,
    currencies: ['EUR'],
    alwaysRedirects: false,
  },
  wallet: {
    description: 'Redirect wallet with an approval page; subscriptions; capture events',
    accountCheck: false,
    payout: false,
    partialRefund: true,
    partialReversal: false,
    authorize: true,
    recurring: true,
    subscription: true,
    register: false,
    currencies: null,
    alwaysRedirects: true,
  },
  devicewallet: {
    description: 'Device wallet: decrypted device token plus cryptogram, completes at once',
    accountCheck: true,
    payout: false,
    partialRefund: true,
    partialReversal: true,
    authorize: true,
    recurring: false,
    subscription: false,
    register: false,
    currencies: null,
    alwaysRedirects: false,
  },
  a2a: {
    description: 'Account-to-account instant payment with approval in the banking app; payouts',
    accountCheck: false,
    payout: true,
    partialRefund: true,
    partialReversal: false,
    authorize: false,
    recurring: false,
    subscription: false,
    register: false,
    currencies: ['EUR', 'GBP'],
    alwaysRedirects: true,
  },
  bankredirect: {
    description: 'Bank redirect: the customer pays in their online banking',
    accountCheck: false,
    payout: false,
    partialRefund: false,
    partialReversal: false,
    authorize: false,
    recurring: false,
    subscription: false,
    register: false,
    currencies: ['EUR'],
    alwaysRedirects: true,
  },
};

export function isPaymentType(value: string): value is PaymentType {
  return (PAYMENT_TYPES as readonly string[]).includes(value);
}

export const CARD_TYPES: readonly PaymentType[] = ['cardecom', 'cardpos', 'devicewallet'];
