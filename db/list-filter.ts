/**
 * SQL of a merchant's lists: the WHERE clause of a paged list (equal columns and an inclusive
 * created_at range), and a list read as branches, newest first (created_at, id descending).
 */

/** The WHERE clause of a merchant's paged list: equal columns and an inclusive created_at range. */
export function listWhere(
  merchantId: string,
  equal: Record<string, string | undefined>,
  range: { createdFrom?: string; createdTo?: string },
): { sql: string; params: unknown[] } {
  const clauses = ['merchant_id = ?'];
  const params: unknown[] = [merchantId];
  for (const [column, value] of Object.entries(equal)) {
    if (value === undefined) continue;
    clauses.push(`${column} = ?`);
    params.push(value);
  }
  if (range.createdFrom !== undefined) {
    clauses.push('created_at >= ?');
    params.push(range.createdFrom);
  }
  if (range.createdTo !== undefined) {
    clauses.push('created_at <= ?');
    params.push(range.createdTo);
  }
  return { sql: clauses.join(' AND '), params };
}

/**
 * One read of a list: a table, with the index to read where the planner needs telling, a WHERE
 * clause and its parameters. A list filter may need several (a search box's values, each on its
 * own index), merged in the list's order.
 */
export interface Branch {
  source: string;
  where: string[];
  params: unknown[];
}

const NEWEST_FIRST = 'ORDER BY created_at DESC, id DESC';

/**
 * A page of the rows the branches read, newest first. Several branches each read at most what the
 * page needs from their own index and are merged by `union`: UNION (a row two branches match
 * appears once), or UNION ALL where no row can match two (PostgreSQL then merges them in order).
 */
export function branchPageSql(
  branches: readonly Branch[],
  limit: number,
  offset: number,
  union: ' UNION ' | ' UNION ALL ' = ' UNION ',
): { sql: string; params: unknown[] } {
  const [only] = branches;
  if (branches.length === 1 && only) {
    return {
      sql: `SELECT * FROM ${only.source} WHERE ${only.where.join(' AND ')} ${NEWEST_FIRST} LIMIT ? OFFSET ?`,
      params: [...only.params, limit, offset],
    };
  }
  const parts = branches.map(
    (b, i) => `SELECT * FROM (SELECT * FROM ${b.source} WHERE ${b.where.join(' AND ')} ${NEWEST_FIRST} LIMIT ?) AS branch${i}`,
  );
  return {
    sql: `${parts.join(union)} ${NEWEST_FIRST} LIMIT ? OFFSET ?`,
    params: [...branches.flatMap((b) => [...b.params, limit + offset]), limit, offset],
  };
}

/** Counts the rows the branches read (a row two branches match counts once). */
export function branchCountSql(branches: readonly Branch[]): { sql: string; params: unknown[] } {
  const [only] = branches;
  if (branches.length === 1 && only)
    return { sql: `SELECT COUNT(*) AS n FROM ${only.source} WHERE ${only.where.join(' AND ')}`, params: only.params };
  const parts = branches.map((b) => `SELECT id FROM ${b.source} WHERE ${b.where.join(' AND ')}`);
  return { sql: `SELECT COUNT(*) AS n FROM (${parts.join(' UNION ')}) AS matches`, params: branches.flatMap((b) => b.params) };
}
