/**
 * The Test environment's processor (decisions.md D6): a deterministic simulator standing in for
 * acquirer, card networks, issuers and banks. Decisions depend only on the request and the clock
 * (for card expiry); references are HMAC-derived from the request, so the same request always gets
 * the same answer. The test data lives in test-cards.ts.
 *
 * Card authorization, in order:
 *   1. amount not a non-negative integer                      -> declined 13 Invalid amount
 *   2. expiry month invalid or before the current (UTC) month -> declined 54 Expired card
 *   3. not a test card and not 12-19 digits passing Luhn      -> declined 14 Invalid card number
 *   4. devicewallet without cryptogram or ECI 05/06/07/02     -> declined 05 Do not honour
 *   5. card-present (contactless, chip, swipe) amount trigger -> declined 51 / 55 / 75
 *   6. test-card declines and processor error
 *   7. 3-D Secure challenge card on ecommerce, not authenticated -> challenge
 *   8. card-present PIN: a PIN block is verified (55 when wrong or undecryptable); without one,
 *      the always-ask-PIN card, or contactless above the CVM limit       -> pin_required
 *   9. approved
 * Counting wrong PINs (75 after the third) is the gateway core's job, not the simulator's.
 * The slow-answer card waits before step 1 (card-present); the lost-answer card is approved here and
 * its answer is dropped on the way to the till (dropsTerminalAnswer).
 */
import { createHmac } from 'node:crypto';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { luhnValid } from '../../contract/cards.js';
import { currencyExponent } from '../../contract/money.js';
import type {
  CardAuthorizationRequest,
  CardDecision,
  CardEntryMode,
  DirectDebitRequest,
  DirectDebitResult,
  DirectDebitSubmission,
  FollowUpRequest,
  FollowUpResult,
  Processor,
  RedirectMethod,
} from '../core/payments/ports.js';
import { decryptPinBlock } from './pin-block.js';
import { amountTrigger, findTestCard, findTestIban, TEST_PIN } from './test-cards.js';

export interface SimulatorOptions {
  /** The gateway's public base URL; a function because it is known only after listen. */
  publicUrl: () => string;
  /** The clock used for card expiry; defaults to the system clock. */
  now?: () => Date;
  /** How long the slow-answer test card keeps a card-present payment waiting (default 15 s). */
  slowAnswerMs?: number;
  /** How long a capture, reversal, refund or payout takes to answer (default 0). */
  followUpMs?: number;
}

const CARD_PRESENT: ReadonlySet<CardEntryMode> = new Set(['contactless', 'chip', 'swipe']);
const WALLET_ECIS: ReadonlySet<string> = new Set(['05', '06', '07', '02']);

const REDIRECT_PATHS: Record<RedirectMethod, string> = {
  cardecom: 'card',
  register: 'card',
  threeds: '3ds',
  wallet: 'wallet',
  a2a: 'a2a',
  bankredirect: 'bank',
};

// Fixed, public key: the derivations only need to be stable and unguessable-looking, not secret.
const DERIVATION_KEY = 'tillgate-simulator-v1';

function derive(label: string, ...parts: (string | number | boolean | null)[]): Buffer {
  return createHmac('sha256', DERIVATION_KEY)
    .update(JSON.stringify([label, ...parts]))
    .digest();
}

function derivedText(length: number, label: string, ...parts: (string | number | boolean | null)[]): string {
  return derive(label, ...parts)
    .toString('hex')
    .slice(0, length)
    .toUpperCase();
}

function declined(code: string, text: string): { outcome: 'declined'; code: string; text: string } {
  return { outcome: 'declined', code, text };
}

function rejected(code: string, text: string): { outcome: 'rejected'; code: string; text: string } {
  return { outcome: 'rejected', code, text };
}

export class Simulator implements Processor {
  readonly name = 'simulator';
  readonly environment = 'test' as const;
  private readonly publicUrl: () => string;
  private readonly now: () => Date;
  private readonly slowAnswerMs: number;
  private readonly followUpMs: number;

  constructor(options: SimulatorOptions) {
    this.publicUrl = options.publicUrl;
    this.now = options.now ?? (() => new Date());
    this.slowAnswerMs = options.slowAnswerMs ?? 15_000;
    this.followUpMs = options.followUpMs ?? 0;
  }

  async authorizeCard(request: CardAuthorizationRequest): Promise<CardDecision> {
    if (CARD_PRESENT.has(request.entry) && findTestCard(request.card.pan)?.rule.kind === 'slow_answer') {
      await new Promise((resolve) => setTimeout(resolve, this.slowAnswerMs));
    }
    return this.decide(request);
  }

  /** The lost-answer test card: its card-present answers never reach the terminal. */
  dropsTerminalAnswer(pan: string): boolean {
    return findTestCard(pan)?.rule.kind === 'lost_answer';
  }

