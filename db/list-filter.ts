/** The WHERE clause of a merchant's paged list: equal columns and an inclusive created_at range. */
export function listWhere(merchantId: string, equal: Record<string, string | undefined>, range: { createdFrom?: string; createdTo?: string }): { sql: string; params: unknown[] } {
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
