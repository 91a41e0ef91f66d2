/**
 * Examples of the OpenAPI document (served at /openapi.json, shown in /docs): one realistic request
 * and its answer for each operation that takes a body, all in this one place, added to the
 * generated document by `addExamples` (@fastify/swagger's `transformObject`). They use the Test
 * environment's cards, IBANs and PIN key (README, docs/test-environment.md), so they work as they
 * are against a running gateway; tests/http/openapi.test.ts sends every one of them.
 *
 * A request example and the answer to it share a name. Ids in follow-up requests (a capture's
 * transaction_id, a token's id in the path) are the ids of the example answers they follow.
 */

interface Example {
  summary: string;
  description?: string;
  value: unknown;
}

/** The examples of one operation, by name; `parameters` gives path parameters an example value. */
export interface OperationExamples {
  request?: Record<string, Example>;
  responses?: Record<number, Record<string, Example>>;
  parameters?: Record<string, string>;
}

/** A card expiry that stays in the future (examples are read for years). */
const EXPIRY_YEAR = new Date().getUTCFullYear() + 4;
const PUBLIC_URL = 'http://127.0.0.1:8420';
const SHOP = 'https://shop.example';
const POSTBACK_URL = `${SHOP}/postbacks/tillgate`;

/** The ids of the example answers, used again by the requests that follow them. */
export const EXAMPLE_IDS = {
  merchant: '01995d30-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
  contactless: '01995d3a-2c41-7b6e-9a0f-4d2c8e1b7a31',
  pinRequest: '01995d3a-4f10-7c2a-8b3e-5a6d9c0e1f42',
  pinRetry: '01995d3a-6b22-7d4f-a1c5-6e7f0a1b2c53',
  threeDs: '01995d3b-0a13-7e5b-b2d6-7f8a1b2c3d64',
  sepa: '01995d3b-2c44-7f6c-83e7-8a9b2c3d4e75',
  subscription: '01995d3b-4e55-7a7d-94f8-9bac3d4e5f86',
  authorization: '01995d3c-1a66-7b8e-a509-acbd4e5f6a97',
  hold: '01995d3c-3b77-7c9f-b61a-bdce5f6a7ba8',
  registration: '01995d3c-5c88-7da0-872b-cedf6a7b8cb9',
  cardCredit: '01995d3d-0d99-7eb1-983c-dfe07b8c9dca',
  a2aPayout: '01995d3d-2eaa-7fc2-a94d-e0f18c9daedb',
  a2aPayoutIban: '01995d3d-3fbb-70d3-8a5e-f1029daebf0c',
  refund: '01995d3e-1fbb-70d3-ba5e-f1029daebfec',
  checkout: '01995d3f-0acc-71e4-8b6f-02139ebfc0fd',
  token: '01995d40-1bdd-72f5-9c70-1324afc0d10e',
  cryptogram: '01995d40-3cee-7306-ad81-2435b0d1e21f',
  invoice: '01995d41-4dff-7417-be92-3546c1e2f320',
  plan: '01995d41-6e00-7528-8fa3-4657d2f30431',
  postbackEvent: '01995d42-7f11-7639-90b4-5768e3041542',
  shop: '01995d43-0a22-774a-a1c5-6879f4152653',
} as const;

const INVOICE_NUMBER = 'INV-0001';

/** card-present data of a softPOS terminal (card read contactless) */
const terminal = { id: 'T-0001', type: 'softpos', attended: true, capabilities: ['contactlessChip', 'onlinePin'] };

const cardposContactless = {
  payment_type: 'cardpos',
  order_id: 'till-2026-0042',
  amount: 23.4,
  currency: 'EUR',
  merchant_reference: 'Till 1 receipt 42',
  postback_url: POSTBACK_URL,
  pos_data: {
    type: { terminal_entry_mode: 'contactless', sequence: 'initial' },
    card: { number: '5555555555554444', expiry_month: 12, expiry_year: EXPIRY_YEAR },
    terminal,
  },
};

/** 5555 5555 5123 4561 always asks for the PIN in the Test environment. */
const PIN_CARD = '5555555551234561';
const cardposPinRequest = {
  payment_type: 'cardpos',
  order_id: 'till-2026-0043',
  amount: 64.9,
  currency: 'EUR',
  merchant_reference: 'Till 1 receipt 43',
  postback_url: POSTBACK_URL,
  pos_data: {
    type: { terminal_entry_mode: 'contactless', sequence: 'initial' },
    card: { number: PIN_CARD, expiry_month: 12, expiry_year: EXPIRY_YEAR },
    terminal,
  },
};
const cardposPinRetry = {
  ...cardposPinRequest,
  pos_data: {
    type: { terminal_entry_mode: 'contactless', sequence: 'subsequent' },
    card: { number: PIN_CARD, expiry_month: 12, expiry_year: EXPIRY_YEAR },
    // PIN 1234 with this card, ISO-0 under the test key 0123456789ABCDEFFEDCBA9876543210.
    pin_block: { format: 'ISO-0', block: '230B4C43B8BA2C5C', zone_id: 'test', key_id: '1' },
    terminal,
  },
};

const redirectUrls = { success_url: `${SHOP}/checkout/done`, error_url: `${SHOP}/checkout/failed`, postback_url: POSTBACK_URL };

const cardecom3ds = {
  payment_type: 'cardecom',
  order_id: 'web-10017',
  amount: 89.0,
  currency: 'EUR',
  merchant_reference: 'Web order 10017',
  ...redirectUrls,
  card_number: '4000000000003220',
  card_expiry_month: '09',
  card_expiry_year: String(EXPIRY_YEAR),
  card_cvv: '123',
  card_holder: 'Ada Lovelace',
  email: 'ada@example.com',
};

