/**
 * What payments keep and call: transactions, their events and refunds, the PIN retry counters, and
 * the processor (acquirer, networks, issuers, banks, HSM). Adapters: db/ and main/processor.
 */
import type { SUBSCRIPTION_STATUSES } from '../../../contract/constants.js';
import type { TransactionResponse } from '../../../contract/api/payments.js';
import type { IdempotencyUnit } from '../idempotency/ports.js';
import type { PaymentMethodsUnit } from '../payment-methods/ports.js';
import type { MandatesUnit } from '../mandates/ports.js';
import type { NetworkTokensUnit } from '../network-tokens/ports.js';
import type { TillRepository } from '../tills/ports.js';

/** Where a started transaction sends its customer (the API's `client_action` and `action_data`). */
export type ClientAction = Required<Pick<TransactionResponse, 'client_action' | 'action_data'>>;

/** The customer step a started transaction waits for: the hosted card page, 3-D Secure, or an approval page. */
export type AwaitedStep = 'card' | '3ds' | 'approval';

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** What a card-present payment's terminal and chip said (receipts, day reports, the entry mode column). */
export interface PosDetails {
  entry_mode: CardEntryMode;
  /** The request's terminal; db/migrations/0014 and the day report read `terminal.id` from the stored JSON. */
  terminal: { id: string | null; type: string | null; attended: boolean | null; capabilities: string[] };
  aid?: string;
  application_label?: string;
  /** `online_pin` when the bank checked a PIN block (a wrong one declines): the receipt says "PIN verified". */
  cvm?: 'online_pin';
}

/** A subscription change above the current amount, waiting for the customer's approval. */
export interface PendingRevision {
  amount_minor: number;
  subscription_plan_id?: string;
}

/**
 * Per-type data of a transaction beside its columns: never card data. Every field is optional; a
 * transaction has those its type and its history set. Stored as one JSON object whose keys are
 * these names (the `details` column): the SQL of the day report and of migration 0014 reads
 * `$.pos.entry_mode`, `$.pos.terminal.id` and `$.staff_id` from it, so the names are the stored keys.
 */
export interface TransactionDetails {
  // ---- the request ----
  /** Customer fields of the request (first_name, email, country, ...), as sent. */
  customer?: Record<string, string>;
  /** Wallet authorizations: the event the merchant captures on (SHIPPING, DELIVERY, ...). */
  wallet_capture_event?: string;
  /** Card-present payments: entry mode, terminal, chip application, verification. */
  pos?: PosDetails;
  /** The staff member who took a till sale (the day report counts it for them). */
  staff_id?: string;
  /** A sale a till stored while its centre was away, forwarded later (issue 26): where and when it was taken. */
  /** `staff_refused`: the till named a cashier the centre does not know as the shop's (D20); the sale has none. */
  stored?: { till_id: string; seq: number; stored_at: string; forwarded_at?: string; staff_refused?: true };
  /** The shop whose payment-method setting applied (its terminal's shop at the time, D15). */
  shop_id?: string;
  // ---- customer steps ----
  /** Set while the transaction is started and waits for the customer; removed when the step ends. */
  awaiting?: AwaitedStep;
  /** Where to send the customer for the awaited step; answered while the transaction is started. */
  client_action?: ClientAction;
  // ---- the processor's answers ----
  /** Approval code of an approved card authorization (responses, receipts). */
  authorization_code?: string;
  /** The network's (or payout's) reference; follow-ups send it to the processor, postbacks show it. */
  external_transaction_id?: string;
  /** A contactless payment declined for online PIN (1A): the till inserts the card when true. */
  pin_required?: { insert_card: boolean };
  /** The network token (D12) whose cryptogram paid. */
  network_token_id?: string;
  // ---- direct debits and payouts ----
  /** Last four of the debited or credited IBAN. */
  iban_last_four?: string;
  /** A payout's recipient as sent (names, address, e-mail, account holder), plus `payer_of` and `account_reference` when it pays back an a2a payer. */
  recipient?: Record<string, string>;
  // ---- wallet, a2a and bank approvals (postback fields) ----
  wallet_activity_reference?: string;
  wallet_account_reference?: string;
  remittance_info?: string;
  /** Sent in postbacks when present; this gateway does not set it yet. */
  payer_location?: string;
  // ---- wallet subscriptions ----
  subscription_plan_id?: string;
  subscription_status?: SubscriptionStatus;
  /** The subscription's amount after revisions; absent: the transaction's amount. */
  subscription_amount_minor?: number;
  pending_revision?: PendingRevision;
  // ---- links to the feature that started the payment ----
  /** The checkout session (its customer page) the payment belongs to. */
  checkout_id?: string;
  /** What the customer entered on the checkout page. */
  checkout_customer?: Record<string, string>;
  /** The invoice (its number) the pay page started the payment for, and the instalment. */
  invoice_id?: number;
  instalment?: number;
}

