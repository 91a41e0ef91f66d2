/**
 * The repositories of one database: each feature's adapter (db/<feature>/) composed into the
 * core's Repositories (main/core/unit-of-work.ts). Statements are prepared once, when the store
 * opens; methods are async to satisfy the ports but resolve synchronously on SQLite (see
 * sqlite-store.ts).
 */
import type { SqlDatabase } from './sql.js';
import { createMerchantRepositories } from './merchants/repositories.js';
import { createAuthFailureRepository } from './merchants/auth-failures.js';
import { createMerchantManagementRepositories } from './merchants/management.js';
import { createSmtpSettingsRepository } from './mail/smtp-settings.js';
import { createEmailRepository } from './mail/repositories.js';
import { createIdempotencyRepository } from './idempotency/repositories.js';
import { createAuditLog, createInstanceRepository, createOperationLockRepository, createTaskRepository } from './kernel.js';
import { createMandateRepository } from './mandates/repositories.js';
import { createTransactionRepositories } from './payments/transactions.js';
import { createPaymentRepositories } from './payments/repositories.js';
import { createOutboxRepository } from './postbacks/repositories.js';
import { createStaffRepository } from './staff/repositories.js';
import { createDayReportRepository } from './reports/repositories.js';
import { createCheckoutRepository } from './checkouts/repositories.js';
import { createNetworkTokenRepository } from './network-tokens/repositories.js';
import { createTillRepository } from './tills/repositories.js';
import { createTillAttemptRepository } from './till-attempts/repositories.js';
import { createCentreRepository, createTillJournalRepository } from './centre/repositories.js';
import { createReceiptRepository } from './receipts/repositories.js';
import { createInvoiceRepository } from './invoices/repositories.js';
import { createDashboardRepository } from './dashboard/repositories.js';
import { createPaymentMethodSettingRepository } from './payment-methods/repositories.js';
import type { GatewayUnit } from '../main/core/gateway.js';

/** Every feature's repositories in one unit of work (main/core/gateway.ts GatewayUnit). */
export type Repositories = GatewayUnit;

/** Every unit of work the stores built: Store.viewOf hands only these on. */
const units = new WeakSet<object>();

export function createRepositories(db: SqlDatabase): Repositories {
  const repositories: Repositories = {
    audit: createAuditLog(db),
    tasks: createTaskRepository(db),
    operationLocks: createOperationLockRepository(db),
    ...createMerchantRepositories(db),
    ...createSmtpSettingsRepository(db),
    ...createIdempotencyRepository(db),
    ...createMandateRepository(db),
    ...createTransactionRepositories(db),
    ...createOutboxRepository(db),
    ...createPaymentRepositories(db),
    staff: createStaffRepository(db),
    authFailures: createAuthFailureRepository(db),
    dayReports: createDayReportRepository(db),
    checkouts: createCheckoutRepository(db),
    invoices: createInvoiceRepository(db),
    emails: createEmailRepository(db),
    networkTokens: createNetworkTokenRepository(db),
    tillAttempts: createTillAttemptRepository(db),
    tills: createTillRepository(db),
    instances: createInstanceRepository(db),
    centre: createCentreRepository(db),
    journal: createTillJournalRepository(db),
    receipts: createReceiptRepository(db),
    dashboard: createDashboardRepository(db),
    ...createMerchantManagementRepositories(db),
    paymentMethodSettings: createPaymentMethodSettingRepository(db),
  };
  units.add(repositories);
  return repositories;
}

/** `tx` as the whole unit of work, when it is one of the stores' units (Store.viewOf); otherwise an Error. */
export function wholeUnit(tx: object): Repositories {
  if (!units.has(tx)) throw new Error('not a unit of work of this gateway');
  return tx as Repositories;
}