const sepaDebit = {
  payment_type: 'dd',
  order_id: 'sub-2026-03',
  amount: 29.0,
  currency: 'EUR',
  merchant_reference: 'Membership March 2026',
  postback_url: POSTBACK_URL,
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  account_holder: 'Ada Lovelace',
  email: 'ada@example.com',
};

const walletSubscription = {
  payment_type: 'wallet',
  order_id: 'plan-basic-ada',
  amount: 9.99,
  currency: 'EUR',
  merchant_reference: 'Basic plan',
  ...redirectUrls,
  recurring: 1,
  subscription_plan_id: 'plan-basic',
};

const cardAuthorization = {
  payment_type: 'cardecom',
  order_id: 'web-10018',
  amount: 49.9,
  currency: 'EUR',
  merchant_reference: 'Web order 10018',
  postback_url: POSTBACK_URL,
  card_number: '4111111111111111',
  card_expiry_month: '12',
  card_expiry_year: String(EXPIRY_YEAR),
  card_cvv: '123',
  card_holder: 'Ada Lovelace',
};

const hotelHold = {
  payment_type: 'cardecom',
  order_id: 'room-204-deposit',
  amount: 150.0,
  currency: 'EUR',
  merchant_reference: 'Room 204 deposit',
  postback_url: POSTBACK_URL,
  card_number: '5555555555554444',
  card_expiry_month: '06',
  card_expiry_year: String(EXPIRY_YEAR),
  card_cvv: '321',
  card_holder: 'Grace Hopper',
};

const cardRegistration = {
  payment_type: 'cardecom',
  order_id: 'card-on-file-ada',
  amount: 0,
  currency: 'EUR',
  merchant_reference: 'Save card',
  ...redirectUrls,
};

// ---- answers -------------------------------------------------------------------------------------

const AT = '2026-03-02T09:41:07.512Z';
const LATER = '2026-03-02T09:41:12.530Z';

const answer = (summary: string, value: unknown): Example => ({ summary, value });

/** A transaction response (TransactionResponse): the common fields, then what the case adds. */
function transaction(id: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    transaction_id: id,
    payment_type: 'cardecom',
    status_code: 3,
    status: 'completed',
    order_id: null,
    message: 'Approved',
    additional_transaction_data: null,
    amount: 0,
    currency: 'EUR',
    included_fees: '0.00',
    error_code: 0,
    ...fields,
  };
}
const card = (brand: string, lastFour: string, month: number) => ({
  card_brand: brand,
  card_last_four: lastFour,
  card_expiry_month: month,
  card_expiry_year: EXPIRY_YEAR,
});
const hostedPage = (id: string, page: string) => ({ client_action: 'redirect', action_data: { url: `${PUBLIC_URL}/pay/${id}/${page}` } });

function token(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    result: 'OK',
    data: {
      id: EXAMPLE_IDS.token,
      merchant_id: EXAMPLE_IDS.merchant,
      status: 'requested',
      type: 'merchant',
      network: 'visa',
      provider: 'simulator',
      last_token_refresh: null,
      created_at: AT,
      updated_at: AT,
      ...fields,
    },
  };
}

/** The invoice wrapper of the invoice example as it stands after each step. */
function invoiceWrapper(message: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const paylink = `${PUBLIC_URL}/pay/${EXAMPLE_IDS.invoice}`;
  return {
    invoice: {
      id: 1,
      uuid: EXAMPLE_IDS.invoice,
      status: 'pending',
      active: true,
      created_at: AT,
      updated_at: AT,
      debt_claim_number: INVOICE_NUMBER,
      print_date: '2026-03-02',
      first_name: 'Ada',
      last_name: 'Lovelace',
      company: null,
      email: 'ada@example.com',
      phone: null,
      tax_id: null,
      customer_id: null,
      address: 'Unter den Linden 1',
      address2: null,
      postal_code: '10117',
      city: 'Berlin',
      state: null,
      country: 'Germany',
      amount: 120.5,
      amount_cents: 12050,
      currency: 'EUR',
      description: 'Catering, 14 March',
      redirect_after_payments: false,
      success_url: null,
      error_url: null,
      expires_in: 14,
      expires_in_unit: 'days',
      expired: false,
      channel_id: 1,
      import_id: null,
      locale: 'de',
      effective_locale: 'de',
      send_initial_email: true,
      initial_email_type: null,
      effective_initial_email_type: 'initial',
      last_email: { email_type: 'initial', status: 'queued', sent_at: null, recipient_email: 'ada@example.com', locale: 'de' },
      ...fields,
    },
    message,
    error: null,
    paylink,
    qrcode: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAPoAAAD6CAYAAACI7Fo9AAAAAklEQVR4AewaftIAAAgN...',
  };
}

/** The invoice example after its reminder, and after the two updates (PUT, then PATCH). */
const afterReminder = {
  last_email: { email_type: 'reminder', status: 'queued', sent_at: null, recipient_email: 'ada@example.com', locale: 'de' },
};
const changed = { address: 'Friedrichstrasse 100', phone: '+49 30 1234567', description: 'Catering, 14 March (menu B)' };

// ---- merchant management (D15) --------------------------------------------------------------------

const CAPABILITY_NAMES = ['payout', 'partial_refund', 'partial_reversal', 'recurring', 'subscription'] as const;
const sources = (value: string) => Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, value]));

