/**
 * The back office's Settings and staff in Debian Chromium against the real `gateway serve` (issue
 * 16, 4), as an admin: edits the merchant's profile and a channel (and creates one); creates API
 * credentials whose password is shown once, which then work from a real HTTP client (fetch with
 * Basic auth against /rest/transactions), revokes them after confirmation and they answer 401; creates
 * a cashier who logs in in another window, resets the cashier's password (shown once; the open
 * session ends) and disables the account (the session ends, the login is refused); sets SMTP to a
 * local smtp-server peer and sends a test e-mail that arrives there, the screen showing the server's
 * answer; the audit log shows every one of these and filters by person and action. Each change is
 * checked through the API. axe-core on every screen and dialog, Esc closes dialogs, focus stays in
 * them, no console error. Screenshots docs/screenshots/backoffice-settings-*.png at 1366x900 (every
 * screen and dialog) and 1024x768 (every screen). Needs a built renderer (`npm run build:renderer`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import {
  cookieOf,
  escCloses,
  focusTrapped,
  launchBrowser,
  loginWithPassword,
  NARROW,
  openApp,
  shot,
  WIDE,
} from '../helpers/back-office-browser.js';
import { runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';

const PREFIX = 'backoffice-settings';
const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'smtp-Secret-Word-77';

interface AuditEntry {
  action: string;
  staff_id: string | null;
  subject_id: string | null;
  detail: string | null;
}

let gateway: GatewayProcess;
let browser: Browser;
let merchantId = '';
let admin = { staff_id: '', login: 'owner', password: '' };
const problems: string[] = [];
const received: Array<{ to: string[]; raw: string }> = [];
let smtp: SMTPServer;
let smtpPort = 0;

function cli<T>(args: string[]): T {
  const result = runGateway([...args, '--data-dir', gateway.dataDir, '--json']);
  assert.equal(result.status, 0, `gateway ${args.join(' ')}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

before(async () => {
  smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  smtpPort = await new Promise<number>((resolve) =>
    smtp.listen(0, '127.0.0.1', () => {
      const address = smtp.server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    }),
  );
  gateway = await startGateway();
  merchantId = cli<{ merchant_id: string }>(['merchant', 'create', '--name', 'Corner Bakery']).merchant_id;
  const created = cli<{ staff_id: string; password: string }>([
    'staff',
    'create',
    '--merchant',
    merchantId,
    '--role',
    'admin',
    '--login',
    'owner',
    '--name',
    'Olga Owner',
  ]);
  admin = { staff_id: created.staff_id, login: 'owner', password: created.password };
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
  await new Promise<void>((done) => (smtp ? smtp.close(() => done()) : done()));
});

/** A call of the gateway as a real HTTP client, with a staff cookie or Basic credentials. */
async function call<T>(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, gateway.url), { method, headers: { accept: 'application/json', ...headers } });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** What curl, as a POS program would call, gets from the gateway with Basic credentials: the HTTP status. */
const curlStatus = (path: string, key: string, password: string): number =>
  Number(
    execFileSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-u', `${key}:${password}`, new URL(path, gateway.url).href], {
      encoding: 'utf8',
    }),
  );
const basic = (key: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${key}:${password}`).toString('base64')}` });
const dialog = (page: Page) => page.getByRole('dialog');
const main = (page: Page) => page.getByRole('main');

