/**
 * Constants of the API that the core, the routes and the renderer share: limits, the till's rules,
 * and the words the API uses for payment types, statuses, languages and roles (each list with its
 * type). The schemas in contract/api take their enums from here; the renderer imports these values
 * without loading any schema code. Node-free.
 */

// ---- amounts and the till -------------------------------------------------------------------------

/** The largest amount the API accepts, in major units, as text (decisions.md D1). */
export const MAX_AMOUNT_TEXT = '999999999.99';
export const MAX_AMOUNT = 999_999_999.99;

/** PIN tries a card-present sale offers: the third wrong PIN is declined 75 (decisions.md D3). */
export const PIN_TRIES = 3;

/** Contactless payments above this amount (major units of the payment's currency) need the PIN, unless set otherwise. */
export const DEFAULT_CVM_LIMIT = 50;

/** The till every merchant has from the start (migration 28), and the one of a screen that chose none. */
export const TILL_TERMINAL_ID = 'TILL-1';

/** A till screen says it is still there this often; a holder not seen for HOLD_STALE_SECONDS lets the till go. */
export const TILL_HEARTBEAT_SECONDS = 15;
export const TILL_HOLD_STALE_SECONDS = 60;

/** A till's id (its terminal id): letters, digits and - _ . (TILL-2, front-1). */
export const TILL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

/**
 * The book of card-present sales that belong to no till (D19, docs/decisions.md "The shop's books"):
 * POS software that sent a terminal id that is no till of the shop, or none. They count in the
 * shop's day on a line of their own, with X and Z reports like a till's; no till id can be `*`.
 */
export const OTHER_TERMINALS_BOOK = '*';
/**
 * A card-present sale without an Idempotency-Key that repeats one approved or stored at the same till
 * within this many minutes (same order id, amount and card; not a PIN retry) is refused (4006), as a
 * card terminal's duplicate check does; POS software that means it sends REPEAT_SALE_HEADER.
 */
export const REPEAT_SALE_WINDOW_MINUTES = 10;
export const REPEAT_SALE_HEADER = 'X-Repeat-Sale';
export const REPEAT_SALE_CONFIRMED = 'confirmed';

/**
 * A joined till's answer to a read (GET /rest/transactions, one transaction, its refunds or log) from
 * its own copies of its sales while its centre is away: not the centre's record.
 */
export const TILL_VIEW_HEADER = 'X-Till-View';
export const TILL_VIEW_COPIES = 'copies';

/** Its name where the shop's day lists it beside the tills. */
export const OTHER_TERMINALS_NAME = 'Other terminals';

/** "TILL-2" -> "Till 2", "front-1" -> "Front 1": the name of a till created without one. */
export function defaultTillName(tillId: string): string {
  const words = tillId.split(/[-_.]+/).filter(Boolean);
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()).join(' ') || tillId;
}

/** Why a till is not retired: the message at `retired` of the 400 (1002), which Settings -> Tills reads. */
export const TILL_RETIRE_REFUSED = {
  openAttempt: "check the till's last payment first",
  dayNotClosed: "close the till's day first",
  lastTill: 'is the last active till',
} as const;

