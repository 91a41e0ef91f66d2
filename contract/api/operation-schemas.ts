/**
 * The shape of an operation's schemas, as each feature file in contract/api/ declares them beside
 * its other schemas: `{ 'tills.list': { querystring, response: { 200: ... } }, ... } satisfies
 * SchemasOf<'tills'>`. The mapped type makes an operation missing on either side (the table in
 * contract/operation-table.ts or the feature's object) a compile error.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { OperationOf } from '../operation-table.js';

/** The statuses of an operation's success answers. */
export type SuccessStatus = 200 | 201 | 202 | 204;

export interface OperationSchemas {
  readonly params?: TSchema;
  readonly querystring?: TSchema;
  readonly headers?: TSchema;
  readonly body?: TSchema;
  /** Its success answers by status; the error answers are main/http's (responses.ts). */
  readonly response?: { readonly [S in SuccessStatus]?: TSchema };
}

/** One feature's operations: exactly the names of contract/operation-table.ts that start with `<feature>.`. */
export type SchemasOf<Feature extends string> = { readonly [Name in OperationOf<Feature>]: OperationSchemas };

/** The answer of a 204: no body. */
export const NoContentSchema = Type.Null({ description: 'empty body' });
