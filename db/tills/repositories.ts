/**
 * The tills and their screens, and the gateway instances (migration 28). A hold's claim hash is kept
 * in `holder_screen_id`: the screen is known by the claim the gateway gave it (docs/decisions.md
 * "Several tills"), no longer by an id it chose.
 */
import type { SqlDatabase } from '../sql.js';
import type { TillRecord, TillRepository } from '../../main/core/tills/ports.js';
import type { Row } from '../rows.js';

function tillFromRow(r: Row): TillRecord {
  const sessionId = (r.holder_session_id as string | null) ?? null;
  return {
    merchantId: r.merchant_id as string,
    tillId: r.till_id as string,
    name: r.name as string,
    createdAt: r.created_at as string,
    retiredAt: (r.retired_at as string | null) ?? null,
    holder:
      sessionId === null
        ? null
        : {
            sessionId,
            claimHash: (r.holder_screen_id as string | null) ?? null,
            staffId: (r.holder_staff_id as string | null) ?? null,
            heldAt: r.held_at as string,
            seenAt: r.seen_at as string,
          },
  };
}

export function createTillRepository(db: SqlDatabase): TillRepository {
  const s = {
    list: db.prepare('SELECT * FROM tills WHERE merchant_id = ? ORDER BY till_id'),
    get: db.prepare('SELECT * FROM tills WHERE merchant_id = ? AND till_id = ?'),
    sellsHere: db.prepare(
      `SELECT 1 AS sells FROM tills t WHERE t.merchant_id = ? AND t.till_id = ? AND t.retired_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM till_links l WHERE l.merchant_id = t.merchant_id AND l.till_id = t.till_id)`,
    ),
    insert: db.prepare(
      'INSERT INTO tills (merchant_id, till_id, name, created_at, retired_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (merchant_id, till_id) DO NOTHING',
    ),
    rename: db.prepare('UPDATE tills SET name = ? WHERE merchant_id = ? AND till_id = ?'),
    retire: db.prepare(
      `UPDATE tills SET retired_at = ?, holder_session_id = NULL, holder_screen_id = NULL, holder_staff_id = NULL, held_at = NULL, seen_at = NULL
       WHERE merchant_id = ? AND till_id = ? AND retired_at IS NULL`,
    ),
    // Free, or this session's already, or this screen's by its claim, or its holder gone quiet, or
    // taken over on purpose; never a till joined from another computer. The hold keeps its claim only
    // when its own session presented it; else it gets the new one (the core answers it to the screen).
    take: db.prepare(
      `UPDATE tills SET holder_session_id = @sessionId,
         holder_screen_id = CASE WHEN @force = 0 AND holder_session_id = @sessionId AND holder_screen_id = @presented THEN holder_screen_id ELSE @claimHash END,
         holder_staff_id = @staffId,
         held_at = CASE WHEN holder_session_id = @sessionId OR holder_screen_id = @presented THEN held_at ELSE @heldAt END, seen_at = @seenAt
       WHERE merchant_id = @merchantId AND till_id = @tillId AND retired_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM till_links l WHERE l.merchant_id = tills.merchant_id AND l.till_id = tills.till_id)
         AND (@force = 1 OR holder_session_id IS NULL OR holder_session_id = @sessionId OR holder_screen_id = @presented OR seen_at < @staleBefore)`,
    ),
    heldBy: db.prepare(
      `SELECT * FROM tills t WHERE t.holder_session_id = ?
         AND NOT EXISTS (SELECT 1 FROM till_links l WHERE l.merchant_id = t.merchant_id AND l.till_id = t.till_id)
       ORDER BY t.seen_at DESC LIMIT 1`,
    ),
    release: db.prepare(
      `UPDATE tills SET holder_session_id = NULL, holder_screen_id = NULL, holder_staff_id = NULL, held_at = NULL, seen_at = NULL
       WHERE holder_session_id = ? AND till_id <> ?`,
    ),
  };
  return {
    listByMerchant: async (merchantId) => ((await s.list.all(merchantId)) as Row[]).map(tillFromRow),
    get: async (merchantId, tillId) => {
      const row = (await s.get.get(merchantId, tillId)) as Row | undefined;
      return row && tillFromRow(row);
    },
    sellsHere: async (merchantId, tillId) => (await s.sellsHere.get(merchantId, tillId)) !== undefined,
    insert: async (t) => (await s.insert.run(t.merchantId, t.tillId, t.name, t.createdAt, t.retiredAt)).changes === 1,
    rename: async (merchantId, tillId, name) => (await s.rename.run(name, merchantId, tillId)).changes === 1,
    retire: async (merchantId, tillId, at) => (await s.retire.run(at, merchantId, tillId)).changes === 1,
    take: async (merchantId, tillId, hold, presented, staleBefore, force) =>
      (await s.take.run({ ...hold, presented, merchantId, tillId, staleBefore, force: force ? 1 : 0 })).changes === 1,
    heldBy: async (sessionId) => {
      const row = (await s.heldBy.get(sessionId)) as Row | undefined;
      return row && tillFromRow(row);
    },
    release: async (sessionId, keep) => void (await s.release.run(sessionId, keep ?? '')),
  };
}
