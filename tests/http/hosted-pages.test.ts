// The customer-facing hosted pages (issue "Hosted checkout sessions and the customer-facing pages";
// docs/api.md "Hosted checkout" and "Customer pages", client_action redirect/postform): every page
// in en/de/pt/hr, escaping of merchant-supplied text, the CSP and other headers, the POST flows
// through the core, server-side checks of card and checkout input, and pages of finished payments
// or sessions that take no payment. All through inject(), on real SQLite with a movable clock.
import assert from 'node:assert/strict';
import { Script } from 'node:vm';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { escapeHtml } from '../../main/http/pages/html.js';
import { formatterFor } from '../../contract/i18n/format.js';
import { LANGUAGES, type Lang, type PageMessage } from '../../main/http/pages/i18n.js';
import type { TestMerchant } from '../helpers/api.js';
import {
  api,
  DAY,
  EXPIRY_YEAR,
  HOUR,
  newMerchant,
  orderId,
  outboxOf,
  REDIRECT,
  SETTLING_IBAN,
  startHarness,
  type Api,
  type Harness,
} from '../helpers/payments.js';
import { sqlOf } from '../helpers/sql.js';
import { dialects } from '../../db/sql.js';

const CSP_BASE =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self' https://shop.example; frame-ancestors 'none'; base-uri 'none'";
const EXPIRY = `12/${String(EXPIRY_YEAR).slice(2)}`;
const GOOD_CARD = { step: 'card', card_number: '4111 1111 1111 1111', expiry: EXPIRY, cvc: '123', holder: 'Ada Lovelace' };

interface Tx {
  transaction_id: string;
  status_code: number;
  status: string;
  message: string | null;
  client_action?: string;
  action_data?: { url: string };
  card_last_four?: string;
  subscription_status?: string;
}

