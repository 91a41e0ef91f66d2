// The back office's Postbacks area (issue 16, 3; docs/decisions.md "Back office: postbacks and
// outbox") through inject(), with real postbacks of transactions, tokens and checkouts delivered by
// the real HTTP sender to a real receiver on 127.0.0.1 and a movable clock: the delivery log's
// statuses (queued, retrying, delivered, failed), filters and pages, every bad parameter in one 400;
// the order id each postback is about, and the search by order id or a pasted id;
// each attempt's HTTP status, duration, time, scheduled retry, and the signed body and headers
// exactly as the receiver got them; resending one (a new attempt, audited); "resend all failed
// since" as a job whose progress is read until done (audited); the webhook key masked, copied,
// rotated by an admin only (audited; both keys sign for 24 h, then only the new one, checked with
// the standardwebhooks library); the Test environment's outbox of sent e-mails (HTML without
// script) and postback attempts, newest first; who may call what; the OpenAPI entries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import { basicAuth } from '../helpers/gateway-process.js';
import { cardPayment, startPostbackGateway, type PostbackHarness } from '../helpers/postback-gateway.js';
import { startReceiver, webhookHeaders, type ReceivedPostback, type Receiver } from '../helpers/postback-receiver.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const APPROVE = '4111111111111111';

type Who = 'api' | 'office' | 'admin' | 'cashier' | 'other' | 'nobody';

interface Postback {
  event_id: string;
  kind: string;
  subject_id: string;
  order_id: string | null;
  status: string;
  event: string | null;
  attempts: number;
  last_http_status: number | null;
  next_attempt_at: string | null;
  created_at: string;
}
interface Attempt {
  attempt: number;
  created_at: string;
  http_status: number | null;
  outcome: string;
  duration_ms: number;
  next_attempt_at: string | null;
  body: string | null;
  headers: Record<string, string> | null;
}
interface Detail {
  postback: Postback;
  payload: Record<string, unknown>;
  attempts: Attempt[];
}
interface List<T> {
  data_set: T[];
  metadata: { per_page: number; total_items: number; current_page: number; total_pages: number };
}
interface Resend {
  resend_id: string;
  total: number;
  attempted: number;
  delivered: number;
  failing: number;
  done: boolean;
}
interface AuditEntry {
  action: string;
  staff_id: string | null;
  subject_id: string | null;
  detail: string | null;
}
interface OutboxItem {
  item_id: string;
  kind: string;
  at: string;
  to: string;
  title: string;
  outcome: string;
  http_status: number | null;
  event_id: string | null;
}

/**
 * Whether `key` made one of the signatures of `webhook-signature`, by the standardwebhooks library's
 * own sign() (its verify() also checks the timestamp against the real time, which the test clock
 * has left days behind).
 */
/** The received postbacks whose webhook-id is `eventId`, in arrival order. */
const receivedFor = (receiver: Receiver, eventId: string): ReceivedPostback[] =>
  receiver.received.filter((p) => p.headers['webhook-id'] === eventId);

function signedBy(postback: { raw: string; headers: Record<string, string> }, key: string): boolean {
  const expected = new Webhook(key).sign(
    postback.headers['webhook-id'] ?? '',
    new Date(Number(postback.headers['webhook-timestamp']) * 1000),
    postback.raw,
  );
  return (postback.headers['webhook-signature'] ?? '').split(' ').includes(expected);
}

