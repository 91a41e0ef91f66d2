/**
 * A merchant's paged list of one table, built with Kysely (db/typed-sql.ts): the rows of a merchant
 * with equal columns and an inclusive created_at range, newest first (created_at, id descending),
 * and their count. Each set of filters given is one statement, compiled on its first use.
 *
 *   const list = merchantList(db, 'checkout_sessions', ['status']);
 *   const rows = await list.page(merchantId, { status: 'open', limit: 20, offset: 0 });
 *   const total = await list.count(merchantId, { status: 'open' });
 */
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database } from './schema.js';
import type { SqlDatabase } from './sql.js';
import { byShape, type Placeholders } from './typed-sql.js';

/** The tables a merchant lists: a merchant, a creation time and an id on every row. */
export type ListedTable = {
  [T in keyof Database]: Database[T] extends { merchant_id: string; created_at: string; id: string } ? T : never;
}[keyof Database];

/** The filter of a list: equal columns (left out when undefined) and an inclusive created_at range. */
export type ListFilter<Equal extends string> = Partial<Record<Equal, string>> & { createdFrom?: string; createdTo?: string };

export interface MerchantList<T extends ListedTable, Equal extends string> {
  page(merchantId: string, filter: ListFilter<Equal> & { limit: number; offset: number }): Promise<Selectable<Database[T]>[]>;
  count(merchantId: string, filter: ListFilter<Equal>): Promise<number>;
}

/**
 * Kysely resolves the columns of a named table, not of a type parameter: the statements are built
 * on one table of the columns every list has (`listed`), named as the real one in the SQL.
 */
type ListRow = { merchant_id: string; created_at: string; id: string } & Record<string, string>;
type ListBuilder = Kysely<{ listed: ListRow }>;

interface Shape {
  equal: string[];
  createdFrom: boolean;
  createdTo: boolean;
}

type Params = Record<string, string | number>;

function shapeOf(equal: readonly string[], filter: ListFilter<string>): Shape {
  return {
    equal: equal.filter((column) => filter[column] !== undefined),
    createdFrom: filter.createdFrom !== undefined,
    createdTo: filter.createdTo !== undefined,
  };
}

/** The values of a call: the merchant, the set filters by column (`eq_<column>`), the range. */
function paramsOf(merchantId: string, shape: Shape, filter: ListFilter<string>): Params {
  const params: Params = { merchantId };
  for (const column of shape.equal) params[`eq_${column}`] = filter[column] as string;
  if (filter.createdFrom !== undefined) params.createdFrom = filter.createdFrom;
  if (filter.createdTo !== undefined) params.createdTo = filter.createdTo;
  return params;
}

export function merchantList<T extends ListedTable, Equal extends keyof Database[T] & string>(
  db: SqlDatabase,
  table: T,
  equal: readonly Equal[],
): MerchantList<T, Equal> {
  const from = (k: unknown) => (k as ListBuilder).selectFrom(table as unknown as 'listed');
  const where = (shape: Shape, p: Placeholders<Params>) => (eb: ExpressionBuilder<{ listed: ListRow }, 'listed'>) =>
    eb.and([
      eb('merchant_id', '=', p('merchantId') as string),
      ...shape.equal.map((column) => eb(column, '=', p(`eq_${column}`) as string)),
      ...(shape.createdFrom ? [eb('created_at', '>=', p('createdFrom') as string)] : []),
      ...(shape.createdTo ? [eb('created_at', '<=', p('createdTo') as string)] : []),
    ]);
  const page = byShape(db, (shape: Shape, k, p: Placeholders<Params>) =>
    from(k)
      .selectAll()
      .where(where(shape, p))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(p('limit') as number)
      .offset(p('offset') as number),
  );
  const count = byShape(db, (shape: Shape, k, p: Placeholders<Params>) =>
    from(k)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(where(shape, p)),
  );
  return {
    page: async (merchantId, filter) => {
      const shape = shapeOf(equal, filter);
      const rows = await page(shape).all({ ...paramsOf(merchantId, shape, filter), limit: filter.limit, offset: filter.offset });
      return rows as unknown as Selectable<Database[T]>[];
    },
    count: async (merchantId, filter) => {
      const shape = shapeOf(equal, filter);
      return (await count(shape).get(paramsOf(merchantId, shape, filter)))?.n ?? 0;
    },
  };
}
