// The documented test data cannot drift from the simulator: every card and IBAN of the tables is on
// docs/test-environment.md, and the README's first screen shows the approving cards and the PIN.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { TEST_CARDS, TEST_IBANS, TEST_PIN } from '../../main/processor/test-cards.js';

const doc = readFileSync(new URL('../../docs/test-environment.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const spaced = (digits: string) => digits.replace(/(.{4})/g, '$1 ').trim();

test('docs/test-environment.md lists every test card and IBAN of the simulator', () => {
  for (const card of TEST_CARDS) assert.ok(doc.includes(spaced(card.number)), `card ${card.number} missing`);
  for (const entry of TEST_IBANS) assert.ok(doc.includes(spaced(entry.iban)), `IBAN ${entry.iban} missing`);
  assert.ok(doc.includes(`**${TEST_PIN}**`));
});

test('the README shows the approving cards, the PIN-asking card and the PIN', () => {
  for (const number of ['4111111111111111', '5555555555554444', '5555555551234561']) assert.ok(readme.includes(spaced(number)), number);
  assert.ok(readme.includes(`\`${TEST_PIN}\``));
});