/** The catalog entry of a2a. */
const a2aEntry = {
  payment_type: 'a2a',
  name: 'Account-to-account',
  description: 'Account-to-account instant payment with approval in the banking app; payouts',
  currencies: ['EUR', 'GBP'],
  countries: [
    'AD',
    'AT',
    'AX',
    'BE',
    'BG',
    'BL',
    'CH',
    'CY',
    'CZ',
    'DE',
    'DK',
    'EE',
    'ES',
    'FI',
    'FR',
    'GB',
    'GF',
    'GG',
    'GI',
    'GP',
    'GR',
    'HR',
    'HU',
    'IE',
    'IM',
    'IS',
    'IT',
    'JE',
    'LI',
    'LT',
    'LU',
    'LV',
    'MC',
    'MF',
    'MQ',
    'MT',
    'NL',
    'NO',
    'PL',
    'PM',
    'PT',
    'RE',
    'RO',
    'SE',
    'SI',
    'SK',
    'SM',
    'VA',
    'YT',
  ],
  capabilities: { payout: true, partial_refund: true, partial_reversal: false, recurring: false, subscription: false },
  default_enabled: true,
  fee_fixed: 0.1,
  fee_percent: 0.5,
  cvm_limit: null,
};
const cardecomEntry = {
  payment_type: 'cardecom',
  name: 'Card, online',
  description: 'Card, e-commerce: server-to-server card data or the hosted card page; 3-D Secure',
  currencies: null,
  countries: null,
  capabilities: { payout: false, partial_refund: true, partial_reversal: true, recurring: true, subscription: false },
  default_enabled: true,
  fee_fixed: 0.25,
  fee_percent: 1.4,
  cvm_limit: null,
};

/** An effective setting of cardecom for the example merchant (or its shop). */
function cardecomSetting(fields: Record<string, unknown>, fieldSources: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    payment_type: 'cardecom',
    merchant_id: EXAMPLE_IDS.merchant,
    shop_id: null,
    enabled: true,
    currencies: null,
    countries: null,
    capabilities: { payout: false, partial_refund: true, partial_reversal: true, recurring: true, subscription: false },
    fee_fixed: 0.25,
    fee_percent: 1.4,
    cvm_limit: null,
    source: 'default',
    field_sources: {
      enabled: 'default',
      currencies: 'default',
      countries: 'default',
      capabilities: sources('default'),
      fee_fixed: 'default',
      fee_percent: 'default',
      cvm_limit: null,
      ...fieldSources,
    },
    updated_at: null,
    ...fields,
  };
}

/** The shop's cardpos setting: EUR only, the PIN above 25.00, no payouts at this shop. */
const shopCardpos = {
  payment_type: 'cardpos',
  merchant_id: EXAMPLE_IDS.merchant,
  shop_id: EXAMPLE_IDS.shop,
  enabled: true,
  currencies: ['EUR'],
  countries: null,
  capabilities: { payout: false, partial_refund: true, partial_reversal: true, recurring: false, subscription: false },
  fee_fixed: 0.1,
  fee_percent: 1.4,
  cvm_limit: { EUR: 25 },
  source: 'default',
  field_sources: {
    enabled: 'default',
    currencies: 'shop',
    countries: 'default',
    capabilities: { ...sources('default'), payout: 'shop' },
    fee_fixed: 'default',
    fee_percent: 'default',
    cvm_limit: { EUR: 'shop' },
  },
  updated_at: LATER,
};

const envelope = (data: unknown) => ({ result: 'OK', data });
const listOf = (path: string, items: unknown[], total: number) => ({
  result: 'OK',
  data_set: items,
  metadata: { per_page: 20, total_items: total, current_page: 1, total_pages: 1 },
  links: {
    self: { href: `${path}?page=1&per=20` },
    first: { href: `${path}?page=1&per=20` },
    last: { href: `${path}?page=1&per=20` },
    prev: { href: null },
    next: { href: null },
  },
});
const merchantPath = `/v2/merchants/${EXAMPLE_IDS.merchant}/payment-methods`;
const shopPath = `/v2/merchants/${EXAMPLE_IDS.merchant}/shops/${EXAMPLE_IDS.shop}/payment-methods`;
const switchedOff = cardecomSetting({ enabled: false, source: 'merchant', updated_at: LATER }, { enabled: 'merchant' });

