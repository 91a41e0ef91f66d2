/** Invoices, their per-channel number counters and payment plans (migration 0009). */
import { optStr, type Row } from '../rows.js';
import { preparedOnce, type SqlDatabase } from '../sql.js';
import type {
  InvoiceChanges,
  InvoiceFilter,
  InvoiceRecord,
  InvoiceRepository,
  PaymentPlanRecord,
  StoredInvoice,
} from '../../main/core/invoices/ports.js';

const optNum = (v: unknown): number | null => (v === null || v === undefined ? null : (v as number));

/** Record field -> column, for every column written by insert (and by update, when given). */
const columns: ReadonlyArray<readonly [keyof Omit<InvoiceRecord, 'id'>, string]> = [
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

function toParams(record: Omit<InvoiceRecord, 'id'>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [field, column] of columns) params[column] = toColumn(field, record[field]);
  return params;
}

function toColumn(field: keyof InvoiceRecord, value: unknown): unknown {
  return BOOLEAN_FIELDS.has(field) ? (value ? 1 : 0) : value;
}

function fromRow(r: Row): StoredInvoice {
  return {
    id: r.id as number,
    uuid: r.uuid as string,
    merchantId: r.merchant_id as string,
    channelId: r.channel_id as string,
    debtClaimNumber: r.debt_claim_number as string,
    active: r.active === 1,
    status: r.status as StoredInvoice['status'],
    printDate: r.print_date as string,
    firstName: optStr(r.first_name),
    lastName: optStr(r.last_name),
    company: optStr(r.company),
    email: optStr(r.email),
    phone: optStr(r.phone),
    taxId: optStr(r.tax_id),
    customerId: optStr(r.customer_id),
    address: optStr(r.address),
    address2: optStr(r.address2),
    postalCode: optStr(r.postal_code),
    city: optStr(r.city),
    state: optStr(r.state),
    country: optStr(r.country),
    amountMinor: r.amount_minor as number,
    currency: r.currency as string,
    description: optStr(r.description),
    redirectAfterPayments: r.redirect_after_payments === 1,
    successUrl: optStr(r.success_url),
    errorUrl: optStr(r.error_url),
    expiresIn: optNum(r.expires_in),
    expiresInUnit: optStr(r.expires_in_unit) as StoredInvoice['expiresInUnit'],
    expiresAt: optStr(r.expires_at),
    locale: optStr(r.locale) as StoredInvoice['locale'],
    sendInitialEmail: r.send_initial_email === 1,
    initialEmailType: optStr(r.initial_email_type) as StoredInvoice['initialEmailType'],
    importId: optNum(r.import_id),
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    channelPublicId: r.channel_public_id as number,
    channelUrlName: r.channel_url_name as string,
    channelLanguage: r.channel_language as StoredInvoice['channelLanguage'],
  };
}

function planFromRow(r: Row): PaymentPlanRecord {
  return {
    id: r.id as string,
    invoiceId: r.invoice_id as number,
    status: r.status as PaymentPlanRecord['status'],
    installments: r.installments as number,
    interval: r.interval_unit as PaymentPlanRecord['interval'],
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
  };
}

const SELECT = `SELECT i.*, c.public_id AS channel_public_id, c.url_name AS channel_url_name, c.language AS channel_language
  FROM invoices i JOIN channels c ON c.id = i.channel_id`;

/** WHERE clause and parameters of the list filters (merchant first: the index leads with it). */
function listWhere(merchantId: string, filter: Omit<InvoiceFilter, 'limit' | 'offset'>): { sql: string; params: unknown[] } {
  const clauses = ['i.merchant_id = ?'];
  const params: unknown[] = [merchantId];
  if (filter.channelId !== undefined) {
    clauses.push('i.channel_id = ?');
    params.push(filter.channelId);
  }
  if (filter.status !== undefined) {
    clauses.push('i.status = ?');
    params.push(filter.status);
  }
  if (filter.createdFrom !== undefined) {
    clauses.push('i.created_at >= ?');
    params.push(filter.createdFrom);
  }
  if (filter.createdBefore !== undefined) {
    clauses.push('i.created_at < ?');
    params.push(filter.createdBefore);
  }
  return { sql: clauses.join(' AND '), params };
}

