/** SEPA mandates (the IBAN sealed). Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts. */
import type { Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed, rowPlaces } from '../typed-sql.js';
import type { MandateRecord, MandatesUnit } from '../../main/core/mandates/ports.js';

function mandateFromRow(r: Selectable<Database['mandates']>): MandateRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    reference: r.reference,
    paymentType: r.payment_type,
    recurring: r.recurring === 1,
    firstName: r.first_name,
    lastName: r.last_name,
    accountHolder: r.account_holder,
    ibanSealed: r.iban_sealed,
    ibanLastFour: r.iban_last_four,
    bic: r.bic,
    email: r.email,
    mandateDate: r.mandate_date,
    createdAt: r.created_at,
  };
}

export function createMandateRepository(db: SqlDatabase): Pick<MandatesUnit, 'mandates'> {
  const s = {
    mandateInsert: typed<Database['mandates']>()(db, (k, p) => k.insertInto('mandates').values(rowPlaces('mandates', p))),
    mandateByReference: typed<{ merchantId: string; reference: string }>()(db, (k, p) =>
      k.selectFrom('mandates').selectAll().where('merchant_id', '=', p('merchantId')).where('reference', '=', p('reference')),
    ),
  };
  return {
    mandates: {
      insert: async (m: MandateRecord) =>
        void (await s.mandateInsert.run({
          id: m.id,
          merchant_id: m.merchantId,
          reference: m.reference,
          payment_type: m.paymentType,
          recurring: m.recurring ? 1 : 0,
          first_name: m.firstName,
          last_name: m.lastName,
          account_holder: m.accountHolder,
          iban_sealed: m.ibanSealed,
          iban_last_four: m.ibanLastFour,
          bic: m.bic,
          email: m.email,
          mandate_date: m.mandateDate,
          created_at: m.createdAt,
        })),
      findByReference: async (merchantId, reference) => {
        const row = await s.mandateByReference.get({ merchantId, reference });
        return row && mandateFromRow(row);
      },
    },
  };
}
