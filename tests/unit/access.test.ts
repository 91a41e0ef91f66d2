// Who may call what (contract/access.ts): every operation of contract/operation-table.ts states who may
// call it, a wrong name in the table is a compile error (the contract's own program, compiled in
// memory with one line changed), and the table says of the API's routes what the gateway did before
// the table: a cashier pays, voids, captures, reads transactions and refunds with a manager's
// approval; the back office does everything but rotate the webhook key; an admin everything. That
// the running gateway follows the table is tests/http/access.test.ts's.
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { programWith } from '../helpers/ts-program.js';
import { ACCESS, API_AUDIT_ACTIONS, type Access, type GuardedAccess } from '../../contract/access.js';
import { APPROVAL_ACTIONS, STAFF_ROLES } from '../../contract/constants.js';
import { OPERATIONS, type OperationName } from '../../contract/operation-table.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const names = Object.keys(OPERATIONS) as OperationName[];
const guarded = (access: Access): access is GuardedAccess => !('open' in access);

/** The operations whose path starts with `prefix`. */
const under = (prefix: string) => names.filter((name) => OPERATIONS[name].path.startsWith(prefix));
/** Of `among`, the operations a staff member of `role` may call through a session. */
const allowedTo = (role: (typeof STAFF_ROLES)[number], among: OperationName[]) =>
  among.filter((name) => {
    const access = ACCESS[name];
    return guarded(access) && access.staff.includes(role);
  });

describe('every operation states who may call it', () => {
  test('one entry per operation of contract/operation-table.ts, and none besides', () => {
    assert.deepEqual(Object.keys(ACCESS).sort(), [...names].sort());
  });

  test('each entry names a caller: open to anyone or to this computer, or at least one credential or staff role', () => {
    for (const name of names) {
      const access = ACCESS[name];
      if (!guarded(access)) {
        assert.ok(['anyone', 'this_computer'].includes(access.open), name);
        continue;
      }
      assert.ok(access.credentials.length + access.staff.length > 0, `${name} names nobody who may call it`);
      for (const role of access.staff) assert.ok(STAFF_ROLES.includes(role), `${name}: ${role}`);
      for (const kind of access.credentials) assert.ok(['merchant', 'partner', 'joined_till'].includes(kind), `${name}: ${kind}`);
      if (access.cashierApproval) {
        assert.ok(APPROVAL_ACTIONS.includes(access.cashierApproval), name);
        assert.ok(access.staff.includes('cashier'), `${name}: an approval for a cashier who may not call it`);
      }
      if (access.audit) assert.ok(API_AUDIT_ACTIONS.includes(access.audit), name);
    }
  });

  test("the UI's own routes take a staff session only; the API's take API credentials", () => {
    for (const name of under('/ui/')) {
      const access = ACCESS[name];
      if (guarded(access)) assert.deepEqual(access.credentials, [], name);
    }
    for (const name of [...under('/rest/'), ...under('/v2/'), ...under('/centre/')]) {
      const access = ACCESS[name];
      assert.ok((guarded(access) && access.credentials.length > 0) || name === 'centre.join', name);
    }
  });
});

