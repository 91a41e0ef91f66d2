/** SEPA mandates (the IBAN sealed). */
import type { SqlDatabase } from '../sql.js';
import { optStr, str, type Row } from '../rows.js';
import type { MandateRecord } from '../../main/core/mandates/ports.js';
import type { Repositories } from '../repositories.js';

function mandateFromRow(r: Row): MandateRecord {
  return {
    id: str(r.id),
    merchantId: str(r.merchant_id),
    reference: str(r.reference),
    paymentType: r.payment_type as MandateRecord['paymentType'],
    recurring: r.recurring === 1,
    firstName: optStr(r.first_name),
    lastName: optStr(r.last_name),
    accountHolder: str(r.account_holder),
    ibanSealed: str(r.iban_sealed),
    ibanLastFour: str(r.iban_last_four),
    bic: optStr(r.bic),
    email: optStr(r.email),
    mandateDate: str(r.mandate_date),
    createdAt: str(r.created_at),
  };
}

export function createMandateRepository(db: SqlDatabase): Pick<Repositories, 'mandates'> {
  const s = {
    mandateInsert: db.prepare(
      `INSERT INTO mandates (id, merchant_id, reference, payment_type, recurring, first_name, last_name, account_holder,
         iban_sealed, iban_last_four, bic, email, mandate_date, created_at)
       VALUES (@id, @merchantId, @reference, @paymentType, @recurring, @firstName, @lastName, @accountHolder,
         @ibanSealed, @ibanLastFour, @bic, @email, @mandateDate, @createdAt)`,
    ),
    mandateByReference: db.prepare('SELECT * FROM mandates WHERE merchant_id = ? AND reference = ?'),
  };
  return {
    mandates: {
      insert: async (m: MandateRecord) => void (await s.mandateInsert.run({ ...m, recurring: m.recurring ? 1 : 0 })),
      findByReference: async (merchantId, reference) => {
        const row = (await s.mandateByReference.get(merchantId, reference)) as Row | undefined;
        return row && mandateFromRow(row);
      },
    },
  };
}
