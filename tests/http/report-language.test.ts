// The X/Z report's PDF and receipt printer lines in the staff member's language (D21, issue 36), over
// inject() on real SQLite: a German shop's X report is German (words, 1.234,50, 24-hour dates), an
// English shop's English, whatever the computer's Accept-Language says (the shop's language comes
// first); a Croatian one keeps its letters in the lines and folds č, ć, đ for the PDF's standard font.
// The request's language: requestStaffLanguage (main/http/staff-language.ts). PDFs are read with
// poppler's pdftotext where it is installed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyRequest, InjectOptions, LightMyRequestResponse } from 'fastify';
import { reportWords } from '../../main/core/reports/report-text.js';
import { pdfText } from '../../main/http/report-pdf.js';
import { acceptedLanguages, requestStaffLanguage } from '../../main/http/staff-language.js';
import { startTestGateway, tempDir, TestClock, type TestGateway } from '../helpers/api.js';
import { freshPan, posPayment, TEST_PIN } from '../helpers/payments.js';

const COOKIE = 'tillgate_session';
const TILL = 'TILL-1';

function hasPoppler(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function pdfToText(pdf: Buffer, name: string): string {
  const file = join(tempDir('tillgate-report-language-'), `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('the X/Z report in the staff member language', () => {
  let gw: TestGateway;
  const tokens: Record<'de' | 'en', string> = { de: '', en: '' };

  const call = (
    method: InjectOptions['method'],
    url: string,
    token: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<LightMyRequestResponse> =>
    gw.app.inject({
      method,
      url,
      headers: { cookie: `${COOKIE}=${token}`, ...headers },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });

  /** A shop in `language` (with its first till, TILL-1), a manager logged in and one sale of 1234.50 EUR at the till. */
  async function shop(language: 'de' | 'en', name: string, login: string): Promise<string> {
    const created = await gw.composition.gateway.merchants.create({ name, language });
    assert.ok(created.ok);
    const merchantId = created.value.merchant_id;
    const staff = await gw.composition.gateway.staff.create({
      merchantId,
      role: 'back_office',
      login,
      pin: '4321',
      displayName: `${name} office`,
    });
    assert.ok(staff.ok);
    const session = await gw.app.inject({ method: 'POST', url: '/ui/session', payload: { login, pin: '4321' } });
    assert.equal(session.statusCode, 200, session.body);
    const token = session.cookies.find((c) => c.name === COOKIE)?.value;
    assert.ok(token);
    // Over the contactless limit: with the card's PIN.
    const body = posPayment(1234.5, { pan: freshPan(), pin: TEST_PIN, sequence: 'subsequent' });
    (body.pos_data as { terminal: { id: string } }).terminal.id = TILL;
    const sale = await call('POST', '/rest/payment', token, {}, body);
    assert.equal(sale.statusCode, 200, sale.body);
    assert.equal(sale.json<{ status: string }>().status, 'completed', sale.body);
    return token;
  }

  before(async () => {
    gw = await startTestGateway({ clock: new TestClock(Date.parse('2026-11-23T10:15:00Z')) });
    tokens.de = await shop('de', 'Bäckerei Müller', 'mueller');
    tokens.en = await shop('en', 'Corner Shop', 'corner');
  });

  after(async () => {
    await gw.close();
  });

  const lines = async (language: 'de' | 'en', headers: Record<string, string> = {}) => {
    const response = await call('GET', `/ui/reports/x/receipt?terminal_id=${TILL}`, tokens[language], headers);
    assert.equal(response.statusCode, 200, response.body);
    const { lines: printed } = response.json<{ columns: number; lines: string[] }>();
    for (const line of printed) assert.ok(line.length <= 42, `too wide: "${line}"`);
    return printed.join('\n');
  };

  test("a German shop's X report prints in German, whatever the computer's language", async () => {
    const shopTime = reportWords('de', gw.composition.gateway.dashboard.timeZone).time(gw.clock.now().toISOString());
    for (const headers of [{}, { 'accept-language': 'en-US,en;q=0.9' }] as Array<Record<string, string>>) {
      const text = await lines('de', headers);
      assert.match(text, /X-BERICHT \(TAG 1, OFFEN\)/);
      assert.match(text, /Kasse TILL-1/);
      assert.match(text, /NICHT ABGESCHLOSSEN: nur laufende Summen/);
      assert.match(
        text,
        /GESAMT EUR\n {2}Genehmigt {16}1 {6}1\.234,50\n {2}Abgelehnt {16}0 {10}0,00\n {2}Erstattet {16}0 {10}0,00\n {2}Netto {27}1\.234,50/,
      );
      assert.match(text, /NACH KARTENMARKE/);
      assert.match(text, /NACH EINGABEART/);
      assert.match(text, /API \(ohne Mitarbeiter-Anmeldung\) EUR|Bäckerei Müller office EUR/);
      assert.match(text, /Der Tag ist noch offen\./);
      assert.ok(text.includes(`Letzter Verkauf ${shopTime}`), `the last sale at ${shopTime} (dd.mm.yyyy, 24-hour clock): ${text}`);
      assert.match(shopTime, /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
      assert.doesNotMatch(text, /REPORT|Approved|TOTAL/);
    }
  });

  test("an English shop's X report prints in English, also on a German computer", async () => {
    const text = await lines('en', { 'accept-language': 'de-DE,de;q=0.9' });
    assert.match(text, /X REPORT \(DAY 1, OPEN\)/);
    assert.match(text, /Till TILL-1/);
    assert.match(text, /TOTAL EUR\n {2}Approved {17}1 {6}1,234\.50/);
    assert.match(text, /The day is still open\./);
    assert.doesNotMatch(text, /BERICHT|Genehmigt/);
  });

  test("the X report's PDF is German for the German shop, English for the English one", async (t) => {
    const de = await call('GET', `/ui/reports/x.pdf?terminal_id=${TILL}`, tokens.de);
    const en = await call('GET', `/ui/reports/x.pdf?terminal_id=${TILL}`, tokens.en, { 'accept-language': 'de-DE' });
    for (const response of [de, en]) {
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/pdf');
      assert.equal(response.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    }
    if (!hasPoppler()) {
      t.skip('pdftotext (Debian poppler-utils) is not installed');
      return;
    }
    const german = pdfToText(de.rawPayload, 'x-de');
    assert.match(german, /Bäckerei Müller/);
    assert.match(german, /X-Bericht \(Tag 1, offen\)/);
    assert.match(german, /Kein abgeschlossener Tag: laufende Summen des offenen Tages\./);
    assert.match(german, /Stand\s+\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/);
    assert.match(german, /GENEHMIGT\s+ABGELEHNT\s+ERSTATTET/);
    assert.match(german, /Alle Karten\s+EUR\s+1\s+1\.234,50\s+0\s+0,00\s+0\s+0,00\s+1\.234,50/);
    assert.match(german, /Nach Kartenmarke/);
    assert.match(german, /Seite 1 von 1/);
    assert.doesNotMatch(german, /X report|All cards|Page 1/);
    const english = pdfToText(en.rawPayload, 'x-en');
    assert.match(english, /X report \(day 1, open\)/);
    assert.match(english, /All cards\s+EUR\s+1\s+1,234\.50\s+0\s+0\.00\s+0\s+0\.00\s+1,234\.50/);
    assert.match(english, /Page 1 of 1/);
  });

  test("in Croatian (the staff member's own language in a German shop) the lines and the PDF keep every letter, č, ć and đ too", async (t) => {
    const own = await call('PUT', '/ui/session/language', tokens.de, {}, { language: 'hr' });
    assert.equal(own.statusCode, 200, own.body);
    try {
      const printed = await call('GET', `/ui/reports/x/receipt?terminal_id=${TILL}`, tokens.de);
      const text = printed.json<{ lines: string[] }>().lines.join('\n');
      assert.match(text, /X IZVJEŠTAJ \(DAN 1, OTVOREN\)/);
      assert.match(text, /Blagajna TILL-1/);
      assert.match(text, /UKUPNO EUR\n {2}Odobreno {17}1 {6}1\.234,50/);
      assert.match(text, /PO NAČINU UNOSA/);
      assert.equal(pdfText('Zaključen −17,00\u202f€'), 'Zaključen −17,00 €');
      const pdf = await call('GET', `/ui/reports/x.pdf?terminal_id=${TILL}`, tokens.de);
      assert.equal(pdf.statusCode, 200);
      if (!hasPoppler()) {
        t.skip('pdftotext (Debian poppler-utils) is not installed');
        return;
      }
      const croatian = pdfToText(pdf.rawPayload, 'x-hr');
      assert.match(croatian, /X izvještaj \(dan 1, otvoren\)/);
      assert.match(croatian, /Izrađeno\s+\d{2}\. \d{2}\. \d{4}\. \d{2}:\d{2}/);
      assert.match(croatian, /Po načinu unosa/);
      assert.match(croatian, /Stranica 1 od 1/);
      assert.match(croatian, /Bäckerei Müller/);
    } finally {
      await call('PUT', '/ui/session/language', tokens.de, {}, { language: null });
    }
  });

  test("a request's language: the staff member's own, else the shop's, else Accept-Language's, else English", async () => {
    assert.deepEqual(acceptedLanguages('fr-CH, de;q=0.9, hr;q=0.95, *;q=0.1, pt;q=0'), ['fr-CH', 'hr', 'de']);
    assert.deepEqual(acceptedLanguages(undefined), []);
    const anonymous = (acceptLanguage?: string) =>
      ({ headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} }) as unknown as FastifyRequest;
    assert.equal(await requestStaffLanguage(gw.composition.gateway, anonymous('fr-FR, pt-PT;q=0.8, de;q=0.5')), 'pt');
    assert.equal(await requestStaffLanguage(gw.composition.gateway, anonymous('ja')), 'en');
    const session = await gw.composition.gateway.staff.resolve(tokens.de);
    assert.ok(session);
    assert.equal(
      await requestStaffLanguage(gw.composition.gateway, {
        principal: session,
        headers: { 'accept-language': 'hr-HR' },
      } as unknown as FastifyRequest),
      'de',
    );
  });
});
