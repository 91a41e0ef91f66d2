/**
 * Idempotency keys: a request's claim, then its answer, until the key expires. Statements built with
 * Kysely (db/typed-sql.ts), rows typed by db/schema.ts.
 */
import { sql, type OnConflictBuilder } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed, type Placeholders, type QueryBuilder, rowPlaces } from '../typed-sql.js';
import type { IdempotencyRecord, IdempotencyUnit } from '../../main/core/idempotency/ports.js';
import type { Answer } from '../../main/core/errors.js';
import { answerKindOf, httpStatusOfAnswer } from '../../contract/codes.js';

/**
 * An idempotency record's answer in its columns: `status` keeps the HTTP status the answer is given
 * with (what it held before answers had kinds, so rows of either version read back alike), 0 for
 * an older version's claim, which has no answer.
 */
function answerFromRow(status: number, json: string): Answer | null {
  return status === 0 ? null : { kind: answerKindOf(status), body: JSON.parse(json) as unknown, json };
}

function statusOfAnswer(answer: Answer | null): number {
  return answer ? httpStatusOfAnswer(answer.kind, answer.body) : 0;
}

export function createIdempotencyRepository(db: SqlDatabase): Pick<IdempotencyUnit, 'idempotency'> {
  type KeyRow = Database['idempotency_keys'];
  // On the payment hot path (find, take or save): built with Kysely, compiled once here; a call only
  // puts its values in order.
  const upsert = (k: QueryBuilder, p: Placeholders<KeyRow>) => k.insertInto('idempotency_keys').values(rowPlaces('idempotency_keys', p));
  const replaced = (oc: OnConflictBuilder<Database, 'idempotency_keys'>) =>
    oc.columns(['merchant_id', 'key']).doUpdateSet((eb) => ({
      fingerprint: eb.ref('excluded.fingerprint'),
      status: eb.ref('excluded.status'),
      body: eb.ref('excluded.body'),
      created_at: eb.ref('excluded.created_at'),
      expires_at: eb.ref('excluded.expires_at'),
      claim_id: eb.ref('excluded.claim_id'),
    }));
  const s = {
    idempotencyFind: typed<{ merchantId: string; key: string; now: string }>()(db, (k, p) =>
      k
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('key', '=', p('key'))
        .where('expires_at', '>', p('now')),
    ),
    idempotencySave: typed<KeyRow>()(db, (k, p) => upsert(k, p).onConflict(replaced)),
    // The likely case of a take: a key no record holds (SqlDatabase.optimistic).
    idempotencyInsert: typed<KeyRow>()(db, (k, p) => upsert(k, p)),
    idempotencyPurge: typed<{ now: string }>()(db, (k, p) => k.deleteFrom('idempotency_keys').where('expires_at', '<=', p('now'))),
    // A reply takes a free key, or one whose record (a reply or a claim) has expired; never a live one.
    idempotencyTake: typed<KeyRow & { now: string }>()(db, (k, p) =>
      upsert(k, p).onConflict((oc) => replaced(oc).where('idempotency_keys.expires_at', '<=', p('now'))),
    ),
    idempotencyDeleteClaim: typed<{ merchantId: string; key: string; claimId: string }>()(db, (k, p) =>
      k
        .deleteFrom('idempotency_keys')
        .where('merchant_id', '=', p('merchantId'))
        .where('key', '=', p('key'))
        .where('status', '=', sql.lit(0))
        .where('claim_id', '=', p('claimId')),
    ),
  };
  const row = (r: IdempotencyRecord): KeyRow => ({
    merchant_id: r.merchantId,
    key: r.key,
    fingerprint: r.fingerprint,
    status: statusOfAnswer(r.answer),
    // The bytes the reply sends, where the operation made them (OperationContext.serialize).
    body: r.answer?.json ?? JSON.stringify(r.answer?.body ?? null),
    created_at: r.createdAt,
    expires_at: r.expiresAt,
    claim_id: r.claimId ?? null,
  });
  return {
    idempotency: {
      find: async (merchantId, key, now): Promise<IdempotencyRecord | undefined> => {
        const found = await s.idempotencyFind.get({ merchantId, key, now });
        if (!found) return undefined;
        return {
          merchantId: found.merchant_id,
          key: found.key,
          fingerprint: found.fingerprint,
          answer: answerFromRow(found.status, found.body),
          createdAt: found.created_at,
          expiresAt: found.expires_at,
          claimId: found.claim_id ?? null,
        };
      },
      save: async (r) => void (await s.idempotencySave.run(row(r))),
      // Optimistic (PostgreSQL's first attempt): a plain INSERT, sent without waiting; a record that
      // holds the key fails the unit, which then runs again and takes the key conditionally here.
      take: async (r, now) =>
        db.optimistic === true
          ? (await s.idempotencyInsert.run(row(r))).changes === 1
          : (await s.idempotencyTake.run({ ...row(r), now })).changes === 1,
      deleteClaim: async (merchantId, key, claimId) => void (await s.idempotencyDeleteClaim.run({ merchantId, key, claimId })),
      deleteExpired: async (now) => (await s.idempotencyPurge.run({ now })).changes,
    },
  };
}
