// The dashboard's periods in the shop's time zone (main/core/dashboard/periods.ts): local midnights,
// the days the clocks change (23 and 25 hours), a midnight that does not exist, zones whose
// midnight is not a whole UTC hour; and the timeZone setting.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { hostTimeZone, isTimeZone, planPeriod, zonedInstant } from '../../main/core/dashboard/periods.js';
import { resolveSettings, SettingsError } from '../../main/settings.js';

const hours = (ms: number) => ms / 3_600_000;
const iso = (d: Date) => d.toISOString();

describe('dashboard periods', () => {
  test('today: the hours since local midnight, up to the current one', () => {
    const plan = planPeriod('today', new Date('2026-11-20T12:34:00.000Z'), 'Europe/Berlin');
    assert.equal(plan.bucket, 'hour');
    assert.equal(iso(plan.from), '2026-11-19T23:00:00.000Z');
    assert.equal(iso(plan.to), '2026-11-20T13:00:00.000Z', 'the end of 13:00-14:00 in Berlin');
    assert.deepEqual(
      plan.buckets.map((b) => b.local),
      Array.from({ length: 14 }, (_unused, h) => `2026-11-20T${String(h).padStart(2, '0')}:00`),
    );
    // Right at midnight the day has one (empty) hour.
    assert.equal(planPeriod('today', new Date('2026-11-19T23:00:00.000Z'), 'Europe/Berlin').buckets.length, 1);
  });

  test('7 days: today and the six days before; month: the 1st to today', () => {
    const week = planPeriod('7d', new Date('2026-03-02T10:00:00.000Z'), 'UTC');
    assert.deepEqual(
      week.buckets.map((b) => b.local),
      ['2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'],
    );
    assert.equal(iso(week.to), '2026-03-03T00:00:00.000Z');
    const february = planPeriod('month', new Date('2026-02-28T23:59:59.999Z'), 'UTC');
    assert.equal(february.buckets.length, 28);
    assert.equal(iso(february.from), '2026-02-01T00:00:00.000Z');
    const first = planPeriod('month', new Date('2026-03-01T00:00:00.000Z'), 'UTC');
    assert.deepEqual(
      first.buckets.map((b) => b.local),
      ['2026-03-01'],
    );
    // New Year's Eve in Auckland is already January there.
    assert.equal(planPeriod('month', new Date('2026-12-31T12:00:00.000Z'), 'Pacific/Auckland').buckets[0]?.local, '2027-01-01');
  });

  test('the days the clocks change have 23 and 25 hours; hours keep their local names', () => {
    const spring = planPeriod('today', new Date('2026-03-29T21:30:00.000Z'), 'Europe/Berlin');
    assert.equal(spring.buckets.length, 23);
    assert.deepEqual(
      spring.buckets.slice(0, 3).map((b) => b.local.slice(11)),
      ['00:00', '01:00', '03:00'],
    );
    const autumn = planPeriod('today', new Date('2026-10-25T22:30:00.000Z'), 'Europe/Berlin');
    assert.equal(autumn.buckets.length, 25);
    assert.deepEqual(
      autumn.buckets.slice(1, 5).map((b) => b.local.slice(11)),
      ['01:00', '02:00', '02:00', '03:00'],
    );
    const week = planPeriod('7d', new Date('2026-10-27T12:00:00.000Z'), 'Europe/Berlin');
    assert.deepEqual(
      week.buckets.map((b) => hours(b.end.getTime() - b.start.getTime())),
      [24, 24, 24, 24, 25, 24, 24],
    );
    for (let i = 1; i < week.buckets.length; i += 1)
      assert.equal(week.buckets[i]?.start.getTime(), week.buckets[i - 1]?.end.getTime(), 'days follow each other');
  });

  test('a midnight the clocks skip: the day starts at 01:00 (Chile)', () => {
    const plan = planPeriod('today', new Date('2026-09-06T12:00:00.000Z'), 'America/Santiago');
    assert.equal(iso(plan.from), '2026-09-06T04:00:00.000Z');
    assert.equal(plan.buckets[0]?.local, '2026-09-06T01:00');
    const week = planPeriod('7d', new Date('2026-09-07T12:00:00.000Z'), 'America/Santiago');
    assert.equal(hours((week.buckets[5]?.end.getTime() ?? 0) - (week.buckets[5]?.start.getTime() ?? 0)), 23);
  });

  test('zones whose midnight is not a whole UTC hour', () => {
    assert.equal(iso(planPeriod('today', new Date('2026-03-01T00:00:00.000Z'), 'Asia/Kolkata').from), '2026-02-28T18:30:00.000Z');
    assert.equal(iso(planPeriod('today', new Date('2026-03-01T00:00:00.000Z'), 'Asia/Kathmandu').from), '2026-02-28T18:15:00.000Z');
    assert.equal(iso(planPeriod('today', new Date('2026-03-01T12:00:00.000Z'), 'America/St_Johns').from), '2026-03-01T03:30:00.000Z');
    assert.equal(zonedInstant(2026, 7, 1, 0, 'Australia/Adelaide'), Date.parse('2026-06-30T14:30:00.000Z'));
  });

  test('the timeZone setting: an IANA zone, else the host’s', () => {
    assert.equal(isTimeZone('Europe/Berlin'), true);
    assert.equal(isTimeZone('Mars/Olympus_Mons'), false);
    assert.ok(isTimeZone(hostTimeZone()));
    const dir = mkdtempSync(join(tmpdir(), 'tillgate-tz-'));
    assert.equal(resolveSettings(dir, {}, {}).timeZone, null);
    assert.equal(resolveSettings(dir, { 'time-zone': 'Asia/Kolkata' }, { GATEWAY_TIME_ZONE: 'Europe/Berlin' }).timeZone, 'Asia/Kolkata');
    assert.equal(resolveSettings(dir, {}, { GATEWAY_TIME_ZONE: 'Europe/Berlin' }).timeZone, 'Europe/Berlin');
    assert.throws(
      () => resolveSettings(dir, { 'time-zone': 'Berlin' }, {}),
      (error: unknown) => error instanceof SettingsError && /--time-zone must be an IANA time zone/.test(error.message),
    );
  });
});
