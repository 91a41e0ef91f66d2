/**
 * Who may call each operation of the gateway (contract/operation-table.ts), by its name: the API
 * credentials it takes, the staff roles whose session may call it (decisions.md D9), whether a
 * cashier needs a manager's approval, and what the audit log names a staff member's call where the
 * API routes audit it. The table has an entry for every operation and none besides: a missing or
 * misspelt name, role, approval or audit action is a compile error.
 *
 * main/http/api-context.ts reads it for staff sessions on the API routes (/rest, /v2: the role, the
 * approval, the audit entry). The UI's own /ui routes keep their guards (requireStaffSession,
 * requireBackOfficeSession, requireAdminSession and the role checks in their handlers);
 * tests/http/access.test.ts calls every operation as every kind of caller and holds guards and
 * table to the same answer. Plain data, so the renderer may read it too.
 */
import type { ApprovalAction, StaffRole } from './constants.js';
import type { OperationName } from './operation-table.js';

/**
 * API credentials (HTTP Basic): a merchant's (POS software; a till joined to this centre calls the
 * merchant's operations with its own, which is one), a partner's (merchant management, decisions.md
 * D15), or only a joined till's own (the centre's operations for its tills).
 */
export type ApiCredential = 'merchant' | 'partner' | 'joined_till';

/**
 * What the audit log names a staff member's change through an API route; main/http/api-context.ts
 * writes the entry in the change's own unit. The UI's own /ui changes audit in their use cases.
 */
export const API_AUDIT_ACTIONS = [
  'refund',
  'void',
  'capture',
  'invoice_create',
  'invoice_update',
  'invoice_status',
  'invoice_delete',
  'invoice_plan_create',
  'invoice_plan_cancel',
  'invoice_reminder',
  'token_create',
  'token_cryptogram',
  'token_archive',
  'token_simulate',
  'postback_resend',
  'postback_resend_failed',
  'webhook_key_rotate',
] as const;
export type ApiAuditAction = (typeof API_AUDIT_ACTIONS)[number];

/** An operation that asks for a credential or a staff session. */
export interface GuardedAccess {
  /** The API credentials it takes; [] for the UI's own routes (a staff session only). */
  readonly credentials: readonly ApiCredential[];
  /** The roles whose staff session (the cookie, or Bearer from the desktop bridge) may call it. */
  readonly staff: readonly StaffRole[];
  /** A cashier's call needs a manager's approval of this action (X-Manager-Approval, from POST /ui/approvals). */
  readonly cashierApproval?: ApprovalAction;
  /** The audit log's entry of a staff member's call (an API route's change; the /ui routes audit on their own). */
  readonly audit?: ApiAuditAction;
}

/**
 * An operation that asks for no credential: anyone may call it (the login, the join with a pairing
 * code, the first screen's questions), or only from this computer (a loopback address).
 */
export interface OpenAccess {
  readonly open: 'anyone' | 'this_computer';
}

export type Access = GuardedAccess | OpenAccess;

const EVERY_ROLE: readonly StaffRole[] = ['cashier', 'back_office', 'admin'];
/** Back office and admin: the managers (decisions.md D9). */
const MANAGERS: readonly StaffRole[] = ['back_office', 'admin'];
const ADMIN: readonly StaffRole[] = ['admin'];
const NO_STAFF: readonly StaffRole[] = [];
/** The UI's own routes: no API credential, a staff session only. */
const SESSION: readonly ApiCredential[] = [];
const MERCHANT: readonly ApiCredential[] = ['merchant'];