export interface TransactionRecord {
  id: string;
  merchantId: string;
  paymentType: string;
  /** Which request created it: payment, authorize, register, payout. */
  operation: string;
  statusCode: number;
  orderId: string | null;
  currency: string;
  amountMinor: number;
  authorizedMinor: number;
  capturedMinor: number;
  refundedMinor: number;
  reversedMinor: number;
  feesMinor: number;
  recurring: 0 | 1;
  parentId: string | null;
  sepaMandate: string | null;
  sepaMsgId: string | null;
  message: string | null;
  reasonCode: string | null;
  additionalTransactionData: string | null;
  merchantReference: string | null;
  postbackUrl: string | null;
  successUrl: string | null;
  errorUrl: string | null;
  cardBrand: string | null;
  cardLastFour: string | null;
  cardBin: string | null;
  cardExpiryMonth: number | null;
  cardExpiryYear: number | null;
  /** Stored card reference (PAN and expiry), sealed by the Vault; only for recurring use. */
  cardSealed: string | null;
  /** Vault fingerprint of the PAN (same card, same fingerprint). */
  cardFingerprint: string | null;
  /** Per-type data beside the columns (customer, wallet, pos, links): never card data. */
  details: TransactionDetails;
  /** The number of the invoice this payment pays, as it was then (invoice payments only; searchable). */
  invoiceNumber: string | null;
  /**
   * The till a card-present sale belongs to, decided once when it is created (D19,
   * main/core/payments/sale-till.ts); null for other payments and for a sale from a terminal that is
   * no till of the shop (the ledger books those under OTHER_TERMINALS_BOOK).
   */
  tillId: string | null;
  createdAt: string;
  updatedAt: string;
  /** When a pending customer action or an authorization runs out (D2). */
  expiresAt: string | null;
}

export interface TransactionFilter {
  from?: string;
  to?: string;
  statusCodes?: number[];
  currency?: string;
  orderId?: string;
  paymentTypes?: string[];
  cardLastFour?: string;
  /**
   * Amount bounds in ten-thousandths of a unit of each row's currency (12.50 EUR and 12.500 KWD are
   * both 125000), so one bound fits every currency (db/migrations/0016-transaction-search.ts).
   */
  amountScaled?: { exact?: number; min?: number; max?: number };
  /** A till's sales (its id), or `*` (OTHER_TERMINALS_BOOK): card-present sales of no till. */
  tillId?: string;
  /** The sales a staff member took. */
  staffId?: string;
  /** A transaction id, an order id, a card's last four or a till's id: rows that have it as any of these. */
  search?: { id?: string; orderId: string; cardLastFour?: string; invoiceNumber?: string; tillId?: string };
  /** Keyset paging: rows after this one in the list's order (created_at, id descending). */
  after?: { createdAt: string; id: string };
  limit: number;
  offset: number;
}

export interface EventRecord {
  id: string;
  transactionId: string;
  type: string;
  status: number;
  amountMinor: number;
  executionDate: string | null;
  message: string | null;
  createdAt: string;
}

/** Details fields a change sets (to a value) or removes (null); the others keep their stored values. */
export type DetailsChange = { [K in keyof TransactionDetails]?: TransactionDetails[K] | null };