/** What `merchant_reference` accepts: 1 to 35 letters, digits, spaces and / - ? ( ) : . , ' + */
export const MERCHANT_REFERENCE_PATTERN = /^[A-Za-z0-9/\-?():.,'+ ]{1,35}$/;

// ---- paging ---------------------------------------------------------------------------------------

export const TRANSACTION_LIST_DEFAULT_LIMIT = 50;
export const TRANSACTION_LIST_MAX_LIMIT = 500;
export const NETWORK_TOKENS_DEFAULT_PER_PAGE = 20;
export const NETWORK_TOKENS_MAX_PER_PAGE = 100;
/** The back office's checkout list (GET /ui/checkouts `per`): default and most. */
export const CHECKOUTS_DEFAULT_PER_PAGE = 50;
export const CHECKOUTS_MAX_PER_PAGE = 100;
export const INVOICE_PAGE_SIZE = 50;
export const PAYMENT_METHODS_DEFAULT_PER_PAGE = 20;
export const PAYMENT_METHODS_MAX_PER_PAGE = 100;

// ---- payments -------------------------------------------------------------------------------------

/** The payment types of this gateway (decisions.md D5). */
export const PAYMENT_TYPES = ['cardecom', 'cardpos', 'dd', 'dd_b2b', 'wallet', 'devicewallet', 'a2a', 'bankredirect'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** How a card was presented at a POS terminal (`pos_data.type.terminal_entry_mode`, a transaction's `entry_mode`). */
export const POS_ENTRY_MODES = ['contactless', 'chip', 'swipe', 'manual'] as const;
export type PosEntryMode = (typeof POS_ENTRY_MODES)[number];

export const WALLET_CAPTURE_EVENTS = ['SHIPPING', 'DELIVERY', 'AVAILABILITY', 'SERVICE_FULFILMENT', 'OTHER'] as const;
export type WalletCaptureEvent = (typeof WALLET_CAPTURE_EVENTS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'cancelled', 'approval_pending'] as const;

// ---- merchant management (decisions.md D15) -------------------------------------------------------

/** What a payment method can do beyond paying; settings may switch each off where the catalog offers it. */
export const METHOD_CAPABILITIES = ['payout', 'partial_refund', 'partial_reversal', 'recurring', 'subscription'] as const;
export type MethodCapabilityName = (typeof METHOD_CAPABILITIES)[number];
/** Where an effective setting's value comes from: the shop's setting, the merchant's, or the catalog's default. */
export const SETTING_SOURCES = ['shop', 'merchant', 'default'] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

// ---- checkouts ------------------------------------------------------------------------------------

export const CHECKOUT_STATUSES = ['open', 'processing', 'completed', 'cancelled', 'expired'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
export const CHECKOUT_LOCALES = ['en', 'de', 'pt', 'hr'] as const;
export type CheckoutLocale = (typeof CHECKOUT_LOCALES)[number];

// ---- invoices -------------------------------------------------------------------------------------

export const INVOICE_STATUSES = ['pending', 'processing', 'paid', 'partly_paid'] as const;
/** The longest invoice number (`debt_claim_number`). */
export const INVOICE_NUMBER_MAX_LENGTH = 50;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_LOCALES = ['en', 'de', 'pt'] as const;
export type InvoiceLocale = (typeof INVOICE_LOCALES)[number];
export const INVOICE_EMAIL_TYPES = ['initial', 'reminder'] as const;
export type InvoiceEmailType = (typeof INVOICE_EMAIL_TYPES)[number];
export const EXPIRY_UNITS = ['minutes', 'hours', 'days'] as const;
export type ExpiryUnit = (typeof EXPIRY_UNITS)[number];
/** Delivery states of a customer e-mail (invoices and receipts). */
export const EMAIL_STATUSES = ['queued', 'sent', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const PLAN_INTERVALS = ['week', 'month'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];
export const PLAN_STATUSES = ['active', 'completed', 'cancelled', 'failed'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export const MIN_INSTALLMENTS = 2;
export const MAX_INSTALLMENTS = 24;

// ---- network tokens -------------------------------------------------------------------------------

export const NETWORK_TOKEN_STATUSES = ['requested', 'active', 'suspended', 'failed', 'archive_pending', 'archived'] as const;
export type NetworkTokenStatus = (typeof NETWORK_TOKEN_STATUSES)[number];
export const TOKEN_NETWORKS = ['visa', 'mastercard'] as const;
export type TokenNetwork = (typeof TOKEN_NETWORKS)[number];
/** The simulated token service's test actions. */
export const SIMULATE_ACTIONS = ['suspend', 'resume', 'refresh'] as const;
export type SimulateAction = (typeof SIMULATE_ACTIONS)[number];
/** The steps of a token's status history: created, a status change, a refresh by the token service. */
export const TOKEN_HISTORY_EVENTS = ['created', 'status', 'refreshed'] as const;
export type TokenHistoryEvent = (typeof TOKEN_HISTORY_EVENTS)[number];
/** The back office shows revealed token data this long, then masks it again. */
export const TOKEN_REVEAL_SECONDS = 30;

// ---- postbacks ------------------------------------------------------------------------------------

export const POSTBACK_STATES = ['pending', 'delivered', 'failed'] as const;
export type PostbackState = (typeof POSTBACK_STATES)[number];
export const POSTBACK_ATTEMPT_OUTCOMES = ['delivered', 'failed', 'refused'] as const;
export type PostbackAttemptOutcome = (typeof POSTBACK_ATTEMPT_OUTCOMES)[number];

/**
 * The back office's delivery log (docs/decisions.md "Back office: postbacks and outbox"): a
 * pending postback is `queued` before its first attempt and `retrying` after a failed one.
 */
export const POSTBACK_LOG_STATUSES = ['queued', 'retrying', 'delivered', 'failed'] as const;
export type PostbackLogStatus = (typeof POSTBACK_LOG_STATUSES)[number];
/** What a postback is about (`subject_type`). */
export const POSTBACK_SUBJECT_TYPES = ['transaction', 'token', 'checkout'] as const;
export type PostbackSubjectType = (typeof POSTBACK_SUBJECT_TYPES)[number];
export const POSTBACKS_DEFAULT_PER_PAGE = 50;
export const POSTBACKS_MAX_PER_PAGE = 100;
/** How long the previous webhook key keeps signing after a rotation. */
export const WEBHOOK_KEY_GRACE_HOURS = 24;
/** What the Test environment's outbox lists. */
export const TEST_OUTBOX_KINDS = ['email', 'postback'] as const;
export type TestOutboxKind = (typeof TEST_OUTBOX_KINDS)[number];

// ---- staff, receipts, reports ---------------------------------------------------------------------

export const STAFF_ROLES = ['cashier', 'back_office', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/**
 * The roles that log in at a till joined to a centre (D20): cashiers, and managers for approvals and
 * the day's close. Admins change credentials, staff, tills and settings, which is the centre's alone,
 * so their hashes never reach a till.
 */
export const TILL_STAFF_ROLES: readonly StaffRole[] = ['cashier', 'back_office'];

/** What a manager approves for a cashier (POST /ui/approvals): a refund, or closing the day (Z report). */
export const APPROVAL_ACTIONS = ['refund', 'day_close'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];
export const CLOSE_DAY_ACTION = 'day_close' satisfies ApprovalAction;

/** Languages of printed and e-mailed receipts and the receipt page (the merchant's languages). */
export const RECEIPT_LANGUAGES = ['en', 'de', 'pt', 'hr'] as const;
export type ReceiptLanguage = (typeof RECEIPT_LANGUAGES)[number];

// ---- settings (issue 16, 4) ----------------------------------------------------------------------

/** The shop's language (Settings): its staff screens' (D21) and its receipts'; the suggestion for new channels. */
export const MERCHANT_LANGUAGES = ['en', 'de', 'pt', 'hr'] as const;
export type MerchantLanguage = (typeof MERCHANT_LANGUAGES)[number];
/** A channel's language: its invoice e-mails' (en, de, pt, the invoice locales). */
export const CHANNEL_LANGUAGES = ['en', 'de', 'pt'] as const;
export type ChannelLanguage = (typeof CHANNEL_LANGUAGES)[number];
/** How the gateway talks TLS to an SMTP server: STARTTLS (required), TLS from the first byte, or none. */
export const SMTP_SECURITY = ['starttls', 'implicit', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];
/** What a staff member's reset renews: the password or the PIN. */
export const STAFF_SECRETS = ['password', 'pin'] as const;
export type StaffSecret = (typeof STAFF_SECRETS)[number];
/** The audit viewer's page (GET /ui/audit-log `per`): default and most. */
export const AUDIT_DEFAULT_PER_PAGE = 50;
export const AUDIT_MAX_PER_PAGE = 200;
/** A channel's url_name: 2 to 40 lower-case letters, digits and dashes, starting with a letter or digit. */
export const CHANNEL_URL_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{1,39}$/;

export const PRINTER_CONNECTIONS = ['none', 'network', 'usb'] as const;
export type PrinterConnection = (typeof PRINTER_CONNECTIONS)[number];

// ---- dashboard ------------------------------------------------------------------------------------

/** The dashboard's periods (GET /ui/dashboard?period=): today, the last 7 days (today and the 6 before), this month. */
export const DASHBOARD_PERIODS = ['today', '7d', 'month'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
/** "Soon" for the dashboard's needs-attention list: invoices and authorizations that run out within this time. */
export const ATTENTION_WINDOW_HOURS = 24;
/** How many examples each needs-attention item names (the rest are counted). */
export const ATTENTION_EXAMPLES = 5;

// ---- request bodies -------------------------------------------------------------------------------

/**
 * How deep a JSON body may nest arrays and objects (the body itself is level 1). The deepest body
 * the API documents nests 4 levels (tests/http/openapi.test.ts keeps every one below this); anything
 * deeper is refused with 400 before it is parsed, so nothing in the gateway walks request data
 * without a bound (docs/api.md).
 */
export const MAX_BODY_DEPTH = 32;

/**
 * A joined till sent a sale to its centre and the answer was lost (issue 26): the error (5005) names
 * the field `centre` with this message. The outcome is unknown: ask again with the same key (the till
 * screen resolves its attempt), never charge it anew.
 */
export const CENTRE_OUTCOME_UNKNOWN = 'the outcome is not known yet';