export const ACCESS: Readonly<Record<OperationName, Access>> = {
  // ---- centre: a joined till's own credential; the join's code is its secret
  'centre.heartbeat': { credentials: ['joined_till'], staff: NO_STAFF },
  'centre.replica': { credentials: ['joined_till'], staff: NO_STAFF },
  'centre.fence': { credentials: ['joined_till'], staff: NO_STAFF },
  'centre.forward': { credentials: ['joined_till'], staff: NO_STAFF },
  'centre.join': { open: 'anyone' },
  'centre.handleForwardedDecline': { credentials: SESSION, staff: MANAGERS },
  'centre.tillLink': { credentials: SESSION, staff: EVERY_ROLE },
  'centre.seeDecline': { credentials: SESSION, staff: EVERY_ROLE },
  'centre.setup': { open: 'anyone' },
  'centre.joinShop': { open: 'this_computer' },
  // Registered only on a gateway with the movable simulated clock.
  'centre.advanceClock': { open: 'this_computer' },

  // ---- checkouts
  'checkouts.backOfficeList': { credentials: SESSION, staff: MANAGERS },
  'checkouts.backOfficeCreate': { credentials: SESSION, staff: MANAGERS },
  'checkouts.check': { credentials: SESSION, staff: MANAGERS },
  'checkouts.backOfficeGet': { credentials: SESSION, staff: MANAGERS },
  'checkouts.cancel': { credentials: SESSION, staff: MANAGERS },
  'checkouts.create': { credentials: MERCHANT, staff: MANAGERS },
  'checkouts.get': { credentials: MERCHANT, staff: MANAGERS },

  // ---- dashboard
  'dashboard.get': { credentials: SESSION, staff: MANAGERS },

  // ---- invoices: every change of an invoice by staff is audited; subject: the invoice number
  // (decisions.md "Back office: invoices")
  'invoices.channels': { credentials: SESSION, staff: MANAGERS },
  'invoices.checkCreate': { credentials: SESSION, staff: MANAGERS },
  'invoices.checkUpdate': { credentials: SESSION, staff: MANAGERS },
  'invoices.payments': { credentials: SESSION, staff: MANAGERS },
  'invoices.currentPlan': { credentials: SESSION, staff: MANAGERS },
  'invoices.sendReminder': { credentials: MERCHANT, staff: MANAGERS, audit: 'invoice_reminder' },
  'invoices.emails': { credentials: MERCHANT, staff: MANAGERS },
  'invoices.create': { credentials: MERCHANT, staff: MANAGERS, audit: 'invoice_create' },
  'invoices.list': { credentials: MERCHANT, staff: MANAGERS },
  'invoices.get': { credentials: MERCHANT, staff: MANAGERS },
  'invoices.update': { credentials: MERCHANT, staff: MANAGERS, audit: 'invoice_update' },
  'invoices.patch': { credentials: MERCHANT, staff: MANAGERS, audit: 'invoice_update' },
  'invoices.changeStatus': { credentials: MERCHANT, staff: MANAGERS, audit: 'invoice_status' },
  'invoices.delete': { credentials: MERCHANT, staff: MANAGERS, audit: 'invoice_delete' },
  'invoices.createPlan': { credentials: MERCHANT, staff: MANAGERS, audit: 'invoice_plan_create' },
  'invoices.getPlan': { credentials: MERCHANT, staff: MANAGERS },
  'invoices.cancelPlan': { credentials: MERCHANT, staff: MANAGERS, audit: 'invoice_plan_cancel' },

  // ---- mandates
  'mandates.create': { credentials: MERCHANT, staff: MANAGERS },

  // ---- network tokens: staff changes are audited, subject the token id (decisions.md "Back
  // office: network tokens and checkouts"); reading the token data is audited by the core
  // (token_reveal) before the data leaves
  'network-tokens.backOfficeList': { credentials: SESSION, staff: MANAGERS },
  'network-tokens.check': { credentials: SESSION, staff: MANAGERS },
  'network-tokens.backOfficeGet': { credentials: SESSION, staff: MANAGERS },
  'network-tokens.reveal': { credentials: SESSION, staff: MANAGERS },
  'network-tokens.create': { credentials: MERCHANT, staff: MANAGERS, audit: 'token_create' },
  'network-tokens.list': { credentials: MERCHANT, staff: MANAGERS },
  'network-tokens.get': { credentials: MERCHANT, staff: MANAGERS },
  'network-tokens.data': { credentials: MERCHANT, staff: MANAGERS },
  'network-tokens.cryptogram': { credentials: MERCHANT, staff: MANAGERS, audit: 'token_cryptogram' },
  'network-tokens.archive': { credentials: MERCHANT, staff: MANAGERS, audit: 'token_archive' },
  'network-tokens.simulate': { credentials: MERCHANT, staff: MANAGERS, audit: 'token_simulate' },

  // ---- payment methods: the shop's shops and terminals (admin changes them); the catalog for any
  // API credentials; each method's setting per merchant and shop for partners only (D15)
  'payment-methods.shops': { credentials: SESSION, staff: MANAGERS },
  'payment-methods.createShop': { credentials: SESSION, staff: ADMIN },
  'payment-methods.assignTerminal': { credentials: SESSION, staff: ADMIN },
  'payment-methods.unassignTerminal': { credentials: SESSION, staff: ADMIN },
  'payment-methods.catalog': { credentials: ['merchant', 'partner'], staff: MANAGERS },
  'payment-methods.catalogEntry': { credentials: ['merchant', 'partner'], staff: MANAGERS },
  'payment-methods.merchantList': { credentials: ['partner'], staff: NO_STAFF },
  'payment-methods.merchantGet': { credentials: ['partner'], staff: NO_STAFF },
  'payment-methods.merchantSet': { credentials: ['partner'], staff: NO_STAFF },
  'payment-methods.merchantRemove': { credentials: ['partner'], staff: NO_STAFF },
  'payment-methods.shopList': { credentials: ['partner'], staff: NO_STAFF },
  'payment-methods.shopGet': { credentials: ['partner'], staff: NO_STAFF },
  'payment-methods.shopSet': { credentials: ['partner'], staff: NO_STAFF },
  'payment-methods.shopRemove': { credentials: ['partner'], staff: NO_STAFF },

  // ---- payments: a cashier pays, captures and voids; refunds with a manager's approval
  'payments.create': { credentials: MERCHANT, staff: EVERY_ROLE },
  'payments.authorize': { credentials: MERCHANT, staff: EVERY_ROLE },
  'payments.register': { credentials: MERCHANT, staff: MANAGERS },
  'payments.capture': { credentials: MERCHANT, staff: EVERY_ROLE, audit: 'capture' },
  'payments.reverse': { credentials: MERCHANT, staff: EVERY_ROLE, audit: 'void' },
  'payments.refund': { credentials: MERCHANT, staff: EVERY_ROLE, cashierApproval: 'refund', audit: 'refund' },
  'payments.payout': { credentials: MERCHANT, staff: MANAGERS },
  'payments.cancel': { credentials: MERCHANT, staff: MANAGERS },
  'payments.revise': { credentials: MERCHANT, staff: MANAGERS },

  // ---- postbacks: the back office's /ui routes audit in their own unit of work; staff through the
  // API are audited here, subject the event id (decisions.md "Back office: postbacks and outbox").
  // The webhook key rotates for an admin only.
  'postbacks.environment': { credentials: SESSION, staff: MANAGERS },
  'postbacks.backOfficeList': { credentials: SESSION, staff: MANAGERS },
  'postbacks.backOfficeGet': { credentials: SESSION, staff: MANAGERS },
  'postbacks.backOfficeResend': { credentials: SESSION, staff: MANAGERS },
  'postbacks.backOfficeResendFailed': { credentials: SESSION, staff: MANAGERS },
  'postbacks.resendProgress': { credentials: SESSION, staff: MANAGERS },
  'postbacks.webhookKey': { credentials: SESSION, staff: MANAGERS },
  'postbacks.revealWebhookKey': { credentials: SESSION, staff: MANAGERS },
  'postbacks.backOfficeRotateWebhookKey': { credentials: SESSION, staff: ADMIN },
  'postbacks.testOutbox': { credentials: SESSION, staff: MANAGERS },
  'postbacks.testOutboxItem': { credentials: SESSION, staff: MANAGERS },
  'postbacks.ofTransaction': { credentials: MERCHANT, staff: MANAGERS },
  'postbacks.list': { credentials: MERCHANT, staff: MANAGERS },
  'postbacks.resend': { credentials: MERCHANT, staff: MANAGERS, audit: 'postback_resend' },
  'postbacks.resendFailed': { credentials: MERCHANT, staff: MANAGERS, audit: 'postback_resend_failed' },
  'postbacks.rotateWebhookKey': { credentials: MERCHANT, staff: ADMIN, audit: 'webhook_key_rotate' },

  // ---- receipts: every role (a cashier reads today's receipts only); the printer is set up by an admin
  'receipts.get': { credentials: SESSION, staff: EVERY_ROLE },
  'receipts.print': { credentials: SESSION, staff: EVERY_ROLE },
  'receipts.email': { credentials: SESSION, staff: EVERY_ROLE },
  'receipts.emails': { credentials: SESSION, staff: EVERY_ROLE },
  'receipts.link': { credentials: SESSION, staff: EVERY_ROLE },
  'receipts.printer': { credentials: SESSION, staff: EVERY_ROLE },
  'receipts.setPrinter': { credentials: SESSION, staff: ADMIN },
  'receipts.testPrint': { credentials: SESSION, staff: EVERY_ROLE },

  // ---- reports: every role reads (a cashier its own till's day); a cashier closes the day with a
  // manager's approval
  'reports.shopDay': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.sales': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.x': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.closeDay': { credentials: SESSION, staff: EVERY_ROLE, cashierApproval: 'day_close' },
  'reports.zList': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.z': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.zPdf': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.xPdf': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.zReceipt': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.printZ': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.printX': { credentials: SESSION, staff: EVERY_ROLE },
  'reports.xReceipt': { credentials: SESSION, staff: EVERY_ROLE },

  // ---- settings: admins only
  'settings.profile': { credentials: SESSION, staff: ADMIN },
  'settings.setProfile': { credentials: SESSION, staff: ADMIN },
  'settings.channels': { credentials: SESSION, staff: ADMIN },
  'settings.createChannel': { credentials: SESSION, staff: ADMIN },
  'settings.updateChannel': { credentials: SESSION, staff: ADMIN },
  'settings.credentials': { credentials: SESSION, staff: ADMIN },
  'settings.createCredential': { credentials: SESSION, staff: ADMIN },
  'settings.revokeCredential': { credentials: SESSION, staff: ADMIN },
  'settings.resetStaffSecret': { credentials: SESSION, staff: ADMIN },
  'settings.disableStaff': { credentials: SESSION, staff: ADMIN },
  'settings.smtp': { credentials: SESSION, staff: ADMIN },
  'settings.setSmtp': { credentials: SESSION, staff: ADMIN },
  'settings.testSmtp': { credentials: SESSION, staff: ADMIN },
  'settings.auditLog': { credentials: SESSION, staff: ADMIN },

  // ---- staff: logging in and out and asking who is logged in need nothing; managers read the
  // staff and the audit, an admin creates staff; every role approves with a manager's credentials
  'staff.login': { open: 'anyone' },
  'staff.whoami': { open: 'anyone' },
  'staff.session': { credentials: SESSION, staff: EVERY_ROLE },
  'staff.logout': { open: 'anyone' },
  'staff.setOwnPin': { credentials: SESSION, staff: EVERY_ROLE },
  'staff.setOwnLanguage': { credentials: SESSION, staff: EVERY_ROLE },
  'staff.approve': { credentials: SESSION, staff: EVERY_ROLE },
  'staff.list': { credentials: SESSION, staff: MANAGERS },
  'staff.create': { credentials: SESSION, staff: ADMIN },
  'staff.audit': { credentials: SESSION, staff: MANAGERS },

  // ---- till-attempts: the screen's till's card attempts, every role
  'till-attempts.current': { credentials: SESSION, staff: EVERY_ROLE },
  'till-attempts.begin': { credentials: SESSION, staff: EVERY_ROLE },
  'till-attempts.resolve': { credentials: SESSION, staff: EVERY_ROLE },

  // ---- tills: every screen lists, takes and lets go of a till and reads its terminal; an admin changes them
  'tills.terminal': { credentials: SESSION, staff: EVERY_ROLE },
  'tills.list': { credentials: SESSION, staff: EVERY_ROLE },
  'tills.create': { credentials: SESSION, staff: ADMIN },
  'tills.update': { credentials: SESSION, staff: ADMIN },
  'tills.take': { credentials: SESSION, staff: EVERY_ROLE },
  'tills.release': { credentials: SESSION, staff: EVERY_ROLE },
  'tills.setLimits': { credentials: SESSION, staff: ADMIN },
  'tills.invite': { credentials: SESSION, staff: ADMIN },

  // ---- transactions: a cashier reads them (today's only, docs/api.md); the back office's detail
  // and the export are the managers'
  'transactions.detail': { credentials: SESSION, staff: MANAGERS },
  'transactions.list': { credentials: MERCHANT, staff: EVERY_ROLE },
  'transactions.export': { credentials: MERCHANT, staff: MANAGERS },
  'transactions.get': { credentials: MERCHANT, staff: EVERY_ROLE },
  'transactions.refunds': { credentials: MERCHANT, staff: EVERY_ROLE },
  'transactions.log': { credentials: MERCHANT, staff: EVERY_ROLE },
};
