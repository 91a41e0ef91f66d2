/**
 * Every operation of the gateway's HTTP interface, once: its name, method and path. The name is
 * `<feature>.<verb>`, where the feature is the file in contract/api/ that holds the operation's
 * schemas (params, querystring, headers, body, answers) in an object keyed by the same names; the
 * compiler checks that both sides name the same operations (contract/api/operation-schema-table.ts).
 *
 * This file is plain data, free of TypeBox, so the renderer imports it as a value (its typed
 * `call`, renderer/src/api/call.ts) while main/http registers the Fastify routes from it
 * (main/http/operation-route.ts). A path's `:name` parts are its params.
 */

export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OperationRoute {
  readonly method: OperationMethod;
  readonly path: string;
}

export const OPERATIONS = {
  // ---- centre (contract/api/centre.ts)
  'centre.heartbeat': { method: 'POST', path: '/centre/heartbeat' },
  'centre.replica': { method: 'GET', path: '/centre/replica' },
  'centre.fence': { method: 'POST', path: '/centre/fence' },
  'centre.forward': { method: 'POST', path: '/centre/forward' },
  'centre.join': { method: 'POST', path: '/centre/join' },
  'centre.handleForwardedDecline': { method: 'POST', path: '/ui/forwarded-declines/:transaction_id/handled' },
  'centre.tillLink': { method: 'GET', path: '/ui/till/link' },
  'centre.seeDecline': { method: 'POST', path: '/ui/till/link/declines/:transaction_id/seen' },
  'centre.setup': { method: 'GET', path: '/ui/setup' },
  'centre.joinShop': { method: 'POST', path: '/ui/setup/join' },
  'centre.advanceClock': { method: 'POST', path: '/test/clock' },

  // ---- checkouts (contract/api/checkouts.ts)
  'checkouts.backOfficeList': { method: 'GET', path: '/ui/checkouts' },
  'checkouts.backOfficeCreate': { method: 'POST', path: '/ui/checkouts' },
  'checkouts.check': { method: 'POST', path: '/ui/checkouts/check' },
  'checkouts.backOfficeGet': { method: 'GET', path: '/ui/checkouts/:checkout_id' },
  'checkouts.cancel': { method: 'POST', path: '/ui/checkouts/:checkout_id/cancel' },
  'checkouts.create': { method: 'POST', path: '/rest/checkouts' },
  'checkouts.get': { method: 'GET', path: '/rest/checkouts/:checkout_id' },

  // ---- dashboard (contract/api/dashboard.ts)
  'dashboard.get': { method: 'GET', path: '/ui/dashboard' },

  // ---- invoices (contract/api/invoices.ts)
  'invoices.channels': { method: 'GET', path: '/ui/invoice-channels' },
  'invoices.checkCreate': { method: 'POST', path: '/ui/invoices/check' },
  'invoices.checkUpdate': { method: 'POST', path: '/ui/invoices/:invoice_number/check' },
  'invoices.payments': { method: 'GET', path: '/ui/invoices/:invoice_number/payments' },
  'invoices.currentPlan': { method: 'GET', path: '/ui/invoices/:invoice_number/payment-plan' },
  'invoices.sendReminder': { method: 'POST', path: '/rest/invoices/:invoice_number/reminder' },
  'invoices.emails': { method: 'GET', path: '/rest/emails' },
  'invoices.create': { method: 'POST', path: '/rest/invoices' },
  'invoices.list': { method: 'GET', path: '/rest/invoices' },
  'invoices.get': { method: 'GET', path: '/rest/invoices/:invoice_number' },
  'invoices.update': { method: 'PUT', path: '/rest/invoices/:invoice_number' },
  'invoices.patch': { method: 'PATCH', path: '/rest/invoices/:invoice_number' },
  'invoices.changeStatus': { method: 'PUT', path: '/rest/invoices/:invoice_number/status_change' },
  'invoices.delete': { method: 'DELETE', path: '/rest/invoices/:invoice_number' },
  'invoices.createPlan': { method: 'POST', path: '/rest/invoices/:invoice_number/payment_plan' },
  'invoices.getPlan': { method: 'GET', path: '/rest/invoices/:invoice_number/payment_plan' },
  'invoices.cancelPlan': { method: 'DELETE', path: '/rest/invoices/:invoice_number/payment_plan' },

  // ---- mandates (contract/api/mandates.ts)
  'mandates.create': { method: 'POST', path: '/rest/create_mandate_reference' },

  // ---- network-tokens (contract/api/network-tokens.ts)
  'network-tokens.backOfficeList': { method: 'GET', path: '/ui/network-tokens' },
  'network-tokens.check': { method: 'POST', path: '/ui/network-tokens/check' },
  'network-tokens.backOfficeGet': { method: 'GET', path: '/ui/network-tokens/:id' },
  'network-tokens.reveal': { method: 'POST', path: '/ui/network-tokens/:id/reveal' },
  'network-tokens.create': { method: 'POST', path: '/v2/network_tokens' },
  'network-tokens.list': { method: 'GET', path: '/v2/network_tokens' },
  'network-tokens.get': { method: 'GET', path: '/v2/network_tokens/:id' },
  'network-tokens.data': { method: 'GET', path: '/v2/network_tokens/:id/data' },
  'network-tokens.cryptogram': { method: 'POST', path: '/v2/network_tokens/:id/cryptogram' },
  'network-tokens.archive': { method: 'DELETE', path: '/v2/network_tokens/:id' },
  'network-tokens.simulate': { method: 'POST', path: '/v2/network_tokens/:id/simulate' },

  // ---- payment-methods (contract/api/payment-methods.ts)
  'payment-methods.shops': { method: 'GET', path: '/ui/shops' },
  'payment-methods.createShop': { method: 'POST', path: '/ui/shops' },
  'payment-methods.assignTerminal': { method: 'POST', path: '/ui/shops/:shop_id/terminals' },
  'payment-methods.unassignTerminal': { method: 'DELETE', path: '/ui/terminals/:terminal_id' },
  'payment-methods.catalog': { method: 'GET', path: '/v2/payment-methods' },
  'payment-methods.catalogEntry': { method: 'GET', path: '/v2/payment-methods/:payment_type' },
  'payment-methods.merchantList': { method: 'GET', path: '/v2/merchants/:merchant_id/payment-methods' },
  'payment-methods.merchantGet': { method: 'GET', path: '/v2/merchants/:merchant_id/payment-methods/:payment_type' },
  'payment-methods.merchantSet': { method: 'PUT', path: '/v2/merchants/:merchant_id/payment-methods/:payment_type' },
  'payment-methods.merchantRemove': { method: 'DELETE', path: '/v2/merchants/:merchant_id/payment-methods/:payment_type' },
  'payment-methods.shopList': { method: 'GET', path: '/v2/merchants/:merchant_id/shops/:shop_id/payment-methods' },
  'payment-methods.shopGet': { method: 'GET', path: '/v2/merchants/:merchant_id/shops/:shop_id/payment-methods/:payment_type' },
  'payment-methods.shopSet': { method: 'PUT', path: '/v2/merchants/:merchant_id/shops/:shop_id/payment-methods/:payment_type' },
  'payment-methods.shopRemove': { method: 'DELETE', path: '/v2/merchants/:merchant_id/shops/:shop_id/payment-methods/:payment_type' },

  // ---- payments (contract/api/payments.ts)
  'payments.create': { method: 'POST', path: '/rest/payment' },
  'payments.authorize': { method: 'POST', path: '/rest/authorize' },
  'payments.register': { method: 'POST', path: '/rest/register' },
  'payments.capture': { method: 'POST', path: '/rest/capture' },
  'payments.reverse': { method: 'POST', path: '/rest/reverse' },
  'payments.refund': { method: 'POST', path: '/rest/refund' },
  'payments.payout': { method: 'POST', path: '/rest/payout' },
  'payments.cancel': { method: 'POST', path: '/rest/cancel' },
  'payments.revise': { method: 'POST', path: '/rest/revise' },

  // ---- postbacks (contract/api/postbacks.ts)
  'postbacks.environment': { method: 'GET', path: '/ui/environment' },
  'postbacks.backOfficeList': { method: 'GET', path: '/ui/postbacks' },
  'postbacks.backOfficeGet': { method: 'GET', path: '/ui/postbacks/:event_id' },
  'postbacks.backOfficeResend': { method: 'POST', path: '/ui/postbacks/:event_id/resend' },
  'postbacks.backOfficeResendFailed': { method: 'POST', path: '/ui/postbacks/resend-failed' },
  'postbacks.resendProgress': { method: 'GET', path: '/ui/postbacks/resends/:resend_id' },
  'postbacks.webhookKey': { method: 'GET', path: '/ui/webhook-key' },
  'postbacks.revealWebhookKey': { method: 'POST', path: '/ui/webhook-key/reveal' },
  'postbacks.backOfficeRotateWebhookKey': { method: 'POST', path: '/ui/webhook-key/rotate' },
  'postbacks.testOutbox': { method: 'GET', path: '/ui/test-outbox' },
  'postbacks.testOutboxItem': { method: 'GET', path: '/ui/test-outbox/:item_id' },
  'postbacks.ofTransaction': { method: 'GET', path: '/rest/transactions/:transaction_id/postbacks' },
  'postbacks.list': { method: 'GET', path: '/rest/postbacks' },
  'postbacks.resend': { method: 'POST', path: '/rest/postbacks/:event_id/resend' },
  'postbacks.resendFailed': { method: 'POST', path: '/rest/postbacks/resend_failed' },
  'postbacks.rotateWebhookKey': { method: 'POST', path: '/rest/webhook_key/rotate' },

  // ---- receipts (contract/api/receipts.ts)
  'receipts.get': { method: 'GET', path: '/ui/receipts/:receipt_id' },
  'receipts.print': { method: 'POST', path: '/ui/receipts/:receipt_id/print' },
  'receipts.email': { method: 'POST', path: '/ui/receipts/:receipt_id/email' },
  'receipts.emails': { method: 'GET', path: '/ui/receipts/:receipt_id/emails' },
  'receipts.link': { method: 'POST', path: '/ui/receipts/:receipt_id/link' },
  'receipts.printer': { method: 'GET', path: '/ui/receipt-printer' },
  'receipts.setPrinter': { method: 'PUT', path: '/ui/receipt-printer' },
  'receipts.testPrint': { method: 'POST', path: '/ui/receipt-printer/test' },

  // ---- reports (contract/api/reports.ts)
  'reports.shopDay': { method: 'GET', path: '/ui/reports/shop' },
  'reports.sales': { method: 'GET', path: '/ui/reports/sales' },
  'reports.x': { method: 'GET', path: '/ui/reports/x' },
  'reports.closeDay': { method: 'POST', path: '/ui/reports/z' },
  'reports.zList': { method: 'GET', path: '/ui/reports/z' },
  'reports.z': { method: 'GET', path: '/ui/reports/z/:sequence' },
  'reports.zPdf': { method: 'GET', path: '/ui/reports/z/:sequence.pdf' },
  'reports.xPdf': { method: 'GET', path: '/ui/reports/x.pdf' },
  'reports.zReceipt': { method: 'GET', path: '/ui/reports/z/:sequence/receipt' },
  'reports.printZ': { method: 'POST', path: '/ui/reports/z/:sequence/print' },
  'reports.printX': { method: 'POST', path: '/ui/reports/x/print' },
  'reports.xReceipt': { method: 'GET', path: '/ui/reports/x/receipt' },

  // ---- settings (contract/api/settings.ts)
  'settings.profile': { method: 'GET', path: '/ui/profile' },
  'settings.setProfile': { method: 'PUT', path: '/ui/profile' },
  'settings.channels': { method: 'GET', path: '/ui/channels' },
  'settings.createChannel': { method: 'POST', path: '/ui/channels' },
  'settings.updateChannel': { method: 'PUT', path: '/ui/channels/:url_name' },
  'settings.credentials': { method: 'GET', path: '/ui/credentials' },
  'settings.createCredential': { method: 'POST', path: '/ui/credentials' },
  'settings.revokeCredential': { method: 'POST', path: '/ui/credentials/:credential_id/revoke' },
  'settings.resetStaffSecret': { method: 'POST', path: '/ui/staff/:staff_id/reset' },
  'settings.disableStaff': { method: 'POST', path: '/ui/staff/:staff_id/disable' },
  'settings.smtp': { method: 'GET', path: '/ui/smtp' },
  'settings.setSmtp': { method: 'PUT', path: '/ui/smtp' },
  'settings.testSmtp': { method: 'POST', path: '/ui/smtp/test' },
  'settings.auditLog': { method: 'GET', path: '/ui/audit-log' },

  // ---- staff (contract/api/staff.ts)
  'staff.login': { method: 'POST', path: '/ui/session' },
  'staff.whoami': { method: 'GET', path: '/ui/whoami' },
  'staff.session': { method: 'GET', path: '/ui/session' },
  'staff.logout': { method: 'DELETE', path: '/ui/session' },
  'staff.setOwnPin': { method: 'PUT', path: '/ui/session/pin' },
  'staff.setOwnLanguage': { method: 'PUT', path: '/ui/session/language' },
  'staff.approve': { method: 'POST', path: '/ui/approvals' },
  'staff.list': { method: 'GET', path: '/ui/staff' },
  'staff.create': { method: 'POST', path: '/ui/staff' },
  'staff.audit': { method: 'GET', path: '/ui/audit' },

  // ---- till-attempts (contract/api/till-attempts.ts)
  'till-attempts.current': { method: 'GET', path: '/ui/till/attempt' },
  'till-attempts.begin': { method: 'PUT', path: '/ui/till/attempt' },
  'till-attempts.resolve': { method: 'POST', path: '/ui/till/attempt/resolve' },

  // ---- tills (contract/api/tills.ts)
  'tills.terminal': { method: 'GET', path: '/ui/terminal' },
  'tills.list': { method: 'GET', path: '/ui/tills' },
  'tills.create': { method: 'POST', path: '/ui/tills' },
  'tills.update': { method: 'PUT', path: '/ui/tills/:till_id' },
  'tills.take': { method: 'PUT', path: '/ui/session/till' },
  'tills.release': { method: 'DELETE', path: '/ui/session/till' },
  'tills.setLimits': { method: 'PUT', path: '/ui/tills/:till_id/limits' },
  'tills.invite': { method: 'POST', path: '/ui/tills/:till_id/invite' },

  // ---- transactions (contract/api/transactions.ts)
  'transactions.detail': { method: 'GET', path: '/ui/transactions/:transaction_id' },
  'transactions.list': { method: 'GET', path: '/rest/transactions' },
  'transactions.export': { method: 'GET', path: '/rest/transactions/export' },
  'transactions.get': { method: 'GET', path: '/rest/transactions/:transaction_id' },
  'transactions.refunds': { method: 'GET', path: '/rest/transactions/:transaction_id/refunds' },
  'transactions.log': { method: 'GET', path: '/rest/transactions/:transaction_id/log' },
} as const satisfies Record<string, OperationRoute>;

export type OperationName = keyof typeof OPERATIONS;

/** The operations of one feature (the names that start with `<feature>.`). */
export type OperationOf<Feature extends string> = Extract<OperationName, `${Feature}.${string}`>;
