// The nesting bound of the JSON body parser (main/http/json-body.ts) counts what JSON.parse would
// build, whatever the strings hold: checked against the depth of generated values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { nestsDeeperThan } from '../../main/http/json-body.js';

/** Levels of arrays and objects in a value (the value itself is level 1 when it is one). */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === 'object') return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

// Strings full of what a scanner could mistake for structure: brackets, quotes, backslashes.
const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ',', ':', '\u2028'), maxLength: 12 });
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tricky,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(tricky, tie('node'), { maxKeys: 3 }),
  ),
})).node;

test('nestsDeeperThan agrees with the depth of the parsed value, for any limit and any string content', () => {
  fc.assert(
    fc.property(value, fc.integer({ min: 0, max: 8 }), (v, limit) => {
      const text = JSON.stringify(v);
      assert.equal(nestsDeeperThan(text, limit), depthOf(JSON.parse(text)) > limit, text);
    }),
    { numRuns: 2000, seed: 20261127 },
  );
});

test('nestsDeeperThan stops at the bound on text far deeper than any stack', () => {
  assert.equal(nestsDeeperThan('['.repeat(1_000_000), 32), true);
  assert.equal(nestsDeeperThan(`${'{"a":'.repeat(32)}1${'}'.repeat(32)}`, 32), false);
  assert.equal(nestsDeeperThan(`${'{"a":'.repeat(33)}1${'}'.repeat(33)}`, 32), true);
});