const MERCHANT_MANAGEMENT_EXAMPLES: Record<string, OperationExamples> = {
  'GET /v2/payment-methods': {
    responses: { 200: { catalog: answer('The catalog (first entry shown; 8 in all)', listOf('/v2/payment-methods', [cardecomEntry], 8)) } },
  },
  'GET /v2/payment-methods/{payment_type}': {
    responses: { 200: { a2a: answer('One method of the catalog', envelope(a2aEntry)) } },
    parameters: { payment_type: 'a2a' },
  },
  'PUT /v2/merchants/{merchant_id}/payment-methods/{payment_type}': {
    responses: {
      201: {
        eur_only: answer(
          'Set for the merchant: EUR only, its own fees',
          envelope(
            cardecomSetting(
              { currencies: ['EUR'], fee_fixed: 0.2, fee_percent: 1.2, updated_at: AT },
              { currencies: 'merchant', fee_fixed: 'merchant', fee_percent: 'merchant' },
            ),
          ),
        ),
      },
      200: { switch_off: answer('Changed: cardecom is off for the merchant (every other field inherits again)', envelope(switchedOff)) },
    },
    parameters: { merchant_id: EXAMPLE_IDS.merchant, payment_type: 'cardecom' },
    request: {
      eur_only: { summary: 'Take cardecom in EUR only, at 1.2 % + 0.20', value: { currencies: ['EUR'], fee_fixed: 0.2, fee_percent: 1.2 } },
      switch_off: {
        summary: 'Switch cardecom off for the merchant',
        description: 'A PUT sets the whole level: fields left out inherit again.',
        value: { enabled: false },
      },
    },
  },
  'GET /v2/merchants/{merchant_id}/payment-methods': {
    responses: {
      200: { merchant: answer("The merchant's methods (first entry shown; 8 in all)", listOf(merchantPath, [switchedOff], 8)) },
    },
    parameters: { merchant_id: EXAMPLE_IDS.merchant },
  },
  'GET /v2/merchants/{merchant_id}/payment-methods/{payment_type}': {
    responses: { 200: { cardecom: answer("Switched off by the merchant's setting", envelope(switchedOff)) } },
    parameters: { merchant_id: EXAMPLE_IDS.merchant, payment_type: 'cardecom' },
  },
  'DELETE /v2/merchants/{merchant_id}/payment-methods/{payment_type}': {
    responses: { 200: { cardecom: answer('Removed: the catalog default applies again', envelope(cardecomSetting({}))) } },
    parameters: { merchant_id: EXAMPLE_IDS.merchant, payment_type: 'cardecom' },
  },
  'PUT /v2/merchants/{merchant_id}/shops/{shop_id}/payment-methods/{payment_type}': {
    responses: { 201: { shop_cvm_limit: answer('Set for the shop', envelope(shopCardpos)) } },
    parameters: { merchant_id: EXAMPLE_IDS.merchant, shop_id: EXAMPLE_IDS.shop, payment_type: 'cardpos' },
    request: {
      shop_cvm_limit: {
        summary: 'At this shop: cardpos in EUR only, the PIN above 25.00, no payouts',
        value: { currencies: ['EUR'], cvm_limit: { EUR: 25 }, capabilities: { payout: false } },
      },
    },
  },
  'GET /v2/merchants/{merchant_id}/shops/{shop_id}/payment-methods': {
    responses: {
      200: {
        shop: answer(
          "The shop's methods (first entry shown; 8 in all)",
          listOf(shopPath, [{ ...switchedOff, shop_id: EXAMPLE_IDS.shop }], 8),
        ),
      },
    },
    parameters: { merchant_id: EXAMPLE_IDS.merchant, shop_id: EXAMPLE_IDS.shop },
  },
  'GET /v2/merchants/{merchant_id}/shops/{shop_id}/payment-methods/{payment_type}': {
    responses: { 200: { cardpos: answer("The shop's cardpos", envelope(shopCardpos)) } },
    parameters: { merchant_id: EXAMPLE_IDS.merchant, shop_id: EXAMPLE_IDS.shop, payment_type: 'cardpos' },
  },
  'DELETE /v2/merchants/{merchant_id}/shops/{shop_id}/payment-methods/{payment_type}': {
    responses: {
      200: {
        cardpos: answer(
          "Removed: the merchant's setting (here the catalog default) applies again (cvm_limit shortened: every currency of the catalog's defaults)",
          envelope({
            ...shopCardpos,
            currencies: null,
            capabilities: { ...shopCardpos.capabilities, payout: true },
            cvm_limit: { EUR: 50, USD: 50 },
            field_sources: {
              ...shopCardpos.field_sources,
              currencies: 'default',
              capabilities: sources('default'),
              cvm_limit: { EUR: 'default', USD: 'default' },
            },
            updated_at: null,
          }),
        ),
      },
    },
    parameters: { merchant_id: EXAMPLE_IDS.merchant, shop_id: EXAMPLE_IDS.shop, payment_type: 'cardpos' },
  },
};