/** Fields a status change may set besides the status. */
export interface TransactionChange {
  statusCode: number;
  message?: string | null;
  reasonCode?: string | null;
  authorizedMinor?: number;
  capturedMinor?: number;
  feesMinor?: number;
  sepaMsgId?: string | null;
  cardBrand?: string | null;
  cardLastFour?: string | null;
  cardBin?: string | null;
  cardExpiryMonth?: number | null;
  cardExpiryYear?: number | null;
  cardSealed?: string | null;
  cardFingerprint?: string | null;
  /** Replaces the whole details object (a status change from an allowed status excludes any other writer). */
  details?: TransactionDetails;
  expiresAt?: string | null;
}

export interface TransactionRepository {
  insert(transaction: TransactionRecord): Promise<void>;
  get(merchantId: string, id: string): Promise<TransactionRecord | undefined>;
  /** By id alone: only for the customer-facing pages, which know the id from their URL. */
  getById(id: string): Promise<TransactionRecord | undefined>;
  list(merchantId: string, filter: TransactionFilter): Promise<TransactionRecord[]>;
  /** How many rows the filter matches (after `after`, if given; limit and offset ignored). */
  count(merchantId: string, filter: TransactionFilter): Promise<number>;
  /** Most recent transaction of an order (PIN retry). */
  latestForOrder(merchantId: string, orderId: string): Promise<TransactionRecord | undefined>;
  /** The order's transactions made at or after `since`, newest first (at most 20): a repeated sale's check. */
  recentForOrder(merchantId: string, orderId: string, since: string): Promise<TransactionRecord[]>;
  /** Status change guarded by the allowed source statuses; false when the row was not in one of them. */
  transition(id: string, from: readonly number[], change: TransactionChange, now: string): Promise<boolean>;
  /** Adds a capture if the sum stays within the authorization; sets the status. */
  addCapture(id: string, amountMinor: number, statusCode: number, now: string): Promise<boolean>;
  /** Adds a refund if the sum stays within the captured amount; status 7 when all is refunded, else 8. */
  addRefund(id: string, amountMinor: number, now: string): Promise<boolean>;
  /** Releases part or all of an uncaptured authorization; status 5 when nothing is left, else 4. */
  addReversal(id: string, amountMinor: number, now: string): Promise<boolean>;
  /**
   * A wallet subscription change: sets and removes details fields in one statement, only while the
   * subscription status (`details.subscription_status`) is one of `from`; false when it was not.
   */
  changeSubscription(id: string, from: readonly SubscriptionStatus[], change: DetailsChange, now: string): Promise<boolean>;
}

export interface RefundRecord {
  id: string;
  transactionId: string;
  merchantId: string;
  amountMinor: number;
  /** 0 started, 1 success, 2 error */
  statusCode: 0 | 1 | 2;
  merchantRefundId: string | null;
  merchantReference: string | null;
  executionDate: string | null;
  processorReference: string | null;
  createdAt: string;
}

export interface RefundRepository {
  insert(refund: RefundRecord): Promise<void>;
  listByTransaction(transactionId: string): Promise<RefundRecord[]>;
}

export interface PinSecurityRepository {
  recordFailure(merchantId: string, cardFingerprint: string, at: string): Promise<void>;
  failuresSince(merchantId: string, cardFingerprint: string, since: string): Promise<number>;
  findKey(merchantId: string, zoneId: string, keyId: string): Promise<string | undefined>;
}

export interface EventRepository {
  append(event: EventRecord): Promise<void>;
  /** Two entries in one statement (a one-step payment's authorization and capture). */
  appendPair(first: EventRecord, second: EventRecord): Promise<void>;
  listByTransaction(transactionId: string): Promise<EventRecord[]>;
}

/**
 * The processor. The Test environment implements it with a deterministic simulator (main/processor);
 * a production connector implements the same interface. Every method may reject when the processor
 * is unreachable; the core answers 502 / 5001 then and changes nothing.
 */
export type CardEntryMode = 'ecommerce' | 'contactless' | 'chip' | 'swipe' | 'manual' | 'stored' | 'devicewallet';

