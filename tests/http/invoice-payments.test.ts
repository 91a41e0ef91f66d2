// Paying invoices (decisions.md D11): payment plans over the API (schedule, one active plan, cancel)
// and the restrictions they make real (amount/active changes, delete), the pay page at
// /pay/{uuid} (renders, escapes, languages), card payments through it moving the invoice
// pending -> processing -> paid, a plan's instalments pending -> partly_paid -> paid, a declined card
// back to pending, and inactive/expired/paid/unknown invoices taking no payment; after a declined,
// failed, cancelled or expired attempt the pay page says so in the customer's language, which the
// round trip keeps; an abandoned attempt lapses (the invoice back to pending or partly_paid) and a
// customer who comes back may start afresh. All through inject().
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { escapeHtml } from '../../main/http/pages/html.js';
import { formatterFor } from '../../contract/i18n/format.js';
import { LANGUAGES, type Lang, type PageMessage } from '../../main/http/pages/i18n.js';
import { createTestMerchant, startTestGateway, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { EXPIRY_YEAR, HOUR, SETTLING_IBAN } from '../helpers/payments.js';
import { countOf } from '../helpers/sql.js';

const EXPIRY = `12/${String(EXPIRY_YEAR).slice(2)}`;
const GOOD_CARD = { step: 'card', card_number: '4111 1111 1111 1111', expiry: EXPIRY, cvc: '123', holder: 'Ada Lovelace' };
/** A hosted page's message by its name in the `pages` area (`card_title` for `pages.card_title`). */
type Short<T> = T extends `pages.${infer K}` ? K : never;
type MessageKey = Short<PageMessage>;
const text = (lang: Lang, key: MessageKey, vars: Record<string, string> = {}) => escapeHtml(formatterFor(lang)(`pages.${key}`, vars));
const RESTRICTED = 'Amount and active can only be changed while the invoice is pending and has never had a payment plan attached.';

interface Wrapper {
  invoice: { id: number; uuid: string; debt_claim_number: string; status: string; active: boolean };
  paylink: string;
}

interface Plan {
  payment_plan: {
    id: string;
    status: string;
    installments: number;
    interval: string;
    amount_cents: number;
    paid_installments: number;
    schedule: Array<{ number: number; amount_cents: number; due_date: string; paid: boolean }>;
  };
  message: string;
  error: null;
}

describe('invoice payments', () => {
  let gw: TestGateway;
  let shop: TestMerchant;

  before(async () => {
    gw = await startTestGateway();
    shop = await createTestMerchant(gw, 'Plan Shop');
  });

  after(async () => {
    await gw.close();
  });

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    gw.app.inject({
      method,
      url,
      headers: { authorization: shop.auth },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const create = async (invoice: Record<string, unknown> = {}): Promise<Wrapper> => {
    const response = await inject('POST', '/rest/invoices', { url_name: shop.channel.url_name, invoice: { amount: 100, ...invoice } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<Wrapper>();
  };
  const planPath = (number: string) => `/rest/invoices/${encodeURIComponent(number)}/payment_plan`;
  const statusOf = async (number: string): Promise<string> =>
    (await inject('GET', `/rest/invoices/${encodeURIComponent(number)}`)).json<Wrapper>().invoice.status;
  const page = (path: string) => gw.app.inject({ method: 'GET', url: path });
  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    gw.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...headers },
      payload: new URLSearchParams(form).toString(),
    });
  const location = (response: { headers: Record<string, unknown> }) => String(response.headers.location);

  /** Chooses the card on the pay page and pays on the card page; answers the card page's reply. */
  const payByCard = async (uuid: string, card: Record<string, string> = GOOD_CARD) => {
    const chosen = await post(`/pay/${uuid}`, { method: 'cardecom' });
    assert.equal(chosen.statusCode, 303, chosen.body);
    const cardPage = location(chosen);
    assert.match(cardPage, /^\/pay\/[\w-]+\/card\?lang=/);
    return { cardPage, paid: await post(cardPage, card) };
  };

  describe('payment plans over the API', () => {
    test('POST answers 201 with the schedule: exact split, remainder first, due dates from today', async () => {
      const inv = await create({ amount: '100.00' });
      const response = await inject('POST', planPath(inv.invoice.debt_claim_number), { installments: 3, interval: 'month' });
      assert.equal(response.statusCode, 201, response.body);
      const plan = response.json<Plan>().payment_plan;
      assert.equal(plan.status, 'active');
      assert.deepEqual(
        plan.schedule.map((s) => s.amount_cents),
        [3334, 3333, 3333],
      );
      assert.equal(
        plan.schedule.reduce((sum, s) => sum + s.amount_cents, 0),
        10000,
      );
      const today = gw.clock.now().toISOString().slice(0, 10);
      assert.equal(plan.schedule[0]?.due_date, today);
      const next = new Date(`${today}T00:00:00Z`);
      next.setUTCMonth(next.getUTCMonth() + 1);
      if (next.getUTCDate() === new Date(`${today}T00:00:00Z`).getUTCDate())
        assert.equal(plan.schedule[1]?.due_date, next.toISOString().slice(0, 10));
      assert.equal(plan.paid_installments, 0);

      const weekly = await create({ amount: 10 });
      const weeks = (await inject('POST', planPath(weekly.invoice.debt_claim_number), { installments: 2, interval: 'week' })).json<Plan>()
        .payment_plan;
      assert.equal(
        Date.parse(`${weeks.schedule[1]?.due_date}T00:00:00Z`) - Date.parse(`${weeks.schedule[0]?.due_date}T00:00:00Z`),
        7 * 86_400_000,
      );

      const read = await inject('GET', planPath(inv.invoice.debt_claim_number));
      assert.equal(read.statusCode, 200);
      assert.equal(read.json<Plan>().payment_plan.id, plan.id);
    });

    test('one active plan per invoice; bad installments or interval are 422 in the invoice error shape', async () => {
      const inv = await create();
      const number = inv.invoice.debt_claim_number;
      assert.equal((await inject('POST', planPath(number), { installments: 2, interval: 'week' })).statusCode, 201);
      const again = await inject('POST', planPath(number), { installments: 2, interval: 'week' });
      assert.equal(again.statusCode, 422);
      assert.deepEqual(again.json(), {
        message: 'Invoice already has an active payment plan.',
        error: 'Invoice already has an active payment plan.',
        errors: [{ field: 'payment_plan', message: 'Invoice already has an active payment plan.' }],
      });
      for (const body of [
        { installments: 1, interval: 'week' },
        { installments: 25, interval: 'month' },
        { installments: 3, interval: 'day' },
      ]) {
        const bad = await inject('POST', planPath(number), body);
        assert.equal(bad.statusCode, 422, JSON.stringify(body));
        assert.deepEqual(Object.keys(bad.json()).sort(), ['error', 'errors', 'message']);
        assert.deepEqual(
          bad.json<{ errors: Array<{ field: string }> }>().errors.map((e) => e.field),
          [body.interval === 'day' ? 'interval' : 'installments'],
        );
      }
      const missing = await inject('POST', planPath('NO-SUCH'), { installments: 2, interval: 'week' });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), {
        message: 'Invoice not found.',
        error: 'Invoice not found.',
        errors: [{ field: 'invoice_number', message: 'Invoice not found.' }],
      });
      assert.equal((await inject('GET', planPath((await create()).invoice.debt_claim_number))).statusCode, 404, 'no plan yet');
    });

    test('the restrictions: delete refused while active, amount/active refused once a plan existed; DELETE cancels', async () => {
      const inv = await create();
      const number = inv.invoice.debt_claim_number;
      const path = `/rest/invoices/${encodeURIComponent(number)}`;
      assert.equal((await inject('POST', planPath(number), { installments: 4, interval: 'month' })).statusCode, 201);

      const deleted = await inject('DELETE', path);
      assert.equal(deleted.statusCode, 422);
      assert.deepEqual(deleted.json(), {
        message: 'Payment plan must be stopped before deleting the invoice.',
        error: 'Invoice has an active payment plan.',
        errors: [{ field: 'payment_plan', message: 'Invoice has an active payment plan.' }],
      });
      for (const change of [{ amount: 20 }, { active: false }]) {
        const refused = await inject('PUT', path, { invoice: change });
        assert.equal(refused.statusCode, 422);
        assert.deepEqual(refused.json(), {
          message: RESTRICTED,
          error: RESTRICTED,
          errors: [{ field: `invoice.${Object.keys(change)[0] ?? ''}`, message: RESTRICTED }],
        });
      }
      assert.equal((await inject('PUT', path, { invoice: { description: 'still fine' } })).statusCode, 200);

      const cancelled = await inject('DELETE', planPath(number));
      assert.equal(cancelled.statusCode, 200, cancelled.body);
      assert.equal(cancelled.json<Plan>().payment_plan.status, 'cancelled');
      assert.equal((await inject('DELETE', planPath(number))).statusCode, 422, 'nothing active to cancel');
      assert.equal((await inject('GET', planPath(number))).json<Plan>().payment_plan.status, 'cancelled');
      // A plan was attached once: amount stays fixed, but the invoice may now be deleted.
      assert.equal((await inject('PUT', path, { invoice: { amount: 20 } })).statusCode, 422);
      assert.equal((await inject('DELETE', path)).statusCode, 204);
    });
  });

  describe('the pay page', () => {
    test('renders the invoice in its locale (or ?lang=), escapes merchant text, offers card, SEPA and wallet', async () => {
      const inv = await create({
        amount: '12.50',
        description: '<script>alert(1)</script> & "q"',
        first_name: "O'Brien",
        last_name: '<b>X</b>',
        locale: 'de',
      });
      const response = await page(`/pay/${inv.invoice.uuid}`);
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.match(response.body, /<html lang="de">/);
      assert.ok(String(response.headers['content-security-policy']).startsWith("default-src 'none'"));
      assert.ok(response.body.includes(inv.invoice.debt_claim_number));
      assert.ok(response.body.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;'));
      assert.ok(response.body.includes('O&#39;Brien &lt;b&gt;X&lt;/b&gt;'));
      assert.ok(!response.body.includes('<script>alert(1)'));
      assert.ok(response.body.includes('12,50'), 'amount in German format');
      assert.ok(response.body.includes('Rechnung'));
      for (const method of ['cardecom', 'dd', 'wallet']) assert.ok(response.body.includes(`value="${method}"`), method);
      const english = await page(`/pay/${inv.invoice.uuid}?lang=en`);
      assert.match(english.body, /<html lang="en">/);
      assert.ok(english.body.includes('Amount due'));
      assert.ok(english.body.includes('Plan Shop'), 'the channel name');
    });

    test('unknown invoices are a 404 page; the transaction pages under /pay still work', async () => {
      const missing = await page('/pay/01a1fce1-0000-7000-8000-000000000000');
      assert.equal(missing.statusCode, 404);
      assert.ok(missing.body.includes('Invoice not found'));
      assert.equal((await page('/pay/not%20an%20id')).statusCode, 404);
      assert.equal((await post('/pay/01a1fce1-0000-7000-8000-000000000000', { method: 'cardecom' })).statusCode, 404);
    });

    test('paying by card moves the invoice pending -> processing -> paid; the page then says paid', async () => {
      const inv = await create({ amount: 25 });
      const number = inv.invoice.debt_claim_number;
      assert.equal(await statusOf(number), 'pending');
      const chosen = await post(`/pay/${inv.invoice.uuid}`, { method: 'cardecom' });
      assert.equal(chosen.statusCode, 303);
      assert.equal(await statusOf(number), 'processing');
      // Back on the invoice page meanwhile: it leads back into the started payment (or lets the customer start afresh).
      const meanwhile = await page(`/pay/${inv.invoice.uuid}?lang=en`);
      assert.ok(meanwhile.body.includes(text('en', 'invoice_open_title')));
      assert.ok(meanwhile.body.includes(`href="${location(chosen).replace(/\?.*$/, '')}?lang=en"`), 'continue link to the card page');
      const paid = await post(location(chosen), GOOD_CARD);
      assert.equal(paid.statusCode, 303);
      assert.ok(location(paid).includes(`/pay/${inv.invoice.uuid}`), 'back to the invoice page');
      assert.equal(await statusOf(number), 'paid');
      const after = await page(`/pay/${inv.invoice.uuid}?lang=en`);
      assert.ok(after.body.includes('Invoice paid'));
      assert.ok(!after.body.includes('name="method"'), 'no payment form');
      const again = await post(`/pay/${inv.invoice.uuid}`, { method: 'cardecom' });
      assert.equal(again.statusCode, 409);
      // The invoice followed its transaction inside the transaction's unit of work: no postbacks queued.
      const transactionId = /\/pay\/([^/]+)\/card/.exec(location(chosen))?.[1] ?? '';
      assert.ok(transactionId);
      assert.equal(
        await countOf(gw, "SELECT COUNT(*) AS n FROM postback_outbox WHERE subject_type = 'transaction' AND subject_id = ?", transactionId),
        0,
      );
    });

    test("an invoice's payments are found by the invoice's number, carry it in the API, and the card page shows it, not the order's UUID", async () => {
      const inv = await create({ amount: 12, debt_claim_number: 'INV-7781' });
      const other = await create({ amount: 13, debt_claim_number: 'INV-7782' });
      const chosen = await post(`/pay/${inv.invoice.uuid}`, { method: 'cardecom' });
      const cardPage = await page(location(chosen).replace(/\?.*$/, '?lang=en'));
      assert.equal(cardPage.statusCode, 200);
      assert.ok(
        cardPage.body.includes(`${text('en', 'invoice_number')}`) && cardPage.body.includes('INV-7781'),
        'the invoice number on the card page',
      );
      const transactionId = /\/pay\/([^/]+)\/card/.exec(location(chosen))?.[1] ?? '';
      assert.ok(!cardPage.body.includes(`>${inv.invoice.uuid}<`), "the order's UUID is not shown");
      assert.equal((await post(location(chosen), GOOD_CARD)).statusCode, 303);
      await payByCard(other.invoice.uuid);
      for (const url of [
        '/rest/transactions?search=INV-7781',
        '/rest/transactions?search=inv-7781',
        `/rest/transactions?search=INV-7781&status=3`,
      ]) {
        const found = (await inject('GET', url)).json<Array<{ transaction_id: string; invoice_number?: string; order_id: string }>>();
        if (url.includes('inv-')) {
          assert.deepEqual(found, [], 'the number is matched exactly, as an order id is');
          continue;
        }
        assert.deepEqual(
          found.map((t) => [t.transaction_id, t.invoice_number]),
          [[transactionId, 'INV-7781']],
          url,
        );
        assert.equal(found[0]?.order_id, inv.invoice.uuid);
      }
      const detail = (await inject('GET', `/rest/transactions/${transactionId}`)).json<{ invoice_number?: string }>();
      assert.equal(detail.invoice_number, 'INV-7781');
    });

    test('a declined card puts the invoice back to pending; the customer may try again', async () => {
      const inv = await create({ amount: 5 });
      const { paid } = await payByCard(inv.invoice.uuid, { ...GOOD_CARD, card_number: '4000000000000002' });
      assert.equal(paid.statusCode, 303);
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'pending');
      await payByCard(inv.invoice.uuid);
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'paid');
    });

    test('a plan is paid instalment by instalment: pending -> partly_paid -> paid, plan completed', async () => {
      const inv = await create({ amount: '10.00' });
      const number = inv.invoice.debt_claim_number;
      assert.equal((await inject('POST', planPath(number), { installments: 3, interval: 'week' })).statusCode, 201);
      const first = await page(`/pay/${inv.invoice.uuid}?lang=en`);
      assert.ok(first.body.includes('€3.34') || first.body.includes('3.34'), 'first instalment carries the remainder');
      assert.ok(first.body.includes('Instalment 1 of 3'));
      await payByCard(inv.invoice.uuid);
      assert.equal(await statusOf(number), 'partly_paid');
      const second = await page(`/pay/${inv.invoice.uuid}?lang=en`);
      assert.ok(second.body.includes('Instalment 2 of 3'));
      assert.ok(second.body.includes('3.33'));
      await payByCard(inv.invoice.uuid);
      assert.equal(await statusOf(number), 'partly_paid');
      // A declined third instalment keeps it partly_paid.
      await payByCard(inv.invoice.uuid, { ...GOOD_CARD, card_number: '4000000000000002' });
      assert.equal(await statusOf(number), 'partly_paid');
      await payByCard(inv.invoice.uuid);
      assert.equal(await statusOf(number), 'paid');
      const plan = (await inject('GET', planPath(number))).json<Plan>().payment_plan;
      assert.equal(plan.status, 'completed');
      assert.equal(plan.paid_installments, 3);
      assert.deepEqual(
        plan.schedule.map((s) => s.paid),
        [true, true, true],
      );
    });

    test('inactive, expired and paid invoices show a clear page and take no payment', async () => {
      const inactive = await create();
      assert.equal(
        (await inject('PUT', `/rest/invoices/${encodeURIComponent(inactive.invoice.debt_claim_number)}`, { invoice: { active: false } }))
          .statusCode,
        200,
      );
      const expiring = await create({ expires_in: 1, expires_in_unit: 'minutes' });
      gw.clock.advance(2 * 60_000);
      const paid = await create();
      assert.equal(
        (await inject('PUT', `/rest/invoices/${encodeURIComponent(paid.invoice.debt_claim_number)}/status_change`, { status: 'paid' }))
          .statusCode,
        200,
      );
      for (const [inv, title] of [
        [inactive, 'Invoice not available'],
        [expiring, 'Invoice expired'],
        [paid, 'Invoice paid'],
      ] as const) {
        const shown = await page(`/pay/${inv.invoice.uuid}?lang=en`);
        assert.equal(shown.statusCode, 200);
        assert.ok(shown.body.includes(title), title);
        assert.ok(!shown.body.includes('name="method"'));
        const posted = await post(`/pay/${inv.invoice.uuid}`, { method: 'cardecom' });
        assert.equal(posted.statusCode, 409);
        assert.ok(!posted.headers.location);
      }
      assert.equal(await statusOf(expiring.invoice.debt_claim_number), 'pending');
      assert.equal(await statusOf(inactive.invoice.debt_claim_number), 'pending');
    });

    test('a cross-site post only shows the page; an unknown method re-renders with an error', async () => {
      const inv = await create();
      const cross = await post(`/pay/${inv.invoice.uuid}`, { method: 'cardecom' }, { 'sec-fetch-site': 'cross-site' });
      assert.equal(cross.statusCode, 200);
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'pending');
      const bad = await post(`/pay/${inv.invoice.uuid}`, { method: 'pos' });
      assert.equal(bad.statusCode, 422);
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'pending');
      const sepa = await post(`/pay/${inv.invoice.uuid}?lang=en`, { method: 'dd' });
      assert.equal(sepa.statusCode, 200);
      assert.ok(sepa.body.includes('name="iban"'));
    });
  });

  describe('declines, the language and abandoned attempts', () => {
    const DECLINE_51 = { ...GOOD_CARD, card_number: '4000 0000 0000 9995' };
    const transactionOf = async (id: string) =>
      (await inject('GET', `/rest/transactions/${id}`)).json<{ status_code: number; status: string }>();
    const idIn = (path: string) => /\/pay\/([^/?]+)\/(?:card|3ds|wallet)/.exec(path)?.[1] ?? '';

    test('a declined card comes back to the pay page with the reason, in the language chosen on the way, and no card data', async () => {
      const inv = await create({ amount: 19, locale: 'en' });
      const uuid = inv.invoice.uuid;
      // The customer switched the pay page to German: the card step and the way back keep it.
      const chosen = await post(`/pay/${uuid}?lang=de`, { method: 'cardecom' });
      assert.equal(chosen.statusCode, 303);
      assert.match(location(chosen), /\/card\?lang=de$/);
      const declined = await post(location(chosen), DECLINE_51);
      assert.equal(declined.statusCode, 303);
      const back = location(declined);
      const transactionId = idIn(location(chosen));
      assert.equal(back, `/pay/${uuid}?transaction_id=${transactionId}&lang=de`, 'back on the pay page, relative, with the language');
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'pending');

      const shown = await page(back);
      assert.equal(shown.statusCode, 200);
      assert.match(shown.body, /<html lang="de">/);
      assert.ok(shown.body.includes(text('de', 'invoice_declined_card', { reason: formatterFor('de')('pages.why_51') })), shown.body);
      assert.ok(shown.body.includes('Ihre Karte wurde abgelehnt: nicht genügend Guthaben.'));
      assert.ok(shown.body.includes(text('de', 'invoice_retry_other')));
      assert.ok(shown.body.includes('name="method"'), 'the customer can pay again right there');
      for (const leak of ['4000000000009995', '4000 0000 0000 9995', '•••• 9995', '51 Insufficient funds'])
        assert.ok(!shown.body.includes(leak), leak);
      // Every language the pages speak says it (the language links keep the attempt).
      for (const lang of LANGUAGES) {
        const other = await page(`/pay/${uuid}?transaction_id=${transactionId}&lang=${lang}`);
        assert.ok(other.body.includes(text(lang, 'invoice_declined_card', { reason: formatterFor(lang)('pages.why_51') })), lang);
        assert.ok(
          other.body.includes(`href="/pay/${uuid}?transaction_id=${transactionId}&amp;lang=hr"`),
          `${lang}: language link keeps the attempt`,
        );
      }
      // Only this invoice's own failed attempt is explained: another invoice's, an unknown id or none shows no notice.
      const stranger = await create({ amount: 3 });
      const strangerId = idIn((await payByCard(stranger.invoice.uuid, DECLINE_51)).cardPage);
      for (const query of ['', '?transaction_id=01a1fce1-0000-7000-8000-000000000000', `?transaction_id=${strangerId}`]) {
        const plain = await page(`/pay/${uuid}${query}${query ? '&' : '?'}lang=en`);
        assert.equal(plain.statusCode, 200);
        assert.ok(!plain.body.includes(text('en', 'invoice_retry_other')), query);
      }
      // Paid at the second try: the invoice page in German says so.
      const again = await post(`/pay/${uuid}?lang=de`, { method: 'cardecom' });
      const paid = await post(location(again), GOOD_CARD);
      assert.equal(location(paid), `/pay/${uuid}?transaction_id=${idIn(location(again))}&lang=de`);
      const done = await page(location(paid));
      assert.ok(done.body.includes(text('de', 'invoice_paid_title')));
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'paid');
    });

    test('errors, failed 3-D Secure and cancelled approvals are explained too, in pt and hr', async () => {
      const inv = await create({ amount: 7, locale: 'en' });
      const uuid = inv.invoice.uuid;
      const pick = async (method: string, lang: Lang) => location(await post(`/pay/${uuid}?lang=${lang}`, { method }));

      const failed = await post(await pick('cardecom', 'pt'), { ...GOOD_CARD, card_number: '4000000000000119' });
      const errorPage = await page(location(failed));
      assert.match(errorPage.body, /<html lang="pt">/);
      assert.ok(errorPage.body.includes(text('pt', 'invoice_error_attempt')), 'processor error');

      // 3-D Secure: the challenge page keeps the language, a failed challenge is a decline with its reason.
      const challenge = await post(await pick('cardecom', 'hr'), { ...GOOD_CARD, card_number: '4000000000003220' });
      assert.match(location(challenge), /\/3ds\?lang=hr$/);
      const failedChallenge = await post(location(challenge), { answer: 'fail' });
      const tdsPage = await page(location(failedChallenge));
      assert.match(tdsPage.body, /<html lang="hr">/);
      assert.ok(tdsPage.body.includes(text('hr', 'invoice_declined_card', { reason: formatterFor('hr')('pages.why_3ds') })));

      const wallet = await pick('wallet', 'pt');
      assert.match(wallet, /\/wallet\?lang=pt$/);
      const cancelled = await post(wallet, { answer: 'cancel' });
      assert.match(location(cancelled), new RegExp(`^/pay/${uuid}\\?transaction_id=[\\w-]+&lang=pt$`));
      const cancelPage = await page(location(cancelled));
      assert.ok(cancelPage.body.includes(text('pt', 'invoice_cancelled')));
      assert.ok(cancelPage.body.includes(text('pt', 'invoice_retry')));
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'pending');
    });

    test('SEPA: back to the pay page in the language chosen; a rejected account is explained, a returned debit reopens the invoice', async () => {
      const sepa = (iban: string) => ({ method: 'dd', step: 'sepa', account_holder: 'Ana Horvat', iban, mandate_accept: '1' });
      const inv = await create({ amount: 12, locale: 'de', first_name: 'Ana', last_name: 'Horvat' });
      const rejected = await post(`/pay/${inv.invoice.uuid}?lang=hr`, sepa('DE51370400440532013005'));
      assert.equal(rejected.statusCode, 303, rejected.body);
      assert.match(location(rejected), new RegExp(`^/pay/${inv.invoice.uuid}\\?transaction_id=[\\w-]+&lang=hr$`));
      const explained = await page(location(rejected));
      assert.match(explained.body, /<html lang="hr">/);
      assert.ok(explained.body.includes(text('hr', 'invoice_declined', { reason: formatterFor('hr')('pages.why_account') })));
      assert.ok(!explained.body.includes('DE51370400440532013005') && !explained.body.includes('DE51 3704'), 'no IBAN echoed');
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'pending');

      const done = await post(`/pay/${inv.invoice.uuid}?lang=hr`, sepa(SETTLING_IBAN));
      assert.equal(done.statusCode, 303, done.body);
      assert.match(location(done), new RegExp(`^/pay/${inv.invoice.uuid}\\?transaction_id=[\\w-]+&lang=hr$`));
      const shown = await page(location(done));
      assert.match(shown.body, /<html lang="hr">/);
      assert.ok(shown.body.includes(text('hr', 'invoice_processing_title')), 'the debit is under way');
      assert.equal((await post(`/pay/${inv.invoice.uuid}`, { method: 'cardecom' })).statusCode, 409, 'no second payment while it settles');

      // A debit the bank returns (AM04) is no payment: the invoice is open again instead of processing for good.
      const returned = await create({ amount: 13, first_name: 'Ana', last_name: 'Horvat' });
      assert.equal((await post(`/pay/${returned.invoice.uuid}`, sepa('DE78370400440532013004'))).statusCode, 303);
      assert.equal(await statusOf(returned.invoice.debt_claim_number), 'processing');
      gw.clock.advance(HOUR);
      await gw.composition.gateway.scheduler.runDue();
      assert.equal(await statusOf(returned.invoice.debt_claim_number), 'pending');
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'paid', 'the settled one');
    });

    test('an abandoned card step: coming back offers to continue or start afresh, which cancels the old attempt', async () => {
      const inv = await create({ amount: 30 });
      const uuid = inv.invoice.uuid;
      const first = location(await post(`/pay/${uuid}?lang=en`, { method: 'cardecom' }));
      const firstId = idIn(first);
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'processing');

      const back = await page(`/pay/${uuid}?lang=en`);
      assert.equal(back.statusCode, 200);
      assert.ok(back.body.includes(text('en', 'invoice_open_title')));
      assert.ok(back.body.includes(`href="/pay/${firstId}/card?lang=en"`), 'continue the started payment');
      assert.ok(back.body.includes('name="method"'), 'or choose a method again');

      const second = await post(`/pay/${uuid}?lang=en`, { method: 'wallet' });
      assert.equal(second.statusCode, 303);
      assert.match(location(second), /\/wallet\?lang=en$/);
      assert.equal((await transactionOf(firstId)).status, 'cancelled', 'the old attempt is cancelled');
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'processing');
      // The old card page takes no card any more.
      const late = await post(first, GOOD_CARD);
      assert.equal(late.statusCode, 409);
      assert.equal((await transactionOf(firstId)).status, 'cancelled');
      const approved = await post(location(second), { answer: 'approve' });
      assert.equal(approved.statusCode, 303);
      assert.equal(await statusOf(inv.invoice.debt_claim_number), 'paid');
    });

    test('an abandoned attempt lapses after its hour: pending again (partly_paid with a plan), and the page lets the customer pay', async () => {
      const inv = await create({ amount: 40 });
      const number = inv.invoice.debt_claim_number;
      const started = location(await post(`/pay/${inv.invoice.uuid}`, { method: 'cardecom' }));
      assert.equal(await statusOf(number), 'processing');
      gw.clock.advance(HOUR + 1000);
      // Past its hour, before the scheduler got to it: the page no longer waits for it.
      const lapsed = await page(`/pay/${inv.invoice.uuid}?lang=en`);
      assert.ok(lapsed.body.includes('name="method"'), 'the pay form, not a page that waits');
      assert.ok(!lapsed.body.includes(text('en', 'invoice_open_title')), 'nothing left to continue');
      await gw.composition.gateway.scheduler.runDue();
      assert.equal((await transactionOf(idIn(started))).status, 'expired');
      assert.equal(await statusOf(number), 'pending');

      // Lapsed before the scheduler ran, then paid afresh: the old attempt is expired, not cancelled.
      const other = await create({ amount: 41 });
      const old = location(await post(`/pay/${other.invoice.uuid}`, { method: 'cardecom' }));
      gw.clock.advance(HOUR + 1000);
      const fresh = await post(`/pay/${other.invoice.uuid}`, { method: 'cardecom' });
      assert.equal(fresh.statusCode, 303);
      assert.equal((await transactionOf(idIn(old))).status, 'expired');
      assert.notEqual(idIn(location(fresh)), idIn(old));
      assert.equal(await statusOf(other.invoice.debt_claim_number), 'processing');

      // With a plan: one instalment paid, the next one abandoned -> partly_paid again.
      const planned = await create({ amount: '20.00' });
      assert.equal(
        (await inject('POST', planPath(planned.invoice.debt_claim_number), { installments: 2, interval: 'week' })).statusCode,
        201,
      );
      await payByCard(planned.invoice.uuid);
      assert.equal(await statusOf(planned.invoice.debt_claim_number), 'partly_paid');
      await post(`/pay/${planned.invoice.uuid}`, { method: 'cardecom' });
      assert.equal(await statusOf(planned.invoice.debt_claim_number), 'processing');
      gw.clock.advance(HOUR + 1000);
      await gw.composition.gateway.scheduler.runDue();
      assert.equal(await statusOf(planned.invoice.debt_claim_number), 'partly_paid');
      const next = await page(`/pay/${planned.invoice.uuid}?lang=en`);
      assert.ok(next.body.includes('Instalment 2 of 2'));
    });
  });
});