test('an admin edits the profile and channels, manages API credentials, staff and SMTP, and reads it all in the audit log', async () => {
  const { context, page } = await openApp(browser, gateway.url, WIDE, '#/settings/profile', problems);
  await loginWithPassword(page, admin.login, admin.password, 'Olga Owner');
  const cookie = { cookie: await cookieOf(context) };
  const ui = <T>(path: string) => call<T>('GET', path, cookie);
  // Olga reads her screens in English whatever the shop's language (her own choice, D21): this
  // test makes the shop German and goes on reading English.
  const own = await fetch(new URL('/ui/session/language', gateway.url), {
    method: 'PUT',
    headers: { ...cookie, accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ language: 'en' }),
  });
  assert.equal(own.status, 200, await own.text());
  await page.reload();
  await main(page).getByLabel('Name', { exact: true }).waitFor();

  // ---- profile
  await main(page).getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Profile' }).waitFor();
  await main(page).getByLabel('Name', { exact: true }).waitFor();
  assert.equal(await main(page).getByLabel('Name', { exact: true }).inputValue(), 'Corner Bakery');
  // Where customers' links go, and that a loopback address reaches no customer's phone.
  await main(page).getByText(new URL(gateway.url).origin, { exact: true }).waitFor();
  await main(page)
    .getByRole('note')
    .filter({ hasText: "a customer's phone cannot. Set the gateway's public URL (GATEWAY_PUBLIC_URL" })
    .waitFor();
  await shot(page, PREFIX, 'profile', WIDE);
  await main(page).getByLabel('Name', { exact: true }).fill('');
  await main(page).getByRole('button', { name: 'Save profile' }).click();
  await main(page).getByText('Give the merchant a name.').waitFor();
  await main(page).getByLabel('Name', { exact: true }).fill('Corner Bakery Süd');
  await main(page).getByLabel('Default language').selectOption('de');
  await main(page).getByRole('button', { name: 'Save profile' }).click();
  await main(page).getByText('Profile saved.').waitFor();
  const profile = await ui<{ name: string; language: string }>('/ui/profile');
  assert.deepEqual([profile.body.name, profile.body.language], ['Corner Bakery Süd', 'de']);
  // The header's merchant name follows through the session.
  assert.equal((await ui<{ merchant: { name: string } }>('/ui/session')).body.merchant.name, 'Corner Bakery Süd');

  // ---- channels: a new one (its dialog checked for Esc and focus), then an edit
  await main(page).getByRole('link', { name: 'Channels' }).click();
  await main(page).getByRole('cell', { name: 'corner-bakery', exact: true }).waitFor();
  await shot(page, PREFIX, 'channels', WIDE);
  await main(page).getByRole('button', { name: 'New channel' }).click();
  await dialog(page).getByLabel('Url name').waitFor();
  await focusTrapped(page);
  await escCloses(page, 'New channel');
  await main(page).getByRole('button', { name: 'New channel' }).click();
  await dialog(page).getByLabel('Url name').fill('Web Shop!');
  await dialog(page).getByRole('button', { name: 'Create channel' }).click();
  await dialog(page).getByText('Url name must be 2 to 40 lower-case letters').waitFor();
  await dialog(page).getByLabel('Url name').fill('web-shop');
  await dialog(page).getByLabel('Name', { exact: true }).fill('Web shop');
  await dialog(page).getByLabel('Sender e-mail').fill('web@corner.example');
  assert.equal(await dialog(page).getByLabel('Language').inputValue(), 'de', 'a new channel starts with the merchant language');
  await shot(page, PREFIX, 'channel-new-dialog', WIDE);
  await dialog(page).getByRole('button', { name: 'Create channel' }).click();
  await main(page).getByText('Channel web-shop created.').waitFor();
  await main(page).getByRole('button', { name: 'Edit channel web-shop' }).click();
  await dialog(page).getByRole('heading', { name: 'Edit channel web-shop' }).waitFor();
  await dialog(page).getByLabel('Name', { exact: true }).fill('Web shop Zürich');
  await dialog(page).getByLabel('Currency').fill('CHF');
  await shot(page, PREFIX, 'channel-edit-dialog', WIDE);
  await dialog(page).getByRole('button', { name: 'Save channel' }).click();
  await main(page).getByText('Channel web-shop saved.').waitFor();
  const channels = await ui<Array<{ url_name: string; name: string; currency: string; sender_email: string | null }>>('/ui/channels');
  assert.deepEqual(
    channels.body.find((c) => c.url_name === 'web-shop'),
    {
      ...channels.body.find((c) => c.url_name === 'web-shop'),
      name: 'Web shop Zürich',
      currency: 'CHF',
      sender_email: 'web@corner.example',
    },
  );

  // ---- API credentials: shown once, work from a real HTTP client, revoked answer 401
  await main(page).getByRole('link', { name: 'API credentials' }).click();
  await main(page).getByRole('table').getByText('Active').first().waitFor();
  await shot(page, PREFIX, 'credentials', WIDE);
  await main(page).getByRole('button', { name: 'New API credentials' }).click();
  await dialog(page).getByRole('heading', { name: 'Create API credentials?' }).waitFor();
  await shot(page, PREFIX, 'credentials-create-dialog', WIDE);
  await dialog(page).getByRole('button', { name: 'Create credentials' }).click();
  await dialog(page).getByRole('heading', { name: 'New API credentials' }).waitFor();
  const apiKey = await dialog(page).getByRole('textbox', { name: 'API key' }).inputValue();
  const apiPassword = await dialog(page).getByRole('textbox', { name: 'API password' }).inputValue();
  assert.match(apiKey, /^tg_test_/);
  await dialog(page).getByRole('button', { name: 'Copy api password' }).click();
  await dialog(page).getByText('Copied.').waitFor();
  assert.equal(await page.evaluate('navigator.clipboard.readText()'), apiPassword);
  await shot(page, PREFIX, 'credentials-created-dialog', WIDE);
  await dialog(page).getByRole('button', { name: 'Close', exact: true }).first().click();
  await dialog(page).waitFor({ state: 'detached' });
  assert.ok(!(await main(page).textContent())?.includes(apiPassword), 'the password is gone once the dialog closed');
  const listed = await ui<unknown[]>('/ui/credentials');
  assert.ok(!JSON.stringify(listed.body).includes(apiPassword));
  assert.equal(curlStatus('/rest/transactions', apiKey, apiPassword), 200, 'the new credentials work from curl');
  assert.equal((await call('GET', '/rest/transactions', basic(apiKey, apiPassword))).status, 200, 'and again, from the cache');

  await main(page)
    .getByRole('button', { name: `Revoke ${apiKey}` })
    .click();
  await dialog(page).getByRole('heading', { name: 'Revoke these API credentials?' }).waitFor();
  await shot(page, PREFIX, 'credentials-revoke-dialog', WIDE);
  await escCloses(page, `Revoke ${apiKey}`);
  assert.equal((await call('GET', '/rest/transactions', basic(apiKey, apiPassword))).status, 200, 'Esc revoked nothing');
  await main(page)
    .getByRole('button', { name: `Revoke ${apiKey}` })
    .click();
  await dialog(page).getByRole('button', { name: 'Revoke credentials' }).click();
  await main(page).getByText(`API key ${apiKey} revoked`).waitFor();
  assert.equal((await call('GET', '/rest/transactions', basic(apiKey, apiPassword))).status, 401);
  assert.equal(curlStatus('/rest/transactions', apiKey, apiPassword), 401, 'revoked: curl gets 401 too');
  await main(page)
    .getByText(/^Revoked /)
    .waitFor();
  await shot(page, PREFIX, 'credentials-revoked', WIDE);

  // ---- staff: a cashier who logs in elsewhere, a reset that ends the session, then disabled
  await main(page).getByRole('link', { name: 'Staff', exact: true }).click();
  await main(page).getByRole('cell', { name: 'Olga Owner' }).waitFor();
  await shot(page, PREFIX, 'staff', WIDE);
  await main(page).getByRole('button', { name: 'New staff account' }).click();
  await dialog(page).getByLabel('Role').waitFor();
  await focusTrapped(page);
  await escCloses(page, 'New staff account');
  await main(page).getByRole('button', { name: 'New staff account' }).click();
  await dialog(page).getByLabel('Role').selectOption('cashier');
  await dialog(page).getByLabel('Login').fill('kim');
  await dialog(page).getByLabel('Name').fill('Kim Lee');
  await dialog(page).getByLabel('PIN').fill('12');
  await dialog(page).getByRole('button', { name: 'Create account' }).click();
  await dialog(page).getByText('PIN must be 4 to 8 digits.').waitFor();
  await dialog(page).getByLabel('PIN').fill('5731');
  await shot(page, PREFIX, 'staff-create-dialog', WIDE);
  await dialog(page).getByRole('button', { name: 'Create account' }).click();
  await dialog(page).getByRole('heading', { name: 'Account kim created' }).waitFor();
  const cashierPassword = await dialog(page).getByRole('textbox', { name: 'Password', exact: true }).inputValue();
  await shot(page, PREFIX, 'staff-created-dialog', WIDE);
  await dialog(page).getByRole('button', { name: 'Close', exact: true }).first().click();
  await main(page).getByRole('cell', { name: 'Kim Lee' }).waitFor();
  const kimId = (await ui<Array<{ staff_id: string; login: string }>>('/ui/staff')).body.find((m) => m.login === 'kim')?.staff_id ?? '';

  // The cashier's window sees its session end and its login refused: those 401s are expected there.
  const tillProblems: string[] = [];
  const till = await openApp(browser, gateway.url, WIDE, '#/', tillProblems);
  await loginWithPassword(till.page, 'kim', cashierPassword, 'Kim Lee');
  const kimCookie = { cookie: await cookieOf(till.context) };
  assert.equal((await call('GET', '/ui/session', kimCookie)).status, 200);
  assert.equal(
    await till.page.getByRole('navigation', { name: 'Product areas' }).getByRole('link', { name: 'Settings' }).count(),
    0,
    'a cashier has no Settings in the menu',
  );

  await main(page).getByRole('button', { name: 'Reset password or PIN of kim' }).click();
  await dialog(page).getByRole('heading', { name: "Reset Kim Lee's password or PIN" }).waitFor();
  await shot(page, PREFIX, 'staff-reset-dialog', WIDE);
  await dialog(page).getByRole('button', { name: 'Renew password' }).click();
  await dialog(page).getByRole('heading', { name: 'Password of kim renewed' }).waitFor();
  const newPassword = await dialog(page).getByRole('textbox', { name: 'New password', exact: true }).inputValue();
  assert.ok(newPassword.length >= 8 && newPassword !== cashierPassword, 'a new generated password');
  await dialog(page).getByText('Kim Lee was logged out (1 session).').waitFor();
  await shot(page, PREFIX, 'staff-reset-shown', WIDE);
  await dialog(page).getByRole('button', { name: 'Close', exact: true }).first().click();
  assert.equal((await call('GET', '/ui/session', kimCookie)).status, 401, "the cashier's session ended with the reset");
  await till.page.reload({ waitUntil: 'networkidle' });
  await loginWithPassword(till.page, 'kim', newPassword, 'Kim Lee');
  const kimCookie2 = { cookie: await cookieOf(till.context) };
  assert.equal((await call('GET', '/ui/session', kimCookie2)).status, 200);

  await main(page).getByRole('button', { name: 'Disable kim' }).click();
  await dialog(page).getByRole('heading', { name: 'Disable Kim Lee?' }).waitFor();
  await shot(page, PREFIX, 'staff-disable-dialog', WIDE);
  await dialog(page).getByRole('button', { name: 'Disable account' }).click();
  await main(page).getByText('kim is disabled').waitFor();
  await main(page).getByText('Disabled', { exact: true }).waitFor();
  assert.equal((await call('GET', '/ui/session', kimCookie2)).status, 401, 'the open session ended at once');
  await till.page.reload({ waitUntil: 'networkidle' });
  await till.page.getByRole('main').getByLabel('Login', { exact: true }).fill('kim');
  await till.page.getByRole('main').getByText('Password', { exact: true }).click();
  await till.page.getByRole('main').getByRole('textbox', { name: 'Password' }).fill(newPassword);
  await till.page.keyboard.press('Enter');
  await till.page
    .getByRole('main')
    .getByText(/^Wrong login/)
    .waitFor();
  await till.context.close();
  assert.deepEqual(
    tillProblems.filter((p) => !/status of 401 \(Unauthorized\)/.test(p)),
    [],
    "the cashier's window has no problem but the expected 401s",
  );

  // ---- SMTP: a local smtp-server peer; the test e-mail arrives and the answer is shown
  await main(page).getByRole('link', { name: 'E-mail (SMTP)' }).click();
  await main(page).getByLabel('Host').waitFor();
  await shot(page, PREFIX, 'smtp', WIDE);
  await main(page).getByLabel('Host').fill('127.0.0.1');
  await main(page).getByLabel('Port').fill(String(smtpPort));
  await main(page).getByLabel('Security').selectOption('none');
  await main(page).getByLabel('User').fill(SMTP_USER);
  await main(page).getByRole('textbox', { name: 'Password optional' }).fill(SMTP_PASSWORD);
  await main(page).getByLabel('From address').fill('Corner Bakery <billing@corner.example>');
  await main(page).getByRole('button', { name: 'Save SMTP settings' }).click();
  await main(page).getByText('SMTP settings saved.').waitFor();
  await main(page).getByText('A password is set.').waitFor();
  assert.equal(await main(page).getByRole('textbox', { name: 'Password optional' }).inputValue(), '', 'the password is not shown again');
  const smtpView = await ui<{ password_set: boolean }>('/ui/smtp');
  assert.equal(smtpView.body.password_set, true);
  assert.ok(!JSON.stringify(smtpView.body).includes(SMTP_PASSWORD));
  await main(page).getByLabel('Send to').fill('olga@corner.example');
  await main(page).getByRole('button', { name: 'Send a test e-mail' }).click();
  await main(page).getByText('The server accepted the test e-mail:').waitFor();
  const answer = (await main(page).locator('.settings-answer').textContent()) ?? '';
  assert.match(answer, /^250\b/, `the server's answer is shown: ${answer}`);
  assert.equal(received.length, 1);
  assert.deepEqual(received[0]?.to, ['olga@corner.example']);
  await shot(page, PREFIX, 'smtp-test-result', WIDE, true);

  // ---- the audit log: every change above, filtered by person and action
  await main(page).getByRole('link', { name: 'Audit log' }).click();
  await main(page).getByRole('cell', { name: 'SMTP test' }).waitFor();
  await shot(page, PREFIX, 'audit', WIDE);
  const entries = (await ui<{ data_set: AuditEntry[] }>('/ui/audit-log?per=200')).body.data_set;
  const mine = entries.filter((e) => e.staff_id === admin.staff_id).map((e) => e.action);
  for (const action of [
    'profile_update',
    'channel_create',
    'channel_update',
    'credential_create',
    'credential_revoke',
    'staff_create',
    'staff_reset_password',
    'staff_disable',
    'smtp_update',
    'smtp_test',
  ]) {
    assert.ok(mine.includes(action), `the audit log has ${action} by the admin`);
  }
  assert.equal(entries.filter((e) => e.action === 'login' && e.staff_id === kimId).length, 2, "the cashier's two logins");
  assert.ok(!JSON.stringify(entries).includes(SMTP_PASSWORD) && !JSON.stringify(entries).includes(apiPassword));

  const filters = main(page).getByRole('search', { name: 'Filter the audit log' });
  await filters.getByLabel('Person').selectOption({ label: 'Olga Owner (owner)' });
  await filters.getByLabel('Action').selectOption({ label: 'Credential revoke' });
  await page.waitForURL(/action=credential_revoke/);
  assert.match(page.url(), new RegExp(`staff=${admin.staff_id}`));
  await main(page).getByRole('cell', { name: apiKey }).waitFor();
  assert.equal(await main(page).getByRole('row').count(), 2, 'the header and the one revocation');
  await shot(page, PREFIX, 'audit-filtered', WIDE);
  await filters.getByLabel('Person').selectOption({ label: 'Kim Lee (kim)' });
  await filters.getByLabel('Action').selectOption({ label: 'Login' });
  await page.waitForURL(/action=login/);
  await main(page).getByRole('cell', { name: 'Kim Lee' }).first().waitFor();
  assert.equal(await main(page).getByRole('cell', { name: 'Kim Lee' }).count(), 2);
  // A day range after today shows nothing.
  const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  await filters.getByLabel('From').fill(tomorrow);
  await main(page).getByText('No entry matches these filters.').waitFor();

  // The shop's language back to English: staff screens speak the shop's language once logged in
  // (D21), and the next test reads them in English.
  const current = (await ui<{ name: string; currency: string }>('/ui/profile')).body;
  const restored = await fetch(new URL('/ui/profile', gateway.url), {
    method: 'PUT',
    headers: { ...cookie, accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ name: current.name, currency: current.currency, language: 'en' }),
  });
  assert.equal(restored.status, 200, await restored.text());
  await context.close();
});