describe("the table keeps the gateway's roles on the API routes (/rest, /v2)", () => {
  const api = [...under('/rest/'), ...under('/v2/')];
  const merchants = api.filter((name) => {
    const access = ACCESS[name];
    return guarded(access) && access.credentials.includes('merchant');
  });

  test('API credentials: /rest takes a merchant key; the catalog any; the per-merchant settings a partner only', () => {
    for (const name of under('/rest/')) assert.deepEqual((ACCESS[name] as GuardedAccess).credentials, ['merchant'], name);
    for (const name of under('/v2/network_tokens')) assert.deepEqual((ACCESS[name] as GuardedAccess).credentials, ['merchant'], name);
    for (const name of under('/v2/payment-methods'))
      assert.deepEqual((ACCESS[name] as GuardedAccess).credentials, ['merchant', 'partner'], name);
    for (const name of under('/v2/merchants/')) assert.deepEqual(ACCESS[name], { credentials: ['partner'], staff: [] }, name);
  });

  test('a cashier pays, authorizes, captures, voids, refunds and reads transactions; nothing else', () => {
    assert.deepEqual(allowedTo('cashier', api).sort(), [
      'payments.authorize',
      'payments.capture',
      'payments.create',
      'payments.refund',
      'payments.reverse',
      'transactions.get',
      'transactions.list',
      'transactions.log',
      'transactions.refunds',
    ]);
  });

  test('the back office calls every API route a merchant key may, except the webhook key rotation', () => {
    assert.deepEqual(
      allowedTo('back_office', api),
      merchants.filter((name) => name !== 'postbacks.rotateWebhookKey'),
    );
    assert.ok(merchants.includes('postbacks.rotateWebhookKey'));
  });

  test('an admin calls every API route a merchant key may', () => {
    assert.deepEqual(allowedTo('admin', api), merchants);
  });

  test("a cashier's refund needs a manager's approval, and so does a cashier's close of the day", () => {
    const approvals = Object.fromEntries(
      names.flatMap((name) => {
        const access = ACCESS[name];
        return guarded(access) && access.cashierApproval ? [[name, access.cashierApproval]] : [];
      }),
    );
    assert.deepEqual(approvals, { 'payments.refund': 'refund', 'reports.closeDay': 'day_close' });
  });

  test('the audit actions of staff changes through the API routes', () => {
    const audited = Object.fromEntries(
      names.flatMap((name) => {
        const access = ACCESS[name];
        return guarded(access) && access.audit ? [[name, access.audit]] : [];
      }),
    );
    assert.deepEqual(audited, {
      'invoices.sendReminder': 'invoice_reminder',
      'invoices.create': 'invoice_create',
      'invoices.update': 'invoice_update',
      'invoices.patch': 'invoice_update',
      'invoices.changeStatus': 'invoice_status',
      'invoices.delete': 'invoice_delete',
      'invoices.createPlan': 'invoice_plan_create',
      'invoices.cancelPlan': 'invoice_plan_cancel',
      'network-tokens.create': 'token_create',
      'network-tokens.cryptogram': 'token_cryptogram',
      'network-tokens.archive': 'token_archive',
      'network-tokens.simulate': 'token_simulate',
      'payments.capture': 'capture',
      'payments.reverse': 'void',
      'payments.refund': 'refund',
      'postbacks.resend': 'postback_resend',
      'postbacks.resendFailed': 'postback_resend_failed',
      'postbacks.rotateWebhookKey': 'webhook_key_rotate',
    });
    // Only API routes: the UI's own changes write their entries in their use cases, not through the table.
    for (const name of Object.keys(audited)) assert.match(OPERATIONS[name as OperationName].path, /^\/(rest|v2)\//, name);
  });
});

// ---- a wrong name is a compile error --------------------------------------------------------------

const TABLE = 'contract/access.ts';

/** The program of contract/tsconfig.json with `overlay` files' text in place of what is on disk. */
function contractProgram(overlay: Record<string, string> = {}, oldProgram?: ts.Program): ts.Program {
  return programWith('contract/tsconfig.json', overlay, oldProgram);
}

/** The errors the program reports in the table's file, one line each. */
function tableErrors(program: ts.Program): string[] {
  const file = program.getSourceFile(join(root, TABLE));
  assert.ok(file, `${TABLE} is in the contract's program`);
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, ' '),
  );
}

/** `file` as on disk with `from` replaced by `to` (which must be there once). */
function edited(file: string, from: string, to: string): Record<string, string> {
  const text = ts.sys.readFile(join(root, file)) ?? '';
  assert.equal(text.split(from).length, 2, `${file} holds ${from} once`);
  return { [file]: text.replace(from, to) };
}

describe('a wrong name in the table does not compile', () => {
  let baseline: ts.Program;
  const refund = "'payments.refund': { credentials: MERCHANT, staff: EVERY_ROLE, cashierApproval: 'refund', audit: 'refund' },";
  const errorsWith = (file: string, from: string, to: string) => tableErrors(contractProgram(edited(file, from, to), baseline));

  before(() => {
    baseline = contractProgram();
  });

  test('as it is, the table compiles', () => {
    assert.deepEqual(tableErrors(baseline), []);
  });

  test('a misspelt operation name', () => {
    const errors = errorsWith(TABLE, refund, refund.replace("'payments.refund'", "'payments.refnud'"));
    assert.ok(
      errors.some((e) => e.includes("'payments.refnud'") && e.includes('does not exist')),
      errors.join('\n'),
    );
  });

  test('an operation without an entry', () => {
    const errors = errorsWith(TABLE, refund, '');
    assert.ok(
      errors.some((e) => e.includes('"payments.refund"') && e.includes('missing')),
      errors.join('\n'),
    );
  });

  test('a new operation in contract/operation-table.ts that the table does not name', () => {
    const errors = errorsWith(
      'contract/operation-table.ts',
      "  'payments.refund': {",
      "  'payments.chargeback': { method: 'POST', path: '/rest/chargeback' },\n  'payments.refund': {",
    );
    assert.ok(
      errors.some((e) => e.includes('"payments.chargeback"') && e.includes('missing')),
      errors.join('\n'),
    );
  });

  test('a misspelt role, approval, audit action, credential or field', () => {
    for (const [from, to, wrong] of [
      [
        "const MANAGERS: readonly StaffRole[] = ['back_office', 'admin'];",
        "const MANAGERS: readonly StaffRole[] = ['back-office', 'admin'];",
        '"back-office"',
      ],
      [refund, refund.replace("cashierApproval: 'refund'", "cashierApproval: 'refunds'"), '"refunds"'],
      [refund, refund.replace("audit: 'refund'", "audit: 'refnd'"), '"refnd"'],
      ["'centre.replica': { credentials: ['joined_till']", "'centre.replica': { credentials: ['joined-till']", '"joined-till"'],
      [refund, refund.replace('cashierApproval:', 'cashierApprovel:'), "'cashierApprovel'"],
    ] as const) {
      const errors = errorsWith(TABLE, from, to);
      assert.ok(
        errors.some((e) => e.includes(wrong)),
        `${to} should not compile: ${errors.join('\n')}`,
      );
    }
  });
});
