// Invoice e-mails (docs/api.md "Invoice e-mails", last_email; docs/decisions.md "Invoices",
// E-mails): the initial e-mail is queued with the invoice and delivered by the mail queue in
// en/de/pt; last_email goes queued -> sent (sent_at) or, after the retries, failed; inactive
// invoices and send_initial_email=false send nothing; the back-office reminder; the local test
// outbox (no SMTP server configured) lists the mail with a preview.
//
// The Mailer port is replaced by an in-memory recorder here; tests/http/invoice-smtp.test.ts does the
// real SMTP round trip.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { MailMessage, MailResult, Mailer } from '../../main/core/mail/ports.js';
import { createLogger } from '../../main/infra/logger.js';
import { buildServer } from '../../main/http/server.js';
import { resolveSettings } from '../../main/settings.js';
import { composeForTest, createTestMerchant, tempDir, TestClock, type TestGateway, type TestMerchant } from '../helpers/api.js';

interface LastEmail {
  email_type: string;
  status: string;
  sent_at: string | null;
  recipient_email: string;
  locale: string;
}

interface Wrapper {
  invoice: { debt_claim_number: string; active: boolean; last_email: LastEmail | null; effective_locale: string };
  paylink: string;
}

interface EmailView extends LastEmail {
  subject: string;
  body_text: string;
  attempts: number;
  last_error: string | null;
  test_outbox: boolean;
}

class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  reject: string | undefined;

  async send(message: MailMessage): Promise<MailResult> {
    if (this.reject) return { kind: 'failed', message: this.reject };
    this.sent.push(message);
    return { kind: 'sent' };
  }
}

async function startGateway(mailer?: Mailer, background = false): Promise<TestGateway> {
  const dir = tempDir();
  const clock = new TestClock();
  const dataKey = randomBytes(32);
  const settings = resolveSettings(dir, {}, {});
  const composition = await composeForTest({
    settings,
    clock,
    dataKey,
    logger: createLogger({ level: 'silent' }),
    background,
    ...(mailer ? { mailer } : {}),
    mail: { retryDelaysMs: [1000, 2000] },
  });
  const app = await buildServer(composition.gateway);
  return {
    dir,
    clock,
    dataKey,
    composition,
    app,
    async close() {
      await app.close();
      await composition.close();
    },
  };
}

