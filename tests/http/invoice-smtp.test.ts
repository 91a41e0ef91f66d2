// Invoice e-mails through a real SMTP server on loopback (smtp-server): the SMTP adapter is chosen
// by the smtp-* settings, authenticates, delivers the initial e-mail in each language with the pay
// link, last_email becomes sent; a wrong password fails the attempt; the password is never logged.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { createLogger } from '../../main/infra/logger.js';
import { buildServer } from '../../main/http/server.js';
import { resolveSettings } from '../../main/settings.js';
import { composeForTest, createTestMerchant, tempDir, TestClock, type TestGateway, type TestMerchant } from '../helpers/api.js';

const USER = 'mailer';
const PASSWORD = 'smtp-secret-Password-42';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

function startSmtp(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: false,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        received,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** Decodes a MIME part body (quoted-printable or base64) well enough to search its text. */
function textOf(raw: string): string {
  const unfolded = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const base64 = /Content-Transfer-Encoding: base64\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/i.exec(raw);
  return base64?.[1]
    ? Buffer.from(base64[1].replace(/\s/g, ''), 'base64').toString('utf8')
    : Buffer.from(unfolded, 'latin1').toString('utf8');
}

describe('invoice e-mails over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let gw: TestGateway;
  let shop: TestMerchant;
  let logs = '';

  async function gateway(password: string): Promise<TestGateway> {
    const dir = tempDir();
    const settings = resolveSettings(
      dir,
      {
        'smtp-host': '127.0.0.1',
        'smtp-port': String(smtp.port),
        'smtp-security': 'none',
        'smtp-user': USER,
        'smtp-password': password,
        'mail-from': 'Mail Shop <billing@shop.example>',
      },
      {},
    );
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });
    const composition = await composeForTest({
      settings,
      dataKey: randomBytes(32),
      logger: createLogger({ level: 'debug', destination: sink }),
      background: false,
      mail: { retryDelaysMs: [1, 1] },
    });
    const app = await buildServer(composition.gateway);
    return {
      dir,
      clock: new TestClock(),
      dataKey: Buffer.alloc(0),
      composition,
      app,
      close: async () => {
        await app.close();
        await composition.close();
      },
    };
  }

  before(async () => {
    smtp = await startSmtp();
    gw = await gateway(PASSWORD);
    shop = await createTestMerchant(gw, 'Mail Shop');
  });

  after(async () => {
    await gw.close();
    await smtp.close();
  });

  const create = async (g: TestGateway, merchant: TestMerchant, invoice: Record<string, unknown>) => {
    const response = await g.app.inject({
      method: 'POST',
      url: '/rest/invoices',
      headers: { authorization: merchant.auth },
      payload: { url_name: merchant.channel.url_name, invoice: { amount: '49,90', ...invoice } },
    });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<{ invoice: { debt_claim_number: string }; paylink: string }>();
  };
  const lastEmail = async (g: TestGateway, merchant: TestMerchant, number: string) =>
    (await g.app.inject({ method: 'GET', url: `/rest/invoices/${number}`, headers: { authorization: merchant.auth } })).json<{
      invoice: { last_email: { status: string; sent_at: string | null; locale: string } | null };
    }>().invoice.last_email;

  for (const [locale, greeting] of [
    ['en', /invoice/i],
    ['de', /Rechnung/],
    ['pt', /fatura/i],
  ] as const) {
    test(`the initial e-mail in ${locale} arrives at the SMTP server with the pay link; last_email is sent`, async () => {
      const to = `customer-${locale}@example.com`;
      const created = await create(gw, shop, { email: to, send_initial_email: true, locale });
      await gw.composition.gateway.mailQueue.drain();
      const message = smtp.received.find((m) => m.to.includes(to));
      assert.ok(message, `nothing arrived for ${to}`);
      assert.equal(message.from, 'billing@shop.example');
      const text = textOf(message.raw);
      assert.match(text, greeting);
      assert.ok(text.includes(created.paylink), 'the e-mail carries the pay link');
      const last = await lastEmail(gw, shop, created.invoice.debt_claim_number);
      assert.equal(last?.status, 'sent');
      assert.equal(last?.locale, locale);
      assert.ok(last?.sent_at);
    });
  }

  test('a wrong SMTP password fails the delivery after the retries; the password is never logged', async () => {
    const wrong = await gateway('not-the-password-99');
    try {
      const merchant = await createTestMerchant(wrong, 'Other Shop');
      const created = await create(wrong, merchant, { email: 'nobody@example.com', send_initial_email: true });
      for (let i = 0; i < 4; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await wrong.composition.gateway.mailQueue.drain();
      }
      assert.equal((await lastEmail(wrong, merchant, created.invoice.debt_claim_number))?.status, 'failed');
      assert.ok(!smtp.received.some((m) => m.to.includes('nobody@example.com')));
    } finally {
      await wrong.close();
    }
    assert.ok(logs.length > 0);
    assert.ok(!logs.includes(PASSWORD) && !logs.includes('not-the-password-99'), 'no SMTP password in the logs');
  });
});
