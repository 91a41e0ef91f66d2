/**
 * The back office's invoices in Debian Chromium against the real `gateway serve` (issue 15, 5), as a
 * back_office user, with real data (invoices created, paid through their pay links and e-mailed
 * through the API): the list pages through the API's pagination and filters by status in the URL;
 * the create form shows the API's 422 for a bad currency next to the field, then creates the
 * invoice; the QR code on screen decodes (zbarimg) to the pay link shown beside it, which answers;
 * the status is changed to paid; deactivating a paid invoice is refused in the API's words; a
 * payment plan is created and cancelled; a reminder is sent and previewed; an invoice is edited and
 * one deleted; a cashier is kept out (RoleGate, switch user). Each action is checked through the API
 * afterwards and lands in the audit log under the staff member. axe-core finds no violation on any
 * screen or dialog; dialogs close on Esc and give focus back; no console error. Screenshots
 * docs/screenshots/backoffice-invoices-*.png at 1366x900 and 1024x768.
 * Needs a built renderer (`npm run build:renderer`; `npm test` builds it first).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { assertAxeClean, launchChromium } from '../helpers/browser.js';
import { basicAuth, createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import { EXPIRY_YEAR } from '../helpers/payments.js';
import { makeTempDir } from '../helpers/temp.js';

const RENDERER_INDEX = fileURLToPath(new URL('../../renderer/dist/index.html', import.meta.url));
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WIDE = { width: 1366, height: 900 } as const;
const NARROW = { width: 1024, height: 768 } as const;
const CURRENCY_LENGTH = 'Currency is the wrong length (should be 3 characters).';
const RESTRICTED = 'Amount and active can only be changed while the invoice is pending and has never had a payment plan attached.';
const GOOD_CARD = {
  step: 'card',
  card_number: '4111 1111 1111 1111',
  expiry: `12/${String(EXPIRY_YEAR).slice(2)}`,
  cvc: '123',
  holder: 'Lena Vogel',
};
const DECLINED_CARD = { ...GOOD_CARD, card_number: '4000 0000 0000 0002' };

interface Wrapper {
  invoice: {
    id: number;
    uuid: string;
    debt_claim_number: string;
    status: string;
    active: boolean;
    amount: number;
    currency: string;
    email: string | null;
    city: string | null;
    first_name: string | null;
    locale: string | null;
    expires_in: number | null;
    expires_in_unit: string | null;
    last_email: { email_type: string; status: string } | null;
  };
  paylink: string;
  qrcode: string;
}

let gateway: GatewayProcess;
let browser: Browser;
let auth = '';
let channel = '';
let officeId = '';
let officePassword = '';
const problems: string[] = [];
/** Invoices the seed made: a pending one with an e-mail (reminder, plan), one paid by card, one to delete. */
const seeded = { reminder: '', paidByCard: '', doomed: '', edit: '' };

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, gateway.url), {
    method,
    headers: { authorization: auth, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function createInvoice(invoice: Record<string, unknown>): Promise<Wrapper> {
  const created = await api<Wrapper>('POST', '/rest/invoices', { url_name: channel, invoice });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

const invoicePath = (number: string) => `/rest/invoices/${encodeURIComponent(number)}`;

/** The customer pays on the pay page (form posts, as a browser would). */
async function payByCard(uuid: string, card: Record<string, string>): Promise<void> {
  const post = (path: string, form: Record<string, string>) =>
    fetch(new URL(path, gateway.url), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        origin: new URL(gateway.url).origin,
      },
      body: new URLSearchParams(form).toString(),
    });
  const chosen = await post(`/pay/${uuid}`, { method: 'cardecom' });
  assert.equal(chosen.status, 303, await chosen.text());
  const paid = await post(chosen.headers.get('location') ?? '', card);
  assert.ok(paid.status < 400, `card page answered ${paid.status}`);
}

before(async () => {
  if (!existsSync(RENDERER_INDEX)) throw new Error(`${RENDERER_INDEX} is missing: build the renderer first (npm run build:renderer).`);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it or point CHROMIUM_PATH at one.`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  gateway = await startGateway();
  const merchant = createMerchant(gateway.dataDir, 'Corner Bakery');
  auth = basicAuth(merchant);
  channel = merchant.channel.url_name;
  const office = runGateway([
    'staff',
    'create',
    '--data-dir',
    gateway.dataDir,
    '--merchant',
    merchant.merchant_id,
    '--role',
    'back_office',
    '--login',
    'office',
    '--name',
    'Mira Novak',
    '--json',
  ]);
  assert.equal(office.status, 0, office.stderr);
  ({ staff_id: officeId, password: officePassword } = JSON.parse(office.stdout) as { staff_id: string; password: string });
  const cashier = runGateway([
    'staff',
    'create',
    '--data-dir',
    gateway.dataDir,
    '--merchant',
    merchant.merchant_id,
    '--role',
    'cashier',
    '--login',
    'anna',
    '--pin',
    '1234',
    '--name',
    'Anna Berg',
    '--json',
  ]);
  assert.equal(cashier.status, 0, cashier.stderr);

  // Real data: 56 invoices (two pages), some paid through their pay links, some e-mailed.
  const customers = [
    ['Lena', 'Vogel', 'lena.vogel@example.com', 'Berlin'],
    ['Tomás', 'Ferreira', 'tomas@example.pt', 'Porto'],
    ['Aisha', 'Khan', null, 'London'],
    ['Jonas', 'Meyer', 'jonas.meyer@example.de', 'Hamburg'],
  ] as const;
  for (let i = 0; i < 52; i++) {
    const [first, last, email, city] = customers[i % customers.length] ?? customers[0];
    await createInvoice({
      amount: (12.5 + i * 3.75).toFixed(2),
      first_name: first,
      last_name: last,
      ...(email ? { email } : {}),
      city,
      description: `Catering order ${i + 1}`,
    });
  }
  const paid = await createInvoice({
    amount: '84.20',
    first_name: 'Lena',
    last_name: 'Vogel',
    email: 'lena.vogel@example.com',
    city: 'Berlin',
    description: 'Wedding cake, 3 tiers',
  });
  await payByCard(paid.invoice.uuid, DECLINED_CARD);
  await payByCard(paid.invoice.uuid, GOOD_CARD);
  seeded.paidByCard = paid.invoice.debt_claim_number;
  const reminder = await createInvoice({
    amount: '240.00',
    first_name: 'Jonas',
    last_name: 'Meyer',
    company: 'Meyer Events GmbH',
    email: 'jonas.meyer@example.de',
    address: 'Hafenstraße 12',
    postal_code: '20457',
    city: 'Hamburg',
    country: 'DE',
    locale: 'de',
    send_initial_email: true,
    expires_in: 14,
    expires_in_unit: 'days',
    description: 'Bread rolls for the summer fair, 600 pieces',
  });
  seeded.reminder = reminder.invoice.debt_claim_number;
  seeded.edit = (
    await createInvoice({ amount: '19.90', first_name: 'Aisha', last_name: 'Khan', city: 'London', country: 'GB' })
  ).invoice.debt_claim_number;
  seeded.doomed = (
    await createInvoice({ amount: '5.00', first_name: 'Test', last_name: 'Order', description: 'Created by mistake' })
  ).invoice.debt_claim_number;

  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

/** One browser window of a size, logged out, recording console errors and uncaught exceptions. */
async function open(size: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP: axe-core is injected as a script tag (ui.test.ts and cashier.test.ts check the app's own CSP).
  const context = await browser.newContext({ viewport: size, serviceWorkers: 'block', bypassCSP: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(gateway.url).origin });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${size.width}: console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${size.width}: uncaught: ${error.message}`));
  await page.goto(new URL('/app/#/invoices', gateway.url).href, { waitUntil: 'networkidle' });
  return { context, page };
}

