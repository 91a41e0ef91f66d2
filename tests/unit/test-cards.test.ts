// The Test environment's test cards are one table (contract/test-cards.ts): the simulator decides
// from it and the till's simulated reader lists the cards with till words from it (the cashier
// browser tests press them), so a card presented at the till is one the simulator knows, with the
// behaviour its label names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEST_CARDS, type TestCard } from '../../contract/test-cards.js';

/** What renderer/src/till-screen/reader.ts lists (TILL_TEST_CARDS): the table's cards with till words. */
const TILL_TEST_CARDS = TEST_CARDS.filter((card): card is TestCard & { till: NonNullable<TestCard['till']> } => card.till !== undefined);
import { findTestCard } from '../../main/processor/test-cards.js';

void test("the till's simulated reader lists the table's card-present cards, in its order, the store-and-forward one only when joined", () => {
  assert.deepEqual(
    TILL_TEST_CARDS.map((card) => [card.number, card.till.label, card.till.joinedOnly ?? false]),
    [
      ['4111111111111111', 'Approves', false],
      ['5555555555554444', 'Approves', false],
      ['5555555551234561', 'Always asks for the PIN', false],
      ['4000000000000002', 'Declines (05)', false],
      ['4000000000009995', 'No funds (51)', false],
      ['4000000000000069', 'Expired (54)', false],
      ['4000000000000119', 'Network error (11)', false],
      ['4000000000001505', 'Bank answers after 15 s', false],
      ['4000000000001513', 'Approves, answer lost', false],
      ['4000000000000416', 'Stored: approves; declines when forwarded', true],
    ],
  );
  assert.deepEqual(
    TEST_CARDS.filter((card) => !card.till).map((card) => card.rule.kind),
    ['challenge', 'token_provisioning_fails'],
    'only the cards that rehearse nothing at a till are left out',
  );
  // Each label says what the simulator does with the card.
  const words: Record<string, RegExp> = {
    approve: /^Approves$/,
    always_pin: /PIN/,
    decline: /\((05|51|54)\)$/,
    error: /\(11\)$/,
    slow_answer: /after 15 s/,
    lost_answer: /answer lost/,
    declines_when_forwarded: /declines when forwarded/,
  };
  for (const card of TILL_TEST_CARDS) {
    const rule = findTestCard(card.number)?.rule;
    assert.ok(rule, `${card.number} is a card the simulator knows`);
    assert.match(card.till.label, words[rule.kind] ?? /^$/, `${card.number} (${rule.kind})`);
    if (rule.kind === 'decline') assert.ok(card.till.label.includes(`(${rule.code})`), card.number);
  }
});
