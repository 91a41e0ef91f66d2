/** Idempotency keys: a request's claim, then its answer, until the key expires. */
import type { SqlDatabase } from '../sql.js';
import { str, type Row } from '../rows.js';
import type { IdempotencyRecord, IdempotencyUnit } from '../../main/core/idempotency/ports.js';
import type { Answer } from '../../main/core/errors.js';
import { answerKindOf, httpStatusOfAnswer } from '../../contract/codes.js';

/**
 * An idempotency record's answer in its columns: `status` keeps the HTTP status the answer is given
 * with (what it held before answers had kinds, so rows of either version read back alike), 0 for
 * an older version's claim, which has no answer.
 */
function answerFromRow(status: number, body: unknown): Answer | null {
  return status === 0 ? null : { kind: answerKindOf(status), body };
}

function statusOfAnswer(answer: Answer | null): number {
  return answer ? httpStatusOfAnswer(answer.kind, answer.body) : 0;
}

export function createIdempotencyRepository(db: SqlDatabase): Pick<IdempotencyUnit, 'idempotency'> {
  const s = {
    idempotencyFind: db.prepare('SELECT * FROM idempotency_keys WHERE merchant_id = ? AND key = ? AND expires_at > ?'),
    idempotencySave: db.prepare(
      `INSERT INTO idempotency_keys (merchant_id, key, fingerprint, status, body, created_at, expires_at, claim_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (merchant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
         created_at = excluded.created_at, expires_at = excluded.expires_at, claim_id = excluded.claim_id`,
    ),
    idempotencyPurge: db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?'),
    // A reply takes a free key, or one whose record (a reply or a claim) has expired; never a live one.
    idempotencyTake: db.prepare(
      `INSERT INTO idempotency_keys (merchant_id, key, fingerprint, status, body, created_at, expires_at, claim_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (merchant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
         created_at = excluded.created_at, expires_at = excluded.expires_at, claim_id = excluded.claim_id
       WHERE idempotency_keys.expires_at <= ?`,
    ),
    idempotencyDeleteClaim: db.prepare('DELETE FROM idempotency_keys WHERE merchant_id = ? AND key = ? AND status = 0 AND claim_id = ?'),
  };
  return {
    idempotency: {
      find: async (merchantId, key, now): Promise<IdempotencyRecord | undefined> => {
        const row = (await s.idempotencyFind.get(merchantId, key, now)) as Row | undefined;
        if (!row) return undefined;
        return {
          merchantId: str(row.merchant_id),
          key: str(row.key),
          fingerprint: str(row.fingerprint),
          answer: answerFromRow(row.status as number, JSON.parse(str(row.body)) as unknown),
          createdAt: str(row.created_at),
          expiresAt: str(row.expires_at),
          claimId: (row.claim_id as string | null) ?? null,
        };
      },
      save: async (r) =>
        void (await s.idempotencySave.run(
          r.merchantId,
          r.key,
          r.fingerprint,
          statusOfAnswer(r.answer),
          JSON.stringify(r.answer?.body ?? null),
          r.createdAt,
          r.expiresAt,
          r.claimId ?? null,
        )),
      take: async (r, now) =>
        (
          await s.idempotencyTake.run(
            r.merchantId,
            r.key,
            r.fingerprint,
            statusOfAnswer(r.answer),
            JSON.stringify(r.answer?.body ?? null),
            r.createdAt,
            r.expiresAt,
            r.claimId ?? null,
            now,
          )
        ).changes === 1,
      deleteClaim: async (merchantId, key, claimId) => void (await s.idempotencyDeleteClaim.run(merchantId, key, claimId)),
      deleteExpired: async (now) => (await s.idempotencyPurge.run(now)).changes,
    },
  };
}
