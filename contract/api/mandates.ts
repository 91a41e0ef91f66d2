/** SEPA mandate references: `POST /rest/create_mandate_reference` (decisions.md D4). */
import { Type, type Static } from '@sinclair/typebox';
import { IdempotencyHeaders, RefTo, StringIn } from './common.js';
import type { SchemasOf } from './operation-schemas.js';

export const MandateRequestSchema = Type.Object(
  {
    payment_type: StringIn(['dd', 'dd_b2b'], { description: '`dd` (SEPA B2C) or `dd_b2b`' }),
    recurring: Type.Optional(Type.Integer({ enum: [0, 1] })),
    first_name: Type.Optional(Type.String({ maxLength: 100 })),
    last_name: Type.Optional(Type.String({ maxLength: 100 })),
    account_holder: Type.String({ minLength: 1, maxLength: 70 }),
    iban: Type.String({ minLength: 1, maxLength: 42, description: 'validated by country format and mod-97' }),
    bic: Type.Optional(Type.String({ maxLength: 11 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  },
  { additionalProperties: false },
);
export type MandateRequest = Static<typeof MandateRequestSchema>;

export const MandateResponseSchema = Type.Object(
  {
    sepa_mandate: Type.String({ maxLength: 35, description: 'mandate reference, unique per merchant' }),
    mandate_date: Type.String({ format: 'date' }),
    payment_type: Type.String(),
    recurring: Type.Integer(),
    iban_last_four: Type.String(),
    error_code: Type.Integer(),
  },
  { $id: 'MandateReference', title: 'Mandate reference' },
);
export type MandateResponse = Static<typeof MandateResponseSchema>;

/** The mandates operations (contract/operation-table.ts). */
export const mandatesOperations = {
  'mandates.create': { headers: IdempotencyHeaders, body: MandateRequestSchema, response: { 200: RefTo(MandateResponseSchema) } },
} as const satisfies SchemasOf<'mandates'>;
