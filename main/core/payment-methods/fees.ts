/**
 * `included_fees` (decisions.md D1): percentage + fixed part per payment type, from the effective
 * payment-method setting of the merchant or shop (fee_percent, fee_fixed; D15), else these
 * catalog defaults; rounded half-up to minor units.
 */
import type { PaymentType } from '../../../contract/constants.js';
import type { FeeSchedule } from './ports.js';

/** The catalog's defaults; fixed parts are in hundredths of a currency unit. */
export const DEFAULT_FEES: Record<PaymentType, FeeSchedule> = {
  cardpos: { percentBasisPoints: 140, fixedMinor: 10 },
  cardecom: { percentBasisPoints: 140, fixedMinor: 25 },
  devicewallet: { percentBasisPoints: 140, fixedMinor: 25 },
  wallet: { percentBasisPoints: 249, fixedMinor: 35 },
  a2a: { percentBasisPoints: 50, fixedMinor: 10 },
  bankredirect: { percentBasisPoints: 90, fixedMinor: 25 },
  dd: { percentBasisPoints: 35, fixedMinor: 20 },
  dd_b2b: { percentBasisPoints: 35, fixedMinor: 30 },
};

/** Percentage in basis points plus a fixed part, rounded half-up to minor units. */
export function feeMinor(amountMinor: number, percentBasisPoints: number, fixedMinor: number): number {
  // amount * bp / 10000, half-up, in integers: (amount * bp * 2 + 10000) / 20000, floored.
  const variable = Math.floor((amountMinor * percentBasisPoints * 2 + 10000) / 20000);
  return variable + fixedMinor;
}

/** The fixed part scaled to the currency's exponent, half-up (0.25 is 0 JPY, 0.250 KWD). */
export function fixedFor(fixedMinorAt2: number, exponent: number): number {
  if (exponent >= 2) return fixedMinorAt2 * 10 ** (exponent - 2);
  const divisor = 10 ** (2 - exponent);
  return Math.floor((fixedMinorAt2 * 2 + divisor) / (2 * divisor));
}

/** The fees of a charge of `amountMinor` under a schedule; nothing for an account check (amount 0). */
export function feesOf(schedule: FeeSchedule, amountMinor: number, exponent: number): number {
  if (amountMinor === 0) return 0;
  return feeMinor(amountMinor, schedule.percentBasisPoints, fixedFor(schedule.fixedMinor, exponent));
}
