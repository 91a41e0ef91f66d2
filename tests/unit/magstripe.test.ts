/** The keyboard-wedge magnetic stripe input of the till: track parsing and burst detection. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWedgeDetector, parseSwipe, type SwipeResult, type WedgeDecision } from '../../renderer/src/till-screen/magstripe.js';

const TRACK1 = '%B4111111111111111^DOE/JANE^30121010000000000000?';
const TRACK2 = ';4111111111111111=30121010000000000000?';

void test('reads track 2', () => {
  assert.deepEqual(parseSwipe(TRACK2), {
    ok: true,
    card: { pan: '4111111111111111', expiryYear: 2030, expiryMonth: 12, serviceCode: '101', track2: TRACK2, source: 'track2' },
  });
});

void test('reads track 1 with the holder name', () => {
  assert.deepEqual(parseSwipe(TRACK1), {
    ok: true,
    card: { pan: '4111111111111111', expiryYear: 2030, expiryMonth: 12, serviceCode: '101', holderName: 'JANE DOE', source: 'track1' },
  });
  const plainName = parseSwipe('%B5555555555554444^ACME STORE CARD^2806201?');
  assert.ok(plainName.ok);
  assert.equal(plainName.card.holderName, 'ACME STORE CARD');
  assert.equal(plainName.card.expiryMonth, 6);
  assert.equal(plainName.card.expiryYear, 2028);
  assert.equal(plainName.card.serviceCode, '201');
});

void test('prefers track 2 when a reader sends both tracks, and keeps the name of track 1', () => {
  const result = parseSwipe(`${TRACK1}${TRACK2}\n`);
  assert.ok(result.ok);
  assert.equal(result.card.source, 'track2');
  assert.equal(result.card.track2, TRACK2);
  assert.equal(result.card.holderName, 'JANE DOE');
  // A bad read of one track still gives the other.
  const halfRead = parseSwipe(`%E?${TRACK2}`);
  assert.ok(halfRead.ok);
  assert.equal(halfRead.card.pan, '4111111111111111');
});

void test('reports unreadable swipes and impossible cards', () => {
  for (const text of ['%E?', ';E?', '%E?;E?', ';4111?', 'hello', '', ';41111111111111111111111=3012?']) {
    assert.deepEqual(parseSwipe(text), { ok: false, reason: 'unreadable' }, JSON.stringify(text));
  }
  // Luhn fails, or month 13.
  assert.deepEqual(parseSwipe(';4111111111111112=30121010000000000000?'), { ok: false, reason: 'invalid_card' });
  assert.deepEqual(parseSwipe(';4111111111111111=30131010000000000000?'), { ok: false, reason: 'invalid_card' });
  assert.deepEqual(parseSwipe('%B4111111111111111^DOE/JANE^30001010000000000000?'), { ok: false, reason: 'invalid_card' });
});

/** Feeds text as a reader would: one key per character, `gap` ms apart, Shift before shifted characters. */
function typeBurst(
  feed: (key: string, time: number) => WedgeDecision,
  text: string,
  start: number,
  gap: number,
  shift = false,
): { decisions: WedgeDecision[]; end: number } {
  const decisions: WedgeDecision[] = [];
  let time = start;
  for (const ch of text) {
    if (shift && '%^?'.includes(ch)) decisions.push(feed('Shift', time));
    decisions.push(feed(ch === '\n' ? 'Enter' : ch, time));
    time += gap;
  }
  return { decisions, end: time };
}

void test('the wedge detector takes a fast burst ending with ? and Enter, and swallows all of its keys', () => {
  const swipes: SwipeResult[] = [];
  const detector = createWedgeDetector({ onSwipe: (r) => swipes.push(r) });
  const { decisions } = typeBurst(detector.feed, `${TRACK2}\n`, 1000, 3, true);
  assert.ok(decisions.every((d) => d === 'swallow'));
  assert.equal(swipes.length, 1);
  assert.ok(swipes[0]?.ok);
  assert.equal(swipes[0].ok && swipes[0].card.pan, '4111111111111111');
  assert.equal(detector.capturing, false);

  // Track 1 and 2 in one burst.
  typeBurst(detector.feed, `${TRACK1}${TRACK2}\n`, 5000, 2, true);
  assert.equal(swipes.length, 2);
  assert.ok(swipes[1]?.ok && swipes[1].card.holderName === 'JANE DOE');
});

void test('the wedge detector lets ordinary typing through', () => {
  const swipes: SwipeResult[] = [];
  const detector = createWedgeDetector({ onSwipe: (r) => swipes.push(r) });
  // Digits and Enter at the keypad pass.
  const { decisions } = typeBurst(detector.feed, '1200\n', 0, 5);
  assert.deepEqual(decisions, ['pass', 'pass', 'pass', 'pass', 'pass']);
  // A person typing ";12" slowly: the ; is taken as a possible start, then the slow key passes.
  assert.equal(detector.feed(';', 10_000), 'swallow');
  assert.equal(detector.feed('1', 10_400), 'pass');
  assert.equal(detector.feed('2', 10_800), 'pass');
  assert.equal(detector.capturing, false);
  // An arrow key in the middle ends the burst.
  assert.equal(detector.feed('%', 20_000), 'swallow');
  assert.equal(detector.feed('ArrowLeft', 20_001), 'pass');
  assert.equal(detector.capturing, false);
  assert.equal(swipes.length, 0);
});

void test('the wedge detector ends a burst without Enter after a pause, and drops a half burst', () => {
  const swipes: SwipeResult[] = [];
  const detector = createWedgeDetector({ onSwipe: (r) => swipes.push(r), maxGapMs: 50 });
  const { end } = typeBurst(detector.feed, TRACK2, 0, 2);
  assert.equal(detector.flush(end + 10), false, 'still within the gap');
  assert.equal(detector.flush(end + 100), true);
  assert.equal(swipes.length, 1);

  typeBurst(detector.feed, ';41111111', 1000, 2);
  assert.equal(detector.flush(2000), false);
  assert.equal(detector.capturing, false);
  assert.equal(swipes.length, 1, 'no swipe from half a track');

  // Enter without a closing ? is not a swipe either.
  typeBurst(detector.feed, ';4111111111111111=3012\n', 3000, 2);
  assert.equal(swipes.length, 1);
  // A bad read is reported, so the till can ask for another swipe.
  typeBurst(detector.feed, ';E?\n', 4000, 2);
  assert.deepEqual(swipes[1], { ok: false, reason: 'unreadable' });
});
