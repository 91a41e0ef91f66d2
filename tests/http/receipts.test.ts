// Receipts that last (decisions.md D16; issue 14, 4) over inject() on real SQLite: the receipt of a
// sale and of a refund rebuilt from the gateway's record (brand, last four, entry mode, the chip's
// application label and AID, approval code, PIN), never a card number in the body; a cashier reaches
// today's receipts only, another merchant's is 404; receipt e-mails in en/de/pt through the mail
// queue's local test outbox; the customer's link and its receipt page in en/de/pt/hr without chip
// data; and the receipt printer setting (admin, audited, validated).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Receipt, ReceiptEmail, ReceiptLink, ReceiptPrinterSetting } from '../../contract/api/receipts.js';
import { assertApiError } from '../helpers/api.js';
import { assertNoPanAtRest, DAY, freshPan, posPayment, TEST_PIN } from '../helpers/payments.js';
import { asStaff, chipSale, emvData, merchant, pay, receiptSetup, staffLogin, VISA_AID, type ReceiptSetup } from '../helpers/receipts.js';

describe('receipts', () => {
  let s: ReceiptSetup;
  const pans: string[] = [];

  before(async () => {
    s = await receiptSetup();
  });

  after(async () => {
    await s.gw.close();
  });

  describe('GET /ui/receipts/{id}', () => {
    let sale: { transaction_id: string; authorization_code?: string };
    let pan: string;

    before(async () => {
      pan = freshPan();
      pans.push(pan);
      sale = (await pay(s.gw, s.shop, chipSale(pan, 12.5))) as typeof sale;
    });

    test('a chip sale: brand, last four, entry mode, application label, AID and approval code come from the gateway', async () => {
      const response = await asStaff(s.gw, s.cashier)('GET', `/ui/receipts/${sale.transaction_id}`);
      assert.equal(response.statusCode, 200, response.body);
      const receipt = response.json<Receipt>();
      assert.match(sale.authorization_code ?? '', /^\d{6}$/);
      assert.deepEqual(
        { ...receipt, created_at: undefined },
        {
          receipt_id: sale.transaction_id,
          kind: 'sale',
          transaction_id: sale.transaction_id,
          refund_id: null,
          merchant_name: 'Corner Bakery',
          language: 'en',
          created_at: undefined,
          order_id: receipt.order_id,
          terminal_id: 'T-0001',
          payment_type: 'cardpos',
          amount: 12.5,
          currency: 'EUR',
          card: { brand: 'visa', last_four: pan.slice(-4), entry_mode: 'chip', application_label: 'VISA CREDIT', aid: VISA_AID },
          verification: 'none',
          authorization_code: sale.authorization_code,
          reference: null,
        },
      );
      assert.ok(Date.parse(receipt.created_at) > 0);
      // Never more of the card than brand and last four: no PAN, no BIN, no expiry, no EMV data.
      for (const secret of [pan, pan.slice(0, 6), emvData(pan), 'expiry'])
        assert.ok(!response.body.includes(secret), `${secret} in ${response.body}`);
    });

    test('the PIN retry: "PIN verified" on the approved sale, a contactless card without AID', async () => {
      const card = freshPan();
      pans.push(card);
      const first = await pay(s.gw, s.shop, posPayment(80, { pan: card, order: 'pin-order-1' }));
      assert.equal(first.message, 'request_pin');
      const approved = await pay(s.gw, s.shop, posPayment(80, { pan: card, order: 'pin-order-1', sequence: 'subsequent', pin: TEST_PIN }));
      assert.equal(approved.status_code, 3);
      const receipt = (await asStaff(s.gw, s.cashier)('GET', `/ui/receipts/${approved.transaction_id}`)).json<Receipt>();
      assert.equal(receipt.verification, 'online_pin');
      assert.deepEqual(receipt.card, {
        brand: 'visa',
        last_four: card.slice(-4),
        entry_mode: 'contactless',
        application_label: null,
        aid: null,
      });
      // The PIN request itself was declined: no receipt (1002), and another merchant's id is 404.
      assertApiError(await asStaff(s.gw, s.cashier)('GET', `/ui/receipts/${first.transaction_id}`), 400, 1002, ['receipt_id']);
    });

    test("another merchant's receipt is 404, an unknown id 404, no session 401", async () => {
      assertApiError(await asStaff(s.gw, s.otherCashier)('GET', `/ui/receipts/${sale.transaction_id}`), 404, 3001, ['receipt_id']);
      assertApiError(await asStaff(s.gw, s.cashier)('GET', '/ui/receipts/0199aaaa-0000-7000-8000-000000000000'), 404, 3001);
      assertApiError(await s.gw.app.inject({ method: 'GET', url: `/ui/receipts/${sale.transaction_id}` }), 401, 2001);
      // API credentials are not a staff session.
      assertApiError(
        await s.gw.app.inject({ method: 'GET', url: `/ui/receipts/${sale.transaction_id}`, headers: { authorization: s.shop.auth } }),
        401,
        2001,
      );
    });

    test('a declined sale has no receipt', async () => {
      const declined = await pay(s.gw, s.shop, posPayment(10, { pan: '4000000000000002' }));
      assert.equal(declined.status_code, 6);
      assertApiError(await asStaff(s.gw, s.cashier)('GET', `/ui/receipts/${declined.transaction_id}`), 400, 1002);
    });

    test('a refund has its own receipt: the refunded amount, the card of the sale, the refund reference', async () => {
      const card = freshPan();
      pans.push(card);
      const paid = await pay(s.gw, s.shop, chipSale(card, 30));
      const refunded = await s.gw.app.inject({
        method: 'POST',
        url: '/rest/refund',
        headers: { authorization: s.shop.auth },
        payload: { transaction_id: paid.transaction_id, amount: 10 },
      });
      assert.equal(refunded.statusCode, 200, refunded.body);
      const refundId = refunded.json<{ refund_id: string }>().refund_id;
      const response = await asStaff(s.gw, s.cashier)('GET', `/ui/receipts/${refundId}`);
      assert.equal(response.statusCode, 200, response.body);
      const receipt = response.json<Receipt>();
      assert.deepEqual(
        [
          receipt.kind,
          receipt.receipt_id,
          receipt.refund_id,
          receipt.transaction_id,
          receipt.amount,
          receipt.verification,
          receipt.authorization_code,
        ],
        ['refund', refundId, refundId, paid.transaction_id, 10, 'none', null],
      );
      assert.deepEqual(receipt.card, {
        brand: 'visa',
        last_four: card.slice(-4),
        entry_mode: 'chip',
        application_label: 'VISA CREDIT',
        aid: VISA_AID,
      });
      assert.ok(receipt.reference, 'the refund reference of the network');
      assert.ok(!response.body.includes(card));
      // The sale's receipt still reads as the approved sale of 30.00.
      const saleReceipt = (await asStaff(s.gw, s.cashier)('GET', `/ui/receipts/${paid.transaction_id}`)).json<Receipt>();
      assert.deepEqual([saleReceipt.kind, saleReceipt.amount], ['sale', 30]);
      assertApiError(await asStaff(s.gw, s.otherCashier)('GET', `/ui/receipts/${refundId}`), 404, 3001);
    });

    test("a cashier reaches today's receipts only; the back office reaches older ones", async () => {
      // A sale of yesterday noon (the sessions stay those of today).
      s.gw.clock.advance(-DAY);
      let yesterday: string;
      try {
        yesterday = (await pay(s.gw, s.shop, chipSale(freshPan(), 3))).transaction_id;
      } finally {
        s.gw.clock.advance(DAY);
      }
      assertApiError(await asStaff(s.gw, s.cashier)('GET', `/ui/receipts/${yesterday}`), 403, 2002, ['receipt_id']);
      assertApiError(await asStaff(s.gw, s.cashier)('POST', `/ui/receipts/${yesterday}/link`), 403, 2002);
      assertApiError(await asStaff(s.gw, s.cashier)('POST', `/ui/receipts/${yesterday}/email`, { email: 'ada@example.com' }), 403, 2002);
      assert.equal((await asStaff(s.gw, s.manager)('GET', `/ui/receipts/${yesterday}`)).statusCode, 200);
      assert.equal((await asStaff(s.gw, s.admin)('GET', `/ui/receipts/${yesterday}`)).statusCode, 200);
      assert.equal((await asStaff(s.gw, s.cashier)('GET', `/ui/receipts/${sale.transaction_id}`)).statusCode, 200, "today's sale");
    });
  });

  describe('receipt e-mails', () => {
    test("in the merchant's language by default, or en/de/pt as asked: queued, then sent to the local test outbox", async () => {
      const pan = freshPan();
      pans.push(pan);
      const sale = await pay(s.gw, s.shop, chipSale(pan, 12.5));
      const staff = asStaff(s.gw, s.cashier);
      const expected = {
        en: {
          subject: /^Your receipt from Corner Bakery: €12\.50$/,
          body: [
            /^Hello,/,
            /thank you for your purchase/,
            /Visa •••• \d{4}/,
            /Chip/,
            /VISA CREDIT/,
            /A0000000031010/,
            /Approval code\s+\d{6}/,
            /Total\s+€12\.50/,
          ],
        },
        de: {
          subject: /^Ihr Beleg von Corner Bakery: 12,50\s€$/,
          body: [/^Guten Tag,/, /vielen Dank für Ihren Einkauf/, /Visa •••• \d{4}/, /Genehmigungscode\s+\d{6}/, /Gesamt\s+12,50\s€/],
        },
        pt: {
          subject: /^O seu talão de Corner Bakery: 12,50\s€$/,
          body: [/^Olá,/, /obrigado pela sua compra/, /Código de autorização\s+\d{6}/, /Total\s+12,50\s€/],
        },
      } as const;
      const sent: ReceiptEmail[] = [];
      for (const language of [undefined, 'de', 'pt'] as const) {
        const response = await staff('POST', `/ui/receipts/${sale.transaction_id}/email`, {
          email: 'ada@example.com',
          ...(language ? { language } : {}),
        });
        assert.equal(response.statusCode, 202, response.body);
        const queued = response.json<ReceiptEmail>();
        assert.deepEqual(
          [queued.status, queued.recipient, queued.language, queued.receipt_id],
          ['queued', 'ada@example.com', language ?? 'en', sale.transaction_id],
        );
        sent.push(queued);
      }
      await s.gw.composition.gateway.mailQueue.drain();
      const listed = (await staff('GET', `/ui/receipts/${sale.transaction_id}/emails`)).json<ReceiptEmail[]>();
      assert.equal(listed.length, 3);
      const link = (await staff('POST', `/ui/receipts/${sale.transaction_id}/link`)).json<ReceiptLink>().url;
      for (const email of listed) {
        assert.equal(email.status, 'sent');
        assert.equal(email.test_outbox, true, 'no SMTP server: kept in the local test outbox');
        assert.ok(email.sent_at);
        const rules = expected[email.language as keyof typeof expected];
        assert.match(email.subject, rules.subject);
        for (const rule of rules.body) assert.match(email.body_text, rule);
        assert.ok(email.body_text.includes(link), 'the e-mail links to the receipt page');
        assert.ok(!email.body_text.includes(pan) && !email.body_text.includes(pan.slice(0, 6)), 'no card number');
      }
    });

    test('a German merchant e-mails in German by default; a refund e-mail says so', async () => {
      const shop = await merchant(s.gw, 'Bäckerei Berg', 'de');
      const token = await staffLogin(s.gw, shop.merchant_id, 'back_office', 'berg');
      const pan = freshPan();
      pans.push(pan);
      const paid = await pay(s.gw, shop, chipSale(pan, 20));
      const refund = (
        await s.gw.app.inject({
          method: 'POST',
          url: '/rest/refund',
          headers: { authorization: shop.auth },
          payload: { transaction_id: paid.transaction_id },
        })
      ).json<{ refund_id: string }>();
      const response = await asStaff(s.gw, token)('POST', `/ui/receipts/${refund.refund_id}/email`, { email: 'kunde@example.de' });
      assert.equal(response.statusCode, 202, response.body);
      const email = response.json<ReceiptEmail>();
      assert.equal(email.language, 'de');
      assert.match(email.subject, /^Ihr Erstattungsbeleg von Bäckerei Berg: 20,00\s€$/);
      assert.match(email.body_text, /wir haben 20,00\s€ auf Ihre Karte erstattet/);
      assert.match(email.body_text, /Erstattet\s+20,00\s€/);
    });

    test('a bad address or language is refused, naming the field; nothing is queued', async () => {
      const pan = freshPan();
      const sale = await pay(s.gw, s.shop, chipSale(pan, 5));
      const staff = asStaff(s.gw, s.cashier);
      assertApiError(await staff('POST', `/ui/receipts/${sale.transaction_id}/email`, { email: 'not an address' }), 400, 1001, ['email']);
      assertApiError(
        await staff('POST', `/ui/receipts/${sale.transaction_id}/email`, { email: 'ada@example.com', language: 'fr' }),
        400,
        1001,
        ['language'],
      );
      assertApiError(await staff('POST', `/ui/receipts/${sale.transaction_id}/email`, { email: 'ada@example.com', pan }), 400, 1001, [
        'pan',
      ]);
      assert.deepEqual((await staff('GET', `/ui/receipts/${sale.transaction_id}/emails`)).json(), []);
    });
  });

  describe("the customer's link and receipt page", () => {
    test('one unguessable link per receipt with its QR code; the page shows brand and last four, no chip data, in en/de/pt/hr', async () => {
      const pan = freshPan();
      pans.push(pan);
      const sale = await pay(s.gw, s.shop, chipSale(pan, 12.5));
      const staff = asStaff(s.gw, s.cashier);
      const first = (await staff('POST', `/ui/receipts/${sale.transaction_id}/link`)).json<ReceiptLink>();
      const again = (await staff('POST', `/ui/receipts/${sale.transaction_id}/link`)).json<ReceiptLink>();
      assert.equal(again.url, first.url, 'the same link every time');
      const url = new URL(first.url);
      assert.match(url.pathname, /^\/receipt\/[A-Za-z0-9_-]{32}$/, '24 random bytes, base64url');
      assert.ok(!url.pathname.includes(sale.transaction_id), 'the token is not the transaction id');
      assert.match(first.qr_code, /^data:image\/png;base64,[A-Za-z0-9+/=]{200,}$/);

      const page = await s.gw.app.inject({ method: 'GET', url: url.pathname });
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(String(page.headers['cache-control']), /no-store/);
      assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
      for (const text of [
        'Corner Bakery',
        'Receipt',
        '€12.50',
        `Visa •••• ${pan.slice(-4)}`,
        'Chip',
        'Approved',
        String(sale.authorization_code),
        sale.transaction_id,
      ]) {
        assert.ok(page.body.includes(text), `the page shows ${text}`);
      }
      for (const hidden of [pan, pan.slice(0, 6), VISA_AID, 'VISA CREDIT'])
        assert.ok(!page.body.includes(hidden), `the page hides ${hidden}`);
      const words = {
        de: ['Beleg', 'Genehmigt', '12,50 €', 'Genehmigungscode'],
        pt: ['Talão', 'Aprovado', '12,50 €'],
        hr: ['Potvrda', 'Odobreno', 'Autorizacijski kod'],
      } as const;
      for (const [lang, expected] of Object.entries(words)) {
        const localized = await s.gw.app.inject({ method: 'GET', url: `${url.pathname}?lang=${lang}` });
        assert.equal(localized.statusCode, 200);
        assert.match(localized.body, new RegExp(`<html lang="${lang}"`));
        for (const text of expected) assert.ok(localized.body.replace(/\u00a0/g, ' ').includes(text), `${lang}: ${text}`);
      }
      // A card receipt is a talão in Portugal and a potvrda in Croatia (docs/glossary.md); hr račun is the fiscal bill.
      for (const [lang, word] of [
        ['pt', 'Recibo'],
        ['hr', 'Račun'],
      ] as const) {
        assert.ok(
          !(await s.gw.app.inject({ method: 'GET', url: `${url.pathname}?lang=${lang}` })).body.includes(word),
          `${lang}: no ${word}`,
        );
      }
    });

    test('an unknown or malformed token is a 404 page that says so', async () => {
      for (const path of ['/receipt/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/receipt/x', '/receipt/%3Cscript%3E']) {
        const page = await s.gw.app.inject({ method: 'GET', url: path });
        assert.equal(page.statusCode, 404, path);
        assert.ok(page.body.includes('Receipt not found'));
        assert.ok(!page.body.includes('<script>'));
      }
    });
  });

  describe('the receipt printer setting', () => {
    test('none at first; only an admin sets it up; bad values are refused naming the field; the change is audited', async () => {
      const none = (await asStaff(s.gw, s.cashier)('GET', '/ui/receipt-printer')).json<ReceiptPrinterSetting>();
      assert.deepEqual(none, {
        connection: 'none',
        host: null,
        port: null,
        device: null,
        characters_per_line: 42,
        auto_print: false,
        updated_at: null,
      });
      assertApiError(
        await asStaff(s.gw, s.cashier)('PUT', '/ui/receipt-printer', { connection: 'network', host: '192.168.1.50' }),
        403,
        2002,
      );
      assertApiError(
        await asStaff(s.gw, s.manager)('PUT', '/ui/receipt-printer', { connection: 'network', host: '192.168.1.50' }),
        403,
        2002,
      );
      assertApiError(await asStaff(s.gw, s.cashier)('POST', '/ui/receipt-printer/test'), 400, 1002, ['printer']);
      const admin = asStaff(s.gw, s.admin);
      assertApiError(await admin('PUT', '/ui/receipt-printer', { connection: 'network' }), 400, 1001, ['host']);
      assertApiError(await admin('PUT', '/ui/receipt-printer', { connection: 'network', host: 'printer one' }), 400, 1001, ['host']);
      assertApiError(await admin('PUT', '/ui/receipt-printer', { connection: 'network', host: 'printer', port: 70000 }), 400, 1001, [
        'port',
      ]);
      // The gateway writes raw bytes to a USB device: only printer device names, never any file.
      for (const device of ['/etc/passwd', `${s.gw.dir}/gateway.sqlite`, '/dev/usb/../sda', 'data.key']) {
        assertApiError(await admin('PUT', '/ui/receipt-printer', { connection: 'usb', device }), 400, 1001, ['device']);
      }
      const usb = await admin('PUT', '/ui/receipt-printer', { connection: 'usb', device: '/dev/usb/lp0', characters_per_line: 32 });
      assert.equal(usb.statusCode, 200, usb.body);
      assert.deepEqual(
        { ...usb.json<ReceiptPrinterSetting>(), updated_at: null },
        { connection: 'usb', host: null, port: null, device: '/dev/usb/lp0', characters_per_line: 32, auto_print: false, updated_at: null },
      );
      const network = await admin('PUT', '/ui/receipt-printer', { connection: 'network', host: '192.168.1.50', auto_print: true });
      assert.deepEqual(
        { ...network.json<ReceiptPrinterSetting>(), updated_at: null },
        {
          connection: 'network',
          host: '192.168.1.50',
          port: 9100,
          device: null,
          characters_per_line: 42,
          auto_print: true,
          updated_at: null,
        },
      );
      assert.deepEqual((await asStaff(s.gw, s.cashier)('GET', '/ui/receipt-printer')).json<ReceiptPrinterSetting>().host, '192.168.1.50');
      const audit = (await admin('GET', '/ui/audit'))
        .json<Array<{ action: string; detail: string }>>()
        .filter((a) => a.action === 'receipt_printer');
      assert.deepEqual(audit.map((a) => a.detail).slice(0, 2), ['network 192.168.1.50:9100 auto-print', 'usb /dev/usb/lp0']);
      assert.equal((await admin('PUT', '/ui/receipt-printer', { connection: 'none' })).json<ReceiptPrinterSetting>().connection, 'none');
      assert.equal((await admin('GET', '/ui/receipt-printer')).json<ReceiptPrinterSetting>().connection, 'none');
    });
  });

  test('no card number reached the database in clear', async () => {
    await assertNoPanAtRest(s.gw, pans);
  });
});
