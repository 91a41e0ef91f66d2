/**
 * Building blocks of the API's schemas, and what every route shares: the D3 error body and the
 * idempotency headers. TypeBox schemas are JSON Schema; they validate requests, shape answers and
 * feed the OpenAPI document.
 */
import { Type, type SchemaOptions, type Static, type StringOptions, type TSchema, type TUnsafe } from '@sinclair/typebox';

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T, options?: SchemaOptions) => Type.Union([schema, Type.Null()], options);

/**
 * A string of a fixed list in an answer (`{type: string, enum}` in the document), typed as the
 * list's union so that the core's views are. Request schemas use {@link StringIn}: Fastify's type
 * provider does not read this one's type.
 */
export const StringEnum = <const T extends readonly string[]>(values: T, options: StringOptions = {}) =>
  Type.Unsafe<T[number]>(Type.String({ enum: [...values], ...options }));

/** A string of a fixed list in a request (`{type: string, enum}` in the document), typed as string. */
export const StringIn = (values: readonly string[], options: StringOptions = {}) => Type.String({ enum: [...values], ...options });

/** A reference to a schema registered by its `$id` (`{$ref}` in the document), typed as that schema. */
export function RefTo<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  if (!schema.$id) throw new Error('RefTo needs a schema with an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

/** A string of at most `maxLength` characters, with an optional description. */
export const Str = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });

export const FieldErrorSchema = Type.Object({ field: Type.String(), message: Type.String() });
export type FieldError = Static<typeof FieldErrorSchema>;

/** The answer of a form's check (`POST /ui/.../check`): what the real request would refuse, field by field; empty when it would pass. */
export const FieldCheckSchema = Type.Object({ errors: Type.Array(FieldErrorSchema) });
export type FieldCheck = Static<typeof FieldCheckSchema>;

export const ErrorBodySchema = Type.Object(
  {
    error_code: Type.Integer({ description: 'decisions.md D3 error code; 0 is never an error' }),
    message: Type.String(),
    errors: Type.Array(FieldErrorSchema, { description: 'every bad field, by its path (e.g. pos_data.card.number)' }),
  },
  { $id: 'ErrorBody', title: 'Error' },
);
/** The error body of every API answer that is not 2xx (decisions.md D3); invoices have their own. */
export type ErrorBody = Static<typeof ErrorBodySchema>;

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'Unique key (UUIDv4 recommended); replies are replayed for 1 hour' })),
  'x-idempotency-key': Type.Optional(Type.String({ description: 'Alternative name of Idempotency-Key' })),
});

/** Where a page of a paged list is (`page` and `per` queries): the network token list's `metadata`. */
export const PageMetadataSchema = Type.Object({
  per_page: Type.Integer(),
  total_items: Type.Integer(),
  current_page: Type.Integer(),
  total_pages: Type.Integer(),
});
export type PageMetadata = Static<typeof PageMetadataSchema>;

/** The query parameters of a paged list by creation time: `created_at[min]`, `created_at[max]`, `page` and `per`. */
export const pageQueryProperties = (defaultPer: number, maxPer: number) => ({
  'created_at[min]': Type.Optional(Type.String({ description: 'ISO 8601; created at or after' })),
  'created_at[max]': Type.Optional(Type.String({ description: 'ISO 8601; created at or before' })),
  page: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'default 1' })),
  per: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: `default ${defaultPer}, at most ${maxPer}` })),
});