describe('invoice e-mails', () => {
  const mailer = new RecordingMailer();
  let gw: TestGateway;
  let shop: TestMerchant;

  before(async () => {
    gw = await startGateway(mailer);
    shop = await createTestMerchant(gw, 'Mail Shop');
  });

  after(async () => {
    await gw.close();
  });

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    gw.app.inject({ method, url, headers: { authorization: shop.auth }, ...(payload ? { payload } : {}) });
  const create = async (invoice: Record<string, unknown>): Promise<Wrapper> => {
    const response = await inject('POST', '/rest/invoices', { url_name: shop.channel.url_name, invoice: { amount: '1234,5', ...invoice } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<Wrapper>();
  };
  const read = async (number: string): Promise<Wrapper> => {
    const response = await inject('GET', `/rest/invoices/${number}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<Wrapper>();
  };
  const emails = async (number: string): Promise<EmailView[]> => {
    const response = await inject('GET', `/rest/emails?invoice_number=${number}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ emails: EmailView[] }>().emails;
  };
  const drain = () => gw.composition.gateway.mailQueue.drain();

  const expected = {
    en: {
      subject: /^Your invoice EN-1 from Mail Shop$/,
      body: /Hello Ada Lovelace,[\s\S]*for €1,234\.50[\s\S]*Please pay by[\s\S]*You can pay online here:/,
    },
    de: {
      subject: /^Ihre Rechnung DE-1 von Mail Shop$/,
      body: /Guten Tag Ada Lovelace,[\s\S]*über 1\.234,50\s€[\s\S]*Bitte bezahlen Sie bis zum[\s\S]*Sie können hier online bezahlen:/,
    },
    pt: {
      subject: /^A sua fatura PT-1 de Mail Shop$/,
      body: /Olá Ada Lovelace,[\s\S]*no valor de 1234,50\s€[\s\S]*Por favor, pague até[\s\S]*Pode pagar online aqui:/,
    },
  } as const;

  for (const locale of ['en', 'de', 'pt'] as const) {
    test(`the initial e-mail in ${locale}: queued with the invoice, then sent with the pay link`, async () => {
      const number = `${locale.toUpperCase()}-1`;
      const created = await create({
        debt_claim_number: number,
        email: `ada-${locale}@example.com`,
        first_name: 'Ada',
        last_name: 'Lovelace',
        send_initial_email: true,
        locale,
        expires_in: 7,
        expires_in_unit: 'days',
      });
      assert.deepEqual(created.invoice.last_email, {
        email_type: 'initial',
        status: 'queued',
        sent_at: null,
        recipient_email: `ada-${locale}@example.com`,
        locale,
      });
      await drain();
      const message = mailer.sent.find((m) => m.to === `ada-${locale}@example.com`);
      assert.ok(message, 'the mailer got the e-mail');
      assert.match(message.subject, expected[locale].subject);
      assert.match(message.text, expected[locale].body);
      assert.ok(message.text.includes(created.paylink), 'the pay link is in the body');
      const last = (await read(number)).invoice.last_email;
      assert.equal(last?.status, 'sent');
      assert.equal(last?.email_type, 'initial');
      assert.equal(last?.sent_at, gw.clock.now().toISOString());
    });
  }

  test('a drain started while another runs returns once the e-mail is sent, whichever drain sent it', async () => {
    const created = await create({
      debt_claim_number: 'TWO-DRAINS',
      email: 'twice@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      send_initial_email: true,
    });
    // As the background loop and a caller can: the first drain claims the e-mail, the second finds it claimed.
    const first = drain();
    const second = drain();
    await second;
    assert.equal((await read(created.invoice.debt_claim_number)).invoice.last_email?.status, 'sent');
    await first;
    assert.equal(mailer.sent.filter((m) => m.to === 'twice@example.com').length, 1, 'sent once');
  });

  test('initial_email_type reminder uses the reminder template', async () => {
    await create({
      debt_claim_number: 'REM-T',
      email: 'rem@example.com',
      send_initial_email: true,
      initial_email_type: 'reminder',
      locale: 'de',
    });
    await drain();
    const message = mailer.sent.find((m) => m.to === 'rem@example.com');
    assert.match(message?.subject ?? '', /^Zahlungserinnerung: Rechnung REM-T von Mail Shop$/);
    assert.equal((await read('REM-T')).invoice.last_email?.email_type, 'reminder');
  });

  test('send_initial_email false (or omitted) sends nothing', async () => {
    const before = mailer.sent.length;
    await create({ debt_claim_number: 'NO-1', email: 'no@example.com', send_initial_email: false });
    await create({ debt_claim_number: 'NO-2', email: 'no@example.com' });
    await drain();
    assert.equal(mailer.sent.length, before);
    assert.equal((await read('NO-1')).invoice.last_email, null);
    assert.deepEqual(await emails('NO-2'), []);
  });

  test('an invoice deactivated before delivery sends nothing', async () => {
    const before = mailer.sent.length;
    await create({ debt_claim_number: 'OFF-1', email: 'off@example.com', send_initial_email: true });
    const off = await inject('PUT', '/rest/invoices/OFF-1', { invoice: { active: false } });
    assert.equal(off.statusCode, 200, off.body);
    await drain();
    assert.equal(mailer.sent.length, before);
    assert.equal((await read('OFF-1')).invoice.last_email?.status, 'failed');
  });

  test('reminder endpoint: queues and sends a reminder; 422 when inactive or without e-mail; 404 unknown', async () => {
    await create({ debt_claim_number: 'R-1', email: 'r1@example.com', locale: 'pt' });
    const response = await inject('POST', '/rest/invoices/R-1/reminder');
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json<Wrapper>().invoice.last_email, {
      email_type: 'reminder',
      status: 'queued',
      sent_at: null,
      recipient_email: 'r1@example.com',
      locale: 'pt',
    });
    await drain();
    assert.match(mailer.sent.find((m) => m.to === 'r1@example.com')?.subject ?? '', /^Lembrete: fatura R-1 de Mail Shop$/);
    assert.equal((await read('R-1')).invoice.last_email?.status, 'sent');

    await create({ debt_claim_number: 'R-2' });
    const noEmail = await inject('POST', '/rest/invoices/R-2/reminder');
    assert.equal(noEmail.statusCode, 422);
    assert.deepEqual(noEmail.json(), {
      message: 'The invoice has no e-mail address.',
      error: 'The invoice has no e-mail address.',
      errors: [{ field: 'invoice.email', message: 'The invoice has no e-mail address.' }],
    });

    // The refusal is stored under a key and answered again alike: the same status, and the
    // invoice body's error code kept (a refusal's stored text is not cut down by the route's serializer).
    const keyed = () =>
      gw.app.inject({
        method: 'POST',
        url: '/rest/invoices/R-2/reminder',
        headers: { authorization: shop.auth, 'idempotency-key': 'reminder-r2' },
      });
    const refused = await keyed();
    const again = await keyed();
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(again.statusCode, 422, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, refused.body, "the invoice's own error body, as the first time");

    await create({ debt_claim_number: 'R-3', email: 'r3@example.com' });
    await inject('PUT', '/rest/invoices/R-3', { invoice: { active: false } });
    const inactive = await inject('POST', '/rest/invoices/R-3/reminder');
    assert.equal(inactive.statusCode, 422);
    assert.deepEqual(inactive.json(), {
      message: 'Inactive invoices send no e-mails.',
      error: 'Inactive invoices send no e-mails.',
      errors: [{ field: 'invoice.active', message: 'Inactive invoices send no e-mails.' }],
    });
    assert.deepEqual(await emails('R-3'), []);

    const unknown = await inject('POST', '/rest/invoices/NOPE/reminder');
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), {
      message: 'Invoice not found.',
      error: 'Invoice not found.',
      errors: [{ field: 'invoice_number', message: 'Invoice not found.' }],
    });
  });

  test('a mailer that rejects: retried on the schedule, then failed with the error', async () => {
    mailer.reject = '550 mailbox unavailable';
    try {
      await create({ debt_claim_number: 'FAIL-1', email: 'fail@example.com', send_initial_email: true });
      await drain();
      let [email] = await emails('FAIL-1');
      assert.deepEqual([email?.status, email?.attempts, email?.last_error], ['queued', 1, '550 mailbox unavailable']);
      gw.clock.advance(1000);
      await drain();
      [email] = await emails('FAIL-1');
      assert.deepEqual([email?.status, email?.attempts], ['queued', 2]);
      gw.clock.advance(2000);
      await drain();
      [email] = await emails('FAIL-1');
      assert.deepEqual([email?.status, email?.attempts, email?.sent_at], ['failed', 3, null]);
      assert.deepEqual((await read('FAIL-1')).invoice.last_email, {
        email_type: 'initial',
        status: 'failed',
        sent_at: null,
        recipient_email: 'fail@example.com',
        locale: 'en',
      });
    } finally {
      mailer.reject = undefined;
    }
  });
});