export function createInvoiceRepository(db: SqlDatabase): InvoiceRepository {
  const s = {
    insert: db.prepare(
      `INSERT INTO invoices (${columns.map(([, c]) => c).join(', ')}) VALUES (${columns.map(([, c]) => `@${c}`).join(', ')}) RETURNING id`,
    ),
    delete: db.prepare('DELETE FROM invoices WHERE id = ?'),
    deletePlans: db.prepare('DELETE FROM payment_plans WHERE invoice_id = ?'),
    get: db.prepare(`${SELECT} WHERE i.id = ?`),
    byUuid: db.prepare(`${SELECT} WHERE i.uuid = ?`),
    resolve: db.prepare(
      `${SELECT} WHERE i.merchant_id = ? AND i.debt_claim_number = ? ORDER BY i.active DESC, i.created_at DESC, i.id DESC LIMIT 1`,
    ),
    activeHolder: db.prepare(`${SELECT} WHERE i.channel_id = ? AND i.debt_claim_number = ? AND i.active = 1 AND i.id <> ? LIMIT 1`),
    deactivate: db.prepare(
      'UPDATE invoices SET active = 0, updated_at = ? WHERE channel_id = ? AND debt_claim_number = ? AND active = 1 AND id <> ?',
    ),
    numberUsed: db.prepare('SELECT 1 FROM invoices WHERE channel_id = ? AND debt_claim_number = ? LIMIT 1'),
    nextNumber: db.prepare(
      `INSERT INTO invoice_number_counters (channel_id, last_number) VALUES (?, 1)
       ON CONFLICT (channel_id) DO UPDATE SET last_number = invoice_number_counters.last_number + 1 RETURNING last_number`,
    ),
    insertPlan: db.prepare(
      `INSERT INTO payment_plans (id, invoice_id, status, installments, interval_unit, created_at, updated_at)
       VALUES (@id, @invoiceId, @status, @installments, @interval, @createdAt, @updatedAt)`,
    ),
    plans: db.prepare('SELECT * FROM payment_plans WHERE invoice_id = ? ORDER BY created_at, id'),
    setPlanStatus: db.prepare('UPDATE payment_plans SET status = ?, updated_at = ? WHERE id = ?'),
  };
  const statement = preparedOnce(db);
  const get = async (id: number): Promise<StoredInvoice | undefined> => {
    const row = (await s.get.get(id)) as Row | undefined;
    return row && fromRow(row);
  };
  const mustGet = async (id: number): Promise<StoredInvoice> => {
    const stored = await get(id);
    if (!stored) throw new Error(`invoice ${id} vanished inside its unit of work`);
    return stored;
  };
  return {
    insert: async (record) => mustGet(Number(((await s.insert.get(toParams(record))) as { id: number }).id)),
    update: async (id, changes: InvoiceChanges, guard = {}) => {
      const given: Partial<Omit<InvoiceRecord, 'id'>> = changes;
      const set = columns.filter(([field]) => given[field] !== undefined);
      const where = ['id = ?'];
      const params: unknown[] = [];
      if (guard.statuses) {
        where.push(`status IN (${guard.statuses.map(() => '?').join(', ')})`);
        params.push(...guard.statuses);
      }
      if (guard.withoutPlans) where.push('NOT EXISTS (SELECT 1 FROM payment_plans p WHERE p.invoice_id = invoices.id)');
      const sql = `UPDATE invoices SET ${set.map(([, column]) => `${column} = ?`).join(', ')} WHERE ${where.join(' AND ')}`;
      const values = set.map(([field]) => toColumn(field, given[field]));
      if ((await statement(sql).run(...values, id, ...params)).changes !== 1) return undefined;
      return mustGet(id);
    },
    delete: async (id) => {
      await s.deletePlans.run(id);
      await s.delete.run(id);
    },
    get: async (id) => get(id),
    resolve: async (merchantId, number) => {
      const row = (await s.resolve.get(merchantId, number)) as Row | undefined;
      return row && fromRow(row);
    },
    activeHolder: async (channelId, number, exceptId = -1) => {
      const row = (await s.activeHolder.get(channelId, number, exceptId)) as Row | undefined;
      return row && fromRow(row);
    },
    deactivateNumber: async (channelId, number, now, exceptId = -1) => (await s.deactivate.run(now, channelId, number, exceptId)).changes,
    numberUsed: async (channelId, number) => (await s.numberUsed.get(channelId, number)) !== undefined,
    nextNumber: async (channelId) => ((await s.nextNumber.get(channelId)) as { last_number: number }).last_number,
    list: async (merchantId, filter) => {
      const where = listWhere(merchantId, filter);
      const rows = (await statement(`${SELECT} WHERE ${where.sql} ORDER BY i.created_at DESC, i.id DESC LIMIT ? OFFSET ?`).all(
        ...where.params,
        filter.limit,
        filter.offset,
      )) as Row[];
      return rows.map(fromRow);
    },
    count: async (merchantId, filter) => {
      const where = listWhere(merchantId, filter);
      return ((await statement(`SELECT COUNT(*) AS n FROM invoices i WHERE ${where.sql}`).get(...where.params)) as { n: number }).n;
    },
    insertPlan: async (plan) => void (await s.insertPlan.run(plan)),
    plans: async (invoiceId) => ((await s.plans.all(invoiceId)) as Row[]).map(planFromRow),
    setPlanStatus: async (id, status, now) => void (await s.setPlanStatus.run(status, now, id)),
    byUuid: async (uuid) => {
      const row = (await s.byUuid.get(uuid)) as Row | undefined;
      return row && fromRow(row);
    },
  };
}
