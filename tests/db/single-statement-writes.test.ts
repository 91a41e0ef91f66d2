/**
 * The writes issue 19 turned from read-then-write into one statement each, through the storage
 * port (Repositories) as the core uses it: the outbox numbers a postback within its subject itself,
 * a wallet subscription change applies only from the status it starts from and touches only its
 * keys, and an invoice update writes only its fields, under its guard.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../db/migrate.js';
import { openDatabase } from '../../db/open.js';
import { SqliteStore } from '../../db/sqlite-store.js';
import type { InvoiceRecord } from '../../main/core/invoices/ports.js';
import type { NewOutboxRecord } from '../../main/core/postbacks/ports.js';
import type { Repositories } from '../../db/repositories.js';
import type { TransactionDetails, TransactionRecord } from '../../main/core/payments/ports.js';

const NOW = '2026-03-01T10:00:00.000Z';
const LATER = '2026-03-01T11:00:00.000Z';

function transaction(id: string, details: TransactionDetails): TransactionRecord {
  return {
    id,
    merchantId: 'm1',
    paymentType: 'wallet',
    operation: 'payment',
    statusCode: 3,
    orderId: `order-${id}`,
    currency: 'EUR',
    amountMinor: 1000,
    authorizedMinor: 1000,
    capturedMinor: 1000,
    refundedMinor: 0,
    reversedMinor: 0,
    feesMinor: 0,
    recurring: 0,
    parentId: null,
    sepaMandate: null,
    sepaMsgId: null,
    message: null,
    reasonCode: null,
    additionalTransactionData: null,
    merchantReference: null,
    postbackUrl: null,
    successUrl: null,
    errorUrl: null,
    cardBrand: null,
    cardLastFour: null,
    cardBin: null,
    cardExpiryMonth: null,
    cardExpiryYear: null,
    cardSealed: null,
    cardFingerprint: null,
    details,
    createdAt: NOW,
    updatedAt: NOW,
    invoiceNumber: null,
    tillId: null,
    expiresAt: null,
  };
}

function postback(id: string, subjectId: string): NewOutboxRecord {
  return {
    id,
    merchantId: 'm1',
    subjectType: 'transaction',
    subjectId,
    orderId: null,
    url: 'https://shop.example/postbacks',
    payload: { transaction_id: subjectId },
    state: 'pending',
    attempts: 0,
    nextAttemptAt: NOW,
    createdAt: NOW,
  };
}

function invoice(number: string): Omit<InvoiceRecord, 'id'> {
  return {
    uuid: `uuid-${number}`,
    merchantId: 'm1',
    channelId: 'c1',
    debtClaimNumber: number,
    active: true,
    status: 'pending',
    printDate: '2026-03-01',
    firstName: 'Ana',
    lastName: null,
    company: null,
    email: null,
    phone: null,
    taxId: null,
    customerId: null,
    address: null,
    address2: null,
    postalCode: null,
    city: null,
    state: null,
    country: null,
    amountMinor: 5000,
    currency: 'EUR',
    description: null,
    redirectAfterPayments: false,
    successUrl: null,
    errorUrl: null,
    expiresIn: null,
    expiresInUnit: null,
    expiresAt: null,
    locale: null,
    sendInitialEmail: false,
    initialEmailType: null,
    importId: null,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

describe('single-statement writes of the SQLite repositories', () => {
  let store: SqliteStore;
  const run = <T>(work: (tx: Repositories) => Promise<T>): Promise<T> => store.run(work);

  before(async () => {
    const db = openDatabase(':memory:');
    migrate(db);
    store = new SqliteStore(db);
    await run(async (tx) => {
      await tx.merchants.insert({
        id: 'm1',
        name: 'Shop',
        currency: 'EUR',
        webhookKeySealed: 's',
        previousWebhookKeySealed: null,
        previousWebhookKeyUntil: null,
        createdAt: NOW,
      });
      await tx.channels.insert({
        id: 'c1',
        merchantId: 'm1',
        urlName: 'shop',
        name: 'Shop',
        currency: 'EUR',
        language: 'en',
        senderEmail: null,
        createdAt: NOW,
      });
    });
  });
  after(async () => {
    await store.close();
  });

  test('the outbox numbers each postback within its subject: 1, 2, 3 for one transaction, 1 again for another', async () => {
    await run(async (tx) => {
      await tx.outbox.append(postback('o1', 't-a'));
      await tx.outbox.append(postback('o2', 't-a'));
      await tx.outbox.append(postback('o3', 't-b'));
    });
    await run((tx) => tx.outbox.append(postback('o4', 't-a')));
    const sequences = await store.read(async (r) => ({
      a: (await r.outbox.listBySubject('m1', 'transaction', 't-a')).map((o) => [o.id, o.sequence]),
      b: (await r.outbox.listBySubject('m1', 'transaction', 't-b')).map((o) => [o.id, o.sequence]),
    }));
    assert.deepEqual(sequences, {
      a: [
        ['o1', 1],
        ['o2', 2],
        ['o4', 3],
      ],
      b: [['o3', 1]],
    });
  });

  test('a subscription change sets and removes only its keys, and only from the status it starts from', async () => {
    const details: TransactionDetails = {
      subscription_plan_id: 'plan-1',
      subscription_status: 'approval_pending',
      pending_revision: { amount_minor: 2000, subscription_plan_id: 'plan-2' },
      customer: { email: 'ana@example.com' },
      wallet_account_reference: 'ACC-1',
    };
    await run((tx) => tx.transactions.insert(transaction('s1', details)));
    // The customer approves the revision: active, the revised amount and plan, no pending revision.
    const approved = await run((tx) =>
      tx.transactions.changeSubscription(
        's1',
        ['approval_pending'],
        { subscription_status: 'active', pending_revision: null, subscription_amount_minor: 2000, subscription_plan_id: 'plan-2' },
        LATER,
      ),
    );
    assert.equal(approved, true);
    const after = await store.read((r) => r.transactions.getById('s1'));
    assert.deepEqual(after?.details, {
      subscription_plan_id: 'plan-2',
      subscription_status: 'active',
      customer: { email: 'ana@example.com' },
      wallet_account_reference: 'ACC-1',
      subscription_amount_minor: 2000,
    });
    assert.equal(after?.updatedAt, LATER);
    assert.equal(after?.statusCode, 3, 'the transaction status is not touched');

    // A second answer to the same revision finds it gone and changes nothing.
    assert.equal(
      await run((tx) => tx.transactions.changeSubscription('s1', ['approval_pending'], { subscription_status: 'cancelled' }, NOW)),
      false,
    );
    // Cancel once, then again: the second one applies to nothing.
    assert.equal(
      await run((tx) =>
        tx.transactions.changeSubscription(
          's1',
          ['active', 'approval_pending'],
          { subscription_status: 'cancelled', pending_revision: null },
          NOW,
        ),
      ),
      true,
    );
    assert.equal(
      await run((tx) =>
        tx.transactions.changeSubscription(
          's1',
          ['active', 'approval_pending'],
          { subscription_status: 'cancelled', pending_revision: null },
          LATER,
        ),
      ),
      false,
    );
    const cancelled = await store.read((r) => r.transactions.getById('s1'));
    assert.equal(cancelled?.details.subscription_status, 'cancelled');
    assert.equal(cancelled?.updatedAt, NOW, 'the refused change did not write');
    // A transaction without a subscription is never changed.
    await run((tx) => tx.transactions.insert(transaction('s2', { customer: { email: 'bo@example.com' } })));
    assert.equal(await run((tx) => tx.transactions.changeSubscription('s2', ['active'], { subscription_plan_id: 'plan-3' }, LATER)), false);
    assert.deepEqual((await store.read((r) => r.transactions.getById('s2')))?.details, { customer: { email: 'bo@example.com' } });
  });

  test('an invoice update writes only its fields: a status set meanwhile by another writer stays', async () => {
    const stored = await run((tx) => tx.invoices.insert(invoice('INV-1')));
    // Another writer (a payment's follower) sets the status after this update's read.
    await run((tx) => tx.invoices.update(stored.id, { status: 'processing', updatedAt: LATER }));
    const updated = await run((tx) => tx.invoices.update(stored.id, { firstName: 'Ana Maria', email: null, updatedAt: LATER }));
    assert.equal(updated?.status, 'processing');
    assert.equal(updated?.firstName, 'Ana Maria');
    assert.equal(updated?.amountMinor, 5000);
    assert.equal(await run((tx) => tx.invoices.update(999_999, { status: 'paid', updatedAt: LATER })), undefined, 'no such invoice');
  });

  test('an invoice update applies only while its guard holds: a status, or no payment plan ever', async () => {
    const stored = await run((tx) => tx.invoices.insert(invoice('INV-2')));
    const guard = { statuses: ['pending'] as const, withoutPlans: true };
    const changed = await run((tx) => tx.invoices.update(stored.id, { amountMinor: 6000, updatedAt: LATER }, guard));
    assert.equal(changed?.amountMinor, 6000);

    await run((tx) =>
      tx.invoices.insertPlan({
        id: 'plan-a',
        invoiceId: stored.id,
        status: 'cancelled',
        installments: 2,
        interval: 'month',
        createdAt: NOW,
        updatedAt: NOW,
      }),
    );
    assert.equal(
      await run((tx) => tx.invoices.update(stored.id, { amountMinor: 7000, updatedAt: LATER }, guard)),
      undefined,
      'a plan was attached once',
    );

    const other = await run((tx) => tx.invoices.insert(invoice('INV-3')));
    await run((tx) => tx.invoices.update(other.id, { status: 'paid', updatedAt: LATER }));
    assert.equal(
      await run((tx) => tx.invoices.update(other.id, { amountMinor: 7000, updatedAt: LATER }, guard)),
      undefined,
      'no longer pending',
    );
    assert.equal(
      await run((tx) => tx.invoices.update(other.id, { status: 'pending', updatedAt: LATER }, { statuses: ['pending', 'processing'] })),
      undefined,
      'a paid invoice stays paid',
    );
    const reread = await store.read((r) => r.invoices.get(other.id));
    assert.deepEqual([reread?.status, reread?.amountMinor], ['paid', 5000]);
  });
});
