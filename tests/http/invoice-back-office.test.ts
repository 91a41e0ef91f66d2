// The back office's invoices (issue 15, 5; decisions.md "Back office: invoices"): the invoice error
// body's field-level `errors` on every kind of refusal (field rules, schema failures, restricted
// changes, activation conflicts, status, list filters); the /ui routes of the screens (channels,
// the create and edit checks, the payments made through a pay link) with who may call them; and
// every invoice change a staff member makes landing in the audit log under their name.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, test } from 'node:test';
import { createTestMerchant, loginStaff, startTestGateway, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { EXPIRY_YEAR } from '../helpers/payments.js';
import { countOf } from '../helpers/sql.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface FieldError {
  field: string;
  message: string;
}
interface InvoiceErrorBody {
  message: string;
  error: string;
  errors: FieldError[];
}
interface Wrapper {
  invoice: {
    id: number;
    uuid: string;
    debt_claim_number: string;
    status: string;
    active: boolean;
    channel_id: number;
    amount: number;
    city: string | null;
  };
  paylink: string;
}

const RESTRICTED = 'Amount and active can only be changed while the invoice is pending and has never had a payment plan attached.';
const GOOD_CARD = {
  step: 'card',
  card_number: '4111 1111 1111 1111',
  expiry: `12/${String(EXPIRY_YEAR).slice(2)}`,
  cvc: '123',
  holder: 'Ada Lovelace',
};
const DECLINED_CARD = { ...GOOD_CARD, card_number: '4000 0000 0000 0002' };

