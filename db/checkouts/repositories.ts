/** Checkout sessions (migrations 0007, 0017). Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts. */
import type { Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { byShape, listed, placesOf, typed, type Listed, type Placeholders, rowPlaces } from '../typed-sql.js';
import { merchantList } from '../typed-list.js';
import type { CheckoutStatus } from '../../contract/constants.js';
import type { CheckoutRecord, CheckoutRepository } from '../../main/core/checkouts/ports.js';

function fromRow(r: Selectable<Database['checkout_sessions']>): CheckoutRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    status: r.status,
    orderId: r.order_id,
    currency: r.currency,
    amountMinor: r.amount_minor,
    taxesMinor: r.taxes_minor,
    shippingMinor: r.shipping_minor,
    totalMinor: r.total_minor,
    transactionId: r.transaction_id,
    successUrl: r.success_url,
    errorUrl: r.error_url,
    postbackUrl: r.postback_url,
    locale: r.locale,
    request: JSON.parse(r.request) as Record<string, unknown>,
    customer: JSON.parse(r.customer) as Record<string, string>,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    expiresAt: r.expires_at,
  };
}

interface TransitionParams {
  id: string;
  status: CheckoutStatus;
  now: string;
  transactionId: string | null;
  customer: string;
}

export function createCheckoutRepository(db: SqlDatabase): CheckoutRepository {
  const list = merchantList(db, 'checkout_sessions', ['status']);
  const s = {
    insert: typed<Database['checkout_sessions']>()(db, (k, p) =>
      k.insertInto('checkout_sessions').values(rowPlaces('checkout_sessions', p)),
    ),
    get: typed<{ id: string }>()(db, (k, p) => k.selectFrom('checkout_sessions').selectAll().where('id', '=', p('id'))),
    byTransaction: typed<{ transactionId: string }>()(db, (k, p) =>
      k.selectFrom('checkout_sessions').selectAll().where('transaction_id', '=', p('transactionId')),
    ),
    transition: byShape(
      db,
      (
        shape: { transactionId: boolean; customer: boolean; from: number },
        k,
        p: Placeholders<TransitionParams & Listed<'from', CheckoutStatus>>,
      ) =>
        k
          .updateTable('checkout_sessions')
          .set({
            status: p('status'),
            updated_at: p('now'),
            ...(shape.transactionId ? { transaction_id: p('transactionId') } : {}),
            ...(shape.customer ? { customer: p('customer') } : {}),
          })
          .where('id', '=', p('id'))
          .where('status', 'in', placesOf<'from', CheckoutStatus>('from', shape.from, p)),
    ),
  };
  return {
    insert: async (record) =>
      void (await s.insert.run({
        id: record.id,
        merchant_id: record.merchantId,
        status: record.status,
        order_id: record.orderId,
        currency: record.currency,
        amount_minor: record.amountMinor,
        taxes_minor: record.taxesMinor,
        shipping_minor: record.shippingMinor,
        total_minor: record.totalMinor,
        transaction_id: record.transactionId,
        success_url: record.successUrl,
        error_url: record.errorUrl,
        postback_url: record.postbackUrl,
        locale: record.locale,
        request: JSON.stringify(record.request),
        customer: JSON.stringify(record.customer),
        created_at: record.createdAt,
        updated_at: record.updatedAt,
        expires_at: record.expiresAt,
      })),
    get: async (id) => {
      const row = await s.get.get({ id });
      return row && fromRow(row);
    },
    byTransaction: async (transactionId) => {
      const row = await s.byTransaction.get({ transactionId });
      return row && fromRow(row);
    },
    list: async (merchantId, filter) => (await list.page(merchantId, filter)).map(fromRow),
    count: async (merchantId, filter) => list.count(merchantId, filter),
    transition: async (id, from, status, now, change = {}) => {
      const shape = { transactionId: change.transactionId !== undefined, customer: change.customer !== undefined, from: from.length };
      const params = {
        id,
        status,
        now,
        transactionId: change.transactionId ?? null,
        customer: JSON.stringify(change.customer ?? {}),
        ...listed('from', from),
      };
      return (await s.transition(shape).run(params)).changes === 1;
    },
  };
}