test('every Settings screen at 1024x768', async () => {
  const { context, page } = await openApp(browser, gateway.url, NARROW, '#/settings/profile', problems);
  await loginWithPassword(page, admin.login, admin.password, 'Olga Owner');
  const screens: Array<[string, string, () => Promise<void>]> = [
    ['profile', '#/settings/profile', () => main(page).getByRole('button', { name: 'Save profile' }).waitFor()],
    ['channels', '#/settings/channels', () => main(page).getByRole('cell', { name: 'web-shop', exact: true }).waitFor()],
    [
      'credentials',
      '#/settings/credentials',
      () =>
        main(page)
          .getByText(/^Revoked /)
          .waitFor(),
    ],
    ['staff', '#/settings/staff', () => main(page).getByRole('cell', { name: 'Kim Lee' }).waitFor()],
    ['smtp', '#/settings/smtp', () => main(page).getByText('A password is set.').waitFor()],
    ['audit', '#/settings/audit', () => main(page).getByRole('cell', { name: 'SMTP test' }).first().waitFor()],
  ];
  for (const [name, path, ready] of screens) {
    await page.goto(new URL(`/app/${path}`, gateway.url).href, { waitUntil: 'networkidle' });
    await ready();
    await shot(page, PREFIX, name, NARROW);
  }
  await context.close();
  assert.deepEqual(problems, []);
});