async function loginOffice(page: Page): Promise<void> {
  const main = page.getByRole('main');
  await main.getByLabel('Login', { exact: true }).fill('office');
  await main.getByText('Password', { exact: true }).click();
  await main.getByRole('textbox', { name: 'Password' }).fill(officePassword);
  await page.keyboard.press('Enter');
  await page.getByRole('banner').getByText('Mira Novak').waitFor();
}

/** A form field by its label (the label may say "optional" after the name). */
function field(scope: Locator, name: string): Locator {
  return scope.getByLabel(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( optional)?$`));
}

async function axe(page: Page, where: string): Promise<void> {
  await assertAxeClean(page, where);
}

/** Settles, runs axe, nothing scrolls sideways, then the screenshot (`full`: the whole page, for long screens). */
async function shot(page: Page, name: string, size: { width: number }, full = false): Promise<void> {
  await page.waitForTimeout(250);
  await axe(page, `${name} at ${size.width}`);
  assert.ok(
    (await page.evaluate<number>('document.documentElement.scrollWidth')) <= size.width,
    `${name} at ${size.width}: no horizontal scroll`,
  );
  await page.screenshot({ path: join(SCREENSHOT_DIR, `backoffice-invoices-${name}-${size.width}.png`), fullPage: full });
}

/** Esc closes the open dialog and focus goes back to the control that opened it. */
async function escCloses(page: Page, opener: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
  assert.equal(
    await page.evaluate<string>('document.activeElement?.textContent?.trim() ?? ""'),
    opener,
    'focus is back on the button that opened the dialog',
  );
}

/**
 * Tab never reaches the page behind an open dialog (showModal makes it inert): focus is on a control
 * of the dialog, or, for the one step past its last control, on the browser itself (no element).
 */
async function focusTrapped(page: Page): Promise<void> {
  let inside = 0;
  for (let i = 0; i < 14; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate<string>(
      '(() => { const el = document.activeElement; if (!el || el === document.body) return "browser"; return el.closest("dialog[open]") ? "dialog" : "page: " + el.outerHTML.slice(0, 80); })()',
    );
    assert.ok(where === 'dialog' || where === 'browser', `focus stays in the dialog, not on ${where}`);
    if (where === 'dialog') inside += 1;
  }
  assert.ok(inside >= 10, 'Tab cycles through the dialog');
}

void test('1366x900: a back-office user lists, creates, pays, changes, plans, reminds, edits and deletes invoices', async () => {
  const { context, page } = await open(WIDE);
  const main = page.getByRole('main');
  try {
    await loginOffice(page);
    // The deep link survives the login: the list of invoices opens.
    await main.getByRole('heading', { name: 'Invoices', level: 1, exact: true }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Product areas' });
    assert.ok(await nav.getByRole('link', { name: 'Invoices' }).isVisible(), 'the menu lists Invoices for back office');

    // ---- list: 50 a page, the API's pagination, filters in the URL ------------------------------
    const table = main.getByRole('table', { name: 'Invoices, newest first' });
    await table.waitFor();
    const all = await api<{ pagination: { count: number; pages: number } }>('GET', '/rest/invoices');
    assert.equal(all.body.pagination.pages, 2);
    await main.getByRole('status').getByText(`1–50 of ${all.body.pagination.count}`).waitFor();
    await shot(page, 'list', WIDE);
    await main.getByRole('link', { name: 'Next page' }).click();
    await main.getByRole('status').getByText(`51–${all.body.pagination.count} of ${all.body.pagination.count}`).waitFor();
    assert.match(page.url(), /#\/invoices\?page=2$/);
    const secondPage = await api<{ invoices: Wrapper[] }>('GET', '/rest/invoices?page=2');
    assert.equal(await table.locator('tbody tr[data-row-id]').count(), secondPage.body.invoices.length);
    await main.getByLabel('Status').selectOption('paid');
    await page.waitForURL(/status=paid/);
    assert.doesNotMatch(page.url(), /page=/, 'a new filter starts on its first page');
    const paidOnes = await api<{ invoices: Wrapper[] }>('GET', '/rest/invoices?status=paid');
    await main.getByRole('status').getByText(`1–${paidOnes.body.invoices.length} of ${paidOnes.body.invoices.length}`).waitFor();
    assert.deepEqual(
      await table.getByRole('link').allTextContents(),
      paidOnes.body.invoices.map((w) => w.invoice.debt_claim_number),
    );
    await page.reload({ waitUntil: 'networkidle' });
    assert.equal(await main.getByLabel('Status').inputValue(), 'paid', 'a reload keeps the filter');
    await shot(page, 'list-filtered', WIDE);
    await main.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/#\/invoices$/);

    // ---- create: the API's 422 next to its field first, then the invoice ------------------------
    await main.getByRole('link', { name: 'New invoice' }).click();
    await main.getByRole('heading', { name: 'New invoice', exact: true }).waitFor();
    await field(main, 'Amount').fill('120,50');
    await field(main, 'Currency').fill('EURO');
    await field(main, 'First name').fill('Sofia');
    await field(main, 'Last name').fill('Lindqvist');
    await field(main, 'E-mail').fill('sofia@example.se');
    await field(main, 'City').fill('Malmö');
    await field(main, 'Country').fill('Sweden');
    await field(main, 'Expires in').fill('7');
    await field(main, 'Unit').selectOption('days');
    await field(main, 'Language').selectOption('de');
    await field(main, 'Description').fill('Birthday cake and 40 cupcakes');
    await main.getByRole('button', { name: 'Create invoice' }).click();
    const currency = field(main, 'Currency');
    await main.locator('.field-error').getByText(CURRENCY_LENGTH).waitFor();
    assert.equal(await currency.getAttribute('aria-invalid'), 'true');
    const describedBy = (await currency.getAttribute('aria-describedby')) ?? '';
    assert.equal(
      await page.locator(`[id="${describedBy.split(' ')[0] ?? ''}"]`).textContent(),
      CURRENCY_LENGTH,
      'the message is tied to the field',
    );
    assert.ok(
      await page.evaluate<boolean>('document.activeElement?.getAttribute("list") === "invoice-currencies"'),
      'focus moved to the field at fault',
    );
    await main.getByRole('alert').getByText('One thing to fix').waitFor();
    // The same words as the API's 422 for this body.
    const refused = await api<{ message: string; errors: Array<{ field: string; message: string }> }>('POST', '/rest/invoices', {
      url_name: channel,
      invoice: { amount: '120,50', currency: 'EURO' },
    });
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.body.errors, [{ field: 'invoice.currency', message: CURRENCY_LENGTH }]);
    const before = await api<{ pagination: { count: number } }>('GET', '/rest/invoices');
    assert.equal(before.body.pagination.count, all.body.pagination.count, 'nothing was created');
    await shot(page, 'create-error', WIDE);
    await currency.fill('EUR');
    await main.getByRole('button', { name: 'Create invoice' }).click();
    const heading = main.getByRole('heading', { name: /^Invoice INV-\d{4}$/, level: 1 });
    await heading.waitFor();
    const number = ((await heading.textContent()) ?? '').replace('Invoice ', '');
    assert.match(page.url(), new RegExp(`#/invoices/${number}$`));
    const created = await api<Wrapper>('GET', invoicePath(number));
    assert.deepEqual(
      [
        created.body.invoice.amount,
        created.body.invoice.currency,
        created.body.invoice.first_name,
        created.body.invoice.email,
        created.body.invoice.locale,
        created.body.invoice.expires_in,
        created.body.invoice.expires_in_unit,
      ],
      [120.5, 'EUR', 'Sofia', 'sofia@example.se', 'de', 7, 'days'],
    );

    // ---- the pay link and its QR code side by side ----------------------------------------------
    const qr = main.getByRole('img', { name: `QR code of the pay link of ${number}` });
    const link = main.getByLabel('Link for the customer');
    const [qrBox, linkBox] = [await qr.boundingBox(), await link.boundingBox()];
    assert.ok(
      qrBox && linkBox && linkBox.x > qrBox.x + qrBox.width - 1 && linkBox.y < qrBox.y + qrBox.height,
      'the link sits beside the QR code',
    );
    const png = join(makeTempDir('invoice-qr-'), 'qr.png');
    await qr.screenshot({ path: png });
    const decoded = execFileSync('zbarimg', ['-q', '--raw', png], { encoding: 'utf8' }).trim();
    assert.equal(decoded, await link.inputValue(), 'the QR code on screen is the pay link shown beside it');
    assert.equal(decoded, created.body.paylink, 'and the API’s paylink');
    const payPage = await fetch(decoded);
    assert.equal(payPage.status, 200, 'the pay link answers');
    assert.match(await payPage.text(), new RegExp(number));
    // This gateway has no public URL: the link names 127.0.0.1, and the screen says what that means.
    const warning = main
      .getByRole('note')
      .filter({ hasText: `Only this computer opens links to ${new URL(gateway.url).origin}: a customer's phone cannot` });
    assert.match((await warning.textContent()) ?? '', /GATEWAY_PUBLIC_URL/);
    await main.getByRole('button', { name: 'Copy link' }).click();
    await main.getByText('Pay link copied.').waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), decoded);
    await shot(page, 'detail', WIDE, true);

    // ---- status by hand: paid -------------------------------------------------------------------
    await main.getByRole('button', { name: 'Change status' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: /Paid in full/ }).check();
    await shot(page, 'status-dialog', WIDE);
    await focusTrapped(page);
    await dialog.getByRole('button', { name: 'Set to Paid' }).click();
    await main.getByRole('status').getByText('Status changed to Paid.').waitFor();
    assert.equal((await api<Wrapper>('GET', invoicePath(number))).body.invoice.status, 'paid');
    assert.equal(await main.locator('.page-head .inv-tag-paid').textContent(), 'Paid');

    // ---- deactivating a paid invoice: refused in the API's words --------------------------------
    await main.getByRole('button', { name: 'Deactivate' }).click();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await dialog.getByRole('alert').getByText(RESTRICTED).waitFor();
    const putRefused = await api<{ message: string }>('PUT', invoicePath(number), { invoice: { active: false } });
    assert.deepEqual([putRefused.status, putRefused.body.message], [422, RESTRICTED], 'the API refuses with the same words');
    assert.equal((await api<Wrapper>('GET', invoicePath(number))).body.invoice.active, true);
    await shot(page, 'deactivate-refused', WIDE);
    await escCloses(page, 'Deactivate');

    // ---- a pending invoice: deactivate and activate again ---------------------------------------
    await page.goto(new URL(`/app/#/invoices/${seeded.edit}`, gateway.url).href);
    await main.getByRole('heading', { name: `Invoice ${seeded.edit}`, exact: true }).waitFor();
    await main.getByRole('button', { name: 'Deactivate' }).click();
    await shot(page, 'deactivate-dialog', WIDE);
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await main.getByRole('status').getByText('Invoice deactivated: its pay link stopped working.').waitFor();
    assert.equal((await api<Wrapper>('GET', invoicePath(seeded.edit))).body.invoice.active, false);
    await main.getByRole('button', { name: 'Activate' }).click();
    await dialog.getByRole('button', { name: 'Activate' }).click();
    await main.getByRole('status').getByText('Invoice activated: its pay link works again.').waitFor();
    assert.equal((await api<Wrapper>('GET', invoicePath(seeded.edit))).body.invoice.active, true);

    // ---- edit: a field changes, the rest stays --------------------------------------------------
    await main.getByRole('link', { name: 'Edit' }).click();
    await main.getByRole('heading', { name: `Edit invoice ${seeded.edit}`, exact: true }).waitFor();
    assert.equal(await field(main, 'Country').inputValue(), 'United Kingdom', 'the form holds the invoice as the API answers it');
    await field(main, 'City').fill('Manchester');
    await field(main, 'E-mail').fill('aisha.khan@example.co.uk');
    await shot(page, 'edit', WIDE, true);
    await main.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(new RegExp(`#/invoices/${seeded.edit}$`));
    await main.getByRole('heading', { name: `Invoice ${seeded.edit}`, exact: true }).waitFor();
    const edited = (await api<Wrapper>('GET', invoicePath(seeded.edit))).body.invoice;
    assert.deepEqual(
      [edited.city, edited.email, edited.amount, edited.first_name],
      ['Manchester', 'aisha.khan@example.co.uk', 19.9, 'Aisha'],
    );

    // ---- payment plan: create with instalments and interval, see them, cancel -------------------
    await page.goto(new URL(`/app/#/invoices/${seeded.reminder}`, gateway.url).href);
    await main.getByRole('heading', { name: `Invoice ${seeded.reminder}`, exact: true }).waitFor();
    await main.getByRole('button', { name: 'Create plan' }).click();
    await dialog.getByLabel('Instalments').fill('4');
    await dialog.getByLabel('Interval').selectOption('month');
    await shot(page, 'plan-dialog', WIDE);
    await dialog.getByRole('button', { name: 'Create plan' }).click();
    await main.getByRole('status').getByText('Payment plan created: 4 instalments, every month.').waitFor();
    const instalments = main.getByRole('table', { name: 'Instalments of the payment plan' });
    await instalments.waitFor();
    assert.equal(await instalments.locator('tbody tr').count(), 4);
    const plan = await api<{
      payment_plan: { status: string; installments: number; interval: string; schedule: Array<{ amount: number }> };
    }>('GET', `${invoicePath(seeded.reminder)}/payment_plan`);
    assert.deepEqual(
      [plan.body.payment_plan.status, plan.body.payment_plan.installments, plan.body.payment_plan.interval],
      ['active', 4, 'month'],
    );
    assert.deepEqual(
      await instalments.locator('tbody td.num').allTextContents(),
      plan.body.payment_plan.schedule.map((i) => `${i.amount.toFixed(2)} EUR`),
    );
    await shot(page, 'detail-plan', WIDE, true);
    // With an active plan, delete says to cancel the plan first.
    await main.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByText('Cancel the plan first').waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Delete invoice' }).count(), 0);
    await escCloses(page, 'Delete');
    await main.getByRole('button', { name: 'Cancel plan' }).click();
    await shot(page, 'cancel-plan-dialog', WIDE);
    await dialog.getByRole('button', { name: 'Cancel the plan' }).click();
    await main.getByRole('status').getByText('Payment plan cancelled.').waitFor();
    assert.equal(
      (await api<{ payment_plan: { status: string } }>('GET', `${invoicePath(seeded.reminder)}/payment_plan`)).body.payment_plan.status,
      'cancelled',
    );

    // ---- reminder: send it, read it ----------------------------------------------------------------
    await main.getByRole('button', { name: 'Send reminder' }).click();
    await dialog.getByText('jonas.meyer@example.de').waitFor();
    await shot(page, 'reminder-dialog', WIDE);
    await dialog.getByRole('button', { name: 'Send reminder' }).click();
    await dialog.getByRole('heading', { name: 'Reminder sent', exact: true }).waitFor();
    const emails = await api<{
      emails: Array<{ email_type: string; status: string; subject: string; body_text: string; test_outbox: boolean; locale: string }>;
    }>('GET', `/rest/emails?invoice_number=${encodeURIComponent(seeded.reminder)}`);
    const [latest] = emails.body.emails;
    assert.deepEqual([latest?.email_type, latest?.status, latest?.test_outbox, latest?.locale], ['reminder', 'sent', true, 'de']);
    assert.equal(await dialog.locator('.email-body').textContent(), latest?.body_text, 'the preview is the e-mail as sent');
    assert.ok(((await dialog.textContent()) ?? '').includes(latest?.subject ?? '?'));
    assert.ok(
      latest?.body_text.includes((await api<Wrapper>('GET', invoicePath(seeded.reminder))).body.paylink),
      'the reminder carries the pay link',
    );
    await shot(page, 'reminder-sent', WIDE);
    await escCloses(page, 'Send reminder');
    await main.getByText(/^Reminder sent .* to jonas\.meyer@example\.de$/).waitFor();
    // The first e-mail (sent at creation) can be read too.
    await main.getByRole('button', { name: /^Preview the invoice e-mail/ }).click();
    await dialog.getByRole('heading', { name: `Invoice e-mail of ${seeded.reminder}`, exact: true }).waitFor();
    assert.equal(await dialog.locator('.email-body').textContent(), emails.body.emails.find((e) => e.email_type === 'initial')?.body_text);
    await shot(page, 'email-preview', WIDE);
    await escCloses(page, 'Preview');

    // ---- payments through the pay link ----------------------------------------------------------
    await page.goto(new URL(`/app/#/invoices/${seeded.paidByCard}`, gateway.url).href);
    const payments = main.getByRole('table', { name: 'Payments through the pay link, newest first' });
    await payments.waitFor();
    const listed = await api<unknown[]>(
      'GET',
      `/rest/transactions?order_id=${encodeURIComponent((await api<Wrapper>('GET', invoicePath(seeded.paidByCard))).body.invoice.uuid)}`,
    );
    assert.equal(await payments.locator('tbody tr').count(), listed.body.length);
    assert.match((await payments.locator('tbody tr').first().textContent()) ?? '', /visa •••• 1111.*84\.20 EUR.*completed/i);
    assert.match((await payments.locator('tbody tr').nth(1).textContent()) ?? '', /declined/i);
    await main.locator('.page-head .inv-tag-paid').waitFor();
    await shot(page, 'detail-paid', WIDE, true);

    // ---- delete with confirmation ---------------------------------------------------------------
    await page.goto(new URL(`/app/#/invoices/${seeded.doomed}`, gateway.url).href);
    await main.getByRole('heading', { name: `Invoice ${seeded.doomed}`, exact: true }).waitFor();
    await main.getByRole('button', { name: 'Delete' }).click();
    await shot(page, 'delete-dialog', WIDE);
    await dialog.getByRole('button', { name: 'Delete invoice' }).click();
    await main.getByRole('heading', { name: 'Invoices', level: 1, exact: true }).waitFor();
    assert.equal((await api('GET', invoicePath(seeded.doomed))).status, 404, 'the API no longer knows it');

    // ---- every change above is in the audit log under the back-office user ---------------------
    const audit = await fetch(new URL('/ui/audit', gateway.url), {
      headers: { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    const entries = (await audit.json()) as Array<{ action: string; staff_id: string; subject_id: string | null; detail: string | null }>;
    const mine = entries.filter((e) => e.staff_id === officeId && e.action.startsWith('invoice_')).reverse();
    assert.deepEqual(
      mine.map((e) => [e.action, e.subject_id]),
      [
        ['invoice_create', number],
        ['invoice_status', number],
        ['invoice_update', seeded.edit],
        ['invoice_update', seeded.edit],
        ['invoice_update', seeded.edit],
        ['invoice_plan_create', seeded.reminder],
        ['invoice_plan_cancel', seeded.reminder],
        ['invoice_reminder', seeded.reminder],
        ['invoice_delete', seeded.doomed],
      ],
    );
    assert.deepEqual(problems, [], 'no console error or uncaught exception');
  } finally {
    await context.close();
  }
});

