/**
 * The repositories' statements on PostgreSQL. A statement's text is translated once (cached by
 * text): `?` and `@name` parameters become `$n`, SQLite's planner hints (`INDEXED BY`) go, and
 * `INSERT OR IGNORE` becomes `ON CONFLICT DO NOTHING`. What cannot be translated so simply is
 * written for both engines by the repository (db/sql.ts `dialects`).
 *
 * A PgSession runs every statement on one connection: the unit of work's, inside its transaction.
 */
import type pg from 'pg';
import type { DialectSql, RunResult, SqlDatabase, SqlStatement } from '../sql.js';

interface Translated {
  text: string;
  /** Named parameters in `$n` order; undefined for positional ones. */
  names: string[] | undefined;
}

const cache = new Map<string, Translated>();

/** Translates one SQLite statement text to PostgreSQL (exported for tests). */
export function translate(sql: string): Translated {
  const cached = cache.get(sql);
  if (cached) return cached;
  let text = sql.replace(/\s+INDEXED BY\s+\w+/gi, '');
  if (/^\s*INSERT\s+OR\s+IGNORE\s+INTO/i.test(text)) {
    text = `${text.replace(/^(\s*)INSERT\s+OR\s+IGNORE\s+INTO/i, '$1INSERT INTO').replace(/;?\s*$/, '')} ON CONFLICT DO NOTHING`;
  }
  if (/\bINSERT\s+OR\s+REPLACE\b|\bjson_extract\b|\bjson_each\b|\bstrftime\b|\bjulianday\b|\bIFNULL\b/i.test(text)) {
    throw new Error(`SQLite-only SQL needs a PostgreSQL text (dialects()): ${text.slice(0, 120)}`);
  }
  const names: string[] = [];
  let positional = 0;
  let out = '';
  // Walk the text outside quotes: a ? or @name inside a string literal is not a parameter.
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "'" || ch === '"') {
      const end = text.indexOf(ch, i + 1);
      const stop = end === -1 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop - 1;
    } else if (ch === '?') {
      positional += 1;
      out += `$${positional}`;
    } else if (ch === '@' && /[A-Za-z_]/.test(text[i + 1] ?? '')) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1));
      const name = (match as RegExpExecArray)[0];
      let index = names.indexOf(name);
      if (index === -1) {
        names.push(name);
        index = names.length - 1;
      }
      out += `$${index + 1}`;
      i += name.length;
    } else {
      out += ch;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error(`a statement mixes ? and @name parameters: ${text.slice(0, 120)}`);
  const translated = { text: out, names: names.length > 0 ? names : undefined };
  cache.set(sql, translated);
  return translated;
}

function values(translated: Translated, params: unknown[]): unknown[] {
  if (!translated.names) return params;
  const named = (params[0] ?? {}) as Record<string, unknown>;
  return translated.names.map((name) => {
    if (!(name in named)) throw new Error(`missing named parameter @${name}`);
    return named[name];
  });
}

export type Queryable = Pick<pg.ClientBase, 'query'>;

/** Statements on one connection (the unit of work's). */
export class PgSession implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  constructor(private readonly client: Queryable) {}

  prepare(sql: string | DialectSql): SqlStatement {
    const translated = translate(typeof sql === 'string' ? sql : sql.postgres);
    const query = (params: unknown[]) => this.client.query({ text: translated.text, values: values(translated, params) });
    return {
      get: async (...params) => (await query(params)).rows[0],
      all: async (...params) => (await query(params)).rows,
      run: async (...params): Promise<RunResult> => ({ changes: (await query(params)).rowCount ?? 0 }),
    };
  }
}