describe('back office: invoices', () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let other: TestMerchant;
  let channel: string;
  const tokens: Record<'office' | 'admin' | 'cashier' | 'otherOffice', string> = { office: '', admin: '', cashier: '', otherOffice: '' };
  const staffIds: Record<string, string> = {};

  const login = async (merchant: TestMerchant, role: string, loginName: string): Promise<string> => {
    const { staffId, session } = await loginStaff(gw, merchant, role, loginName);
    staffIds[loginName] = staffId;
    return session;
  };

  before(async () => {
    gw = await startTestGateway();
    shop = await createTestMerchant(gw, 'Office Shop');
    other = await createTestMerchant(gw, 'Other Shop');
    channel = shop.channel.url_name;
    tokens.office = await login(shop, 'back_office', 'office');
    tokens.admin = await login(shop, 'admin', 'boss');
    tokens.cashier = await login(shop, 'cashier', 'till');
    tokens.otherOffice = await login(other, 'back_office', 'other-office');
  });

  after(async () => {
    await gw.close();
  });

  /** By API key (default) or by a staff session. */
  const inject = (method: Method, url: string, payload?: unknown, who: keyof typeof tokens | 'api' = 'api') =>
    gw.app.inject({
      method,
      url,
      headers: who === 'api' ? { authorization: shop.auth } : { cookie: `tillgate_session=${tokens[who]}` },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const create = async (invoice: Record<string, unknown> = {}, who: keyof typeof tokens | 'api' = 'api'): Promise<Wrapper> => {
    const response = await inject('POST', '/rest/invoices', { url_name: channel, invoice: { amount: 10, ...invoice } }, who);
    assert.equal(response.statusCode, 201, response.body);
    return response.json<Wrapper>();
  };
  const path = (number: string) => `/rest/invoices/${encodeURIComponent(number)}`;
  /** The invoice error body with these fields named in `errors` (in this order). */
  const refused = (response: LightMyRequestResponse, status: number, fields: string[]): InvoiceErrorBody => {
    assert.equal(response.statusCode, status, response.body);
    const body = response.json<InvoiceErrorBody>();
    assert.deepEqual(Object.keys(body).sort(), ['error', 'errors', 'message']);
    assert.deepEqual(
      body.errors.map((e) => e.field),
      fields,
      response.body,
    );
    if (body.errors.length > 1) assert.equal(body.message, body.errors.map((e) => e.message).join(' '), 'the message joins the sentences');
    return body;
  };

  describe('field-level errors of the invoice API', () => {
    test('create: every bad field is named with its own sentence; message and error stay the joined text', async () => {
      const body = refused(
        await inject('POST', '/rest/invoices', {
          url_name: 'no-such-channel',
          invoice: {
            amount: '',
            currency: 'EURO',
            locale: 'fr',
            email: 'nobody',
            expires_in: 3,
            success_url: 'ftp://x',
            country: 'Atlantis',
          },
        }),
        422,
        [
          'url_name',
          'invoice.email',
          'invoice.country',
          'invoice.currency',
          'invoice.success_url',
          'invoice.expires_in_unit',
          'invoice.locale',
          'invoice.amount',
        ],
      );
      assert.equal(body.error, body.message);
      assert.deepEqual(
        body.errors.find((e) => e.field === 'invoice.currency'),
        { field: 'invoice.currency', message: 'Currency is the wrong length (should be 3 characters).' },
      );
      assert.deepEqual(
        body.errors.find((e) => e.field === 'invoice.amount'),
        { field: 'invoice.amount', message: "Amount can't be blank." },
      );
      // One bad field: its sentence is message, error and the one entry.
      const one = refused(await inject('POST', '/rest/invoices', { url_name: channel, invoice: { amount: 5, currency: 'EURO' } }), 422, [
        'invoice.currency',
      ]);
      assert.deepEqual(
        [one.message, one.error],
        ['Currency is the wrong length (should be 3 characters).', 'Currency is the wrong length (should be 3 characters).'],
      );
      // send_initial_email without an address names the e-mail.
      refused(await inject('POST', '/rest/invoices', { url_name: channel, invoice: { amount: 5, send_initial_email: true } }), 422, [
        'invoice.email',
      ]);
    });

    test('create: schema failures (wrong types, unknown fields, missing url_name) are named beside the rules', async () => {
      const body = refused(
        await inject('POST', '/rest/invoices', { invoice: { amount: 5, currency: 7, colour: 'red', locale: 'xx' } }),
        422,
        ['url_name', 'invoice.colour', 'invoice.currency', 'invoice.locale'],
      );
      assert.deepEqual(body.errors[0], { field: 'url_name', message: 'url_name is required.' });
      assert.deepEqual(body.errors[1], { field: 'invoice.colour', message: 'invoice.colour is not a known field.' });
      assert.equal(body.errors[3]?.message, 'Locale is not included in the list (en, de, pt).');
    });

    test('update: field rules, the restricted amount/active change and the activation conflict each name their field', async () => {
      await create({ debt_claim_number: 'FE-1' });
      refused(await inject('PUT', path('FE-1'), { invoice: { currency: 'GB', print_date: '2026-02-30' } }), 422, [
        'invoice.currency',
        'invoice.print_date',
      ]);
      await inject('PUT', `${path('FE-1')}/status_change`, { status: 'paid' });
      assert.equal(refused(await inject('PUT', path('FE-1'), { invoice: { amount: 20 } }), 422, ['invoice.amount']).message, RESTRICTED);
      assert.equal(
        refused(await inject('PATCH', path('FE-1'), { invoice: { active: false } }), 422, ['invoice.active']).message,
        RESTRICTED,
      );
      // Activation while another active invoice in the channel holds the (new) number.
      await create({ debt_claim_number: 'FE-2' });
      await inject('PUT', path('FE-2'), { invoice: { active: false } });
      await create({ debt_claim_number: 'FE-3' });
      const conflict = refused(await inject('PUT', path('FE-2'), { invoice: { debt_claim_number: 'FE-3', active: true } }), 422, [
        'invoice.active',
      ]);
      assert.equal(conflict.message, 'Another active invoice in this channel has the number FE-3; deactivate it first.');
    });

    test('status change, delete with an active plan, not found and list filters name theirs', async () => {
      const inv = await create();
      const number = inv.invoice.debt_claim_number;
      const status = refused(await inject('PUT', `${path(number)}/status_change`, { status: 'done' }), 422, ['status']);
      assert.deepEqual(
        [status.message, status.error],
        ['Invalid status.', 'Status must be one of: pending, processing, paid, partly_paid.'],
      );
      refused(await inject('PUT', `${path(number)}/status_change`, {}), 422, ['status']);
      assert.equal((await inject('POST', `${path(number)}/payment_plan`, { installments: 2, interval: 'week' })).statusCode, 201);
      const blocked = refused(await inject('DELETE', path(number)), 422, ['payment_plan']);
      assert.deepEqual(
        [blocked.message, blocked.error],
        ['Payment plan must be stopped before deleting the invoice.', 'Invoice has an active payment plan.'],
      );
      refused(await inject('POST', `${path(number)}/payment_plan`, { installments: 30, interval: 'week' }), 422, ['installments']);
      refused(await inject('GET', path('NOPE-404')), 404, ['invoice_number']);
      refused(await inject('GET', '/rest/invoices?status=open&page=0&created_at_to=2026-13-01'), 422, ['status', 'created_at_to', 'page']);
      refused(await inject('GET', '/rest/emails?invoice_number='), 422, ['invoice_number']);
    });
  });

  describe('the /ui routes of the invoice screens', () => {
    test("GET /ui/invoice-channels: the merchant's channels with the channel_id invoices answer; cashier 403, logged out 401", async () => {
      const inv = await create();
      const response = await inject('GET', '/ui/invoice-channels', undefined, 'office');
      assert.equal(response.statusCode, 200, response.body);
      const { channels } = response.json<{
        channels: Array<{ url_name: string; name: string; channel_id: number; currency: string; language: string }>;
      }>();
      assert.deepEqual(channels, [
        { url_name: channel, name: 'Office Shop', channel_id: inv.invoice.channel_id, currency: 'EUR', language: 'en' },
      ]);
      const theirs = await inject('GET', '/ui/invoice-channels', undefined, 'otherOffice');
      assert.deepEqual(
        theirs.json<{ channels: Array<{ url_name: string }> }>().channels.map((c) => c.url_name),
        [other.channel.url_name],
      );
      assert.equal((await inject('GET', '/ui/invoice-channels', undefined, 'admin')).statusCode, 200);
      assert.equal((await inject('GET', '/ui/invoice-channels', undefined, 'cashier')).statusCode, 403);
      assert.equal((await gw.app.inject({ method: 'GET', url: '/ui/invoice-channels' })).statusCode, 401);
      assert.equal((await inject('GET', '/ui/invoice-channels')).statusCode, 401, 'API credentials are not a staff session');
    });

    test('POST /ui/invoices/check answers the errors the create would answer (schema and rules), and creates nothing', async () => {
      const count = () => countOf(gw, 'SELECT COUNT(*) AS n FROM invoices');
      const before = await count();
      const bodies: unknown[] = [
        { url_name: channel, invoice: { amount: 5, currency: 'EURO' } },
        { url_name: 'elsewhere', invoice: { amount: '1,005', locale: 'fr', send_initial_email: true } },
        { url_name: other.channel.url_name, invoice: { amount: 5 } },
        { invoice: { amount: 5, currency: 7, colour: 'red' } },
      ];
      for (const body of bodies) {
        const real = await inject('POST', '/rest/invoices', body);
        assert.equal(real.statusCode, 422, real.body);
        const check = await inject('POST', '/ui/invoices/check', body, 'office');
        assert.equal(check.statusCode, 200, check.body);
        assert.deepEqual(check.json(), { errors: real.json<InvoiceErrorBody>().errors }, JSON.stringify(body));
      }
      const fine = await inject(
        'POST',
        '/ui/invoices/check',
        { url_name: channel, invoice: { amount: '12,50', currency: 'GBP', locale: 'de', expires_in: 2, expires_in_unit: 'days' } },
        'office',
      );
      assert.deepEqual([fine.statusCode, fine.json()], [200, { errors: [] }]);
      assert.equal(await count(), before, 'a check writes nothing');
      assert.equal((await inject('POST', '/ui/invoices/check', bodies[0], 'cashier')).statusCode, 403);
    });

    test('POST /ui/invoices/:invoice_number/check answers what the update would refuse against the invoice as it is, and changes nothing', async () => {
      const inv = await create({ debt_claim_number: 'CHK-1', city: 'Lisbon' });
      const ok = await inject('POST', '/ui/invoices/CHK-1/check', { invoice: { amount: 12, active: false, city: 'Porto' } }, 'office');
      assert.deepEqual([ok.statusCode, ok.json()], [200, { errors: [] }]);
      const bad = await inject('POST', '/ui/invoices/CHK-1/check', { invoice: { currency: 'GB', email: 'x' } }, 'office');
      assert.deepEqual(bad.json(), {
        errors: [
          { field: 'invoice.email', message: 'Email is not a valid e-mail address.' },
          { field: 'invoice.currency', message: 'Currency is the wrong length (should be 3 characters).' },
        ],
      });
      await inject('PUT', '/rest/invoices/CHK-1/status_change', { status: 'paid' });
      for (const change of [{ amount: 12 }, { active: false }]) {
        const real = await inject('PUT', '/rest/invoices/CHK-1', { invoice: change });
        const check = await inject('POST', '/ui/invoices/CHK-1/check', { invoice: change }, 'office');
        assert.deepEqual(check.json(), { errors: real.json<InvoiceErrorBody>().errors });
        assert.deepEqual(check.json(), { errors: [{ field: `invoice.${Object.keys(change)[0] ?? ''}`, message: RESTRICTED }] });
      }
      // The activation conflict, against the invoices as they are.
      await inject('PUT', '/rest/invoices/CHK-1/status_change', { status: 'pending' });
      await inject('PUT', '/rest/invoices/CHK-1', { invoice: { active: false } });
      await create({ debt_claim_number: 'CHK-2' });
      const activate = { invoice: { debt_claim_number: 'CHK-2', active: true } };
      const conflict = await inject('POST', '/ui/invoices/CHK-1/check', activate, 'office');
      assert.deepEqual(conflict.json(), {
        errors: [{ field: 'invoice.active', message: 'Another active invoice in this channel has the number CHK-2; deactivate it first.' }],
      });
      assert.deepEqual(
        (await inject('PUT', '/rest/invoices/CHK-1', activate)).json<InvoiceErrorBody>().errors,
        conflict.json<{ errors: FieldError[] }>().errors,
      );
      const unchanged = (await inject('GET', path('CHK-1'))).json<Wrapper>();
      assert.deepEqual(
        [unchanged.invoice.id, unchanged.invoice.city, unchanged.invoice.active],
        [inv.invoice.id, 'Lisbon', false],
        'checks change nothing',
      );
      const missing = await inject('POST', '/ui/invoices/NO-SUCH/check', { invoice: { city: 'x' } }, 'office');
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), {
        message: 'Invoice not found.',
        error: 'Invoice not found.',
        errors: [{ field: 'invoice_number', message: 'Invoice not found.' }],
      });
      const schema = await inject('POST', '/ui/invoices/CHK-1/check', { invoice: { active: 'yes', colour: 1 } }, 'office');
      assert.deepEqual(
        [schema.statusCode, schema.json<{ errors: FieldError[] }>().errors.map((e) => e.field)],
        [200, ['invoice.colour', 'invoice.active']],
      );
      assert.equal((await inject('POST', '/ui/invoices/CHK-1/check', { invoice: {} }, 'cashier')).statusCode, 403);
    });

    test('GET /ui/invoices/:invoice_number/payments lists what was paid through the pay link, newest first, with instalments', async () => {
      const post = (url: string, form: Record<string, string>) =>
        gw.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
          payload: new URLSearchParams(form).toString(),
        });
      const payByCard = async (uuid: string, card: Record<string, string>) => {
        const chosen = await post(`/pay/${uuid}`, { method: 'cardecom' });
        assert.equal(chosen.statusCode, 303, chosen.body);
        await post(String(chosen.headers.location), card);
      };
      const plain = await create({ amount: 30 });
      const number = plain.invoice.debt_claim_number;
      const none = await inject('GET', `/ui/invoices/${encodeURIComponent(number)}/payments`, undefined, 'office');
      assert.deepEqual([none.statusCode, none.json()], [200, { payments: [] }]);
      await payByCard(plain.invoice.uuid, DECLINED_CARD);
      await payByCard(plain.invoice.uuid, GOOD_CARD);
      const paid = (await inject('GET', `/ui/invoices/${encodeURIComponent(number)}/payments`, undefined, 'office')).json<{
        payments: Array<{
          instalment: number | null;
          plan_id: string | null;
          transaction: { status: string; amount: number; currency: string; order_id: string; card_last_four?: string };
        }>;
      }>().payments;
      assert.deepEqual(
        paid.map((p) => [
          p.instalment,
          p.plan_id,
          p.transaction.status,
          p.transaction.amount,
          p.transaction.order_id,
          p.transaction.card_last_four,
        ]),
        [
          [null, null, 'completed', 30, plain.invoice.uuid, '1111'],
          [null, null, 'declined', 30, plain.invoice.uuid, '0002'],
        ],
      );
      // An API payment with the same order id is not the pay link's.
      const card = { card_number: '4111111111111111', card_expiry_month: '12', card_expiry_year: String(EXPIRY_YEAR), card_cvv: '123' };
      const direct = await inject('POST', '/rest/payment', {
        payment_type: 'cardecom',
        order_id: plain.invoice.uuid,
        amount: 1,
        currency: 'EUR',
        ...card,
      });
      assert.ok(direct.statusCode < 300, direct.body);
      assert.equal(
        (await inject('GET', `/ui/invoices/${encodeURIComponent(number)}/payments`, undefined, 'office')).json<{ payments: unknown[] }>()
          .payments.length,
        2,
      );

      const planned = await create({ amount: 20 });
      const plannedNumber = planned.invoice.debt_claim_number;
      const plan = (await inject('POST', `${path(plannedNumber)}/payment_plan`, { installments: 2, interval: 'month' })).json<{
        payment_plan: { id: string };
      }>();
      await payByCard(planned.invoice.uuid, GOOD_CARD);
      const instalments = (await inject('GET', `/ui/invoices/${encodeURIComponent(plannedNumber)}/payments`, undefined, 'admin')).json<{
        payments: Array<{ instalment: number | null; plan_id: string | null; transaction: { amount: number; order_id: string } }>;
      }>().payments;
      assert.deepEqual(
        instalments.map((p) => [p.instalment, p.plan_id, p.transaction.amount, p.transaction.order_id]),
        [[1, plan.payment_plan.id, 10, `${plan.payment_plan.id}-1`]],
      );

      assert.equal((await inject('GET', `/ui/invoices/${encodeURIComponent(number)}/payments`, undefined, 'cashier')).statusCode, 403);
      const foreign = await inject('GET', `/ui/invoices/${encodeURIComponent(number)}/payments`, undefined, 'otherOffice');
      assert.equal(foreign.statusCode, 404, "another merchant's invoice is not found");
    });
  });

  describe('GET /ui/invoices/:invoice_number/payment-plan', () => {
    test('null while the invoice never had a plan (no 404), then the active plan, then the cancelled one', async () => {
      const inv = await create({ amount: 90 });
      const url = `/ui/invoices/${encodeURIComponent(inv.invoice.debt_claim_number)}/payment-plan`;
      assert.deepEqual(
        [(await inject('GET', url, undefined, 'office')).statusCode, (await inject('GET', url, undefined, 'office')).json()],
        [200, { payment_plan: null }],
      );
      const created = await inject(
        'POST',
        `${path(inv.invoice.debt_claim_number)}/payment_plan`,
        { installments: 3, interval: 'month' },
        'office',
      );
      assert.equal(created.statusCode, 201, created.body);
      const active = (await inject('GET', url, undefined, 'office')).json<{
        payment_plan: { status: string; schedule: Array<{ amount: number }> };
      }>();
      assert.deepEqual([active.payment_plan.status, active.payment_plan.schedule.map((i) => i.amount)], ['active', [30, 30, 30]]);
      assert.deepEqual(
        active.payment_plan,
        (await inject('GET', `${path(inv.invoice.debt_claim_number)}/payment_plan`)).json<{ payment_plan: unknown }>().payment_plan,
      );
      await inject('DELETE', `${path(inv.invoice.debt_claim_number)}/payment_plan`, undefined, 'office');
      assert.equal(
        (await inject('GET', url, undefined, 'office')).json<{ payment_plan: { status: string } }>().payment_plan.status,
        'cancelled',
      );
      assert.equal((await inject('GET', '/ui/invoices/NONE-1/payment-plan', undefined, 'office')).statusCode, 404);
      assert.equal((await inject('GET', url, undefined, 'cashier')).statusCode, 403);
    });
  });

  describe('staff sessions and the audit log', () => {
    test('a cashier may not call the invoice API; back office and admin may', async () => {
      assert.equal((await inject('GET', '/rest/invoices', undefined, 'cashier')).statusCode, 403);
      assert.equal((await inject('POST', '/rest/invoices', { url_name: channel, invoice: { amount: 1 } }, 'cashier')).statusCode, 403);
      assert.equal((await inject('GET', '/rest/invoices', undefined, 'office')).statusCode, 200);
      assert.equal((await inject('GET', '/rest/invoices', undefined, 'admin')).statusCode, 200);
    });

    test('every invoice change by staff is audited under the staff member, with the invoice number; refusals and reads are not', async () => {
      const audit = async () =>
        (await inject('GET', '/ui/audit', undefined, 'admin')).json<
          Array<{ action: string; staff_id: string | null; subject_id: string | null; detail: string | null }>
        >();
      const before = (await audit()).length;
      const created = await create({ amount: 42.5, email: 'ada@example.com', debt_claim_number: 'AUD-1' }, 'office');
      assert.equal(created.invoice.debt_claim_number, 'AUD-1');
      assert.equal((await inject('PUT', path('AUD-1'), { invoice: { city: 'Porto', description: 'Spring' } }, 'office')).statusCode, 200);
      assert.equal((await inject('PATCH', path('AUD-1'), { invoice: { active: false } }, 'admin')).statusCode, 200);
      assert.equal((await inject('PATCH', path('AUD-1'), { invoice: { active: true } }, 'admin')).statusCode, 200);
      assert.equal((await inject('POST', `${path('AUD-1')}/reminder`, undefined, 'office')).statusCode, 200);
      assert.equal(
        (await inject('POST', `${path('AUD-1')}/payment_plan`, { installments: 3, interval: 'week' }, 'office')).statusCode,
        201,
      );
      assert.equal((await inject('DELETE', `${path('AUD-1')}/payment_plan`, undefined, 'office')).statusCode, 200);
      assert.equal((await inject('PUT', `${path('AUD-1')}/status_change`, { status: 'paid' }, 'office')).statusCode, 200);
      // Refused and read-only calls leave no entry.
      assert.equal((await inject('PUT', path('AUD-1'), { invoice: { amount: 1 } }, 'office')).statusCode, 422);
      assert.equal((await inject('GET', path('AUD-1'), undefined, 'office')).statusCode, 200);
      assert.equal((await inject('POST', '/ui/invoices/AUD-1/check', { invoice: { city: 'x' } }, 'office')).statusCode, 200);
      assert.equal((await inject('DELETE', path('AUD-1'), undefined, 'office')).statusCode, 204);
      // API credentials are not staff: not audited.
      await create({ debt_claim_number: 'AUD-2' });

      const entries = (await audit()).slice(0, (await audit()).length - before).reverse();
      assert.deepEqual(
        entries.map((e) => [e.action, e.staff_id, e.subject_id, e.detail]),
        [
          ['invoice_create', staffIds.office, 'AUD-1', 'amount 42.5 EUR'],
          ['invoice_update', staffIds.office, 'AUD-1', 'changed city, description'],
          ['invoice_update', staffIds.boss, 'AUD-1', 'changed active; active false'],
          ['invoice_update', staffIds.boss, 'AUD-1', 'changed active; active true'],
          ['invoice_reminder', staffIds.office, 'AUD-1', null],
          ['invoice_plan_create', staffIds.office, 'AUD-1', '3 instalments, every week'],
          ['invoice_plan_cancel', staffIds.office, 'AUD-1', null],
          ['invoice_status', staffIds.office, 'AUD-1', 'status paid'],
          ['invoice_delete', staffIds.office, 'AUD-1', null],
        ],
      );
    });
  });
});