describe('invoice e-mails without SMTP: the local test outbox', () => {
  let gw: TestGateway;
  let shop: TestMerchant;

  before(async () => {
    // Background jobs on: the queue is woken by the commit and delivers on its own.
    gw = await startGateway(undefined, true);
    shop = await createTestMerchant(gw, 'Outbox Shop');
  });

  after(async () => {
    await gw.close();
  });

  test('the e-mail is delivered in the background into the test outbox and listed with a preview', async () => {
    const created = await gw.app.inject({
      method: 'POST',
      url: '/rest/invoices',
      headers: { authorization: shop.auth },
      payload: {
        url_name: shop.channel.url_name,
        invoice: { amount: 20, email: 'box@example.com', send_initial_email: true, debt_claim_number: 'BOX-1' },
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    let email: EmailView | undefined;
    for (let i = 0; i < 100; i += 1) {
      const response = await gw.app.inject({
        method: 'GET',
        url: '/rest/emails?invoice_number=BOX-1',
        headers: { authorization: shop.auth },
      });
      assert.equal(response.statusCode, 200, response.body);
      [email] = response.json<{ emails: EmailView[] }>().emails;
      if (email?.status !== 'queued') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(email?.status, 'sent');
    assert.equal(email?.test_outbox, true);
    assert.equal(email?.recipient_email, 'box@example.com');
    assert.match(email?.subject ?? '', /^Your invoice BOX-1 from Outbox Shop$/);
    assert.ok(email?.body_text.includes(created.json<Wrapper>().paylink));
    const missing = await gw.app.inject({ method: 'GET', url: '/rest/emails?invoice_number=NOPE', headers: { authorization: shop.auth } });
    assert.equal(missing.statusCode, 404);
  });
});
