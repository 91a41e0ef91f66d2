/**
 * Invoices, their per-channel number counters and payment plans (migration 0009). Statements built
 * with Kysely (db/typed-sql.ts), rows typed by db/schema.ts.
 */
import type { ExpressionBuilder, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { byShape, typed, type Placeholders, type QueryBuilder, rowPlaces } from '../typed-sql.js';
import type { InvoiceStatus } from '../../contract/constants.js';
import type {
  InvoiceChanges,
  InvoiceFilter,
  InvoiceRecord,
  InvoiceRepository,
  PaymentPlanRecord,
  StoredInvoice,
} from '../../main/core/invoices/ports.js';

type InvoiceColumn = Exclude<keyof Database['invoices'], 'id'>;

/** Record field -> column, for every column written by insert (and by update, when given). */
const columns: ReadonlyArray<readonly [keyof Omit<InvoiceRecord, 'id'>, InvoiceColumn]> = [
  ['uuid', 'uuid'],
  ['merchantId', 'merchant_id'],
  ['channelId', 'channel_id'],
  ['debtClaimNumber', 'debt_claim_number'],
  ['active', 'active'],
  ['status', 'status'],
  ['printDate', 'print_date'],
  ['firstName', 'first_name'],
  ['lastName', 'last_name'],
  ['company', 'company'],
  ['email', 'email'],
  ['phone', 'phone'],
  ['taxId', 'tax_id'],
  ['customerId', 'customer_id'],
  ['address', 'address'],
  ['address2', 'address2'],
  ['postalCode', 'postal_code'],
  ['city', 'city'],
  ['state', 'state'],
  ['country', 'country'],
  ['amountMinor', 'amount_minor'],
  ['currency', 'currency'],
  ['description', 'description'],
  ['redirectAfterPayments', 'redirect_after_payments'],
  ['successUrl', 'success_url'],
  ['errorUrl', 'error_url'],
  ['expiresIn', 'expires_in'],
  ['expiresInUnit', 'expires_in_unit'],
  ['expiresAt', 'expires_at'],
  ['locale', 'locale'],
  ['sendInitialEmail', 'send_initial_email'],
  ['initialEmailType', 'initial_email_type'],
  ['importId', 'import_id'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
];

const BOOLEAN_FIELDS = new Set<keyof InvoiceRecord>(['active', 'redirectAfterPayments', 'sendInitialEmail']);

/** An invoice's columns (all but its id), by column name. */
type InvoiceValues = Omit<Database['invoices'], 'id'>;

function toParams(record: Omit<InvoiceRecord, 'id'>): InvoiceValues {
  const params: Record<string, unknown> = {};
  for (const [field, column] of columns) params[column] = toColumn(field, record[field]);
  return params as InvoiceValues;
}

function toColumn(field: keyof InvoiceRecord, value: unknown): unknown {
  return BOOLEAN_FIELDS.has(field) ? (value ? 1 : 0) : value;
}

/** An invoice with its channel's public id, URL name and language. */
type InvoiceRow = Selectable<Database['invoices']> & {
  channel_public_id: number | null;
  channel_url_name: string;
  channel_language: StoredInvoice['channelLanguage'];
};

function fromRow(r: InvoiceRow): StoredInvoice {
  return {
    id: r.id,
    uuid: r.uuid,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    debtClaimNumber: r.debt_claim_number,
    active: r.active === 1,
    status: r.status,
    printDate: r.print_date,
    firstName: r.first_name ?? null,
    lastName: r.last_name ?? null,
    company: r.company ?? null,
    email: r.email ?? null,
    phone: r.phone ?? null,
    taxId: r.tax_id ?? null,
    customerId: r.customer_id ?? null,
    address: r.address ?? null,
    address2: r.address2 ?? null,
    postalCode: r.postal_code ?? null,
    city: r.city ?? null,
    state: r.state ?? null,
    country: r.country ?? null,
    amountMinor: r.amount_minor,
    currency: r.currency,
    description: r.description ?? null,
    redirectAfterPayments: r.redirect_after_payments === 1,
    successUrl: r.success_url ?? null,
    errorUrl: r.error_url ?? null,
    expiresIn: r.expires_in ?? null,
    expiresInUnit: r.expires_in_unit ?? null,
    expiresAt: r.expires_at ?? null,
    locale: r.locale ?? null,
    sendInitialEmail: r.send_initial_email === 1,
    initialEmailType: r.initial_email_type ?? null,
    importId: r.import_id ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    channelPublicId: r.channel_public_id as number,
    channelUrlName: r.channel_url_name,
    channelLanguage: r.channel_language,
  };
}

function planFromRow(r: Selectable<Database['payment_plans']>): PaymentPlanRecord {
  return {
    id: r.id,
    invoiceId: r.invoice_id,
    status: r.status,
    installments: r.installments,
    interval: r.interval_unit,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** An invoice read: the invoice and its channel's public id, URL name and language. */
const invoiceSelect = (k: QueryBuilder) =>
  k
    .selectFrom('invoices as i')
    .innerJoin('channels as c', 'c.id', 'i.channel_id')
    .selectAll('i')
    .select(['c.public_id as channel_public_id', 'c.url_name as channel_url_name', 'c.language as channel_language']);

/** The values of a list's filter, by name; which of them are set is the statement's shape. */
interface ListParams {
  merchantId: string;
  channelId: string;
  status: InvoiceStatus;
  createdFrom: string;
  createdBefore: string;
  limit: number;
  offset: number;
}

type ListShape = Record<'channelId' | 'status' | 'createdFrom' | 'createdBefore', boolean>;

const listShape = (filter: Omit<InvoiceFilter, 'limit' | 'offset'>): ListShape => ({
  channelId: filter.channelId !== undefined,
  status: filter.status !== undefined,
  createdFrom: filter.createdFrom !== undefined,
  createdBefore: filter.createdBefore !== undefined,
});

/** The list filters (merchant first: the index leads with it). */
function listWhere(shape: ListShape, p: Placeholders<ListParams>) {
  return (eb: ExpressionBuilder<Database & { i: Database['invoices'] }, 'i'>) =>
    eb.and([
      eb('i.merchant_id', '=', p('merchantId')),
      ...(shape.channelId ? [eb('i.channel_id', '=', p('channelId'))] : []),
      ...(shape.status ? [eb('i.status', '=', p('status'))] : []),
      ...(shape.createdFrom ? [eb('i.created_at', '>=', p('createdFrom'))] : []),
      ...(shape.createdBefore ? [eb('i.created_at', '<', p('createdBefore'))] : []),
    ]);
}

/** A list's values of `filter`, those not set left out (the statement of its shape has no place for them). */
function listParams(merchantId: string, filter: Omit<InvoiceFilter, 'limit' | 'offset'>): Partial<ListParams> & { merchantId: string } {
  return {
    merchantId,
    ...(filter.channelId !== undefined ? { channelId: filter.channelId } : {}),
    ...(filter.status !== undefined ? { status: filter.status } : {}),
    ...(filter.createdFrom !== undefined ? { createdFrom: filter.createdFrom } : {}),
    ...(filter.createdBefore !== undefined ? { createdBefore: filter.createdBefore } : {}),
  };
}

/** An update's shape: the columns it sets (in `columns` order), how many statuses its guard allows, whether it wants no plans. */
interface UpdateShape {
  set: InvoiceColumn[];
  statuses: number;
  withoutPlans: boolean;
}

/** An update's values: the columns set, the invoice's id, the guard's statuses as `status0`, `status1`, ... */
type UpdateParams = Partial<InvoiceValues> & { id: number } & Record<`status${number}`, InvoiceStatus>;

export function createInvoiceRepository(db: SqlDatabase): InvoiceRepository {
  const s = {
    insert: typed<InvoiceValues>()(db, (k, p) =>
      k
        .insertInto('invoices')
        .values(Object.fromEntries(columns.map(([, column]) => [column, p(column)])) as InvoiceValues)
        .returning('id'),
    ),
    update: byShape(db, (shape: UpdateShape, k, p: Placeholders<UpdateParams>) =>
      k
        .updateTable('invoices')
        .set(Object.fromEntries(shape.set.map((column) => [column, p(column)])) as Partial<InvoiceValues>)
        .where((eb) =>
          eb.and([
            eb('id', '=', p('id')),
            ...(shape.statuses > 0
              ? [
                  eb(
                    'status',
                    'in',
                    Array.from({ length: shape.statuses }, (_, i) => p(`status${i}`)),
                  ),
                ]
              : []),
            ...(shape.withoutPlans
              ? [
                  eb.not(
                    eb.exists(eb.selectFrom('payment_plans as p').select(eb.lit(1).as('one')).whereRef('p.invoice_id', '=', 'invoices.id')),
                  ),
                ]
              : []),
          ]),
        ),
    ),
    delete: typed<{ id: number }>()(db, (k, p) => k.deleteFrom('invoices').where('id', '=', p('id'))),
    deletePlans: typed<{ invoiceId: number }>()(db, (k, p) => k.deleteFrom('payment_plans').where('invoice_id', '=', p('invoiceId'))),
    get: typed<{ id: number }>()(db, (k, p) => invoiceSelect(k).where('i.id', '=', p('id'))),
    byUuid: typed<{ uuid: string }>()(db, (k, p) => invoiceSelect(k).where('i.uuid', '=', p('uuid'))),
    resolve: typed<{ merchantId: string; number: string }>()(db, (k, p) =>
      invoiceSelect(k)
        .where('i.merchant_id', '=', p('merchantId'))
        .where('i.debt_claim_number', '=', p('number'))
        .orderBy('i.active', 'desc')
        .orderBy('i.created_at', 'desc')
        .orderBy('i.id', 'desc')
        .limit(1),
    ),
    // active = 1 written in (sql.lit), not a parameter: the partial index invoices_one_active_number answers it.
    activeHolder: typed<{ channelId: string; number: string; exceptId: number }>()(db, (k, p) =>
      invoiceSelect(k)
        .where('i.channel_id', '=', p('channelId'))
        .where('i.debt_claim_number', '=', p('number'))
        .where('i.active', '=', sql.lit(1))
        .where('i.id', '<>', p('exceptId'))
        .limit(1),
    ),
    deactivate: typed<{ now: string; channelId: string; number: string; exceptId: number }>()(db, (k, p) =>
      k
        .updateTable('invoices')
        .set({ active: sql.lit(0), updated_at: p('now') })
        .where('channel_id', '=', p('channelId'))
        .where('debt_claim_number', '=', p('number'))
        .where('active', '=', sql.lit(1))
        .where('id', '<>', p('exceptId')),
    ),
    numberUsed: typed<{ channelId: string; number: string }>()(db, (k, p) =>
      k
        .selectFrom('invoices')
        .select((eb) => eb.lit(1).as('one'))
        .where('channel_id', '=', p('channelId'))
        .where('debt_claim_number', '=', p('number'))
        .limit(1),
    ),
    nextNumber: typed<{ channelId: string }>()(db, (k, p) =>
      k
        .insertInto('invoice_number_counters')
        .values((eb) => ({ channel_id: p('channelId'), last_number: eb.lit(1) }))
        .onConflict((oc) =>
          oc.column('channel_id').doUpdateSet((eb) => ({ last_number: eb('invoice_number_counters.last_number', '+', eb.lit(1)) })),
        )
        .returning('last_number'),
    ),
    insertPlan: typed<Database['payment_plans']>()(db, (k, p) => k.insertInto('payment_plans').values(rowPlaces('payment_plans', p))),
    plans: typed<{ invoiceId: number }>()(db, (k, p) =>
      k.selectFrom('payment_plans').selectAll().where('invoice_id', '=', p('invoiceId')).orderBy('created_at').orderBy('id'),
    ),
    setPlanStatus: typed<{ id: string; status: PaymentPlanRecord['status']; now: string }>()(db, (k, p) =>
      k
        .updateTable('payment_plans')
        .set({ status: p('status'), updated_at: p('now') })
        .where('id', '=', p('id')),
    ),
    list: byShape(db, (shape: ListShape, k, p: Placeholders<ListParams>) =>
      invoiceSelect(k)
        .where(listWhere(shape, p))
        .orderBy('i.created_at', 'desc')
        .orderBy('i.id', 'desc')
        .limit(p('limit'))
        .offset(p('offset')),
    ),
    count: byShape(db, (shape: ListShape, k, p: Placeholders<ListParams>) =>
      k
        .selectFrom('invoices as i')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(listWhere(shape, p)),
    ),
  };
  const get = async (id: number): Promise<StoredInvoice | undefined> => {
    const row = await s.get.get({ id });
    return row && fromRow(row);
  };
  const mustGet = async (id: number): Promise<StoredInvoice> => {
    const stored = await get(id);
    if (!stored) throw new Error(`invoice ${id} vanished inside its unit of work`);
    return stored;
  };
  return {
    insert: async (record) => mustGet(Number((await s.insert.get(toParams(record)))?.id)),
    update: async (id, changes: InvoiceChanges, guard = {}) => {
      const given: Partial<Omit<InvoiceRecord, 'id'>> = changes;
      const set = columns.filter(([field]) => given[field] !== undefined);
      const statuses = guard.statuses ?? [];
      const params = {
        ...Object.fromEntries(set.map(([field, column]) => [column, toColumn(field, given[field])])),
        id,
        ...Object.fromEntries(statuses.map((status, i) => [`status${i}`, status])),
      } as UpdateParams;
      const shape: UpdateShape = {
        set: set.map(([, column]) => column),
        statuses: statuses.length,
        withoutPlans: guard.withoutPlans === true,
      };
      if ((await s.update(shape).run(params)).changes !== 1) return undefined;
      return mustGet(id);
    },
    delete: async (id) => {
      await s.deletePlans.run({ invoiceId: id });
      await s.delete.run({ id });
    },
    get: async (id) => get(id),
    resolve: async (merchantId, number) => {
      const row = await s.resolve.get({ merchantId, number });
      return row && fromRow(row);
    },
    activeHolder: async (channelId, number, exceptId = -1) => {
      const row = await s.activeHolder.get({ channelId, number, exceptId });
      return row && fromRow(row);
    },
    deactivateNumber: async (channelId, number, now, exceptId = -1) =>
      (await s.deactivate.run({ now, channelId, number, exceptId })).changes,
    numberUsed: async (channelId, number) => (await s.numberUsed.get({ channelId, number })) !== undefined,
    nextNumber: async (channelId) => ((await s.nextNumber.get({ channelId })) as { last_number: number }).last_number,
    list: async (merchantId, filter) =>
      (
        await s.list(listShape(filter)).all({ ...listParams(merchantId, filter), limit: filter.limit, offset: filter.offset } as ListParams)
      ).map(fromRow),
    count: async (merchantId, filter) =>
      ((await s.count(listShape(filter)).get(listParams(merchantId, filter) as ListParams)) as { n: number }).n,
    insertPlan: async (plan) =>
      void (await s.insertPlan.run({
        id: plan.id,
        invoice_id: plan.invoiceId,
        status: plan.status,
        installments: plan.installments,
        interval_unit: plan.interval,
        created_at: plan.createdAt,
        updated_at: plan.updatedAt,
      })),
    plans: async (invoiceId) => (await s.plans.all({ invoiceId })).map(planFromRow),
    setPlanStatus: async (id, status, now) => void (await s.setPlanStatus.run({ id, status, now })),
    byUuid: async (uuid) => {
      const row = await s.byUuid.get({ uuid });
      return row && fromRow(row);
    },
  };
}
