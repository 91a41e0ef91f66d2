/**
 * The tills and their screens, and the gateway instances (migration 28). A hold's claim hash is kept
 * in `holder_screen_id`: the screen is known by the claim the gateway gave it (docs/decisions.md
 * "Several tills"), no longer by an id it chose. Statements built with Kysely (db/typed-sql.ts), rows
 * typed by db/schema.ts.
 */
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { byShape, typed, type Placeholders } from '../typed-sql.js';
import type { TillHold, TillRecord, TillRepository } from '../../main/core/tills/ports.js';

function tillFromRow(r: Selectable<Database['tills']>): TillRecord {
  const sessionId = r.holder_session_id;
  return {
    merchantId: r.merchant_id,
    tillId: r.till_id,
    name: r.name,
    createdAt: r.created_at,
    retiredAt: r.retired_at,
    holder:
      sessionId === null
        ? null
        : {
            sessionId,
            claimHash: r.holder_screen_id,
            staffId: r.holder_staff_id,
            heldAt: r.held_at as string,
            seenAt: r.seen_at as string,
          },
  };
}

/** The till sells on this gateway: it is not one joined to it from another computer (till_links). */
const notJoined = (table: 't' | 'tills') => (eb: ExpressionBuilder<Database & { t: Database['tills'] }, 't' | 'tills'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('till_links as l')
        .select((e) => e.lit(1).as('one'))
        .whereRef('l.merchant_id', '=', `${table}.merchant_id`)
        .whereRef('l.till_id', '=', `${table}.till_id`),
    ),
  );

type TakeParams = TillHold & { merchantId: string; tillId: string; presented: string | null; staleBefore: string };

export function createTillRepository(db: SqlDatabase): TillRepository {
  const s = {
    list: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('tills').selectAll().where('merchant_id', '=', p('merchantId')).orderBy('till_id'),
    ),
    get: typed<{ merchantId: string; tillId: string }>()(db, (k, p) =>
      k.selectFrom('tills').selectAll().where('merchant_id', '=', p('merchantId')).where('till_id', '=', p('tillId')),
    ),
    sellsHere: typed<{ merchantId: string; tillId: string }>()(db, (k, p) =>
      k
        .selectFrom('tills as t')
        .select((eb) => eb.lit(1).as('sells'))
        .where('t.merchant_id', '=', p('merchantId'))
        .where('t.till_id', '=', p('tillId'))
        .where('t.retired_at', 'is', null)
        .where(notJoined('t')),
    ),
    insert: typed<Omit<Database['tills'], 'holder_session_id' | 'holder_screen_id' | 'holder_staff_id' | 'held_at' | 'seen_at'>>()(
      db,
      (k, p) =>
        k
          .insertInto('tills')
          .values({
            merchant_id: p('merchant_id'),
            till_id: p('till_id'),
            name: p('name'),
            created_at: p('created_at'),
            retired_at: p('retired_at'),
          })
          .onConflict((oc) => oc.columns(['merchant_id', 'till_id']).doNothing()),
    ),
    rename: typed<{ merchantId: string; tillId: string; name: string }>()(db, (k, p) =>
      k
        .updateTable('tills')
        .set({ name: p('name') })
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId')),
    ),
    retire: typed<{ merchantId: string; tillId: string; at: string }>()(db, (k, p) =>
      k
        .updateTable('tills')
        .set({ retired_at: p('at'), holder_session_id: null, holder_screen_id: null, holder_staff_id: null, held_at: null, seen_at: null })
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId'))
        .where('retired_at', 'is', null),
    ),
    // Free, or this session's already, or this screen's by its claim, or its holder gone quiet, or
    // taken over on purpose (`force`, the statement's shape); never a till joined from another
    // computer. The hold keeps its claim only when its own session presented it without `force`;
    // else it gets the new one (the core answers it to the screen).
    take: byShape(db, (force: boolean, k, p: Placeholders<TakeParams>) =>
      k
        .updateTable('tills')
        .set((eb) => ({
          holder_session_id: p('sessionId'),
          holder_screen_id: force
            ? p('claimHash')
            : eb
                .case()
                .when(eb.and([eb('holder_session_id', '=', p('sessionId')), eb('holder_screen_id', '=', p('presented'))]))
                .then(eb.ref('holder_screen_id'))
                .else(p('claimHash'))
                .end(),
          holder_staff_id: p('staffId'),
          held_at: eb
            .case()
            .when(eb.or([eb('holder_session_id', '=', p('sessionId')), eb('holder_screen_id', '=', p('presented'))]))
            .then(eb.ref('held_at'))
            .else(p('heldAt'))
            .end(),
          seen_at: p('seenAt'),
        }))
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId'))
        .where('retired_at', 'is', null)
        .where(notJoined('tills'))
        .$if(!force, (q) =>
          q.where((eb) =>
            eb.or([
              eb('holder_session_id', 'is', null),
              eb('holder_session_id', '=', p('sessionId')),
              eb('holder_screen_id', '=', p('presented')),
              eb('seen_at', '<', p('staleBefore')),
            ]),
          ),
        ),
    ),
    heldBy: typed<{ sessionId: string }>()(db, (k, p) =>
      k
        .selectFrom('tills as t')
        .selectAll('t')
        .where('t.holder_session_id', '=', p('sessionId'))
        .where(notJoined('t'))
        .orderBy('t.seen_at', 'desc')
        .limit(1),
    ),
    release: typed<{ sessionId: string; keep: string }>()(db, (k, p) =>
      k
        .updateTable('tills')
        .set({ holder_session_id: null, holder_screen_id: null, holder_staff_id: null, held_at: null, seen_at: null })
        .where('holder_session_id', '=', p('sessionId'))
        .where('till_id', '<>', p('keep')),
    ),
  };
  return {
    listByMerchant: async (merchantId) => (await s.list.all({ merchantId })).map(tillFromRow),
    get: async (merchantId, tillId) => {
      const row = await s.get.get({ merchantId, tillId });
      return row && tillFromRow(row);
    },
    sellsHere: async (merchantId, tillId) => (await s.sellsHere.get({ merchantId, tillId })) !== undefined,
    insert: async (t) =>
      (
        await s.insert.run({
          merchant_id: t.merchantId,
          till_id: t.tillId,
          name: t.name,
          created_at: t.createdAt,
          retired_at: t.retiredAt,
        })
      ).changes === 1,
    rename: async (merchantId, tillId, name) => (await s.rename.run({ merchantId, tillId, name })).changes === 1,
    retire: async (merchantId, tillId, at) => (await s.retire.run({ merchantId, tillId, at })).changes === 1,
    take: async (merchantId, tillId, hold, presented, staleBefore, force) =>
      (
        await s.take(force).run({
          sessionId: hold.sessionId,
          claimHash: hold.claimHash,
          staffId: hold.staffId,
          heldAt: hold.heldAt,
          seenAt: hold.seenAt,
          presented,
          merchantId,
          tillId,
          staleBefore,
        })
      ).changes === 1,
    heldBy: async (sessionId) => {
      const row = await s.heldBy.get({ sessionId });
      return row && tillFromRow(row);
    },
    release: async (sessionId, keep) => void (await s.release.run({ sessionId, keep: keep ?? '' })),
  };
}