/** A hosted page's message by its name in the `pages` area (`card_title` for `pages.card_title`). */
type Short<T> = T extends `pages.${infer K}` ? K : never;
type MessageKey = Short<PageMessage>;
const text = (lang: Lang, key: MessageKey, vars: Record<string, string> = {}) => escapeHtml(formatterFor(lang)(`pages.${key}`, vars));

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A page must be complete HTML from our origin only: no inline script or style, no other host. */
function assertCleanPage(response: LightMyRequestResponse, lang: Lang): void {
  assert.match(String(response.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.match(response.body, new RegExp(`^<!doctype html>\\n<html lang="${lang}">`));
  assert.ok(
    String(response.headers['content-security-policy']).startsWith(
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'",
    ),
  );
  assert.match(String(response.headers['content-security-policy']), /frame-ancestors 'none'; base-uri 'none'$/);
  assert.equal(response.headers['x-frame-options'], 'DENY');
  assert.equal(response.headers['cache-control'], 'no-store');
  assert.equal(response.headers['referrer-policy'], 'same-origin', 'no Referer to other sites, and same-origin posts keep their Origin');
  assert.equal(response.headers['x-content-type-options'], 'nosniff');
  const scripts = [...response.body.matchAll(/<script\b([^>]*)>/g)];
  assert.equal(scripts.length, 1, 'one script element');
  assert.match(scripts[0]?.[1] ?? '', /^ src="\/pay\/assets\/pages\.js\?v=[\w-]+" defer$/);
  // Tags only (escaped merchant text has no "<"), with their attribute values blanked.
  const tags = response.body.replace(/"[^"]*"/g, '""').match(/<[a-z][^>]*>/gi) ?? [];
  assert.ok(tags.length > 10);
  for (const tag of tags) assert.doesNotMatch(tag, /^<style|\sstyle=|\son[a-z]+=/i, `no inline style or event handler: ${tag}`);
  for (const [, url] of response.body.matchAll(/\s(?:src|action)="([^"]*)"/g)) assert.ok(url?.startsWith('/'), `same-origin ${url}`);
  for (const [, url] of response.body.matchAll(/<link [^>]*href="([^"]*)"/g)) assert.ok(url?.startsWith('/pay/assets/'), `asset ${url}`);
}

describe('hosted pages', () => {
  let h: Harness;
  let shop: TestMerchant;
  let a: Api;

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Corner Shop');
    a = api(h, shop);
  });

  after(async () => {
    await h.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url: path, headers });
  const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    h.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(fields).toString(),
    });
  const payment = async (body: Record<string, unknown>, kind = 'payment', client = a) =>
    client.ok<Tx>(`/rest/${kind}`, { order_id: orderId('page'), amount: 12.5, currency: 'EUR', ...REDIRECT, ...body });
  /** A started payment waiting on a hosted page; returns its id and the page path. */
  const started = async (type: string, body: Record<string, unknown> = {}, kind = 'payment', client = a) => {
    const tx = await payment({ payment_type: type, ...body }, kind, client);
    assert.equal(tx.status_code, 1);
    // Banks take the customer with a form POST; everything else is a redirect.
    assert.equal(tx.client_action, type === 'bankredirect' ? 'postform' : 'redirect');
    return { id: tx.transaction_id, path: pathOf(tx.action_data?.url ?? '') };
  };
  const status = async (id: string) => (await a.transaction(id)) as unknown as Tx;

  describe('transaction pages', () => {
    test('the card page in each language: labels, button, headers, nothing inline or foreign', async () => {
      const { id, path } = await started('cardecom');
      assert.equal(path, `/pay/${id}/card`);
      const labels: Record<Lang, string[]> = {
        en: ['Card number', 'Expiry', 'CVC', 'Cardholder', 'Pay'],
        de: ['Kartennummer', 'Gültig bis', 'CVC', 'Karteninhaber', 'Bezahlen'],
        pt: ['Número do cartão', 'Validade', 'CVC', 'Titular do cartão', 'Pagar'],
        hr: ['Broj kartice', 'Vrijedi do', 'CVC', 'Vlasnik kartice', 'Plati'],
      };
      for (const lang of LANGUAGES) {
        const response = await get(`${path}?lang=${lang}`);
        assert.equal(response.statusCode, 200);
        assertCleanPage(response, lang);
        assert.equal(response.headers['content-security-policy'], CSP_BASE);
        const [pan, expiry, cvc, holder, pay] = labels[lang];
        for (const [id_, label] of [
          ['card_number', pan],
          ['expiry', expiry],
          ['cvc', cvc],
          ['holder', holder],
        ] as const) {
          assert.ok(response.body.includes(`<label for="f-${id_}">${label}</label>`), `${lang}: label ${label}`);
        }
        assert.ok(response.body.includes(`data-busy>${pay}</button>`), `${lang}: button ${pay}`);
        assert.ok(response.body.includes(`action="/pay/${id}/card?lang=${lang}"`), 'the form keeps the language');
        assert.match(response.body, /autocomplete="cc-number" inputmode="numeric"/);
        // The language switcher: the same page in the four languages, the current one marked.
        for (const other of LANGUAGES)
          assert.ok(response.body.includes(`href="/pay/${id}/card?lang=${other}" lang="${other}" hreflang="${other}"`));
        assert.match(response.body, new RegExp(`hreflang="${lang}" title="[^"]+" aria-current="true"`));
      }
      assert.ok((await get(`${path}?lang=en`)).body.includes('€12.50'));
      assert.ok((await get(`${path}?lang=de`)).body.includes('12,50\u00a0€'));
    });

    test('every page renders in each language', async () => {
      const card = await started('cardecom');
      const challenge = await started('cardecom');
      const toChallenge = await post(challenge.path, { ...GOOD_CARD, card_number: '4000000000003220' });
      assert.equal(toChallenge.statusCode, 303);
      const wallet = await started('wallet');
      const a2a = await started('a2a');
      const bank = await started('bankredirect');
      const done = await started('cardecom');
      assert.equal((await post(done.path, GOOD_CARD)).statusCode, 303);
      const pages: Array<[string, MessageKey]> = [
        [card.path, 'card_title'],
        [`/pay/${challenge.id}/3ds`, 'tds_title'],
        [wallet.path, 'wallet_title'],
        [a2a.path, 'a2a_title'],
        [bank.path, 'bank_title'],
        [`/pay/${done.id}/result`, 'result_completed_title'],
        [`/pay/${bank.id}/postform`, 'redirect_title'],
        ['/pay/01a1fce1-0000-7000-8000-000000000000/card', 'not_found_title'],
      ];
      for (const lang of LANGUAGES) {
        for (const [path, heading] of pages) {
          const response = await get(`${path}?lang=${lang}`);
          assert.ok([200, 404].includes(response.statusCode), `${path}: ${response.statusCode}`);
          assertCleanPage(response, lang);
          assert.ok(response.body.includes(`<h1>${text(lang, heading)}</h1>`), `${lang} ${path} shows ${heading}`);
          assert.ok(response.body.includes(text(lang, 'test_note')));
        }
      }
    });

    test('language: ?lang=, then Accept-Language (quality order), then English', async () => {
      const { path } = await started('wallet');
      const langOf = async (query: string, accept?: string) =>
        /<html lang="(\w+)">/.exec((await get(`${path}${query}`, accept ? { 'accept-language': accept } : {})).body)?.[1];
      assert.equal(await langOf(''), 'en');
      assert.equal(await langOf('', 'hr-HR,hr;q=0.9,en;q=0.8'), 'hr');
      assert.equal(await langOf('', 'fr-FR, pt;q=0.5, de;q=0.7'), 'de');
      assert.equal(await langOf('', 'fr, it'), 'en');
      assert.equal(await langOf('?lang=pt', 'de'), 'pt');
      assert.equal(await langOf('?lang=xx', 'de'), 'de');
    });

    test('merchant-supplied text is escaped everywhere it appears', async () => {
      const evil = await newMerchant(h, '<script>alert("name")</script> & Co');
      const evilApi = api(h, evil);
      const order = '<img src=x onerror=alert(1)>"\'';
      const { id, path } = await started('cardecom', { order_id: order, merchant_reference: "O'Brien (1/2)" }, 'payment', evilApi);
      for (const page of [path, `/pay/${id}/postform`]) {
        const response = await get(page);
        assert.equal(response.statusCode, 200);
        assert.ok(!response.body.includes('<script>alert'), 'merchant name escaped');
        assert.ok(!response.body.includes('<img src=x'), 'order id escaped');
        assert.ok(response.body.includes('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt; &amp; Co'));
      }
      const card = await get(path);
      assert.ok(card.body.includes('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;'));
      assert.ok(card.body.includes('O&#39;Brien (1/2)'));
      assert.equal((await post(path, GOOD_CARD)).statusCode, 303);
      const result = await get(`/pay/${id}/result`);
      assert.ok(!result.body.includes('<script>alert') && !result.body.includes('<img src=x'));
      assertCleanPage(result, 'en');
    });

    test('card: Pay answers 303 to success_url with the transaction id; the API shows it completed with its postback', async () => {
      const { id, path } = await started('cardecom');
      const response = await post(`${path}?lang=de`, GOOD_CARD);
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, `https://shop.example/ok?transaction_id=${id}`);
      const tx = await status(id);
      assert.deepEqual([tx.status_code, tx.status], [3, 'completed']);
      assert.ok(
        (await outboxOf(h, id)).some((row) => row.payload.status === 'completed'),
        'completed postback queued',
      );
    });

    test('3-D Secure: the challenge card leads to the challenge page; Approve pays, Fail declines to error_url', async () => {
      const approve = await started('cardecom');
      const first = await post(`${approve.path}?lang=hr`, { ...GOOD_CARD, card_number: '4000 0000 0000 3220' });
      assert.equal(first.statusCode, 303);
      assert.equal(first.headers.location, `/pay/${approve.id}/3ds?lang=hr`);
      const challenge = await get(String(first.headers.location));
      assert.equal(challenge.statusCode, 200);
      assert.ok(challenge.body.includes(`value="approve" class="btn btn-primary">${text('hr', 'approve')}</button>`));
      assert.ok(challenge.body.includes(`value="fail" class="btn btn-danger">${text('hr', 'fail')}</button>`));
      assert.ok(challenge.body.includes('•••• 3220'), 'the card’s last four');
      assert.ok(!challenge.body.includes('4000000000003220') && !challenge.body.includes('4000 0000 0000 3220'), 'never the whole number');
      const approved = await post(`/pay/${approve.id}/3ds`, { answer: 'approve' });
      assert.equal(approved.statusCode, 303);
      assert.equal(approved.headers.location, `https://shop.example/ok?transaction_id=${approve.id}`);
      assert.equal((await status(approve.id)).status, 'completed');

      const fail = await started('cardecom');
      assert.equal((await post(fail.path, { ...GOOD_CARD, card_number: '4000000000003220' })).statusCode, 303);
      const failed = await post(`/pay/${fail.id}/3ds`, { answer: 'fail' });
      assert.equal(failed.headers.location, `https://shop.example/failed?transaction_id=${fail.id}`);
      const tx = await status(fail.id);
      assert.deepEqual([tx.status, tx.message], ['declined', '05 Authentication failed']);
      const result = await get(`/pay/${fail.id}/result?lang=de`);
      assert.ok(result.body.includes(text('de', 'reason_3ds')), 'plain reason');
    });

    test('a declined card goes to error_url; its result page says why in plain words', async () => {
      const { id, path } = await started('cardecom');
      const response = await post(path, { ...GOOD_CARD, card_number: '4000000000000002' });
      assert.equal(response.headers.location, `https://shop.example/failed?transaction_id=${id}`);
      const result = await get(`/pay/${id}/result?lang=pt`);
      assert.equal(result.statusCode, 200);
      assert.ok(result.body.includes(text('pt', 'result_declined_title')));
      assert.ok(result.body.includes(text('pt', 'reason_05')));
      assert.ok(result.body.includes(`href="https://shop.example/failed?transaction_id=${id}"`), 'continue link to error_url');
    });

    test('bad card input re-renders with errors in the page language, linked to the fields, and takes no payment', async () => {
      const { id, path } = await started('cardecom');
      const before_ = (await a.log(id)).length;
      const bad = await post(`${path}?lang=de`, {
        step: 'card',
        card_number: '4111 1111 1111 1112',
        expiry: '13/40',
        cvc: '12',
        holder: ' ',
      });
      assert.equal(bad.statusCode, 422);
      assertCleanPage(bad, 'de');
      for (const key of ['err_pan_invalid', 'err_expiry_invalid', 'err_cvc_invalid', 'err_holder_required'] as const) {
        assert.ok(bad.body.includes(`">${text('de', key)}</p>`), `inline ${key}`);
        assert.ok(bad.body.includes(`">${text('de', key)}</a></li>`), `summary ${key}`);
      }
      for (const field of ['card_number', 'expiry', 'cvc', 'holder']) {
        assert.match(bad.body, new RegExp(`id="f-${field}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*f-${field}-error"`));
      }
      assert.match(bad.body, /id="f-card_number"[^>]*data-first-error/, 'focus goes to the first error');
      assert.match(bad.body, /<div class="error-summary" role="alert" aria-labelledby="error-summary-title">/);

      const expired = await post(path, { step: 'card', card_number: '4111111111111111', expiry: '01/20', cvc: '123', holder: 'Ada' });
      assert.equal(expired.statusCode, 422);
      assert.ok(expired.body.includes(text('en', 'err_expiry_past')));
      assert.ok(expired.body.includes(text('en', 'err_pan_reenter')), 'the number is typed again');
      assert.ok(!expired.body.includes('4111111111111111') && !expired.body.includes('4111 1111'), 'the card number is never echoed');
      assert.ok(expired.body.includes('value="01/20"') && expired.body.includes('value="Ada"'), 'other entries kept');
      assert.ok(!/name="cvc" value="[^"]/.test(expired.body), 'the CVC is never echoed');

      assert.equal((await status(id)).status, 'started');
      assert.equal((await a.log(id)).length, before_, 'nothing happened to the payment');
    });

    test('wallet and a2a approval pay; a bank cancellation cancels and returns to error_url', async () => {
      const wallet = await started('wallet');
      const approved = await post(wallet.path, { answer: 'approve' });
      assert.equal(approved.headers.location, `https://shop.example/ok?transaction_id=${wallet.id}`);
      assert.equal((await status(wallet.id)).status, 'completed');

      const a2a = await started('a2a');
      assert.equal(a2a.path, `/pay/${a2a.id}/a2a`);
      assert.equal((await post(a2a.path, { answer: 'approve' })).headers.location, `https://shop.example/ok?transaction_id=${a2a.id}`);
      assert.equal((await status(a2a.id)).status, 'completed');

      const bank = await started('bankredirect');
      assert.equal(bank.path, `/pay/${bank.id}/bank`);
      const cancelled = await post(`${bank.path}?lang=pt`, { answer: 'cancel' });
      assert.equal(cancelled.headers.location, `https://shop.example/failed?transaction_id=${bank.id}`);
      assert.equal((await status(bank.id)).status, 'cancelled');
      const result = await get(`/pay/${bank.id}/result?lang=pt`);
      assert.ok(result.body.includes(text('pt', 'result_cancelled_title')));
    });

    test('a wallet authorization shows when it will be charged; a subscription revision is approved on its own page', async () => {
      const held = await started('wallet', { wallet_capture_event: 'SHIPPING' }, 'authorize');
      const page = await get(`${held.path}?lang=de`);
      assert.ok(page.body.includes(text('de', 'capture_SHIPPING')));

      const plan = await started('wallet', { recurring: 1, subscription_plan_id: 'plan-basic', amount: 9.99 });
      assert.ok((await get(plan.path)).body.includes(text('en', 'subscription_note', { amount: '€9.99' })));
      assert.equal((await post(plan.path, { answer: 'approve' })).statusCode, 303);
      const revise = await a.ok<{ action_data?: { url: string } }>('/rest/revise', {
        transaction_id: plan.id,
        amount: 14.99,
        subscription_plan_id: 'plan-plus',
      });
      const revisionPath = pathOf(revise.action_data?.url ?? '');
      const revision = await get(revisionPath);
      assert.equal(revision.statusCode, 200);
      assert.ok(revision.body.includes(`<h1>${text('en', 'revision_title')}</h1>`));
      assert.ok(revision.body.includes('€14.99'));
      const approved = await post(revisionPath, { answer: 'approve' });
      assert.equal(approved.statusCode, 303);
      assert.ok(
        (await a.log(plan.id)).some((event) => event.type === 'reauthorization' && event.message === 'Customer approved the revision'),
      );
    });

    test('pages of finished payments show where they stand and take no payment', async () => {
      const paid = await started('cardecom');
      assert.equal((await post(paid.path, GOOD_CARD)).statusCode, 303);
      const events = (await a.log(paid.id)).length;
      const again = await get(paid.path);
      assert.equal(again.statusCode, 200);
      assert.ok(again.body.includes(`<h1>${text('en', 'result_completed_title')}</h1>`));
      assert.ok(!again.body.includes('name="card_number"'), 'no card form');
      const repost = await post(paid.path, { ...GOOD_CARD, card_number: '5555555555554444' });
      assert.equal(repost.statusCode, 409);
      assert.ok(repost.body.includes(text('en', 'result_completed_title')));
      assert.equal((await post(`/pay/${paid.id}/3ds`, { answer: 'approve' })).statusCode, 409);
      assert.equal((await post(`/pay/${paid.id}/wallet`, { answer: 'approve' })).statusCode, 409);
      assert.equal((await a.log(paid.id)).length, events, 'no further event');

      // Past its hour, before the scheduler ran: already shown as expired, and the card is not taken.
      const late = await started('cardecom');
      h.clock.advance(HOUR + 1000);
      const expiredPage = await get(late.path);
      assert.equal(expiredPage.statusCode, 200);
      assert.ok(expiredPage.body.includes(text('en', 'result_expired_title')));
      assert.equal((await post(late.path, GOOD_CARD)).statusCode, 409);
      assert.equal((await status(late.id)).status, 'started');
      await h.gateway.scheduler.runDue();
      assert.equal((await status(late.id)).status, 'expired');
      // A card entered late in the hour that meets 3-D Secure gets a new hour for the challenge:
      // the first hour's expiry does not end it.
      const challenged = await started('cardecom');
      h.clock.advance(50 * 60 * 1000);
      assert.equal((await post(challenged.path, { ...GOOD_CARD, card_number: '4000000000003220' })).statusCode, 303);
      h.clock.advance(11 * 60 * 1000);
      await h.gateway.scheduler.runDue();
      assert.equal((await status(challenged.id)).status, 'started', 'still in its challenge at minute 61');
      h.clock.advance(HOUR);
      await h.gateway.scheduler.runDue();
      assert.equal((await status(challenged.id)).status, 'expired', 'expired an hour after the card step');
      const after_ = await get(`${late.path}?lang=hr`);
      assert.ok(after_.body.includes(text('hr', 'result_expired_title')));
      assert.equal((await post(`/pay/${late.id}/result`, {})).statusCode, 404, 'the result page has no POST');
    });

    test('another step’s URL redirects to the step the payment waits for; a started payment’s result page too', async () => {
      const card = await started('cardecom');
      for (const page of ['3ds', 'wallet', 'a2a', 'bank', 'result']) {
        const response = await get(`/pay/${card.id}/${page}?lang=de`);
        assert.equal(response.statusCode, 303, page);
        assert.equal(response.headers.location, `/pay/${card.id}/card?lang=de`);
      }
      const wallet = await started('wallet');
      assert.equal((await get(`/pay/${wallet.id}/card`)).headers.location, `/pay/${wallet.id}/wallet?lang=en`);
      assert.equal((await post(`/pay/${wallet.id}/card`, GOOD_CARD)).statusCode, 303);
      assert.equal((await status(wallet.id)).status, 'started');
    });

    test('a form with the NUL character is a 400 page, never a 500 (PostgreSQL cannot hold it), and pays nothing', async () => {
      const { id, path } = await started('cardecom');
      const bad = await post(path, {
        step: 'card',
        card_number: '4111111111111111',
        expiry: '12/40',
        cvc: '123',
        holder: 'Ada\u0000Lovelace',
      });
      assert.equal(bad.statusCode, 400);
      assert.match(String(bad.headers['content-type']), /^text\/html/);
      assert.ok(!bad.body.includes('4111111111111111'), 'the card number is never echoed');
      assert.equal((await status(id)).status, 'started');
    });

    test('unknown or malformed ids and unknown pages answer an HTML 404, never JSON or 500', async () => {
      for (const path of [
        '/pay/01a1fce1-0000-7000-8000-000000000000/card',
        '/pay/not%20an%20id/card',
        '/pay/x/3ds',
        '/pay/01a1fce1-0000-7000-8000-000000000000/nothing',
        '/checkout/unknown-checkout-id',
        '/checkout/a/b/c',
      ]) {
        const response = await get(path);
        assert.equal(response.statusCode, 404, path);
        assertCleanPage(response, 'en');
      }
      const posted = await post('/pay/01a1fce1-0000-7000-8000-000000000000/card', GOOD_CARD);
      assert.equal(posted.statusCode, 404);
      // A form body beyond 32 KiB: an HTML error page, nothing taken.
      const { id, path } = await started('cardecom');
      const huge = await post(path, { ...GOOD_CARD, holder: 'x'.repeat(40_000) });
      assert.equal(huge.statusCode, 413);
      assertCleanPage(huge, 'en');
      assert.ok(huge.body.includes(text('en', 'server_error_title')));
      assert.equal((await status(id)).status, 'started');
    });

    test('an answer posted from another site does not act; a merchant’s auto-submitted form just shows the page', async () => {
      const bank = await started('bankredirect');
      const crossOrigin = await post(bank.path, { answer: 'approve' }, { origin: 'https://evil.example' });
      assert.equal(crossOrigin.statusCode, 200);
      const crossSite = await post(bank.path, { answer: 'approve' }, { 'sec-fetch-site': 'cross-site' });
      assert.equal(crossSite.statusCode, 200);
      assert.equal((await status(bank.id)).status, 'started');
      // The postform integration: the merchant's page posts the action's fields to the bank page.
      const merchantForm = await post(
        `${bank.path}?lang=hr`,
        { transaction_id: bank.id, order: 'x' },
        { origin: 'https://shop.example', 'sec-fetch-site': 'cross-site' },
      );
      assert.equal(merchantForm.statusCode, 200);
      assert.ok(merchantForm.body.includes(`<h1>${text('hr', 'bank_title')}</h1>`));
      const multipart = await h.app.inject({
        method: 'POST',
        url: bank.path,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x--',
      });
      assert.equal(multipart.statusCode, 200);
      // A browser that sends no Origin value (Origin: null) and no Sec-Fetch-Site is not trusted either.
      assert.equal((await post(bank.path, { answer: 'approve' }, { origin: 'null' })).statusCode, 200);
      assert.equal((await status(bank.id)).status, 'started');
      const sameOrigin = await post(bank.path, { answer: 'approve' }, { origin: 'null', 'sec-fetch-site': 'same-origin' });
      assert.equal(sameOrigin.statusCode, 303);
      assert.equal((await status(bank.id)).status, 'completed');
    });

    test('the postform page posts the action’s fields to its URL and submits itself', async () => {
      const bank = await started('bankredirect');
      const page = await get(`/pay/${bank.id}/postform?lang=de`);
      assert.equal(page.statusCode, 200);
      assertCleanPage(page, 'de');
      assert.ok(page.body.includes(`<form method="post" action="/pay/${bank.id}/bank?lang=de" data-autosubmit>`));
      // The bank redirect's own fields travel in the form.
      assert.ok(page.body.includes(`<input type="hidden" name="transaction_id" value="${bank.id}">`), page.body);
      assert.ok(page.body.includes('<input type="hidden" name="currency" value="EUR">'));
      assert.match(
        page.body,
        /<noscript><div class="actions"><button type="submit" class="btn btn-primary">Weiter<\/button><\/div><\/noscript>/,
      );

      // A postform action with fields (as a processor may answer): fields escaped, its origin allowed as form target.
      const other = await started('bankredirect');
      const action = {
        client_action: 'postform',
        action_data: { url: 'https://acs.example/challenge?x=1', fields: { PaReq: '<abc>"', MD: other.id } },
      };
      await sqlOf(h).run(
        dialects({
          sqlite: "UPDATE transactions SET details = json_set(details, '$.client_action', json(?)) WHERE id = ?",
          postgres: "UPDATE transactions SET details = jsonb_set(details::jsonb, '{client_action}', ?::jsonb)::text WHERE id = ?",
        }),
        JSON.stringify(action),
        other.id,
      );
      const postform = await get(`/pay/${other.id}/postform`);
      assert.equal(postform.statusCode, 200);
      assert.ok(postform.body.includes('<form method="post" action="https://acs.example/challenge?x=1" data-autosubmit>'));
      assert.ok(postform.body.includes('<input type="hidden" name="PaReq" value="&lt;abc&gt;&quot;">'));
      assert.ok(postform.body.includes(`<input type="hidden" name="MD" value="${other.id}">`));
      assert.match(String(postform.headers['content-security-policy']), /form-action 'self' https:\/\/acs\.example;/);

      const paid = await started('cardecom');
      await post(paid.path, GOOD_CARD);
      assert.equal((await get(`/pay/${paid.id}/postform`)).headers.location, `/pay/${paid.id}/result?lang=en`);
    });

    test('the stylesheet, script and icon come from the gateway, cacheable; the script is valid JavaScript', async () => {
      const page = await get((await started('cardecom')).path);
      const assets = [...page.body.matchAll(/(?:href|src)="(\/pay\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
      assert.equal(assets.length, 3);
      for (const path of assets) {
        const response = await get(path);
        assert.equal(response.statusCode, 200, path);
        assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.equal(response.headers['x-content-type-options'], 'nosniff');
        assert.doesNotMatch(response.body, /https?:\/\/(?!www\.w3\.org\/2000\/svg)|@import/, `${path} refers to no other host`);
      }
      const script = await get(assets.find((path) => path.includes('.js')) as string);
      assert.match(String(script.headers['content-type']), /^text\/javascript/);
      assert.doesNotThrow(() => new Script(script.body));
      assert.ok(
        script.body.length < 16 * 1024 && (await get(assets.find((p) => p.includes('.css')) as string)).body.length < 16 * 1024,
        'small',
      );
      assert.equal((await get('/pay/assets/pages.js')).headers['cache-control'], 'no-cache');
      assert.equal((await get('/pay/assets/nothing.js')).statusCode, 404);
    });
  });

  describe('checkout page', () => {
    const session = {
      merchant_name: 'Corner <Shop>',
      order_id: 'order-7',
      reference: 'INV-7',
      description: '2 × "Coffee" <beans>',
      currency: 'EUR',
      amount: 10,
      amount_taxes: 1.9,
      amount_shipping: 2,
      total_amount: 13.9,
      ...{ success_url: REDIRECT.success_url, error_url: REDIRECT.error_url, postback_url: REDIRECT.postback_url },
    };
    const full = {
      collect_dob: 1,
      collect_phone: 1,
      collect_gender: 1,
      collect_billing_address: 1,
      collect_shipping_address: 1,
      display_transaction_details: 1,
      display_manual_payment_instruction_to_customer: 1,
      payment_instruction_merchant_account_holder: 'Corner Shop GmbH',
      payment_instruction_merchant_iban: 'DE89370400440532013000',
      payment_instruction_merchant_bic: 'COBADEFFXXX',
      prefill_customer_info: {
        first_name: '"><svg onload=alert(1)>',
        last_name: 'Horvat',
        address: 'Ilica 1',
        city: 'Zagreb',
        postal_code: '10000',
        country: 'HR',
        phone: '+385 1 234 5678',
      },
    };
    const customer = {
      dob: '1990-04-01',
      phone: '+385 1 234 5678',
      gender: 'female',
      first_name: 'Ana',
      last_name: 'Horvat',
      address: 'Ilica 1',
      postal_code: '10000',
      city: 'Zagreb',
      country: 'HR',
      shipping_same: '1',
    };
    const open = async (extra: Record<string, unknown> = {}) => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/rest/checkouts',
        headers: { authorization: shop.auth },
        payload: { ...session, ...extra },
      });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json<{ checkout_id: string; action_data: { url: string } }>();
      return { id: body.checkout_id, path: pathOf(body.action_data.url) };
    };
    const checkoutStatus = async (id: string) =>
      (await h.app.inject({ method: 'GET', url: `/rest/checkouts/${id}`, headers: { authorization: shop.auth } })).json<{
        status: string;
        transaction_id: string | null;
      }>();

    test('shows the order, the collect_* fields pre-filled, the methods, the manual instructions and Cancel, in each language', async () => {
      const { id, path } = await open(full);
      assert.equal(path, `/checkout/${id}`);
      for (const lang of LANGUAGES) {
        const response = await get(`${path}?lang=${lang}`);
        assert.equal(response.statusCode, 200);
        assertCleanPage(response, lang);
        assert.equal(response.headers['content-security-policy'], CSP_BASE);
        const body = response.body;
        assert.ok(body.includes(text(lang, 'pay_to', { merchant: 'Corner <Shop>' })), `${lang} heading`);
        for (const key of [
          'order_summary',
          'subtotal',
          'taxes',
          'shipping',
          'total',
          'dob',
          'phone',
          'gender',
          'billing_address',
          'shipping_address',
          'same_as_billing',
          'payment_method',
          'manual_title',
          'method_cardecom',
          'method_dd',
          'method_wallet',
          'method_a2a',
          'method_bankredirect',
        ] as const) {
          assert.ok(body.includes(text(lang, key)), `${lang}: ${key}`);
        }
        assert.ok(body.includes(text(lang, 'cancel_checkout', { merchant: 'Corner <Shop>' })));
        assert.ok(body.includes(`action="/checkout/${id}/cancel?lang=${lang}"`));
      }
      const body = (await get(path)).body;
      assert.ok(body.includes('2 × &quot;Coffee&quot; &lt;beans&gt;'), 'description escaped');
      assert.ok(body.includes('value="&quot;&gt;&lt;svg onload=alert(1)&gt;"'), 'prefill escaped');
      assert.ok(!body.includes('<svg onload') && !body.includes('<beans>') && !body.includes('Corner <Shop>'));
      assert.ok(
        body.includes('value="+385 1 234 5678"') &&
          body.includes('value="Ilica 1"') &&
          body.includes('<option value="HR" selected>Croatia</option>'),
      );
      assert.ok(body.includes('name="shipping_first_name" value="&quot;&gt;&lt;svg'), 'shipping pre-filled from the same data');
      assert.ok(body.includes('DE89 3704 0044 0532 0130 00') && body.includes('COBADEFFXXX') && body.includes('Corner Shop GmbH'));
      assert.ok(body.includes('€13.90') && body.includes('€1.90') && body.includes('€2.00'));
      assert.match(body, /<input type="radio" id="f-method-cardecom" name="method" value="cardecom" checked>/);
      assert.match(body, /<label for="f-dob">Date of birth<\/label>/);

      const plain = await open();
      const minimal = (await get(plain.path)).body;
      for (const absent of ['name="dob"', 'name="phone"', 'name="first_name"', text('en', 'order_summary'), text('en', 'manual_title')])
        assert.ok(!minimal.includes(absent), absent);
      assert.ok(minimal.includes('€13.90'));
    });

    test('the mandate step and the pages of finished sessions in each language', async () => {
      const { path } = await open(full);
      const cancelled = await open();
      assert.equal((await post(`${cancelled.path}/cancel`, {})).statusCode, 303);
      for (const lang of LANGUAGES) {
        const mandate = await post(`${path}?lang=${lang}`, { ...customer, method: 'dd' });
        assert.equal(mandate.statusCode, 200);
        assertCleanPage(mandate, lang);
        for (const key of ['sepa_title', 'account_holder', 'iban', 'mandate_accept', 'confirm_and_pay', 'back'] as const)
          assert.ok(mandate.body.includes(text(lang, key)), `${lang}: ${key}`);
        const status_ = await get(`${cancelled.path}?lang=${lang}`);
        assertCleanPage(status_, lang);
        assert.ok(status_.body.includes(`<h1>${text(lang, 'checkout_cancelled_title')}</h1>`));
        assert.ok(status_.body.includes(text(lang, 'continue_to', { merchant: 'Corner <Shop>' })));
      }
    });

    test('the session locale chooses the language unless ?lang= says otherwise', async () => {
      const { path } = await open({ locale: 'hr' });
      assert.match((await get(path, { 'accept-language': 'de' })).body, /<html lang="hr">/);
      assert.match((await get(`${path}?lang=pt`)).body, /<html lang="pt">/);
    });

    test('card: Continue goes to the card page; paying lands on success_url and completes the session', async () => {
      const { id, path } = await open(full);
      const chosen = await post(`${path}?lang=de`, { ...customer, method: 'cardecom' });
      assert.equal(chosen.statusCode, 303, chosen.body);
      const location = String(chosen.headers.location);
      const match = /^\/pay\/([\w-]+)\/card\?lang=de$/.exec(location);
      assert.ok(match, location);
      const txId = match[1] as string;
      const processingStatus = await checkoutStatus(id);
      assert.deepEqual([processingStatus.status, processingStatus.transaction_id], ['processing', txId]);
      const cardPage = await get(location);
      assert.ok(cardPage.body.includes('Corner &lt;Shop&gt;'), 'the session’s merchant name');
      assert.match(cardPage.body, /<html lang="de">/);
      // The session page meanwhile offers to continue the started payment.
      const processing = await get(path);
      assert.ok(processing.body.includes(text('en', 'checkout_processing_title')));
      assert.ok(processing.body.includes(`href="/pay/${txId}/card?lang=en"`));
      const paid = await post(location, GOOD_CARD);
      // Every return from a checkout carries checkout_id (docs/api.md "Customer pages").
      assert.equal(paid.headers.location, `https://shop.example/ok?transaction_id=${txId}&checkout_id=${id}`);
      assert.equal((await checkoutStatus(id)).status, 'completed');
      assert.equal((await status(txId)).status, 'completed');
      const done = await get(path);
      assert.ok(done.body.includes(text('en', 'checkout_completed_title')));
      assert.ok(done.body.includes(`href="https://shop.example/ok?transaction_id=${txId}&amp;checkout_id=${id}"`));
      assert.equal((await post(path, { ...customer, method: 'cardecom' })).statusCode, 409, 'a paid session takes no payment');
    });

    test('3-D Secure through a checkout: the customer returns with transaction_id and checkout_id, to error_url when it fails', async () => {
      for (const [answer, target] of [
        ['approve', 'https://shop.example/ok'],
        ['fail', 'https://shop.example/failed'],
      ] as const) {
        const { id, path } = await open(full);
        const chosen = await post(path, { ...customer, method: 'cardecom' });
        const location = String(chosen.headers.location);
        const txId = /^\/pay\/([\w-]+)\/card/.exec(location)?.[1] as string;
        assert.ok(txId, location);
        assert.equal((await post(location, { ...GOOD_CARD, card_number: '4000000000003220' })).statusCode, 303);
        const answered = await post(`/pay/${txId}/3ds`, { answer });
        assert.equal(answered.statusCode, 303);
        assert.equal(answered.headers.location, `${target}?transaction_id=${txId}&checkout_id=${id}`, answer);
      }
    });

    test('collect_* fields are checked on the server and come back with errors', async () => {
      const { id, path } = await open(full);
      const response = await post(`${path}?lang=de`, {
        dob: '2999-01-01',
        phone: 'abc',
        gender: 'robot',
        first_name: 'Ana',
        last_name: '',
        address: 'Ilica 1',
        postal_code: '10000',
        city: 'Zagreb',
        country: 'XX',
        method: 'bitcoin',
      });
      assert.equal(response.statusCode, 422);
      assertCleanPage(response, 'de');
      for (const [field, key] of [
        ['dob', 'err_dob_invalid'],
        ['phone', 'err_phone_invalid'],
        ['gender', 'err_required'],
        ['last_name', 'err_required'],
        ['country', 'err_country_invalid'],
        ['shipping_address', 'err_required'],
      ] as const) {
        assert.match(response.body, new RegExp(`id="f-${field}"[^>]*aria-invalid="true"`), field);
        assert.ok(response.body.includes(`id="f-${field}-error">${text('de', key)}</p>`), `${field}: ${key}`);
      }
      assert.ok(response.body.includes(`id="f-method-error">${text('de', 'err_method_required')}</p>`));
      assert.ok(response.body.includes(`${text('de', 'dob')}: ${text('de', 'err_dob_invalid')}`), 'the summary names the field');
      assert.match(response.body, /id="f-dob"[^>]*data-first-error/);
      assert.ok(response.body.includes('value="Ana"'), 'entries kept');
      assert.equal((await checkoutStatus(id)).status, 'open');
      assert.equal((await checkoutStatus(id)).transaction_id, null);
    });

    test('SEPA: the mandate step asks for IBAN and account holder; confirming lands on success_url and the session completes on settlement', async () => {
      const { id, path } = await open(full);
      const mandate = await post(`${path}?lang=de`, { ...customer, method: 'dd' });
      assert.equal(mandate.statusCode, 200);
      assertCleanPage(mandate, 'de');
      assert.ok(mandate.body.includes(`<h1>${text('de', 'sepa_title')}</h1>`));
      assert.ok(mandate.body.includes(text('de', 'mandate_text', { merchant: 'Corner <Shop>' })));
      assert.ok(
        mandate.body.includes('<label for="f-iban">IBAN</label>') &&
          mandate.body.includes(`<label for="f-account_holder">${text('de', 'account_holder')}</label>`),
      );
      assert.ok(mandate.body.includes('name="account_holder" value="Ana Horvat"'), 'holder from the entered name');
      assert.ok(mandate.body.includes('<input type="hidden" name="city" value="Zagreb">'), 'the details travel along');

      const carried = { ...customer, method: 'dd', step: 'sepa' };
      const bad = await post(`${path}?lang=de`, { ...carried, account_holder: 'Ana Horvat', iban: 'DE00 1234' });
      assert.equal(bad.statusCode, 422);
      assert.ok(bad.body.includes(`id="f-iban-error">${text('de', 'err_iban_invalid')}</p>`));
      assert.ok(bad.body.includes(`id="f-mandate_accept-error">${text('de', 'err_mandate_accept')}</p>`));

      const back = await post(`${path}?lang=de`, { ...carried, back: '1' });
      assert.equal(back.statusCode, 200);
      assert.ok(
        back.body.includes('name="city" value="Zagreb"') && back.body.includes('value="dd" checked'),
        'Back keeps the entries and the choice',
      );

      const ok = await post(`${path}?lang=de`, { ...carried, account_holder: 'Ana Horvat', iban: SETTLING_IBAN, mandate_accept: '1' });
      assert.equal(ok.statusCode, 303, ok.body);
      const location = new URL(String(ok.headers.location));
      assert.equal(`${location.origin}${location.pathname}`, 'https://shop.example/ok');
      const txId = location.searchParams.get('transaction_id') as string;
      assert.equal(location.searchParams.get('checkout_id'), id);
      const tx = await a.transaction(txId);
      assert.deepEqual([tx.payment_method, tx.status], ['dd', 'pending']);
      assert.equal((await checkoutStatus(id)).status, 'processing');
      assert.ok((await get(path)).body.includes(text('en', 'result_pending_title')));
      await h.advance(60_000);
      assert.equal((await a.transaction(txId)).status, 'completed');
      assert.equal((await checkoutStatus(id)).status, 'completed');
    });

    test('Cancel returns to error_url with the checkout id; the cancelled session takes no payment', async () => {
      const { id, path } = await open();
      const cancelled = await post(`${path}/cancel?lang=pt`, {});
      assert.equal(cancelled.statusCode, 303);
      assert.equal(cancelled.headers.location, `https://shop.example/failed?checkout_id=${id}`);
      assert.equal((await checkoutStatus(id)).status, 'cancelled');
      const page = await get(`${path}?lang=pt`);
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.includes(text('pt', 'checkout_cancelled_title')));
      assert.ok(!page.body.includes('name="method"'));
      assert.equal((await post(path, { method: 'cardecom' })).statusCode, 409);
      assert.equal((await checkoutStatus(id)).transaction_id, null);
      // Cancel from another site does nothing.
      const other = await open();
      assert.equal(
        (await post(`${other.path}/cancel`, {}, { origin: 'https://evil.example' })).headers.location,
        `/checkout/${other.id}?lang=en`,
      );
      assert.equal((await checkoutStatus(other.id)).status, 'open');
    });

    test('an expired session (24 h) shows it and takes no payment, also before the scheduler ran', async () => {
      const { id, path } = await open(full);
      h.clock.advance(DAY + 1000);
      const early = await get(`${path}?lang=hr`);
      assert.ok(early.body.includes(text('hr', 'checkout_expired_title')));
      assert.equal((await post(path, { ...customer, method: 'cardecom' })).statusCode, 409);
      assert.equal((await post(`${path}/cancel`, {})).headers.location, `/checkout/${id}?lang=en`);
      await h.gateway.scheduler.runDue();
      assert.equal((await checkoutStatus(id)).status, 'expired');
      const page = await get(path);
      assert.ok(page.body.includes(text('en', 'checkout_expired_title')));
      assert.ok(page.body.includes(`href="https://shop.example/failed?checkout_id=${id}"`));
      assert.equal((await checkoutStatus(id)).transaction_id, null);
    });
  });
});
