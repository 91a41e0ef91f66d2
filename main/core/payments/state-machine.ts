/**
 * The transaction state machine of decisions.md D2, in one place. Use cases ask it which source
 * statuses a trigger may start from; repositories apply the change only from those statuses.
 */
import { TransactionStatus as S, type TransactionStatusCode } from '../../../contract/codes.js';

export type Trigger =
  | 'capture'
  | 'reverse'
  | 'refund'
  | 'authorization_expiry'
  | 'settle'
  | 'return'
  | 'chargeback'
  | 'customer_completes'
  | 'customer_cancels'
  | 'customer_action_expiry'
  | 'payout_settles';

interface Rule {
  from: readonly TransactionStatusCode[];
  to: readonly TransactionStatusCode[];
}

export const TRANSITIONS: Record<Trigger, Rule> = {
  // authorized -> completed; further partial captures while within the authorization
  capture: { from: [S.authorized, S.completed], to: [S.completed] },
  // full reversal -> reversed; a partial one leaves it authorized; releasing the uncaptured rest
  // after partial captures leaves completed / partly_refunded as they are
  reverse: { from: [S.authorized, S.completed, S.partly_refunded], to: [S.reversed, S.authorized, S.completed, S.partly_refunded] },
  refund: { from: [S.completed, S.partly_refunded], to: [S.partly_refunded, S.refunded] },
  authorization_expiry: { from: [S.authorized], to: [S.expired] },
  settle: { from: [S.pending], to: [S.completed] },
  return: { from: [S.pending], to: [S.chargeback] },
  chargeback: { from: [S.completed], to: [S.chargeback] },
  customer_completes: { from: [S.started], to: [S.completed, S.authorized, S.declined, S.pending, S.error] },
  customer_cancels: { from: [S.started], to: [S.cancelled] },
  customer_action_expiry: { from: [S.started], to: [S.expired] },
  payout_settles: { from: [S.pending], to: [S.completed, S.declined] },
};

/** Statuses a newly created transaction can have. */
export const CREATION_STATUSES: readonly TransactionStatusCode[] = [S.started, S.pending, S.completed, S.authorized, S.declined, S.error];

export function allowedFrom(trigger: Trigger): readonly TransactionStatusCode[] {
  return TRANSITIONS[trigger].from;
}

export function canTransition(trigger: Trigger, from: number, to?: number): boolean {
  const rule = TRANSITIONS[trigger];
  return (rule.from as readonly number[]).includes(from) && (to === undefined || (rule.to as readonly number[]).includes(to));
}

/** Final statuses: nothing but a refund or chargeback (where listed above) may follow. */
export const FINAL_STATUSES: readonly TransactionStatusCode[] = [
  S.reversed,
  S.declined,
  S.refunded,
  S.cancelled,
  S.expired,
  S.error,
  S.chargeback,
];