  private decide(request: CardAuthorizationRequest): CardDecision {
    const { card, entry } = request;
    if (!Number.isSafeInteger(request.amountMinor) || request.amountMinor < 0) return declined('13', 'Invalid amount');
    if (this.expired(card.expiryMonth, card.expiryYear)) return declined('54', 'Expired card');
    const testCard = findTestCard(card.pan);
    if (!testCard && !luhnValid(card.pan)) return declined('14', 'Invalid card number');

    if (entry === 'devicewallet') {
      const wallet = request.walletCryptogram;
      if (!wallet || wallet.cryptogram.trim() === '' || !WALLET_ECIS.has(wallet.eci)) return declined('05', 'Do not honour');
    }

    const cardPresent = CARD_PRESENT.has(entry);
    if (cardPresent) {
      const exponent = currencyExponent(request.currency);
      const trigger = exponent === undefined ? undefined : amountTrigger(request.amountMinor, exponent);
      if (trigger) return declined(trigger.code, trigger.text);
    }

    const rule = testCard?.rule;
    if (rule?.kind === 'decline') return declined(rule.code, rule.text);
    if (rule?.kind === 'declines_when_forwarded' && request.stored) return declined(rule.code, rule.text);
    if (rule?.kind === 'error') return { outcome: 'error', text: rule.text };
    if (rule?.kind === 'challenge' && entry === 'ecommerce' && !request.threeDSecureAuthenticated) return { outcome: 'challenge' };

    if (cardPresent) {
      if (request.pin) {
        if (!this.pinCorrect(request)) return declined('55', 'Incorrect PIN');
      } else if (rule?.kind === 'always_pin') {
        return { outcome: 'pin_required', insertCard: entry === 'swipe' };
      } else if (entry === 'contactless' && request.amountMinor > request.cvmLimitMinor) {
        return { outcome: 'pin_required', insertCard: false };
      }
    }

    return {
      outcome: 'approved',
      authorizationCode: String(derive('authorization-code', request.reference).readUIntBE(0, 6) % 1_000_000).padStart(6, '0'),
      networkReference: `SIM${derivedText(15, 'network-reference', request.reference)}`,
    };
  }

  /** A card is valid through the last day of its expiry month (compared in UTC). */
  private expired(month: number, year: number): boolean {
    if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year)) return true;
    const now = this.now();
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
    return year * 12 + (month - 1) < current;
  }

  private pinCorrect(request: CardAuthorizationRequest): boolean {
    const pin = request.pin;
    if (!pin || pin.format !== 'ISO-0') return false;
    try {
      return decryptPinBlock(pin.block, request.card.pan, pin.key) === TEST_PIN;
    } catch {
      // A malformed key or PAN cannot decrypt the block: treated as a wrong PIN.
      return false;
    }
  }

  async capture(request: FollowUpRequest): Promise<FollowUpResult> {
    return this.followUp('CAP', request);
  }

  async reverse(request: FollowUpRequest): Promise<FollowUpResult> {
    return this.followUp('REV', request);
  }

  async refund(request: FollowUpRequest): Promise<FollowUpResult> {
    return this.followUp('REF', request);
  }

  async payout(request: FollowUpRequest & { method: string }): Promise<FollowUpResult> {
    return this.followUp('PAY', request, request.method);
  }

  private async followUp(prefix: string, request: FollowUpRequest, method: string | null = null): Promise<FollowUpResult> {
    // A real processor takes a moment to answer; the window in which two requests could race.
    if (this.followUpMs > 0) await new Promise((resolve) => setTimeout(resolve, this.followUpMs));
    if (!Number.isSafeInteger(request.amountMinor) || request.amountMinor <= 0) return declined('13', 'Invalid amount');
    const reference = `${prefix}${derivedText(15, prefix, request.reference, request.networkReference, request.amountMinor, request.currency, method)}`;
    return { outcome: 'approved', reference };
  }

  async submitDirectDebit(request: DirectDebitRequest): Promise<DirectDebitSubmission> {
    const iban = normalizeIban(request.iban);
    if (!ibanValid(iban)) return rejected('AC01', 'Incorrect account number');
    const rule = findTestIban(iban)?.rule;
    if (rule?.kind === 'reject') return rejected(rule.code, rule.text);
    if (request.currency !== 'EUR') return rejected('AM03', 'Currency not allowed');
    if (!Number.isSafeInteger(request.amountMinor) || request.amountMinor <= 0) return rejected('AM12', 'Invalid amount');
    const messageId = `MSG-${derivedText(31, 'sepa-message', request.reference, iban, request.mandateReference, request.b2b, request.amountMinor, request.currency)}`;
    return { outcome: 'accepted', messageId };
  }

  async directDebitResult(request: DirectDebitRequest): Promise<DirectDebitResult> {
    const iban = normalizeIban(request.iban);
    if (!ibanValid(iban)) return { outcome: 'returned', code: 'AC01', text: 'Incorrect account number' };
    const rule = findTestIban(iban)?.rule;
    if (rule && rule.kind !== 'settle') return { outcome: 'returned', code: rule.code, text: rule.text };
    return { outcome: 'settled' };
  }

  redirectUrl(method: RedirectMethod, reference: string): string {
    const base = this.publicUrl().replace(/\/+$/, '');
    return `${base}/pay/${encodeURIComponent(reference)}/${REDIRECT_PATHS[method]}`;
  }
}

function normalizeIban(iban: string): string {
  return electronicFormatIBAN(iban) ?? '';
}

/** Country format, length and mod-97 check digits (the same library the core validates with). */
function ibanValid(iban: string): boolean {
  return iban !== '' && isValidIBAN(iban);
}
