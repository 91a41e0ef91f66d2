/**
 * Invoices, their payment plans and pay links. Adapter: db/.
 */
import type { ExpiryUnit, InvoiceEmailType, InvoiceLocale, InvoiceStatus, PlanStatus } from '../../../contract/constants.js';
import type { IdempotencyUnit } from '../idempotency/ports.js';
import type { PaymentMethodsUnit } from '../payment-methods/ports.js';
import type { EmailRepository } from '../mail/ports.js';
import type { ChannelRepository } from '../merchants/ports.js';
import type { TransactionRepository } from '../payments/ports.js';

/** An invoice (docs/api.md "Invoices"); `id` is assigned by the store on insert. */
export interface InvoiceRecord {
  id: number;
  uuid: string;
  merchantId: string;
  channelId: string;
  debtClaimNumber: string;
  active: boolean;
  status: InvoiceStatus;
  /** YYYY-MM-DD */
  printDate: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  email: string | null;
  phone: string | null;
  taxId: string | null;
  customerId: string | null;
  address: string | null;
  address2: string | null;
  postalCode: string | null;
  city: string | null;
  state: string | null;
  /** ISO 3166-1 alpha-2; the API answers with the English name. */
  country: string | null;
  amountMinor: number;
  currency: string;
  description: string | null;
  redirectAfterPayments: boolean;
  successUrl: string | null;
  errorUrl: string | null;
  expiresIn: number | null;
  expiresInUnit: ExpiryUnit | null;
  /** created_at + expires_in, or null when the invoice does not expire. */
  expiresAt: string | null;
  locale: InvoiceLocale | null;
  sendInitialEmail: boolean;
  initialEmailType: InvoiceEmailType | null;
  importId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** An invoice as read, with what its channel contributes to the response. */
export interface StoredInvoice extends InvoiceRecord {
  channelPublicId: number;
  channelUrlName: string;
  channelLanguage: InvoiceLocale;
}

export interface InvoiceFilter {
  channelId?: string;
  status?: InvoiceStatus;
  /** Inclusive lower bound of created_at (ISO 8601). */
  createdFrom?: string;
  /** Exclusive upper bound of created_at (ISO 8601). */
  createdBefore?: string;
  limit: number;
  offset: number;
}

export interface PaymentPlanRecord {
  id: string;
  invoiceId: number;
  status: PlanStatus;
  installments: number;
  interval: 'week' | 'month';
  createdAt: string;
  updatedAt: string;
}

/** The fields an invoice update writes; every other column keeps its stored value. */
export type InvoiceChanges = Partial<Omit<InvoiceRecord, 'id' | 'createdAt' | 'updatedAt'>> & { updatedAt: string };

/** Conditions an invoice update applies under, checked by the update statement itself. */
export interface InvoiceUpdateGuard {
  /** Only while the invoice has one of these statuses. */
  statuses?: readonly InvoiceStatus[];
  /** Only while no payment plan was ever attached to the invoice. */
  withoutPlans?: boolean;
}

export interface InvoiceRepository {
  /** Inserts and returns the stored invoice with its id. */
  insert(record: Omit<InvoiceRecord, 'id'>): Promise<StoredInvoice>;
  /**
   * Writes the given fields of an invoice in one statement (never the whole row as read before), if
   * the guard holds; answers the stored invoice, or undefined when nothing was written (no such
   * invoice, or the guard did not hold).
   */
  update(id: number, changes: InvoiceChanges, guard?: InvoiceUpdateGuard): Promise<StoredInvoice | undefined>;
  delete(id: number): Promise<void>;
  get(id: number): Promise<StoredInvoice | undefined>;
  /** Number resolution within a merchant: the active invoice with the number, else the most recently created. */
  resolve(merchantId: string, debtClaimNumber: string): Promise<StoredInvoice | undefined>;
  /** The active invoice holding a number in a channel, other than `exceptId`. */
  activeHolder(channelId: string, debtClaimNumber: string, exceptId?: number): Promise<StoredInvoice | undefined>;
  /** Deactivates every active invoice holding the number in the channel except `exceptId`; returns how many. */
  deactivateNumber(channelId: string, debtClaimNumber: string, now: string, exceptId?: number): Promise<number>;
  /** Whether any invoice (active or not) of the channel has the number. */
  numberUsed(channelId: string, debtClaimNumber: string): Promise<boolean>;
  /** Advances the channel's counter of generated numbers and returns the new value (1, 2, ...). */
  nextNumber(channelId: string): Promise<number>;
  list(merchantId: string, filter: InvoiceFilter): Promise<StoredInvoice[]>;
  count(merchantId: string, filter: Omit<InvoiceFilter, 'limit' | 'offset'>): Promise<number>;
  insertPlan(plan: PaymentPlanRecord): Promise<void>;
  plans(invoiceId: number): Promise<PaymentPlanRecord[]>;
  setPlanStatus(id: string, status: PlanStatus, now: string): Promise<void>;
  /** The invoice behind a pay link. */
  byUuid(uuid: string): Promise<StoredInvoice | undefined>;
}

/** The invoices feature's view of a unit of work: invoices and plans; the channels they are sent by, their e-mails, their payments. */
export interface InvoicesUnit extends IdempotencyUnit, PaymentMethodsUnit {
  invoices: InvoiceRepository;
  channels: Pick<ChannelRepository, 'findByUrlName' | 'listByMerchant'>;
  emails: Pick<EmailRepository, 'insert' | 'listForInvoice' | 'latestForInvoice'>;
  transactions: Pick<TransactionRepository, 'latestForOrder' | 'list' | 'getById'>;
}
