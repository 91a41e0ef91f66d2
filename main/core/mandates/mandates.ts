/**
 * SEPA mandate references (docs/api.md "Transactions and mandates", docs/decisions.md
 * "Foundation"). The IBAN is validated (country format and mod-97) and kept sealed; the reference
 * is unique per merchant and at most 35 characters.
 */
import { randomInt } from 'node:crypto';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { FieldError } from '../../../contract/api/common.js';
import type { MandateRequest, MandateResponse } from '../../../contract/api/mandates.js';
import { failure, success, validationError, type Outcome } from '../errors.js';
import type { Clock, Ids, Vault } from '../kernel.js';
import type { MandateRecord, MandatesUnit } from './ports.js';
import type { Operation } from '../idempotency/operation-runner.js';
import type { Store } from '../unit-of-work.js';

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function normalizeIban(iban: string): string {
  return electronicFormatIBAN(iban) ?? '';
}

export function ibanProblem(iban: string): string | undefined {
  const normalized = typeof iban === 'string' ? normalizeIban(iban) : '';
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(normalized)) return 'must be an IBAN (country code, check digits, account)';
  if (!isValidIBAN(normalized)) return 'is not a valid IBAN (check digits or length for its country)';
  return undefined;
}

export class Mandates {
  constructor(
    private readonly store: Store<MandatesUnit>,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly vault: Vault,
  ) {}

  validate(request: MandateRequest): FieldError[] {
    const errors: FieldError[] = [];
    if (request.payment_type !== 'dd' && request.payment_type !== 'dd_b2b') {
      errors.push({ field: 'payment_type', message: 'must be dd or dd_b2b' });
    }
    if (request.recurring !== undefined && request.recurring !== 0 && request.recurring !== 1) {
      errors.push({ field: 'recurring', message: 'must be 0 or 1' });
    }
    if (typeof request.account_holder !== 'string' || !request.account_holder.trim())
      errors.push({ field: 'account_holder', message: 'must not be blank' });
    const iban = ibanProblem(request.iban);
    if (iban) errors.push({ field: 'iban', message: iban });
    if (request.bic !== undefined && !isValidBIC(request.bic.toUpperCase())) {
      errors.push({ field: 'bic', message: 'must be a BIC of 8 or 11 characters' });
    }
    return errors;
  }

  async create(operation: Operation, request: MandateRequest): Promise<Outcome<MandateResponse>> {
    const errors = this.validate(request);
    if (errors.length) return failure(validationError(errors));
    const now = this.clock.now();
    const iban = normalizeIban(request.iban);
    const paymentType = request.payment_type as 'dd' | 'dd_b2b';
    const merchantId = operation.context.merchantId;

    return operation.commit(this.store, async (tx) => {
      const mandate = await this.createIn(tx, merchantId, { ...request, iban, payment_type: paymentType }, now);
      return success({
        sepa_mandate: mandate.reference,
        mandate_date: mandate.mandateDate,
        payment_type: paymentType,
        recurring: mandate.recurring ? 1 : 0,
        iban_last_four: mandate.ibanLastFour,
        error_code: 0 as const,
      });
    });
  }

  /** Creates a mandate inside the caller's unit of work (also used for on-the-fly mandates of dd payments). */
  async createIn(
    tx: MandatesUnit,
    merchantId: string,
    request: MandateRequest & { payment_type: 'dd' | 'dd_b2b' },
    now: Date,
  ): Promise<MandateRecord> {
    const iban = normalizeIban(request.iban);
    let reference = this.newReference(now);
    while (await tx.mandates.findByReference(merchantId, reference)) reference = this.newReference(now);
    const mandate: MandateRecord = {
      id: this.ids.newId(),
      merchantId,
      reference,
      paymentType: request.payment_type,
      recurring: request.recurring === 1,
      firstName: request.first_name ?? null,
      lastName: request.last_name ?? null,
      accountHolder: request.account_holder.trim(),
      ibanSealed: this.vault.seal(iban),
      ibanLastFour: iban.slice(-4),
      bic: request.bic?.toUpperCase() ?? null,
      email: request.email ?? null,
      mandateDate: now.toISOString().slice(0, 10),
      createdAt: now.toISOString(),
    };
    await tx.mandates.insert(mandate);
    return mandate;
  }

  /** `MND-YYYYMMDD-` plus 10 random characters: 23 characters, within the 35 allowed. */
  private newReference(now: Date): string {
    let suffix = '';
    for (let i = 0; i < 10; i += 1) suffix += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
    return `MND-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${suffix}`;
  }
}