export interface CardData {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
  cvv?: string;
  holder?: string;
}

export interface EncryptedPin {
  format: 'ISO-0';
  /** 16 hex characters, TDES-ECB under `key`. */
  block: string;
  /** Double-length TDES key (16 bytes) named by zone_id + key_id, from the terminal key store. */
  key: Buffer;
}

export interface CardAuthorizationRequest {
  reference: string;
  card: CardData;
  entry: CardEntryMode;
  amountMinor: number;
  currency: string;
  /** Contactless payments above this need online PIN (CVM limit), in minor units. */
  cvmLimitMinor: number;
  /** True when the request is a customer-initiated e-commerce payment that passed a 3-D Secure challenge. */
  threeDSecureAuthenticated: boolean;
  pin?: EncryptedPin;
  walletCryptogram?: { cryptogram: string; eci: string };
  /** A sale its till stored while the centre was away, authorized now that it is forwarded. */
  stored?: boolean;
}

export type CardDecision =
  | { outcome: 'approved'; authorizationCode: string; networkReference: string }
  | { outcome: 'declined'; code: string; text: string }
  /** 3-D Secure challenge needed before the issuer decides (e-commerce). */
  | { outcome: 'challenge' }
  /** Soft decline 1A: online PIN needed; `insertCard` when the card must be inserted for it. */
  | { outcome: 'pin_required'; insertCard: boolean }
  /** Technical failure at the processor (status 11 error). */
  | { outcome: 'error'; text: string };

export interface DirectDebitRequest {
  reference: string;
  iban: string;
  bic: string | null;
  mandateReference: string;
  b2b: boolean;
  amountMinor: number;
  currency: string;
}

export type DirectDebitSubmission = { outcome: 'accepted'; messageId: string } | { outcome: 'rejected'; code: string; text: string };

export type DirectDebitResult = { outcome: 'settled' } | { outcome: 'returned'; code: string; text: string };

export type RedirectMethod = 'cardecom' | 'threeds' | 'wallet' | 'a2a' | 'bankredirect' | 'register';

export interface FollowUpRequest {
  reference: string;
  networkReference: string | null;
  amountMinor: number;
  currency: string;
}

export type FollowUpResult = { outcome: 'approved'; reference: string } | { outcome: 'declined'; code: string; text: string };

export interface Processor {
  readonly name: string;
  /** `test`: the Test environment's simulator (D6), whose outbox the back office shows; absent means production. */
  readonly environment?: 'test' | 'production';
  authorizeCard(request: CardAuthorizationRequest): Promise<CardDecision>;
  capture(request: FollowUpRequest): Promise<FollowUpResult>;
  reverse(request: FollowUpRequest): Promise<FollowUpResult>;
  refund(request: FollowUpRequest): Promise<FollowUpResult>;
  /** Card credit (cardpos) or account-to-account transfer; its result arrives after the simulated delay. */
  payout(request: FollowUpRequest & { method: string }): Promise<FollowUpResult>;
  submitDirectDebit(request: DirectDebitRequest): Promise<DirectDebitSubmission>;
  /** Asked when the settlement date has come (after the simulated delay). */
  directDebitResult(request: DirectDebitRequest): Promise<DirectDebitResult>;
  /** Where the customer approves a redirect payment (wallet, a2a, bankredirect) or enters card data. */
  redirectUrl(method: RedirectMethod, reference: string): string;
  /**
   * Test environment only: the answer of a card-present payment with this card never reaches the
   * terminal (fault injection to rehearse the till's unknown-outcome screens). Absent in production.
   */
  dropsTerminalAnswer?(pan: string): boolean;
}

/** The payments engine's view of a unit of work: transactions and their events, refunds, PIN security. */
export interface PaymentsUnit extends IdempotencyUnit, PaymentMethodsUnit, MandatesUnit, NetworkTokensUnit {
  transactions: TransactionRepository;
  events: EventRepository;
  refunds: RefundRepository;
  pinSecurity: PinSecurityRepository;
  tills: Pick<TillRepository, 'get' | 'sellsHere'>;
}