void test('1024x768: every invoice screen and dialog fits, passes axe, and its dialogs close on Esc', async () => {
  const { context, page } = await open(NARROW);
  const main = page.getByRole('main');
  const dialog = page.getByRole('dialog');
  try {
    await loginOffice(page);
    await main.getByRole('table', { name: 'Invoices, newest first' }).waitFor();
    await main
      .getByRole('status')
      .getByText(/^1–50 of \d+$/)
      .waitFor();
    await shot(page, 'list', NARROW);
    // At 1024 px the areas fold behind Menu; Invoices is there.
    await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Product areas' }).getByRole('link', { name: 'Invoices' }).waitFor();
    await page.keyboard.press('Escape');

    await page.goto(new URL('/app/#/invoices?status=paid', gateway.url).href);
    await main
      .getByRole('status')
      .getByText(/^1–\d+ of \d+$/)
      .waitFor();
    await shot(page, 'list-filtered', NARROW);

    await page.goto(new URL('/app/#/invoices/new', gateway.url).href);
    await field(main, 'Currency').fill('EURO');
    await field(main, 'E-mail').fill('not-an-address');
    await main.getByRole('button', { name: 'Create invoice' }).click();
    await main.getByRole('alert').getByText('3 things to fix').waitFor();
    for (const text of [CURRENCY_LENGTH, 'Email is not a valid e-mail address.', "Amount can't be blank."])
      await main.locator('.field-error').getByText(text).waitFor();
    await shot(page, 'create-error', NARROW);

    await page.goto(new URL(`/app/#/invoices/${seeded.reminder}`, gateway.url).href);
    await main.getByRole('heading', { name: `Invoice ${seeded.reminder}`, exact: true }).waitFor();
    await main.getByRole('img', { name: /QR code of the pay link/ }).waitFor();
    await shot(page, 'detail', NARROW, true);
    const dialogs: Array<[string, string, string]> = [
      ['Change status', 'status-dialog', 'Change status'],
      ['Deactivate', 'deactivate-dialog', 'Deactivate'],
      ['Send reminder', 'reminder-dialog', 'Send reminder'],
      ['Create plan', 'plan-dialog', 'Create plan'],
      ['Delete', 'delete-dialog', 'Delete'],
    ];
    for (const [button, name, opener] of dialogs) {
      await main.getByRole('button', { name: button, exact: true }).click();
      await dialog.waitFor();
      await shot(page, name, NARROW);
      await escCloses(page, opener);
    }
    await main
      .getByRole('button', { name: /^Preview the reminder/ })
      .first()
      .click();
    await dialog.waitFor();
    await shot(page, 'email-preview', NARROW);
    await escCloses(page, 'Preview');
    // A reminder sent and shown as sent.
    await main.getByRole('button', { name: 'Send reminder', exact: true }).click();
    await dialog.getByRole('button', { name: 'Send reminder' }).click();
    await dialog.getByRole('heading', { name: 'Reminder sent', exact: true }).waitFor();
    await shot(page, 'reminder-sent', NARROW);
    await escCloses(page, 'Send reminder');

    // A plan: its instalments on the detail, and the dialog that cancels it.
    await page.goto(new URL(`/app/#/invoices/${seeded.edit}`, gateway.url).href);
    await main.getByRole('heading', { name: `Invoice ${seeded.edit}`, exact: true }).waitFor();
    await main.getByRole('button', { name: 'Create plan', exact: true }).click();
    await dialog.getByLabel('Instalments').fill('2');
    await dialog.getByLabel('Interval').selectOption('week');
    await dialog.getByRole('button', { name: 'Create plan' }).click();
    await main.getByRole('table', { name: 'Instalments of the payment plan' }).waitFor();
    assert.equal(
      (await api<{ payment_plan: { installments: number; interval: string } }>('GET', `${invoicePath(seeded.edit)}/payment_plan`)).body
        .payment_plan.interval,
      'week',
    );
    await shot(page, 'detail-plan', NARROW, true);
    await main.getByRole('button', { name: 'Cancel plan', exact: true }).click();
    await dialog.waitFor();
    await shot(page, 'cancel-plan-dialog', NARROW);
    await escCloses(page, 'Cancel plan');

    // Deactivating a paid invoice: the gateway's refusal.
    await page.goto(new URL(`/app/#/invoices/${seeded.paidByCard}`, gateway.url).href);
    await main.getByRole('heading', { name: `Invoice ${seeded.paidByCard}`, exact: true }).waitFor();
    await main.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await dialog.getByRole('alert').getByText(RESTRICTED).waitFor();
    await shot(page, 'deactivate-refused', NARROW);
    await escCloses(page, 'Deactivate');

    await page.goto(new URL(`/app/#/invoices/${seeded.paidByCard}`, gateway.url).href);
    await main.getByRole('table', { name: 'Payments through the pay link, newest first' }).waitFor();
    await shot(page, 'detail-paid', NARROW, true);
    await page.goto(new URL(`/app/#/invoices/${seeded.edit}/edit`, gateway.url).href);
    await main.getByRole('heading', { name: `Edit invoice ${seeded.edit}`, exact: true }).waitFor();
    await shot(page, 'edit', NARROW, true);
    assert.deepEqual(problems, [], 'no console error or uncaught exception');
  } finally {
    await context.close();
  }
});

