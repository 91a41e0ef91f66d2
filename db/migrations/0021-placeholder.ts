/**
 * PLACEHOLDER for another issue-19 branch's migration 21 (the migration runner takes versions 1..n
 * without a gap, and this branch's migration is 22). It changes nothing. At the merge, the real
 * migration 21 replaces this file and its line in index.ts and tests/db/migrations.test.ts.
 */
export const up = `SELECT 1;`;

export const postgres = `SELECT 1;`;
