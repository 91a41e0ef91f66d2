// The sale's configuration cache (main/core/configuration-cache.ts) and which statements count as
// writing that configuration (db/configuration-tables.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigurationCache } from '../../main/core/configuration-cache.js';
import { writesConfiguration } from '../../db/configuration-tables.js';

describe('writesConfiguration', () => {
  test('INSERT, DELETE, TRUNCATE and upserts of the tables a sale reads count, on either engine, also inside a WITH', () => {
    for (const text of [
      'insert into "terminals" ("merchant_id", "terminal_id", "shop_id", "assigned_at") values ($1, $2, $3, $4)',
      'INSERT OR IGNORE INTO tills (merchant_id, till_id) VALUES (?, ?)',
      'insert into "payment_method_settings" ("a") values ($1) on conflict ("a") do update set "b" = excluded."b"',
      'delete from "receipt_printers" where "merchant_id" = $1',
      'DELETE FROM till_links WHERE merchant_id = ?',
      'TRUNCATE TABLE terminals',
      'with moved as (delete from "terminals" where "terminal_id" = $1 returning *) select count(*) from moved',
      'update "payment_method_settings" set "enabled" = $1 where "merchant_id" = $2',
    ])
      assert.equal(writesConfiguration(text), true, text);
  });

  test("UPDATEs of tills and their links count only when they set what a sale reads (retired, the till's id), not a screen's or a link's heartbeat", () => {
    assert.equal(writesConfiguration('update "tills" set "retired_at" = $1 where "merchant_id" = $2 and "till_id" = $3'), true);
    assert.equal(writesConfiguration('UPDATE tills SET name = ?, retired_at = NULL WHERE till_id = ?'), true);
    assert.equal(writesConfiguration('update "tills" set "seen_at" = $1 where "merchant_id" = $2 and "till_id" = $3'), false);
    assert.equal(
      writesConfiguration('update "tills" set "holder_session_id" = $1, "holder_staff_id" = $2, "held_at" = $3 where "till_id" = $4'),
      false,
    );
    assert.equal(writesConfiguration('update "till_links" set "last_forward_at" = $1 where "merchant_id" = $2 and "till_id" = $3'), false);
    assert.equal(writesConfiguration('update "till_links" set "till_id" = $1 where "credential_id" = $2'), true);
  });

  test('reads and writes of other tables do not count', () => {
    for (const text of [
      'select * from "tills" where "merchant_id" = $1',
      'select 1 from "terminals" as "t" where exists (select 1 from "till_links" as "l")',
      'insert into "transactions" ("id", "till_id", "terminal_id") values ($1, $2, $3)',
      'update "transactions" set "till_id" = $1 where "id" = $2',
      'delete from "till_sessions" where "id" = $1',
    ])
      assert.equal(writesConfiguration(text), false, text);
  });
});

describe('ConfigurationCache', () => {
  const setup = (maxAgeMs = 1000) => {
    const state = { generation: 1 as number | undefined, now: 0, loads: 0 };
    const cache = new ConfigurationCache<{ value: number; list: number[] }>(() => state.generation, { maxAgeMs, now: () => state.now });
    const load = (value: number) => () => {
      state.loads++;
      return Promise.resolve({ value, list: [value] });
    };
    return { state, cache, load };
  };

  test('an entry is used again while the generation stays, read again when it moves, and per key', async () => {
    const { state, cache, load } = setup();
    assert.equal((await cache.get('a', load(1))).value, 1);
    assert.equal((await cache.get('a', load(2))).value, 1);
    assert.equal((await cache.get('b', load(3))).value, 3);
    assert.equal(state.loads, 2);
    state.generation = 2;
    assert.equal((await cache.get('a', load(4))).value, 4);
    assert.equal((await cache.get('b', load(5))).value, 5);
    assert.equal(state.loads, 4);
  });

  test('an entry is read again after maxAgeMs, whatever the generation says', async () => {
    const { state, cache, load } = setup(1000);
    await cache.get('a', load(1));
    state.now = 999;
    assert.equal((await cache.get('a', load(2))).value, 1);
    state.now = 1000;
    assert.equal((await cache.get('a', load(3))).value, 3);
    assert.equal(state.loads, 2);
  });

  test('nothing is kept while the store cannot tell (undefined), nor a value read while the generation moved', async () => {
    const { state, cache, load } = setup();
    state.generation = undefined;
    await cache.get('a', load(1));
    assert.equal((await cache.get('a', load(2))).value, 2);
    state.generation = 5;
    const moving = () => {
      state.generation = 6;
      return load(3)();
    };
    assert.equal((await cache.get('a', moving)).value, 3, 'the value read serves its own request');
    assert.equal((await cache.get('a', load(4))).value, 4, 'but was not kept');
    assert.equal((await cache.get('a', load(5))).value, 4);
  });

  test('what it gives is frozen, so no caller changes what the next one is given', async () => {
    const { cache, load } = setup();
    const value = await cache.get('a', load(1));
    assert.throws(() => {
      (value as { value: number }).value = 2;
    }, TypeError);
    assert.throws(() => value.list.push(2), TypeError);
  });
});