describe('back office: postbacks and the test outbox', () => {
  let h: PostbackHarness;
  let receiver: Receiver;
  let shop: TestMerchant;
  let other: TestMerchant;
  const sessions: Record<'office' | 'admin' | 'cashier' | 'other', string> = { office: '', admin: '', cashier: '', other: '' };
  const staffIds: Record<string, string> = {};
  /** Postbacks made in `before`, by what became of them. */
  const seeded = { failed: [] as string[], delivered: '', retrying: '', token: '', checkout: '', queued: '', boundary: '' };

  const inject = (method: 'GET' | 'POST', url: string, who: Who = 'office', payload?: unknown) =>
    h.app.inject({
      method,
      url,
      headers: who === 'api' ? { authorization: shop.auth } : who === 'nobody' ? {} : { cookie: `tillgate_session=${sessions[who]}` },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const read = async <T>(url: string, who: Who = 'office'): Promise<T> => {
    const response = await inject('GET', url, who);
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
    return response.json<T>();
  };
  const api = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await h.app.inject({
      method: 'POST',
      url: path,
      headers: { authorization: shop.auth },
      payload: body as Record<string, unknown>,
    });
    assert.ok(response.statusCode === 200 || response.statusCode === 201, `${path}: ${response.body}`);
    return response.json();
  };
  const pay = async (): Promise<string> => String((await api('/rest/payment', cardPayment(APPROVE, 10, receiver.url()))).transaction_id);
  const eventOf = async (transactionId: string): Promise<string> => {
    const response = await h.app.inject({
      method: 'GET',
      url: `/rest/transactions/${transactionId}/postbacks`,
      headers: { authorization: shop.auth },
    });
    const [first] = response.json<Array<{ event_id: string }>>();
    assert.ok(first, response.body);
    return first.event_id;
  };
  const audit = async (): Promise<AuditEntry[]> => read<AuditEntry[]>('/ui/audit', 'admin');
  const auditedBy = async (work: () => Promise<void>): Promise<AuditEntry[]> => {
    const before = (await audit()).length;
    await work();
    const entries = await audit();
    return entries.slice(0, entries.length - before).reverse();
  };
  const passwords: Record<string, string> = {};
  /** Fresh sessions for everyone (the test clock jumps days, past the sessions' idle timeout). */
  const logIn = async () => {
    for (const who of ['office', 'admin', 'cashier', 'other'] as const) {
      const response = await h.app.inject({
        method: 'POST',
        url: '/ui/session',
        payload: { login: `${who}-login`, password: passwords[who] },
      });
      assert.equal(response.statusCode, 200, response.body);
      sessions[who] = response.cookies.find((c) => c.name === 'tillgate_session')?.value ?? '';
    }
  };
  /** Moves the clock and runs what became due: the simulator's steps and postback retries. */
  const advance = async (ms: number) => {
    h.clock.advance(ms);
    await h.gateway.scheduler.runDue();
    await h.deliver();
  };

  before(async () => {
    receiver = await startReceiver({ respond: 500 });
    h = await startPostbackGateway();
    const merchant = async (name: string): Promise<TestMerchant> => {
      const created = await h.gateway.merchants.create({ name });
      assert.ok(created.ok);
      return { ...created.value, auth: basicAuth(created.value) };
    };
    shop = await merchant('Postback Bakery');
    other = await merchant('Other Bakery');
    for (const [who, role, merchantOf] of [
      ['office', 'back_office', shop],
      ['admin', 'admin', shop],
      ['cashier', 'cashier', shop],
      ['other', 'back_office', other],
    ] as const) {
      const created = await h.gateway.staff.create({ merchantId: merchantOf.merchant_id, role, login: `${who}-login` });
      assert.ok(created.ok);
      staffIds[who] = created.value.staff_id;
      passwords[who] = created.value.password;
    }
    await logIn();

    // The receiver answers 500: three payments, a token and a checkout session fail for 3 days.
    for (let i = 0; i < 3; i++) seeded.failed.push(await eventOf(await pay()));
    await api('/v2/network_tokens', {
      card_number: '5555555555554444',
      expiry_month: 12,
      expiry_year: new Date().getUTCFullYear() + 3,
      postback_url: receiver.url(),
    });
    const checkout = await api('/rest/checkouts', {
      merchant_name: 'Postback Bakery',
      order_id: 'pb-checkout-1',
      currency: 'EUR',
      amount: 12,
      total_amount: 12,
      success_url: 'https://shop.example/ok',
      error_url: 'https://shop.example/error',
      postback_url: receiver.url(),
    });
    assert.equal((await inject('POST', `/ui/checkouts/${String(checkout.checkout_id)}/cancel`, 'office')).statusCode, 200);
    await advance(1000); // the token becomes active (its postback), every first attempt fails
    for (let i = 0; i < 12; i++) await advance(8 * HOUR);
    await logIn();
    const all = await read<List<Postback>>('/ui/postbacks?per=100');
    seeded.token = all.data_set.find((p) => p.kind === 'token')?.event_id ?? '';
    seeded.checkout = all.data_set.find((p) => p.kind === 'checkout')?.event_id ?? '';
    assert.ok(seeded.token && seeded.checkout, JSON.stringify(all.data_set));
    seeded.boundary = new Date(h.clock.now().getTime() + 1).toISOString();

    // Later: one delivered, one retrying (a failed first attempt), one not tried yet.
    h.clock.advance(HOUR);
    receiver.respond(200);
    seeded.delivered = await eventOf(await pay());
    await h.deliver();
    receiver.respond(503);
    seeded.retrying = await eventOf(await pay());
    await h.deliver();
    seeded.queued = await eventOf(await pay());
    await logIn();
  });

  after(async () => {
    await h.close();
    await receiver.close();
  });

  test('the log: statuses over transactions, tokens and checkouts, newest first, with filters and pages', async () => {
    const all = await read<List<Postback>>('/ui/postbacks');
    assert.equal(all.metadata.total_items, 8);
    const statusOf = (id: string) => all.data_set.find((p) => p.event_id === id)?.status;
    for (const id of [...seeded.failed, seeded.token, seeded.checkout]) assert.equal(statusOf(id), 'failed', id);
    assert.deepEqual([statusOf(seeded.delivered), statusOf(seeded.retrying), statusOf(seeded.queued)], ['delivered', 'retrying', 'queued']);
    assert.deepEqual(
      all.data_set.map((p) => p.created_at),
      all.data_set
        .map((p) => p.created_at)
        .sort()
        .reverse(),
      'newest first',
    );
    const token = all.data_set.find((p) => p.event_id === seeded.token);
    assert.deepEqual([token?.kind, token?.event, token?.last_http_status, token?.next_attempt_at], ['token', 'active', 500, null]);
    assert.equal(all.data_set.find((p) => p.event_id === seeded.checkout)?.event, 'cancelled');
    const retrying = all.data_set.find((p) => p.event_id === seeded.retrying);
    assert.deepEqual([retrying?.attempts, retrying?.last_http_status], [1, 503]);
    assert.ok(retrying?.next_attempt_at && retrying.next_attempt_at > h.clock.now().toISOString(), 'the next retry is ahead');

    const ids = async (query: string) => (await read<List<Postback>>(`/ui/postbacks?${query}`)).data_set.map((p) => p.event_id).sort();
    assert.deepEqual(await ids('status=failed'), [...seeded.failed, seeded.token, seeded.checkout].sort());
    assert.deepEqual(await ids('status=retrying'), [seeded.retrying]);
    assert.deepEqual(await ids('status=queued'), [seeded.queued]);
    assert.deepEqual(await ids('status=delivered&kind=transaction'), [seeded.delivered]);
    assert.deepEqual(await ids('kind=token'), [seeded.token]);
    assert.deepEqual(await ids('kind=checkout&status=failed'), [seeded.checkout]);
    assert.deepEqual(
      await ids(`created_at[min]=${encodeURIComponent(seeded.boundary)}`),
      [seeded.delivered, seeded.retrying, seeded.queued].sort(),
    );
    assert.equal((await ids(`created_at[max]=${encodeURIComponent(seeded.boundary)}`)).length, 5);
    const page = await read<List<Postback>>('/ui/postbacks?per=3&page=3');
    assert.deepEqual(page.metadata, { per_page: 3, total_items: 8, current_page: 3, total_pages: 3 });
    assert.equal(page.data_set.length, 2);
    assert.equal(
      (await read<List<Postback>>('/ui/postbacks', 'other')).metadata.total_items,
      0,
      "another merchant's staff see none of them",
    );

    const bad = await inject('GET', '/ui/postbacks?status=lost&kind=invoice&page=0&per=500&created_at[min]=yesterday');
    assertApiError(bad, 400, 1001, ['status', 'kind', 'page', 'per', 'created_at[min]']);
    assert.equal((await inject('GET', '/ui/postbacks?colour=red&page=x')).statusCode, 400);
    assertApiError(await inject('GET', '/ui/postbacks?colour=red&page=x'), 400, 1001, ['colour', 'page']);
  });

  test('a postback in detail: every attempt with status, duration, time, the retry it scheduled, and the body and headers the receiver got', async () => {
    const [eventId = ''] = seeded.failed;
    const detail = await read<Detail>(`/ui/postbacks/${eventId}`);
    const got = receivedFor(receiver, eventId);
    assert.equal(detail.attempts.length, got.length);
    assert.ok(detail.attempts.length >= 8, `retried on the schedule until failed: ${detail.attempts.length}`);
    assert.deepEqual(
      detail.attempts.map((a) => a.attempt),
      detail.attempts.map((_a, i) => i + 1),
    );
    for (const [index, attempt] of detail.attempts.entries()) {
      const received = got[index] as ReceivedPostback;
      assert.equal(attempt.http_status, 500);
      assert.equal(attempt.outcome, 'failed');
      assert.ok(Number.isInteger(attempt.duration_ms) && attempt.duration_ms >= 0);
      assert.equal(attempt.body, received.raw, 'the signed body exactly as sent');
      assert.deepEqual(webhookHeaders(received.headers), {
        'webhook-id': attempt.headers?.['webhook-id'],
        'webhook-timestamp': attempt.headers?.['webhook-timestamp'],
        'webhook-signature': attempt.headers?.['webhook-signature'],
      });
      assert.equal(attempt.headers?.['x-postback-attempt'], String(attempt.attempt));
      assert.ok(
        signedBy({ raw: attempt.body ?? '', headers: attempt.headers ?? {} }, shop.webhook_key),
        'the shown headers verify the shown body',
      );
      const last = index === detail.attempts.length - 1;
      assert.equal(attempt.next_attempt_at === null, last, 'each failed attempt but the last scheduled a retry');
      if (!last)
        assert.ok(
          (attempt.next_attempt_at ?? '') <= (detail.attempts[index + 1]?.created_at ?? ''),
          'the next attempt came when it was due',
        );
    }
    assert.equal(detail.postback.status, 'failed');
    assert.equal(detail.payload.transaction_id, detail.postback.subject_id);
    assert.equal(detail.payload.checksum, undefined, 'the payload without event_id, sequence and checksum');

    assertApiError(await inject('GET', '/ui/postbacks/no-such-event'), 404, 3001, ['event_id']);
    assertApiError(await inject('GET', `/ui/postbacks/${eventId}`, 'other'), 404, 3001);
  });

  test('resend one: a new attempt goes out to the now working receiver, the detail shows it delivered, and it is audited', async () => {
    const [eventId = ''] = seeded.failed;
    const attemptsBefore = (await read<Detail>(`/ui/postbacks/${eventId}`)).attempts.length;
    receiver.respond(200);
    let answer: Detail | undefined;
    const entries = await auditedBy(async () => {
      const response = await inject('POST', `/ui/postbacks/${eventId}/resend`, 'office');
      assert.equal(response.statusCode, 200, response.body);
      answer = response.json<Detail>();
    });
    assert.equal(answer?.postback.status, 'retrying', 'queued again: pending with earlier attempts');
    assert.deepEqual(
      entries.map((e) => [e.action, e.staff_id, e.subject_id]),
      [['postback_resend', staffIds.office, eventId]],
    );
    await h.deliver();
    const detail = await read<Detail>(`/ui/postbacks/${eventId}`);
    assert.equal(detail.attempts.length, attemptsBefore + 1);
    const last = detail.attempts.at(-1);
    assert.deepEqual(
      [last?.attempt, last?.http_status, last?.outcome, last?.next_attempt_at],
      [attemptsBefore + 1, 200, 'delivered', null],
    );
    assert.equal(detail.postback.status, 'delivered');
    assert.equal(receivedFor(receiver, eventId).at(-1)?.raw, last?.body);

    assertApiError(await inject('POST', '/ui/postbacks/no-such-event/resend', 'office'), 404, 3001, ['event_id']);
    assertApiError(await inject('POST', `/ui/postbacks/${eventId}/resend`, 'other'), 404, 3001);
    receiver.respond(500);
  });

  test('resend all failed since a time: a job whose progress is read until every one was tried; audited', async () => {
    const failed = (await read<List<Postback>>('/ui/postbacks?status=failed')).data_set.map((p) => p.event_id);
    assert.equal(failed.length, 4);
    receiver.respond(({ raw }) => (raw.includes(seeded.checkout) ? 500 : 200)); // the checkout's receiver stays broken
    let started: Resend | undefined;
    const entries = await auditedBy(async () => {
      const response = await inject('POST', '/ui/postbacks/resend-failed', 'office', {
        since: new Date(h.clock.now().getTime() - 30 * DAY).toISOString(),
      });
      assert.equal(response.statusCode, 202, response.body);
      started = response.json<Resend>();
    });
    assert.deepEqual([started?.total, started?.attempted, started?.done], [4, 0, false]);
    assert.deepEqual(
      entries.map((e) => [e.action, e.staff_id, e.subject_id]),
      [['postback_resend_failed', staffIds.office, started?.resend_id]],
    );
    assert.match(entries[0]?.detail ?? '', /^4 failed postbacks created since /);
    const progress = () => read<Resend>(`/ui/postbacks/resends/${started?.resend_id ?? ''}`);
    assert.deepEqual(await progress(), started);
    await h.deliver();
    const done = await progress();
    assert.deepEqual([done.total, done.attempted, done.delivered, done.failing, done.done], [4, 4, 3, 1, true]);
    assert.deepEqual(
      (await read<List<Postback>>('/ui/postbacks?status=retrying')).data_set.map((p) => p.event_id).sort(),
      [seeded.checkout, seeded.retrying].sort(),
    );

    const none = await inject('POST', '/ui/postbacks/resend-failed', 'office', { since: h.clock.now().toISOString() });
    assert.deepEqual([none.statusCode, none.json<Resend>().total, none.json<Resend>().done], [202, 0, true]);
    assertApiError(await inject('POST', '/ui/postbacks/resend-failed', 'office', { since: 'last week' }), 400, 1001, ['since']);
    assertApiError(await inject('POST', '/ui/postbacks/resend-failed', 'office', { colour: 'red' }), 400, 1001, ['since', 'colour']);
    assertApiError(await inject('GET', '/ui/postbacks/resends/nope', 'office'), 404, 3001, ['resend_id']);
    assertApiError(await inject('GET', `/ui/postbacks/resends/${started?.resend_id ?? ''}`, 'other'), 404, 3001);
    receiver.respond(500);
  });

  test('the webhook key: masked, copied, rotated by an admin only (audited); both keys sign for 24 h, then the new one alone', async () => {
    const info = await read<{ masked: string; previous_key_valid_until: string | null; may_rotate: boolean }>('/ui/webhook-key');
    assert.ok(info.masked.startsWith('whsec_•') && info.masked.endsWith(shop.webhook_key.slice(-4)), info.masked);
    assert.ok(!info.masked.includes(shop.webhook_key.slice(6, 20)));
    assert.deepEqual([info.may_rotate, info.previous_key_valid_until], [false, null]);
    assert.equal((await read<{ may_rotate: boolean }>('/ui/webhook-key', 'admin')).may_rotate, true);
    const copied = await inject('POST', '/ui/webhook-key/reveal', 'office');
    assert.deepEqual(
      [copied.statusCode, copied.json<{ webhook_key: string }>().webhook_key, copied.headers['cache-control']],
      [200, shop.webhook_key, 'no-store'],
    );

    assertApiError(await inject('POST', '/ui/webhook-key/rotate', 'office'), 403, 2002);
    let rotated: { webhook_key: string; masked: string; previous_key_valid_until: string } | undefined;
    const entries = await auditedBy(async () => {
      const response = await inject('POST', '/ui/webhook-key/rotate', 'admin');
      assert.equal(response.statusCode, 200, response.body);
      rotated = response.json();
    });
    const newKey = rotated?.webhook_key ?? '';
    assert.match(newKey, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.notEqual(newKey, shop.webhook_key);
    assert.equal(rotated?.previous_key_valid_until, new Date(h.clock.now().getTime() + DAY).toISOString());
    assert.deepEqual(
      entries.map((e) => [e.action, e.staff_id]),
      [['webhook_key_rotate', staffIds.admin]],
    );
    assert.ok(!JSON.stringify(entries).includes(newKey) && !JSON.stringify(entries).includes(shop.webhook_key), 'no key in the audit log');
    assert.equal(
      (await read<{ previous_key_valid_until: string | null }>('/ui/webhook-key')).previous_key_valid_until,
      rotated?.previous_key_valid_until,
    );

    receiver.respond(200);
    const during = await eventOf(await pay());
    await h.deliver();
    const [duringAttempt] = (await read<Detail>(`/ui/postbacks/${during}`)).attempts;
    const duringPostback = { raw: duringAttempt?.body ?? '', headers: duringAttempt?.headers ?? {} };
    assert.ok(signedBy(duringPostback, newKey) && signedBy(duringPostback, shop.webhook_key), 'both keys sign during the 24 h');
    const received = receivedFor(receiver, during)[0] as ReceivedPostback;
    assert.equal(received.raw, duringPostback.raw);
    assert.ok(
      signedBy({ raw: received.raw, headers: webhookHeaders(received.headers) }, shop.webhook_key),
      'a receiver with the old key still verifies',
    );

    h.clock.advance(DAY + 1000);
    await logIn();
    const later = await eventOf(await pay());
    await h.deliver();
    const laterPostback = receivedFor(receiver, later)[0] as ReceivedPostback;
    const laterSigned = { raw: laterPostback.raw, headers: webhookHeaders(laterPostback.headers) };
    assert.ok(signedBy(laterSigned, newKey));
    assert.ok(!signedBy(laterSigned, shop.webhook_key), 'after 24 h the old key no longer verifies');
    assert.equal(laterSigned.headers['webhook-signature'].split(' ').length, 1);
    assert.equal((await read<{ previous_key_valid_until: string | null }>('/ui/webhook-key')).previous_key_valid_until, null);
    shop.webhook_key = newKey;
    receiver.respond(500);
  });

  test("the Test environment's outbox: sent e-mails and postback attempts, newest first, with their previews", async () => {
    assert.deepEqual(await read('/ui/environment'), { environment: 'test', processor: 'simulator' });
    const created = await h.app.inject({
      method: 'POST',
      url: '/rest/invoices',
      headers: { authorization: shop.auth },
      payload: {
        url_name: shop.channel.url_name,
        invoice: {
          amount: 20,
          email: 'ada@example.com',
          first_name: 'Ada',
          last_name: '<b>Lovelace</b>',
          send_initial_email: true,
          debt_claim_number: 'OUT-1',
        },
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    await h.gateway.mailQueue.drain();

    const all = await read<List<OutboxItem>>('/ui/test-outbox?per=100');
    assert.deepEqual(
      all.data_set.map((i) => i.at),
      all.data_set
        .map((i) => i.at)
        .sort()
        .reverse(),
      'newest first',
    );
    const attempts = (await read<List<Postback>>('/ui/postbacks?per=100')).data_set.reduce((sum, p) => sum + p.attempts, 0);
    assert.equal(all.metadata.total_items, attempts + 1, 'every postback attempt and the e-mail');
    const [email, ...rest] = (await read<List<OutboxItem>>('/ui/test-outbox?kind=email')).data_set;
    assert.equal(rest.length, 0);
    assert.deepEqual(
      [email?.kind, email?.to, email?.outcome, email?.title],
      ['email', 'ada@example.com', 'test_outbox', 'Your invoice OUT-1 from Postback Bakery'],
    );
    const mail = await read<{ email: { text: string; html: string; to: string; subject: string } }>(
      `/ui/test-outbox/${email?.item_id ?? ''}`,
    );
    assert.ok(mail.email.text.includes(created.json<{ paylink: string }>().paylink));
    assert.ok(mail.email.html.includes('Hello Ada &lt;b&gt;Lovelace&lt;/b&gt;,'), 'the text escaped in the HTML');
    assert.ok(!/<script/i.test(mail.email.html) && !/<b>/.test(mail.email.html));
    assert.match(mail.email.html, /<a href="http:\/\/[^"]+\/pay\/[^"]+">/);
    assert.match(mail.email.html, /Content-Security-Policy" content="default-src 'none'/);

    const postbacks = await read<List<OutboxItem>>('/ui/test-outbox?kind=postback&per=5');
    assert.equal(postbacks.metadata.total_items, attempts);
    assert.ok(postbacks.data_set.every((i) => i.kind === 'postback' && i.to === receiver.url()));
    const newest = postbacks.data_set[0] as OutboxItem;
    const preview = await read<{ postback: { event_id: string; attempt: Attempt } }>(`/ui/test-outbox/${newest.item_id}`);
    assert.equal(preview.postback.event_id, newest.event_id);
    assert.equal(preview.postback.attempt.body, receivedFor(receiver, newest.event_id ?? '').at(-1)?.raw);
    // The last two attempts went out together (a payment's and the checkout's retry), so either may be newest.
    const { postback } = await read<Detail>(`/ui/postbacks/${newest.event_id ?? ''}`);
    const kindName = { transaction: 'Transaction', checkout: 'Checkout', token: 'Network token' }[postback.kind];
    assert.equal(newest.title, `${kindName ?? postback.kind} postback: ${postback.event ?? ''}`);

    assertApiError(await inject('GET', '/ui/test-outbox?kind=fax&page=0'), 400, 1001, ['kind', 'page']);
    assertApiError(await inject('GET', '/ui/test-outbox/x.1'), 400, 1001, ['item_id']);
    assertApiError(await inject('GET', '/ui/test-outbox/e.00000000-0000-0000-0000-000000000000'), 404, 3001, ['item_id']);
    assertApiError(await inject('GET', `/ui/test-outbox/${email?.item_id ?? ''}`, 'other'), 404, 3001);
    assert.equal((await read<List<OutboxItem>>('/ui/test-outbox', 'other')).metadata.total_items, 0);
  });

  test('staff resending through /rest are audited too; cashiers are kept out of every route; nobody gets 401', async () => {
    const [, eventId = ''] = seeded.failed;
    const entries = await auditedBy(async () => {
      assert.equal((await inject('POST', `/rest/postbacks/${eventId}/resend`, 'office', {})).statusCode, 200);
    });
    assert.deepEqual(
      entries.map((e) => [e.action, e.staff_id, e.subject_id]),
      [['postback_resend', staffIds.office, eventId]],
    );

    const routes: Array<['GET' | 'POST', string, unknown?]> = [
      ['GET', '/ui/environment'],
      ['GET', '/ui/postbacks'],
      ['GET', `/ui/postbacks/${eventId}`],
      ['POST', `/ui/postbacks/${eventId}/resend`],
      ['POST', '/ui/postbacks/resend-failed', { since: '2026-01-01T00:00:00Z' }],
      ['GET', '/ui/postbacks/resends/x'],
      ['GET', '/ui/webhook-key'],
      ['POST', '/ui/webhook-key/reveal'],
      ['POST', '/ui/webhook-key/rotate'],
      ['GET', '/ui/test-outbox'],
      ['GET', '/ui/test-outbox/p.x'],
    ];
    for (const [method, url, body] of routes) {
      assertApiError(await inject(method, url, 'cashier', body), 403, 2002);
      assertApiError(await inject(method, url, 'nobody', body), 401, 2001);
    }
    assert.equal(
      await h.app
        .inject({
          method: 'POST',
          url: '/ui/webhook-key/reveal',
          headers: { cookie: `tillgate_session=${sessions.office}`, origin: 'https://evil.example' },
        })
        .then((r) => r.statusCode),
      403,
    );

    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    for (const [method, url] of routes) {
      const path = url
        .replace(/\/ui\/postbacks\/[^/]+\/resend$/, '/ui/postbacks/{event_id}/resend')
        .replace(/^\/ui\/postbacks\/(?!resend)[^/?]+$/, '/ui/postbacks/{event_id}')
        .replace('/resends/x', '/resends/{resend_id}')
        .replace('/p.x', '/{item_id}');
      assert.ok(doc.paths[path]?.[method.toLowerCase()], `OpenAPI has ${method} ${path}`);
    }
  });

  test('each postback carries the order id it is about; the search finds postbacks by order id, or by a pasted transaction, token, checkout or event id', async () => {
    const found = async (query: string, who: Who = 'office') => read<List<Postback>>(`/ui/postbacks?${query}`, who);
    const eventIds = async (query: string) => (await found(query)).data_set.map((p) => p.event_id);
    const log = (await found('per=100')).data_set;
    for (const postback of log) {
      const { payload } = await read<Detail>(`/ui/postbacks/${postback.event_id}`);
      assert.equal(
        postback.order_id,
        postback.kind === 'token' ? null : payload.order_id,
        `${postback.kind}: the order id its body carries`,
      );
    }
    assert.equal(log.find((p) => p.event_id === seeded.checkout)?.order_id, 'pb-checkout-1');
    assert.ok(log.filter((p) => p.kind === 'transaction').every((p) => typeof p.order_id === 'string' && p.order_id !== ''));

    // One order: three payments (tried again after the first) and a checkout session, all posted back.
    receiver.respond(200);
    const order = 'ORDER-2508';
    const payments: string[] = [];
    for (const amount of [5, 6, 7])
      payments.push(String((await api('/rest/payment', cardPayment(APPROVE, amount, receiver.url(), { order_id: order }))).transaction_id));
    const session = await api('/rest/checkouts', {
      merchant_name: 'Postback Bakery',
      order_id: order,
      currency: 'EUR',
      amount: 7,
      total_amount: 7,
      success_url: 'https://shop.example/ok',
      error_url: 'https://shop.example/error',
      postback_url: receiver.url(),
    });
    const checkoutId = String(session.checkout_id);
    assert.equal((await inject('POST', `/ui/checkouts/${checkoutId}/cancel`, 'office')).statusCode, 200);
    await h.deliver();

    const byOrder = await found(`search=${order}`);
    assert.equal(byOrder.metadata.total_items, 4);
    assert.deepEqual(
      byOrder.data_set.map((p) => p.order_id),
      [order, order, order, order],
    );
    assert.deepEqual(byOrder.data_set.map((p) => p.subject_id).sort(), [...payments, checkoutId].sort());
    const inLogOrder = (await found('per=100')).data_set.filter((p) => p.order_id === order).map((p) => p.event_id);
    assert.deepEqual(
      byOrder.data_set.map((p) => p.event_id),
      inLogOrder,
      "newest first, as the log's own order",
    );
    const [first, second] = [await found(`search=${order}&per=3`), await found(`search=${order}&per=3&page=2`)];
    assert.deepEqual(
      [...first.data_set, ...second.data_set].map((p) => p.event_id),
      inLogOrder,
      'two pages of the matches',
    );
    assert.deepEqual([first.metadata.total_pages, second.data_set.length], [2, 1]);
    assert.deepEqual(await eventIds(`search=${encodeURIComponent(`  ${order} `)}`), inLogOrder, 'a paste with spaces around');
    assert.deepEqual(await eventIds('search=ORDER-25'), [], 'an order id is matched whole');
    assert.deepEqual(await eventIds(`search=${order.toLowerCase()}`), [], 'an order id is matched as written');
    const sessionPostback = byOrder.data_set.find((p) => p.kind === 'checkout');
    assert.deepEqual(await eventIds(`search=${order}&kind=checkout`), [sessionPostback?.event_id]);
    assert.deepEqual(await eventIds(`search=${order}&status=failed`), []);
    assert.equal((await found(`search=${order}`, 'other')).metadata.total_items, 0, "another merchant's staff find none of them");

    // A pasted id, in either case: a transaction's, a token's and a checkout's postbacks, or one postback.
    const [payment = ''] = payments;
    assert.deepEqual(await eventIds(`search=${payment.toUpperCase()}`), [await eventOf(payment)]);
    const token = log.find((p) => p.event_id === seeded.token) as Postback;
    assert.deepEqual(await eventIds(`search=${token.subject_id}`), [seeded.token]);
    assert.deepEqual(await eventIds(`search=${checkoutId}`), [sessionPostback?.event_id]);
    assert.deepEqual(await eventIds(`search=${seeded.delivered}`), [seeded.delivered]);
    assert.deepEqual(await eventIds(`search=${seeded.delivered}&status=failed`), []);

    const tooLong = 'x'.repeat(129);
    assertApiError(await inject('GET', '/ui/postbacks?search='), 400, 1001, ['search']);
    assertApiError(await inject('GET', `/ui/postbacks?search=${encodeURIComponent('   ')}`), 400, 1001, ['search']);
    assertApiError(await inject('GET', `/ui/postbacks?search=${tooLong}&status=lost`), 400, 1001, ['search', 'status']);
    assert.equal((await found(`search=${'x'.repeat(128)}`)).metadata.total_items, 0, '128 characters are a search');
    receiver.respond(500);
  });
});
