// Invoices over the API (docs/api.md "Invoices"; docs/decisions.md "Invoices"): create rules 1-6,
// every row of the update-rules table, status change, number resolution, the list and its
// pagination, delete, merchant scoping, idempotent create, and every invoice error row with its
// exact body. The QR code is decoded with zbarimg.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlanStatus as PaymentPlanStatus } from '../../contract/constants.js';
import { createTestMerchant, startTestGateway, tempDir, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { countOf, sqlOf } from '../helpers/sql.js';

interface Wrapper {
  invoice: Record<string, unknown> & { id: number; uuid: string; debt_claim_number: string; active: boolean; status: string };
  message: string;
  error: null;
  paylink: string;
  qrcode: string;
}

const DAY = 24 * 60 * 60 * 1000;
const RESTRICTED = 'Amount and active can only be changed while the invoice is pending and has never had a payment plan attached.';

describe('invoices', () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let other: TestMerchant;
  let channel: string;

  before(async () => {
    gw = await startTestGateway();
    shop = await createTestMerchant(gw, 'Invoice Shop');
    other = await createTestMerchant(gw, 'Other Shop');
    channel = shop.channel.url_name;
  });

  after(async () => {
    await gw.close();
  });

  const inject = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    merchant = shop,
    headers: Record<string, string> = {},
  ) =>
    gw.app.inject({
      method,
      url,
      headers: { authorization: merchant.auth, ...headers },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const createRaw = (invoice: Record<string, unknown>, merchant = shop, urlName = channel, headers: Record<string, string> = {}) =>
    inject('POST', '/rest/invoices', { url_name: urlName, invoice }, merchant, headers);
  const create = async (invoice: Record<string, unknown> = {}): Promise<Wrapper> => {
    const response = await createRaw({ amount: 10, ...invoice });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<Wrapper>();
  };
  const path = (number: string) => `/rest/invoices/${encodeURIComponent(number)}`;
  const update = (number: string, invoice: Record<string, unknown>, method: 'PUT' | 'PATCH' = 'PUT') =>
    inject(method, path(number), { invoice });
  const updated = async (number: string, invoice: Record<string, unknown>, method: 'PUT' | 'PATCH' = 'PUT'): Promise<Wrapper> => {
    const response = await update(number, invoice, method);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<Wrapper>();
  };
  const read = async (number: string): Promise<Wrapper> => {
    const response = await inject('GET', path(number));
    assert.equal(response.statusCode, 200, response.body);
    return response.json<Wrapper>();
  };
  const statusChange = (number: string, body: unknown) => inject('PUT', `${path(number)}/status_change`, body);
  const attachPlan = (invoiceId: number, status: PaymentPlanStatus) => {
    const now = gw.clock.now().toISOString();
    return gw.composition.gateway.store.run((tx) =>
      tx.invoices.insertPlan({
        id: `plan-${invoiceId}-${status}`,
        invoiceId,
        status,
        installments: 3,
        interval: 'month',
        createdAt: now,
        updatedAt: now,
      }),
    );
  };
  /**
   * Asserts the invoice error body of docs/decisions.md "Invoices": exactly these message and
   * error, no invoice; and `errors` (decisions.md "Back office: invoices"), each field at fault
   * with its own sentence: together they are the message (one problem: its sentence is `error`).
   */
  const assertInvoiceError = (
    response: { statusCode: number; body: string; headers: Record<string, unknown> },
    status: number,
    message: string,
    error = message,
  ) => {
    assert.equal(response.statusCode, status, response.body);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    const body = JSON.parse(response.body) as { message: string; error: string; errors: Array<{ field: string; message: string }> };
    assert.deepEqual(Object.keys(body).sort(), ['error', 'errors', 'message']);
    assert.deepEqual({ message: body.message, error: body.error }, { message, error });
    assert.ok(body.errors.length > 0, 'errors names the field at fault');
    for (const entry of body.errors) assert.deepEqual(Object.keys(entry).sort(), ['field', 'message']);
    if (body.errors.length === 1) assert.equal(body.errors[0]?.message, error);
    else assert.equal(body.errors.map((e) => e.message).join(' '), message);
  };

  describe('create', () => {
    test('answers 201 with the wrapper: every field, paylink and QR code; numbers are INV-0001, INV-0002, ...', async () => {
      const first = await create({ amount: 10.55, first_name: 'Ada', email: 'ada@example.com', country: 'DE', description: 'March' });
      assert.deepEqual(Object.keys(first).sort(), ['error', 'invoice', 'message', 'paylink', 'qrcode']);
      assert.equal(first.error, null);
      assert.equal(first.message, 'Invoice created.');
      const inv = first.invoice;
      assert.deepEqual(
        Object.keys(inv).sort(),
        [
          'active',
          'address',
          'address2',
          'amount',
          'amount_cents',
          'channel_id',
          'city',
          'company',
          'country',
          'created_at',
          'currency',
          'customer_id',
          'debt_claim_number',
          'description',
          'effective_initial_email_type',
          'effective_locale',
          'email',
          'error_url',
          'expired',
          'expires_in',
          'expires_in_unit',
          'first_name',
          'id',
          'import_id',
          'initial_email_type',
          'last_email',
          'last_name',
          'locale',
          'phone',
          'postal_code',
          'print_date',
          'redirect_after_payments',
          'send_initial_email',
          'state',
          'status',
          'success_url',
          'tax_id',
          'updated_at',
          'uuid',
        ].sort(),
      );
      assert.equal(inv.debt_claim_number, 'INV-0001');
      assert.equal(typeof inv.id, 'number');
      assert.equal(typeof inv.channel_id, 'number');
      assert.deepEqual(
        [inv.status, inv.active, inv.amount, inv.amount_cents, inv.currency, inv.country],
        ['pending', true, 10.55, 1055, 'EUR', 'Germany'],
      );
      assert.equal(inv.print_date, gw.clock.now().toISOString().slice(0, 10));
      assert.deepEqual(
        [inv.redirect_after_payments, inv.send_initial_email, inv.initial_email_type, inv.locale],
        [false, false, null, null],
      );
      assert.deepEqual(
        [inv.effective_initial_email_type, inv.effective_locale, inv.last_email, inv.import_id],
        ['initial', 'en', null, null],
      );
      assert.deepEqual([inv.expires_in, inv.expires_in_unit, inv.expired], [null, null, false]);
      assert.match(first.paylink, new RegExp(`/pay/${inv.uuid}$`));
      assert.match(first.qrcode, /^data:image\/png;base64,/);
      const second = await create();
      assert.equal(second.invoice.debt_claim_number, 'INV-0002');
      assert.equal(second.invoice.channel_id, inv.channel_id);
    });

    test('the QR code is a 250 px PNG that decodes (zbarimg) to the pay link', async () => {
      const created = await create();
      const png = Buffer.from(created.qrcode.replace(/^data:image\/png;base64,/, ''), 'base64');
      assert.deepEqual([...png.subarray(1, 4)].map((b) => String.fromCharCode(b)).join(''), 'PNG');
      assert.equal(png.readUInt32BE(16), 250, 'width');
      assert.equal(png.readUInt32BE(20), 250, 'height');
      const file = join(tempDir('tillgate-qr-'), 'qr.png');
      writeFileSync(file, png);
      const decoded = execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8' }).trim();
      assert.equal(decoded, created.paylink);
    });

    test('rule 1: always created active; an active value in the body is ignored', async () => {
      const created = await create({ active: false });
      assert.equal(created.invoice.active, true);
      const alsoString = await create({ active: '0' });
      assert.equal(alsoString.invoice.active, true);
    });

    test('rule 2: a number active in the channel is taken over; the other invoice is deactivated', async () => {
      const old = await create({ debt_claim_number: 'R2-1' });
      const fresh = await create({ debt_claim_number: 'R2-1' });
      assert.equal(fresh.invoice.active, true);
      assert.notEqual(fresh.invoice.id, old.invoice.id);
      const rows = await sqlOf(gw).all('SELECT id, active FROM invoices WHERE debt_claim_number = ? ORDER BY id', 'R2-1');
      assert.deepEqual(rows, [
        { id: old.invoice.id, active: 0 },
        { id: fresh.invoice.id, active: 1 },
      ]);
    });

    test('generated numbers skip numbers already used in the channel and grow past 4 digits', async () => {
      const before = await create();
      const next = Number(before.invoice.debt_claim_number.slice(4)) + 1;
      await create({ debt_claim_number: `INV-${String(next).padStart(4, '0')}` });
      const after = await create();
      assert.equal(after.invoice.debt_claim_number, `INV-${String(next + 1).padStart(4, '0')}`);
      await sqlOf(gw).run('UPDATE invoice_number_counters SET last_number = 9999');
      assert.equal((await create()).invoice.debt_claim_number, 'INV-10000');
    });

    test('rule 3: send_initial_email=true needs email, else 422; with email the flag is stored', async () => {
      const response = await createRaw({ amount: 5, send_initial_email: true });
      const text = 'Email is required when send_initial_email is true.';
      assertInvoiceError(response, 422, text);
      const created = await create({ send_initial_email: true, email: 'bob@example.com' });
      assert.equal(created.invoice.send_initial_email, true);
      assert.deepEqual(
        created.invoice.last_email,
        { email_type: 'initial', status: 'queued', sent_at: null, recipient_email: 'bob@example.com', locale: 'en' },
        'the initial e-mail is queued with the invoice (tests/http/invoice-emails.test.ts covers delivery)',
      );
    });

    test('rule 4: initial_email_type honoured as given, blank means initial, other values 422', async () => {
      const reminder = await create({ send_initial_email: true, email: 'c@example.com', initial_email_type: 'reminder' });
      assert.deepEqual([reminder.invoice.initial_email_type, reminder.invoice.effective_initial_email_type], ['reminder', 'reminder']);
      const blank = await create({ send_initial_email: true, email: 'c@example.com', initial_email_type: '' });
      assert.deepEqual([blank.invoice.initial_email_type, blank.invoice.effective_initial_email_type], [null, 'initial']);
      const text = 'Initial email type is not included in the list (initial, reminder).';
      assertInvoiceError(await createRaw({ amount: 5, initial_email_type: 'weekly' }), 422, text);
    });

    test('rule 5: locale defaults to the channel language (effective_locale); outside en, de, pt 422', async () => {
      const german = await createTestMerchant(gw, 'Deutscher Laden');
      await sqlOf(gw).run("UPDATE channels SET language = 'de' WHERE url_name = ?", german.channel.url_name);
      const response = await createRaw({ amount: 5 }, german, german.channel.url_name);
      assert.equal(response.statusCode, 201, response.body);
      assert.deepEqual([response.json<Wrapper>().invoice.locale, response.json<Wrapper>().invoice.effective_locale], [null, 'de']);
      const pt = await create({ locale: 'pt' });
      assert.deepEqual([pt.invoice.locale, pt.invoice.effective_locale], ['pt', 'pt']);
      assertInvoiceError(await createRaw({ amount: 5, locale: 'fr' }), 422, 'Locale is not included in the list (en, de, pt).');
    });

    test('rule 6: expiry needs both fields; omitting both disables it; expired is computed', async () => {
      const none = await create();
      assert.deepEqual([none.invoice.expires_in, none.invoice.expires_in_unit, none.invoice.expired], [null, null, false]);
      const soon = await create({ expires_in: 2, expires_in_unit: 'hours' });
      assert.deepEqual([soon.invoice.expires_in, soon.invoice.expires_in_unit, soon.invoice.expired], [2, 'hours', false]);
      gw.clock.advance(2 * 60 * 60 * 1000);
      assert.equal((await read(soon.invoice.debt_claim_number)).invoice.expired, true);
      assertInvoiceError(await createRaw({ amount: 5, expires_in: 2 }), 422, 'Expires in unit must be given together with expires in.');
      assertInvoiceError(
        await createRaw({ amount: 5, expires_in_unit: 'days' }),
        422,
        'Expires in must be given together with expires in unit.',
      );
      assertInvoiceError(
        await createRaw({ amount: 5, expires_in: 2, expires_in_unit: 'weeks' }),
        422,
        'Expires in unit is not included in the list (minutes, hours, days).',
      );
    });

    test('amount accepts 10.55, "10.55" and "10,55", stores the absolute value; blank, missing and null are 422', async () => {
      for (const amount of [10.55, '10.55', '10,55', -10.55, '-10,55']) {
        const created = await create({ amount });
        assert.deepEqual([created.invoice.amount, created.invoice.amount_cents], [10.55, 1055], `amount ${String(amount)}`);
      }
      assertInvoiceError(await createRaw({ amount: '' }), 422, "Amount can't be blank.");
      assertInvoiceError(await createRaw({}), 422, "Amount can't be blank.");
      assertInvoiceError(await createRaw({ amount: null }), 422, "Amount can't be blank.");
      assertInvoiceError(await createRaw({ amount: 'ten' }), 422, 'Amount is not a number.');
      assertInvoiceError(await createRaw({ amount: 1.555 }), 422, 'Amount has more than 2 decimals, the most the currency allows.');
    });

    test('country accepts alpha-2 (any case) or an English name and answers the full name', async () => {
      assert.equal((await create({ country: 'pt' })).invoice.country, 'Portugal');
      assert.equal((await create({ country: 'Germany' })).invoice.country, 'Germany');
      assert.equal((await create({ country: 'United States' })).invoice.country, 'United States of America');
      const stored = await sqlOf(gw).get<{ country: string }>('SELECT country FROM invoices ORDER BY id DESC LIMIT 1');
      assert.equal(stored?.country, 'US', 'stored as alpha-2');
      assertInvoiceError(
        await createRaw({ amount: 5, country: 'Atlantis' }),
        422,
        'Country is not a known country (give an ISO 3166-1 alpha-2 code or the English name).',
      );
    });

    test('currency defaults to the channel currency; too long is 422', async () => {
      assert.equal((await create()).invoice.currency, 'EUR');
      assert.equal((await create({ currency: 'usd' })).invoice.currency, 'USD');
      assertInvoiceError(await createRaw({ amount: 5, currency: 'EURO' }), 422, 'Currency is the wrong length (should be 3 characters).');
    });

    test('field validation failures: schema and url_name errors in the invoice shape', async () => {
      assertInvoiceError(
        await createRaw({ amount: 5 }, shop, 'no-such-channel'),
        422,
        'Url name does not name a channel of this merchant.',
      );
      assertInvoiceError(
        await createRaw({ amount: 5 }, shop, other.channel.url_name),
        422,
        'Url name does not name a channel of this merchant.',
      );
      assertInvoiceError(await createRaw({ amount: 5, colour: 'red' }), 422, 'invoice.colour is not a known field.');
      const missing = await inject('POST', '/rest/invoices', { invoice: { amount: 5 } });
      assertInvoiceError(missing, 422, 'url_name is required.');
      assertInvoiceError(
        await createRaw({ amount: 5, status: 'paid' }),
        422,
        "Status cannot be set here; the invoice's status change sets it.",
      );
      const two = await createRaw({ amount: '', locale: 'fr' });
      const text = "Locale is not included in the list (en, de, pt). Amount can't be blank.";
      assertInvoiceError(two, 422, text);
    });

    test('an idempotency key replays the created invoice and creates nothing new', async () => {
      const key = { 'idempotency-key': 'f1c6a1f4-4b7e-4f7e-9a55-3d1c2c1b0a01' };
      const first = await createRaw({ amount: 7, debt_claim_number: 'IDEM-1' }, shop, channel, key);
      assert.equal(first.statusCode, 201, first.body);
      const again = await createRaw({ amount: 7, debt_claim_number: 'IDEM-1' }, shop, channel, key);
      assert.equal(again.statusCode, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.json(), first.json());
      assert.equal(await countOf(gw, "SELECT COUNT(*) AS n FROM invoices WHERE debt_claim_number = 'IDEM-1'"), 1);
    });
  });

  describe('update rules', () => {
    test('active: true/false, "1"/"0", "true"/"false"; deactivating and reactivating', async () => {
      const { invoice } = await create({ debt_claim_number: 'ACT-1' });
      for (const [value, expected] of [
        [false, false],
        [true, true],
        ['0', false],
        ['1', true],
        ['false', false],
        ['true', true],
      ] as const) {
        assert.equal((await updated('ACT-1', { active: value })).invoice.active, expected, `active ${String(value)}`);
      }
      assertInvoiceError(await update('ACT-1', { active: 'yes' }), 422, 'invoice.active must be boolean.');
      assert.equal((await read('ACT-1')).invoice.id, invoice.id);
    });

    test('active and amount: refused unless pending; sending the current values is accepted; nothing else is applied', async () => {
      const { invoice } = await create({ debt_claim_number: 'RES-1', amount: 20, city: 'Lisbon' });
      assert.equal((await statusChange('RES-1', { status: 'paid' })).statusCode, 200);
      assertInvoiceError(await update('RES-1', { amount: 25, city: 'Porto' }), 422, RESTRICTED);
      assertInvoiceError(await update('RES-1', { active: false, city: 'Porto' }), 422, RESTRICTED);
      const unchanged = await read('RES-1');
      assert.deepEqual(
        [unchanged.invoice.amount, unchanged.invoice.active, unchanged.invoice.city],
        [20, true, 'Lisbon'],
        'the rest of the update is not applied',
      );
      const same = await updated('RES-1', { amount: '20,00', active: true, city: 'Porto' });
      assert.deepEqual([same.invoice.id, same.invoice.city], [invoice.id, 'Porto']);
    });

    test('active and amount: refused once a payment plan was ever attached, even a cancelled or failed one', async () => {
      for (const status of ['active', 'completed', 'cancelled', 'failed'] as const) {
        const number = `PLAN-${status}`;
        const { invoice } = await create({ debt_claim_number: number, amount: 30 });
        await attachPlan(invoice.id, status);
        assertInvoiceError(await update(number, { amount: 31 }), 422, RESTRICTED);
        assertInvoiceError(await update(number, { active: false }), 422, RESTRICTED);
        assert.equal(
          (await updated(number, { amount: 30, description: 'same amount is fine' })).invoice.description,
          'same amount is fine',
        );
      }
    });

    test('amount: decimal forms, absolute value; "" is 422; null counts as not supplied', async () => {
      await create({ debt_claim_number: 'AMT-1', amount: 1 });
      assert.equal((await updated('AMT-1', { amount: '12,34' })).invoice.amount_cents, 1234);
      assert.equal((await updated('AMT-1', { amount: -3.5 })).invoice.amount, 3.5);
      assertInvoiceError(await update('AMT-1', { amount: '' }), 422, "Amount can't be blank.");
      const nulled = await updated('AMT-1', { amount: null, city: 'Braga' });
      assert.deepEqual([nulled.invoice.amount, nulled.invoice.city], [3.5, 'Braga']);
    });

    test('debt_claim_number: the new number is taken from the active holder in the channel', async () => {
      const holder = await create({ debt_claim_number: 'NUM-B' });
      const mover = await create({ debt_claim_number: 'NUM-A' });
      const moved = await updated('NUM-A', { debt_claim_number: 'NUM-B' });
      assert.deepEqual([moved.invoice.id, moved.invoice.debt_claim_number, moved.invoice.active], [mover.invoice.id, 'NUM-B', true]);
      const rows = await sqlOf(gw).all(
        'SELECT id, active FROM invoices WHERE id IN (?, ?) ORDER BY id',
        holder.invoice.id,
        mover.invoice.id,
      );
      assert.deepEqual(rows, [
        { id: holder.invoice.id, active: 0 },
        { id: mover.invoice.id, active: 1 },
      ]);
      assertInvoiceError(await inject('GET', path('NUM-A')), 404, 'Invoice not found.');
      assertInvoiceError(await update('NUM-B', { debt_claim_number: '' }), 422, "Debt claim number can't be blank.");
    });

    test('plain fields: only the sent fields change (PUT and PATCH alike); null clears', async () => {
      await create({ debt_claim_number: 'PLAIN-1', first_name: 'Ana', last_name: 'Silva' });
      const plain = {
        first_name: 'Rita',
        company: 'ACME',
        email: 'rita@example.com',
        phone: '+351 1',
        tax_id: 'PT1',
        customer_id: 'C-9',
        address: 'Rua 1',
        address2: 'Apt 2',
        postal_code: '1000-001',
        city: 'Lisboa',
        state: 'Lisboa',
        country: 'Portugal',
        description: 'Services',
        print_date: '2026-01-31',
        redirect_after_payments: true,
        success_url: 'https://shop.example/ok',
        error_url: 'https://shop.example/err',
      };
      const put = await updated('PLAIN-1', plain, 'PUT');
      for (const [field, value] of Object.entries(plain)) assert.deepEqual(put.invoice[field], value, field);
      assert.equal(put.invoice.last_name, 'Silva', 'not sent, not changed');
      const patch = await updated('PLAIN-1', { company: null, country: 'ES' }, 'PATCH');
      assert.deepEqual([patch.invoice.company, patch.invoice.country, patch.invoice.first_name], [null, 'Spain', 'Rita']);
      assertInvoiceError(await update('PLAIN-1', { print_date: '2026-02-30' }), 422, 'Print date must be a date in the form YYYY-MM-DD.');
      assertInvoiceError(await update('PLAIN-1', { success_url: 'ftp://x' }), 422, 'Success url must be an http or https URL.');
      assertInvoiceError(await update('PLAIN-1', { email: 'not-an-email' }), 422, 'Email is not a valid e-mail address.');
    });

    test('currency: exactly 3 characters, else 422', async () => {
      await create({ debt_claim_number: 'CUR-1' });
      assert.equal((await updated('CUR-1', { currency: 'GBP' })).invoice.currency, 'GBP');
      assertInvoiceError(await update('CUR-1', { currency: 'GBPX' }), 422, 'Currency is the wrong length (should be 3 characters).');
      assertInvoiceError(await update('CUR-1', { currency: 'GB' }), 422, 'Currency is the wrong length (should be 3 characters).');
    });

    test('expires_in and expires_in_unit: together, unit in minutes/hours/days, else 422; both null disables', async () => {
      const { invoice } = await create({ debt_claim_number: 'EXP-1' });
      const set = await updated('EXP-1', { expires_in: 30, expires_in_unit: 'minutes' });
      assert.deepEqual([set.invoice.expires_in, set.invoice.expires_in_unit], [30, 'minutes']);
      const row = await sqlOf(gw).get<{ expires_at: string }>('SELECT expires_at FROM invoices WHERE id = ?', invoice.id);
      assert.equal(row?.expires_at, new Date(Date.parse(String(invoice.created_at)) + 30 * 60 * 1000).toISOString(), 'from created_at');
      assertInvoiceError(await update('EXP-1', { expires_in: 3 }), 422, 'Expires in unit must be given together with expires in.');
      assertInvoiceError(
        await update('EXP-1', { expires_in_unit: 'days' }),
        422,
        'Expires in must be given together with expires in unit.',
      );
      assertInvoiceError(
        await update('EXP-1', { expires_in: 3, expires_in_unit: 'years' }),
        422,
        'Expires in unit is not included in the list (minutes, hours, days).',
      );
      const off = await updated('EXP-1', { expires_in: null, expires_in_unit: null });
      assert.deepEqual([off.invoice.expires_in, off.invoice.expires_in_unit, off.invoice.expired], [null, null, false]);
    });

    test('locale: en, de, pt, else 422', async () => {
      await create({ debt_claim_number: 'LOC-1' });
      const de = await updated('LOC-1', { locale: 'de' });
      assert.deepEqual([de.invoice.locale, de.invoice.effective_locale], ['de', 'de']);
      assertInvoiceError(await update('LOC-1', { locale: 'hr' }), 422, 'Locale is not included in the list (en, de, pt).');
    });

    test('initial_email_type: initial or reminder, else 422', async () => {
      await create({ debt_claim_number: 'IET-1' });
      assert.equal((await updated('IET-1', { initial_email_type: 'reminder' })).invoice.effective_initial_email_type, 'reminder');
      assertInvoiceError(
        await update('IET-1', { initial_email_type: 'final' }),
        422,
        'Initial email type is not included in the list (initial, reminder).',
      );
    });

    test('send_initial_email: a stored flag (no e-mail requirement on update, nothing sent)', async () => {
      await create({ debt_claim_number: 'SIE-1' });
      const on = await updated('SIE-1', { send_initial_email: true });
      assert.deepEqual([on.invoice.send_initial_email, on.invoice.last_email], [true, null]);
    });

    test('status is not accepted by update', async () => {
      await create({ debt_claim_number: 'ST-1' });
      assertInvoiceError(
        await update('ST-1', { status: 'paid' }),
        422,
        "Status cannot be changed here; the invoice's status change sets it.",
      );
      assert.equal((await read('ST-1')).invoice.status, 'pending');
    });

    test('activating while another active invoice in the channel holds the number is 422; nothing else is applied', async () => {
      const holder = await create({ debt_claim_number: 'AC-1' });
      const sleeper = await create({ debt_claim_number: 'AC-2' });
      await updated('AC-2', { active: false });
      const text = 'Another active invoice in this channel has the number AC-1; deactivate it first.';
      assertInvoiceError(await update('AC-2', { debt_claim_number: 'AC-1', active: true, city: 'Faro' }), 422, text);
      const unchanged = await read('AC-2');
      assert.deepEqual([unchanged.invoice.active, unchanged.invoice.city, unchanged.invoice.debt_claim_number], [false, null, 'AC-2']);
      // Renumbering an inactive invoice does not take the number: the holder stays active and keeps resolving.
      const moved = await updated('AC-2', { debt_claim_number: 'AC-1' });
      assert.deepEqual([moved.invoice.id, moved.invoice.active], [sleeper.invoice.id, false]);
      assert.equal((await read('AC-1')).invoice.id, holder.invoice.id);
      // Once the holder is deactivated, the number resolves to the newest (the sleeper), which may be activated.
      await updated('AC-1', { active: false });
      const taken = await updated('AC-1', { active: '1' });
      assert.deepEqual([taken.invoice.id, taken.invoice.active], [sleeper.invoice.id, true]);
    });
  });

  describe('status change', () => {
    test('sets any of the four statuses; answers the complete invoice', async () => {
      await create({ debt_claim_number: 'SC-1' });
      for (const status of ['processing', 'partly_paid', 'paid', 'pending']) {
        const response = await statusChange('SC-1', { status });
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json<Wrapper>();
        assert.deepEqual([body.invoice.status, body.error, body.message], [status, null, 'Invoice status changed.']);
        assert.ok(body.paylink && body.qrcode);
      }
    });

    test('missing or invalid status: 422 Invalid status. with the allowed values', async () => {
      await create({ debt_claim_number: 'SC-2' });
      const allowed = 'Status must be one of: pending, processing, paid, partly_paid.';
      assertInvoiceError(await statusChange('SC-2', { status: 'done' }), 422, 'Invalid status.', allowed);
      assertInvoiceError(await statusChange('SC-2', {}), 422, 'Invalid status.', allowed);
      assertInvoiceError(await statusChange('SC-2', { status: 3 }), 422, 'Invalid status.', allowed);
      assertInvoiceError(await statusChange('SC-2', []), 422, 'Invalid status.', allowed);
    });
  });

  describe('not found and merchant scoping', () => {
    test('get, update, status change and delete of an unknown number: 404 Invoice not found.', async () => {
      assertInvoiceError(await inject('GET', path('NOPE-1')), 404, 'Invoice not found.');
      assertInvoiceError(await update('NOPE-1', { city: 'x' }), 404, 'Invoice not found.');
      assertInvoiceError(await statusChange('NOPE-1', { status: 'paid' }), 404, 'Invoice not found.');
      assertInvoiceError(await inject('DELETE', path('NOPE-1')), 404, 'Invoice not found.');
    });

    test("another merchant's invoice number is unknown (404) and missing from its list", async () => {
      await create({ debt_claim_number: 'MINE-1' });
      assertInvoiceError(await inject('GET', path('MINE-1'), undefined, other), 404, 'Invoice not found.');
      assertInvoiceError(await inject('PUT', path('MINE-1'), { invoice: { city: 'x' } }, other), 404, 'Invoice not found.');
      assertInvoiceError(await inject('PUT', `${path('MINE-1')}/status_change`, { status: 'paid' }, other), 404, 'Invoice not found.');
      assertInvoiceError(await inject('DELETE', path('MINE-1'), undefined, other), 404, 'Invoice not found.');
      const list = (await inject('GET', '/rest/invoices', undefined, other)).json<{ invoices: Wrapper[] }>();
      assert.ok(!list.invoices.some((w) => w.invoice.debt_claim_number === 'MINE-1'));
      assert.equal((await read('MINE-1')).invoice.debt_claim_number, 'MINE-1');
    });

    test('without credentials: 401 in the D3 body (not an invoice error)', async () => {
      const response = await gw.app.inject({ method: 'GET', url: '/rest/invoices' });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json<{ error_code: number }>().error_code, 2001);
    });
  });

  describe('number resolution', () => {
    test('resolves to the active invoice, else to the most recently created one', async () => {
      const a = await create({ debt_claim_number: 'RESV-1' });
      const b = await create({ debt_claim_number: 'RESV-1' });
      assert.equal((await read('RESV-1')).invoice.id, b.invoice.id, 'the active one');
      // Make the older one active again by hand: the active one wins although it is older.
      await sqlOf(gw).run('UPDATE invoices SET active = 0 WHERE id = ?', b.invoice.id);
      await sqlOf(gw).run('UPDATE invoices SET active = 1 WHERE id = ?', a.invoice.id);
      assert.equal((await read('RESV-1')).invoice.id, a.invoice.id, 'active beats newer');
      await updated('RESV-1', { active: false });
      assert.equal((await read('RESV-1')).invoice.id, b.invoice.id, 'none active: the most recently created');
    });
  });

  describe('delete', () => {
    test('204 with an empty body; the number is gone', async () => {
      await create({ debt_claim_number: 'DEL-1' });
      const response = await inject('DELETE', path('DEL-1'));
      assert.equal(response.statusCode, 204);
      assert.equal(response.body, '');
      assertInvoiceError(await inject('GET', path('DEL-1')), 404, 'Invoice not found.');
    });

    test('refused while a payment plan is active; completed, cancelled or failed plans do not block', async () => {
      const { invoice } = await create({ debt_claim_number: 'DEL-PLAN' });
      await attachPlan(invoice.id, 'active');
      assertInvoiceError(
        await inject('DELETE', path('DEL-PLAN')),
        422,
        'Payment plan must be stopped before deleting the invoice.',
        'Invoice has an active payment plan.',
      );
      await gw.composition.gateway.store.run((tx) =>
        tx.invoices.setPlanStatus(`plan-${invoice.id}-active`, 'cancelled', gw.clock.now().toISOString()),
      );
      for (const status of ['completed', 'failed'] as const) await attachPlan(invoice.id, status);
      const response = await inject('DELETE', path('DEL-PLAN'));
      assert.equal(response.statusCode, 204, response.body);
    });
  });

  describe('list', () => {
    test('pagination: 50 a page, newest first, the pagination object exactly', async () => {
      const merchant = await createTestMerchant(gw, 'List Shop');
      const list = async (query = '') => {
        const response = await inject('GET', `/rest/invoices${query}`, undefined, merchant);
        assert.equal(response.statusCode, 200, response.body);
        return response.json<{ invoices: Wrapper[]; pagination: Record<string, unknown>; error: null; message: string }>();
      };
      const empty = await list();
      assert.deepEqual(Object.keys(empty).sort(), ['error', 'invoices', 'message', 'pagination']);
      assert.deepEqual(empty.invoices, []);
      assert.equal(empty.error, null);
      assert.deepEqual(empty.pagination, { page: 1, items: 50, count: 0, pages: 1, from: 0, to: 0, prev: null, next: null });
      for (let i = 0; i < 53; i += 1) {
        const response = await createRaw({ amount: i + 1 }, merchant, merchant.channel.url_name);
        assert.equal(response.statusCode, 201, response.body);
        gw.clock.advance(1000);
      }
      const first = await list();
      assert.equal(first.invoices.length, 50);
      assert.deepEqual(first.pagination, { page: 1, items: 50, count: 53, pages: 2, from: 1, to: 50, prev: null, next: 2 });
      assert.equal(first.invoices[0]?.invoice.debt_claim_number, 'INV-0053', 'newest first');
      const entry = first.invoices[0];
      assert.ok(entry);
      assert.deepEqual(Object.keys(entry).sort(), ['error', 'invoice', 'message', 'paylink', 'qrcode']);
      const second = await list('?page=2');
      assert.equal(second.invoices.length, 3);
      assert.deepEqual(second.pagination, { page: 2, items: 50, count: 53, pages: 2, from: 51, to: 53, prev: 1, next: null });
      assert.equal(second.invoices[2]?.invoice.debt_claim_number, 'INV-0001');
      const beyond = await list('?page=3');
      assert.deepEqual(beyond.invoices, []);
      assert.deepEqual(beyond.pagination, { page: 3, items: 50, count: 53, pages: 2, from: 0, to: 0, prev: 2, next: null });
    });

    test('filters: url_name, status, created_at_from/to (inclusive days); bad values are 422', async () => {
      const merchant = await createTestMerchant(gw, 'Filter Shop');
      const mk = async (invoice: Record<string, unknown>) => {
        const response = await createRaw({ amount: 3, ...invoice }, merchant, merchant.channel.url_name);
        assert.equal(response.statusCode, 201, response.body);
        return response.json<Wrapper>();
      };
      const day1 = await mk({ debt_claim_number: 'F-1' });
      gw.clock.advance(DAY);
      const day2 = await mk({ debt_claim_number: 'F-2' });
      await inject('PUT', `${path('F-2')}/status_change`, { status: 'paid' }, merchant);
      const get = (query: string) => inject('GET', `/rest/invoices${query}`, undefined, merchant);
      const numbers = async (query: string) => {
        const response = await get(query);
        assert.equal(response.statusCode, 200, response.body);
        return response.json<{ invoices: Wrapper[] }>().invoices.map((w) => w.invoice.debt_claim_number);
      };
      const d1 = String(day1.invoice.created_at).slice(0, 10);
      const d2 = String(day2.invoice.created_at).slice(0, 10);
      assert.deepEqual(await numbers(`?url_name=${merchant.channel.url_name}`), ['F-2', 'F-1']);
      assert.deepEqual(await numbers('?status=paid'), ['F-2']);
      assert.deepEqual(await numbers('?status=pending'), ['F-1']);
      assert.deepEqual(await numbers(`?created_at_from=${d2}`), ['F-2']);
      assert.deepEqual(await numbers(`?created_at_to=${d1}`), ['F-1']);
      assert.deepEqual(await numbers(`?created_at_from=${d1}&created_at_to=${d2}`), ['F-2', 'F-1']);
      assertInvoiceError(await get('?status=open'), 422, 'Status must be one of: pending, processing, paid, partly_paid.');
      assertInvoiceError(await get('?created_at_from=2026-13-01'), 422, 'Created at from must be a date in the form YYYY-MM-DD.');
      assertInvoiceError(await get('?page=0'), 422, 'Page must be a whole number from 1.');
      assertInvoiceError(await get(`?url_name=${shop.channel.url_name}`), 422, 'Url name does not name a channel of this merchant.');
    });
  });
});