export const OPERATION_EXAMPLES: Record<string, OperationExamples> = {
  'POST /rest/payment': {
    responses: {
      200: {
        cardpos_contactless: answer(
          'Approved without PIN',
          transaction(EXAMPLE_IDS.contactless, {
            payment_type: 'cardpos',
            order_id: 'till-2026-0042',
            amount: 23.4,
            included_fees: '0.43',
            ...card('mastercard', '4444', 12),
            authorization_code: '448369',
          }),
        ),
        cardpos_pin_requested: answer(
          'Declined: enter the PIN (request_pin, 1A)',
          transaction(EXAMPLE_IDS.pinRequest, {
            payment_type: 'cardpos',
            status_code: 6,
            status: 'declined',
            order_id: 'till-2026-0043',
            message: 'request_pin',
            reason_code: '1A',
            amount: 64.9,
            ...card('mastercard', '4561', 12),
            insert_card: false,
          }),
        ),
        cardpos_pin_retry: answer(
          'Approved with the PIN',
          transaction(EXAMPLE_IDS.pinRetry, {
            payment_type: 'cardpos',
            order_id: 'till-2026-0043',
            amount: 64.9,
            included_fees: '1.01',
            ...card('mastercard', '4561', 12),
            authorization_code: '715288',
          }),
        ),
        cardecom_3ds: answer(
          'Started: send the customer to the 3-D Secure page',
          transaction(EXAMPLE_IDS.threeDs, {
            status_code: 1,
            status: 'started',
            order_id: 'web-10017',
            message: '3-D Secure challenge',
            amount: 89,
            ...hostedPage(EXAMPLE_IDS.threeDs, '3ds'),
            ...card('visa', '3220', 9),
          }),
        ),
        sepa_direct_debit: answer(
          'Pending until the debit settles',
          transaction(EXAMPLE_IDS.sepa, {
            payment_type: 'dd',
            status_code: 2,
            status: 'pending',
            order_id: 'sub-2026-03',
            message: 'Submitted; settles after the debit date',
            amount: 29,
            included_fees: '0.30',
            sepa_mandate: 'MND-20260302-K7PQ2M9XWT',
            sepa_msg_id: 'MSG-6D0F3A1B9C2E4F5A6B7C8D9E0F1A2B3',
          }),
        ),
        wallet_subscription: answer(
          'Started: the customer approves the subscription',
          transaction(EXAMPLE_IDS.subscription, {
            payment_type: 'wallet',
            status_code: 1,
            status: 'started',
            order_id: 'plan-basic-ada',
            message: 'Awaiting the customer',
            amount: 9.99,
            ...hostedPage(EXAMPLE_IDS.subscription, 'wallet'),
            subscription_status: 'approval_pending',
          }),
        ),
      },
    },
    request: {
      cardpos_contactless: {
        summary: 'cardpos: contactless, no PIN',
        description: 'A tap below the contactless limit (50.00 EUR): approved without a PIN.',
        value: cardposContactless,
      },
      cardpos_pin_requested: {
        summary: 'cardpos: the card asks for the PIN',
        description:
          'Above the contactless limit, or a card that always asks: the answer is a decline with message request_pin (reason_code 1A). Retry as in the next example.',
        value: cardposPinRequest,
      },
      cardpos_pin_retry: {
        summary: 'cardpos: PIN retry with an ISO-0 PIN block',
        description:
          'The same order_id with pos_data.type.sequence "subsequent" and the PIN block: PIN 1234 with card 5555 5555 5123 4561, ISO-0, TDES under the test key (zone_id test, key_id 1).',
        value: cardposPinRetry,
      },
      cardecom_3ds: {
        summary: 'cardecom with 3-D Secure',
        description:
          'Card data server to server; this test card needs a 3-D Secure challenge: status 1 started, send the customer to action_data.url.',
        value: cardecom3ds,
      },
      sepa_direct_debit: {
        summary: 'SEPA direct debit (dd)',
        description: 'Without sepa_mandate a mandate is created on the fly. Status 2 pending until settlement, then 3 completed.',
        value: sepaDebit,
      },
      wallet_subscription: {
        summary: 'wallet subscription',
        description:
          'recurring 1 with a plan: the customer approves on the wallet page (client_action redirect); /rest/revise and /rest/cancel follow.',
        value: walletSubscription,
      },
    },
  },
  'POST /rest/authorize': {
    responses: {
      200: {
        card_authorization: answer(
          'Authorized (status 4)',
          transaction(EXAMPLE_IDS.authorization, {
            status_code: 4,
            status: 'authorized',
            order_id: 'web-10018',
            amount: 49.9,
            included_fees: '0.95',
            ...card('visa', '1111', 12),
            authorization_code: '573426',
          }),
        ),
        deposit_hold: answer(
          'Authorized (status 4)',
          transaction(EXAMPLE_IDS.hold, {
            status_code: 4,
            status: 'authorized',
            order_id: 'room-204-deposit',
            amount: 150,
            included_fees: '2.35',
            ...card('mastercard', '4444', 6),
            authorization_code: '059021',
          }),
        ),
      },
    },
    request: {
      card_authorization: { summary: 'cardecom: authorize, capture on shipping', value: cardAuthorization },
      deposit_hold: { summary: 'cardecom: hold a deposit, release it later', value: hotelHold },
    },
  },
  'POST /rest/register': {
    responses: {
      200: {
        card_on_file: answer(
          'Started: send the customer to card entry',
          transaction(EXAMPLE_IDS.registration, {
            status_code: 1,
            status: 'started',
            order_id: 'card-on-file-ada',
            message: 'Awaiting the customer',
            ...hostedPage(EXAMPLE_IDS.registration, 'card'),
          }),
        ),
      },
    },
    request: {
      card_on_file: {
        summary: 'Save a card for later charges',
        description:
          'The customer enters the card on the hosted page; later charges send this transaction_id as original_transaction_id with recurring 1.',
        value: cardRegistration,
      },
    },
  },
  'POST /rest/capture': {
    responses: {
      200: {
        full_capture: answer('Captured', {
          transaction_id: EXAMPLE_IDS.authorization,
          status_code: 3,
          status: 'completed',
          order_id: 'web-10018',
          message: 'Approved',
          amount: 49.9,
          captured_amount: 49.9,
          error_code: 0,
          card_last_four: '1111',
          card_expiry_year: EXPIRY_YEAR,
          card_expiry_month: 12,
          card_brand: 'visa',
        }),
      },
    },
    request: {
      full_capture: {
        summary: 'Capture the authorization',
        value: { transaction_id: EXAMPLE_IDS.authorization, amount: 49.9, vat: 7.97, execution_date: '2026-03-02' },
      },
    },
  },
  'POST /rest/reverse': {
    responses: {
      200: {
        release_hold: answer('Reversed (status 5)', {
          transaction_id: EXAMPLE_IDS.hold,
          status_code: 5,
          status: 'reversed',
          amount: 150,
          remaining_amount: 0,
          error_code: 0,
        }),
      },
    },
    request: {
      release_hold: { summary: 'Release the whole hold', value: { transaction_id: EXAMPLE_IDS.hold } },
    },
  },
  'POST /rest/refund': {
    responses: {
      200: {
        partial_refund: answer('Refunded; the payment is partly_refunded', {
          refund_id: EXAMPLE_IDS.refund,
          transaction_id: EXAMPLE_IDS.contactless,
          status_code: 1,
          status: 'success',
          amount: 5,
          currency: 'EUR',
          merchant_refund_id: 'RET-0042-1',
          merchant_reference: 'Returned item',
          transaction_status_code: 8,
          transaction_status: 'partly_refunded',
          error_code: 0,
        }),
      },
    },
    request: {
      partial_refund: {
        summary: 'Refund part of a till payment',
        value: {
          transaction_id: EXAMPLE_IDS.contactless,
          amount: 5.0,
          merchant_refund_id: 'RET-0042-1',
          merchant_reference: 'Returned item',
        },
      },
    },
  },
  'POST /rest/payout': {
    responses: {
      200: {
        card_credit: answer('Pending, completed after the simulated delay', {
          transaction_id: EXAMPLE_IDS.cardCredit,
          status_code: 2,
          status: 'pending',
          order_id: 'cashback-0007',
          error_code: 0,
        }),
        a2a_payout: answer('Pending, completed after the simulated delay', {
          transaction_id: EXAMPLE_IDS.a2aPayout,
          status_code: 2,
          status: 'pending',
          order_id: 'payout-2026-0311',
          error_code: 0,
        }),
        a2a_to_account: answer('Pending, completed after the simulated delay', {
          transaction_id: EXAMPLE_IDS.a2aPayoutIban,
          status_code: 2,
          status: 'pending',
          order_id: 'payout-2026-0312',
          error_code: 0,
        }),
      },
    },
    request: {
      card_credit: {
        summary: 'cardpos: credit a card at the till',
        value: {
          payment_type: 'cardpos',
          order_id: 'cashback-0007',
          amount: 15.0,
          currency: 'EUR',
          merchant_reference: 'Goodwill credit 7',
          postback_url: POSTBACK_URL,
          country: 'DE',
          first_name: 'Ada',
          last_name: 'Lovelace',
          pos_data: {
            type: { terminal_entry_mode: 'contactless' },
            card: { number: '4111111111111111', expiry_month: 12, expiry_year: EXPIRY_YEAR },
            terminal,
          },
        },
      },
      a2a_payout: {
        summary: "a2a: pay out to a recipient identified by e-mail (the interface's payout fields)",
        description: 'Or send original_transaction_id (a completed a2a payment) to pay back its payer; iban is an optional extra.',
        value: {
          payment_type: 'a2a',
          order_id: 'payout-2026-0311',
          amount: 120.0,
          currency: 'EUR',
          merchant_reference: 'Marketplace payout 311',
          postback_url: POSTBACK_URL,
          country: 'DE',
          first_name: 'Grace',
          last_name: 'Hopper',
          email: 'grace@example.com',
        },
      },
      a2a_to_account: {
        summary: 'a2a: pay out to a bank account (iban)',
        value: {
          payment_type: 'a2a',
          order_id: 'payout-2026-0312',
          amount: 80.0,
          currency: 'EUR',
          merchant_reference: 'Marketplace payout 312',
          postback_url: POSTBACK_URL,
          country: 'DE',
          iban: 'DE89370400440532013000',
          account_holder: 'Grace Hopper',
        },
      },
    },
  },
  'POST /rest/revise': {
    responses: {
      200: {
        change_plan: answer('Active on the new plan', {
          transaction_id: EXAMPLE_IDS.subscription,
          subscription_status: 'active',
          subscription_plan_id: 'plan-lite',
          amount: 4.99,
          error_code: 0,
        }),
      },
    },
    request: {
      change_plan: {
        summary: 'Move the subscription to a cheaper plan',
        description: 'A lower amount needs no new approval; a higher one answers client_action redirect for the customer to approve again.',
        value: { transaction_id: EXAMPLE_IDS.subscription, amount: 4.99, subscription_plan_id: 'plan-lite' },
      },
    },
  },
  'POST /rest/cancel': {
    responses: {
      200: {
        cancel_subscription: answer('Cancelled', {
          transaction_id: EXAMPLE_IDS.subscription,
          subscription_status: 'cancelled',
          subscription_plan_id: 'plan-lite',
          amount: 4.99,
          error_code: 0,
        }),
      },
    },
    request: {
      cancel_subscription: { summary: 'Cancel the subscription', value: { transaction_id: EXAMPLE_IDS.subscription } },
    },
  },
  'POST /rest/create_mandate_reference': {
    responses: {
      200: {
        sepa_mandate: answer('The mandate reference to send as sepa_mandate', {
          sepa_mandate: 'MND-20260302-R4TV8NB2QC',
          mandate_date: '2026-03-02',
          payment_type: 'dd',
          recurring: 1,
          iban_last_four: '3000',
          error_code: 0,
        }),
      },
    },
    request: {
      sepa_mandate: {
        summary: 'A B2C mandate for recurring debits',
        value: {
          payment_type: 'dd',
          recurring: 1,
          first_name: 'Ada',
          last_name: 'Lovelace',
          account_holder: 'Ada Lovelace',
          iban: 'DE89370400440532013000',
          bic: 'COBADEFFXXX',
          email: 'ada@example.com',
        },
      },
    },
  },
  'POST /rest/postbacks/resend_failed': {
    responses: { 200: { since_yesterday: answer('How many were queued again', { requeued: 2, error_code: 0 }) } },
    request: {
      since_yesterday: { summary: 'Resend every failed postback since a time', value: { since: '2026-03-01T00:00:00Z' } },
    },
  },
  'POST /rest/webhook_key/rotate': {
    responses: {
      200: {
        rotate: answer('The new key, shown once; the old one signs too for 24 hours', {
          webhook_key: 'whsec_zGnMTAX/dn2VUORogeoQyhFM5CSPZYY4L1kFgl8x7uI=',
          previous_key_valid_until: '2026-03-03T09:41:12.530Z',
          error_code: 0,
        }),
      },
    },
  },
  'POST /rest/checkouts': {
    responses: {
      200: {
        checkout: answer('Open: send the customer to action_data.url', {
          checkout_id: EXAMPLE_IDS.checkout,
          error_code: 0,
          status: 'open',
          client_action: 'redirect',
          action_data: { url: `${PUBLIC_URL}/checkout/${EXAMPLE_IDS.checkout}` },
        }),
      },
    },
    request: {
      checkout: {
        summary: 'A hosted checkout with tax and shipping',
        value: {
          merchant_name: 'Corner Shop',
          order_id: 'web-10019',
          reference: 'Web order 10019',
          description: '2 x Espresso beans 1 kg',
          currency: 'EUR',
          amount: 38.0,
          amount_taxes: 2.66,
          amount_shipping: 4.9,
          total_amount: 45.56,
          collect_phone: 1,
          collect_shipping_address: 1,
          display_transaction_details: 1,
          ...redirectUrls,
          prefill_customer_info: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', country: 'DE' },
          locale: 'de',
        },
      },
    },
  },
  'POST /v2/network_tokens': {
    responses: {
      201: { tokenize_card: answer('Requested; active after the simulated delay, with a postback', token({})) },
      200: { same_card: answer('The card already has a token: that token', token({ status: 'active', updated_at: LATER })) },
    },
    request: {
      tokenize_card: {
        summary: 'Tokenize a visa card',
        value: {
          card_number: '4111111111111111',
          expiry_month: 12,
          expiry_year: EXPIRY_YEAR,
          card_cvv: '123',
          card_holder: 'Ada Lovelace',
          email: 'ada@example.com',
          billing_country: 'DE',
          billing_city: 'Berlin',
          billing_line1: 'Unter den Linden 1',
          billing_postal_code: '10117',
          postback_url: `${SHOP}/postbacks/tokens`,
        },
      },
    },
  },
  'POST /v2/network_tokens/{id}/cryptogram': {
    responses: {
      200: {
        cryptogram: answer('A single-use TAVV cryptogram; pay with threeds_wallet_cryptogram = authentication_data', {
          result: 'OK',
          data: {
            id: EXAMPLE_IDS.cryptogram,
            type: 'TAVV',
            authentication_data: 'qaGUSR5TbdOgEeALV2d1aYU+0+k=',
            pan_sequence_number: '01',
            track2_equivalent: `4895064934736956D${String(EXPIRY_YEAR).slice(2)}12201959C451B`,
            created: LATER,
          },
        }),
      },
    },
    parameters: { id: EXAMPLE_IDS.token },
  },
  'POST /v2/network_tokens/{id}/simulate': {
    responses: {
      200: { refresh: answer('Refreshed', token({ status: 'active', last_token_refresh: LATER, updated_at: LATER })) },
    },
    parameters: { id: EXAMPLE_IDS.token },
    request: {
      refresh: { summary: 'The network refreshes the token', value: { action: 'refresh' } },
    },
  },
  'POST /rest/invoices': {
    responses: { 201: { invoice: answer('Created, the e-mail queued', invoiceWrapper('Invoice created.')) } },
    request: {
      invoice: {
        summary: 'An invoice with e-mail, due in 14 days',
        value: {
          url_name: 'corner-shop',
          invoice: {
            amount: 120.5,
            currency: 'EUR',
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.com',
            address: 'Unter den Linden 1',
            postal_code: '10117',
            city: 'Berlin',
            country: 'DE',
            description: 'Catering, 14 March',
            expires_in: 14,
            expires_in_unit: 'days',
            locale: 'de',
            send_initial_email: true,
          },
        },
      },
    },
  },
  'PUT /rest/invoices/{invoice_number}': {
    responses: {
      200: {
        change_address: answer(
          'Updated',
          invoiceWrapper('Invoice updated.', { ...afterReminder, address: 'Friedrichstrasse 100', updated_at: LATER }),
        ),
      },
    },
    parameters: { invoice_number: INVOICE_NUMBER },
    request: {
      change_address: { summary: 'Change the address', value: { invoice: { address: 'Friedrichstrasse 100', postal_code: '10117' } } },
    },
  },
  'PATCH /rest/invoices/{invoice_number}': {
    responses: {
      200: { change_contact: answer('Updated', invoiceWrapper('Invoice updated.', { ...afterReminder, ...changed, updated_at: LATER })) },
    },
    parameters: { invoice_number: INVOICE_NUMBER },
    request: {
      change_contact: {
        summary: 'Add a phone number and change the description',
        value: { invoice: { phone: '+49 30 1234567', description: 'Catering, 14 March (menu B)' } },
      },
    },
  },
  'POST /rest/invoices/{invoice_number}/payment_plan': {
    responses: {
      201: {
        three_months: answer('Three instalments, the remainder on the first', {
          payment_plan: {
            id: EXAMPLE_IDS.plan,
            status: 'active',
            installments: 3,
            interval: 'month',
            currency: 'EUR',
            amount: 120.5,
            amount_cents: 12050,
            paid_installments: 0,
            schedule: [
              { number: 1, amount: 40.18, amount_cents: 4018, due_date: '2026-03-02', paid: false },
              { number: 2, amount: 40.16, amount_cents: 4016, due_date: '2026-04-02', paid: false },
              { number: 3, amount: 40.16, amount_cents: 4016, due_date: '2026-05-02', paid: false },
            ],
            created_at: AT,
            updated_at: AT,
          },
          message: 'Payment plan created.',
          error: null,
        }),
      },
    },
    parameters: { invoice_number: INVOICE_NUMBER },
    request: { three_months: { summary: 'Three monthly instalments', value: { installments: 3, interval: 'month' } } },
  },
  'PUT /rest/invoices/{invoice_number}/status_change': {
    responses: {
      200: {
        paid_in_cash: answer(
          'Marked paid',
          invoiceWrapper('Invoice status changed.', { ...afterReminder, ...changed, status: 'paid', updated_at: LATER }),
        ),
      },
    },
    parameters: { invoice_number: INVOICE_NUMBER },
    request: { paid_in_cash: { summary: 'Paid outside the gateway', value: { status: 'paid' } } },
  },
  'POST /rest/invoices/{invoice_number}/reminder': {
    responses: {
      200: {
        reminder: answer('The reminder is queued', invoiceWrapper('Reminder queued.', afterReminder)),
      },
    },
    parameters: { invoice_number: INVOICE_NUMBER },
  },
  'GET /rest/invoices/{invoice_number}': { parameters: { invoice_number: INVOICE_NUMBER } },
  'DELETE /rest/invoices/{invoice_number}': { parameters: { invoice_number: INVOICE_NUMBER } },
  'GET /rest/invoices/{invoice_number}/payment_plan': { parameters: { invoice_number: INVOICE_NUMBER } },
  'DELETE /rest/invoices/{invoice_number}/payment_plan': { parameters: { invoice_number: INVOICE_NUMBER } },
  'GET /rest/transactions/{transaction_id}': { parameters: { transaction_id: EXAMPLE_IDS.contactless } },
  'GET /rest/transactions/{transaction_id}/log': { parameters: { transaction_id: EXAMPLE_IDS.contactless } },
  'GET /rest/transactions/{transaction_id}/refunds': { parameters: { transaction_id: EXAMPLE_IDS.contactless } },
  'GET /rest/transactions/{transaction_id}/postbacks': { parameters: { transaction_id: EXAMPLE_IDS.contactless } },
  'POST /rest/postbacks/{event_id}/resend': {
    responses: {
      200: {
        resend: answer('Queued for an attempt now', {
          event_id: EXAMPLE_IDS.postbackEvent,
          subject_type: 'transaction',
          subject_id: EXAMPLE_IDS.contactless,
          sequence: 1,
          url: POSTBACK_URL,
          state: 'pending',
          status_code: 3,
          attempts: 10,
          next_attempt_at: LATER,
          delivered_at: null,
          last_error: 'HTTP 503 (attempt 10)',
          created_at: AT,
          payload: {
            transaction_id: EXAMPLE_IDS.contactless,
            payment_type: 'cardpos',
            status_code: 3,
            status: 'completed',
            order_id: 'till-2026-0042',
            message: 'Approved',
            additional_transaction_data: null,
            amount: 23.4,
            currency: 'EUR',
            included_fees: '0.43',
            external_transaction_id: 'SIMF40892D45E0F281',
            captured_amount: 23.4,
          },
          error_code: 0,
        }),
      },
    },
    parameters: { event_id: EXAMPLE_IDS.postbackEvent },
  },
  'GET /rest/checkouts/{checkout_id}': { parameters: { checkout_id: EXAMPLE_IDS.checkout } },
  'GET /v2/network_tokens/{id}': { parameters: { id: EXAMPLE_IDS.token } },
  'GET /v2/network_tokens/{id}/data': { parameters: { id: EXAMPLE_IDS.token } },
  'DELETE /v2/network_tokens/{id}': { parameters: { id: EXAMPLE_IDS.token } },
  ...MERCHANT_MANAGEMENT_EXAMPLES,
};

