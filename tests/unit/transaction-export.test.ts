// The CSV export's pieces (main/core/transactions/export.ts): RFC 4180 fields, formulas defused,
// timestamps in a time zone with the offset of that instant (daylight saving changes, half-hour
// zones), checked against Intl at many instants.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvField, defuseFormula, ZonedTimestamps } from '../../main/core/transactions/export.js';

void test('csvField quotes commas, quotes and line breaks (RFC 4180)', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField(''), '');
});

void test('defuseFormula: what a spreadsheet would run gets an apostrophe', () => {
  for (const formula of ['=1+1', '+49 30 1234', '-2+3', '@SUM(A1)', '\tx', '\rx']) assert.equal(defuseFormula(formula), `'${formula}`);
  for (const text of ['order-1', 'a=b', '12.50', '']) assert.equal(defuseFormula(text), text);
});

void test('ZonedTimestamps: UTC, daylight saving both ways, half-hour and quarter-hour zones', () => {
  const utc = new ZonedTimestamps('UTC');
  assert.equal(utc.format('2026-03-29T00:59:59.999Z'), '2026-03-29T00:59:59Z');
  const berlin = new ZonedTimestamps('Europe/Berlin');
  assert.equal(berlin.format('2026-03-29T00:59:59.000Z'), '2026-03-29T01:59:59+01:00');
  assert.equal(berlin.format('2026-03-29T01:00:00.000Z'), '2026-03-29T03:00:00+02:00');
  assert.equal(berlin.format('2026-10-25T00:59:59.000Z'), '2026-10-25T02:59:59+02:00');
  assert.equal(berlin.format('2026-10-25T01:00:00.000Z'), '2026-10-25T02:00:00+01:00');
  assert.equal(new ZonedTimestamps('Asia/Kolkata').format('2026-01-01T00:00:00.000Z'), '2026-01-01T05:30:00+05:30');
  assert.equal(new ZonedTimestamps('Asia/Kathmandu').format('2026-01-01T00:00:00.000Z'), '2026-01-01T05:45:00+05:45');
  assert.equal(new ZonedTimestamps('America/St_Johns').format('2026-07-01T12:00:00.000Z'), '2026-07-01T09:30:00-02:30');
  assert.equal(berlin.compact(Date.parse('2026-11-21T09:05:00Z')), '20261121-1005');
  assert.equal(berlin.format('not a date'), 'not a date');
  assert.ok(ZonedTimestamps.isTimeZone('Europe/Berlin') && ZonedTimestamps.isTimeZone('UTC'));
  assert.ok(!ZonedTimestamps.isTimeZone('Mars/Olympus') && !ZonedTimestamps.isTimeZone('../etc') && !ZonedTimestamps.isTimeZone(''));
});

void test('ZonedTimestamps agrees with Intl at 20,000 instants over two years in several zones', () => {
  for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Tokyo']) {
    const zoned = new ZonedTimestamps(zone);
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    let ms = Date.parse('2025-01-01T00:00:00Z');
    for (let i = 0; i < 4000; i += 1) {
      ms += 15_787_000 + (i % 7) * 61_000; // about 4.4 hours, never on a round minute
      const iso = new Date(ms).toISOString();
      const text = zoned.format(iso);
      const p = Object.fromEntries(parts.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
      assert.equal(text.slice(0, 19), `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`, `${zone} ${iso}`);
      // The offset makes the text the same instant again.
      assert.equal(Date.parse(text), Math.floor(ms / 1000) * 1000, `${zone} ${iso} -> ${text}`);
    }
  }
});