for (const size of [WIDE, NARROW]) {
  void test(`${size.width}x${size.height}: a cashier is kept out of invoices and may switch user`, async () => {
    const { context, page } = await open(size);
    const main = page.getByRole('main');
    try {
      await main.getByLabel('Login', { exact: true }).fill('anna');
      await main.locator('input[type=password]').fill('1234');
      await page.keyboard.press('Enter');
      await page.getByRole('banner').getByText('Anna Berg').waitFor();
      await main.getByRole('heading', { name: 'Not open to your role', exact: true }).waitFor();
      assert.match((await main.textContent()) ?? '', /This screen is for back office or admin staff/);
      assert.equal(await main.getByRole('table').count(), 0, 'no invoice is shown');
      if (size.width >= 1100)
        assert.equal(
          await page.getByRole('navigation', { name: 'Product areas' }).getByRole('link', { name: 'Invoices' }).count(),
          0,
          'the menu has no Invoices for a cashier',
        );
      // The API agrees: a cashier's session may not list invoices.
      const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
      assert.equal((await fetch(new URL('/rest/invoices', gateway.url), { headers: { cookie } })).status, 403);
      await shot(page, 'cashier-kept-out', size);
      await main.getByRole('button', { name: 'Switch user' }).click();
      await main.getByRole('heading', { name: 'Staff login', exact: true }).waitFor();
      await loginOffice(page);
      await main.getByRole('heading', { name: 'Invoices', level: 1, exact: true }).waitFor();
      assert.deepEqual(problems, [], 'no console error or uncaught exception');
    } finally {
      await context.close();
    }
  });
}