interface MediaType {
  examples?: Record<string, Example>;
}
interface OperationObject {
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
type PathsObject = Record<string, Record<string, OperationObject>>;

/**
 * Adds the examples to a generated OpenAPI document (in place) and returns it. An example for an
 * operation, a status or a parameter the document does not have is an error: the examples must
 * follow the routes.
 */
export function addExamples<D extends { paths?: unknown }>(document: D): D {
  const paths = (document.paths ?? {}) as PathsObject;
  for (const [key, examples] of Object.entries(OPERATION_EXAMPLES)) {
    const [method = '', path = ''] = key.split(' ');
    const operation = paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`OpenAPI examples: no operation ${key}`);
    for (const [name, value] of Object.entries(examples.parameters ?? {})) {
      const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
      if (!parameter) throw new Error(`OpenAPI examples: ${key} has no path parameter ${name}`);
      parameter.example = value;
    }
    if (examples.request) {
      const media = operation.requestBody?.content?.['application/json'];
      if (!media) throw new Error(`OpenAPI examples: ${key} takes no JSON body`);
      media.examples = examples.request;
    }
    for (const [status, named] of Object.entries(examples.responses ?? {})) {
      const media = operation.responses?.[status]?.content?.['application/json'];
      if (!media) throw new Error(`OpenAPI examples: ${key} has no JSON response ${status}`);
      media.examples = named;
    }
  }
  return document;
}