void test("1366x900: an invoice's number finds its payment in Transactions, which shows the number and links back to the invoice", async () => {
  const { context, page } = await open(WIDE);
  const main = page.getByRole('main');
  try {
    await loginOffice(page);
    await page.goto(new URL('/app/#/transactions', gateway.url).href);
    const box = main.getByRole('searchbox', { name: /invoice number/ });
    await box.fill(seeded.paidByCard);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`q=${seeded.paidByCard}`));
    // The approved payment and the declined try before it, each showing the invoice's number.
    const found = await api<Array<{ transaction_id: string; status: string; invoice_number?: string }>>(
      'GET',
      `/rest/transactions?search=${seeded.paidByCard}`,
    );
    assert.deepEqual(
      found.body.map((t) => [t.status, t.invoice_number]),
      [
        ['completed', seeded.paidByCard],
        ['declined', seeded.paidByCard],
      ],
    );
    const rows = main.locator('tbody tr[data-row-id]');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    for (const text of await rows.allTextContents()) assert.ok(text.includes(seeded.paidByCard), text);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `backoffice-transactions-invoice-search-${WIDE.width}.png`) });
    await page.goto(new URL(`/app/#/transactions/${found.body[0]?.transaction_id ?? ''}`, gateway.url).href);
    await main.getByRole('link', { name: seeded.paidByCard }).click();
    await main.getByRole('heading', { name: `Invoice ${seeded.paidByCard}`, level: 1 }).waitFor();
    assert.deepEqual(problems, [], 'no console error or uncaught exception');
  } finally {
    await context.close();
  }
});
