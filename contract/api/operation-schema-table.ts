/**
 * The schemas of every operation of contract/operation-table.ts, joined from the feature files, and the
 * types a caller derives from them: what a request carries (`OperationRequest`) and what a success
 * answers (`OperationResult`). main/http registers its routes from `OPERATION_SCHEMAS`; the renderer
 * imports only the types (no TypeBox in its bundle).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { OperationName } from '../operation-table.js';
import type { OperationSchemas } from './operation-schemas.js';
import { centreOperations } from './centre.js';
import { checkoutsOperations } from './checkouts.js';
import { dashboardOperations } from './dashboard.js';
import { invoicesOperations } from './invoices.js';
import { mandatesOperations } from './mandates.js';
import { networkTokensOperations } from './network-tokens.js';
import { paymentMethodsOperations } from './payment-methods.js';
import { paymentsOperations } from './payments.js';
import { postbacksOperations } from './postbacks.js';
import { receiptsOperations } from './receipts.js';
import { reportsOperations } from './reports.js';
import { settingsOperations } from './settings.js';
import { staffOperations } from './staff.js';
import { tillAttemptsOperations } from './till-attempts.js';
import { tillsOperations } from './tills.js';
import { transactionsOperations } from './transactions.js';

export const OPERATION_SCHEMAS = {
  ...centreOperations,
  ...checkoutsOperations,
  ...dashboardOperations,
  ...invoicesOperations,
  ...mandatesOperations,
  ...networkTokensOperations,
  ...paymentMethodsOperations,
  ...paymentsOperations,
  ...postbacksOperations,
  ...receiptsOperations,
  ...reportsOperations,
  ...settingsOperations,
  ...staffOperations,
  ...tillAttemptsOperations,
  ...tillsOperations,
  ...transactionsOperations,
} as const satisfies { readonly [Name in OperationName]: OperationSchemas };

export type { OperationName };

/** The schemas of one operation. */
export type SchemasOfOperation<Name extends OperationName> = (typeof OPERATION_SCHEMAS)[Name];

/** The static type of schema `Key` of an operation; `undefined` when it has none. */
type StaticOf<Name extends OperationName, Key extends keyof OperationSchemas> =
  SchemasOfOperation<Name> extends { readonly [K in Key]: infer S extends TSchema } ? Static<S> : undefined;

/** A part the caller must send when the schema requires something in it, else may leave out. */
type Part<Key extends string, T> = [T] extends [undefined]
  ? { readonly [K in Key]?: never }
  : object extends T
    ? { readonly [K in Key]?: T }
    : { readonly [K in Key]: T };

/** What a request of an operation carries: path params, query and JSON body, as the schemas take them. */
export type OperationRequest<Name extends OperationName> = Part<'params', StaticOf<Name, 'params'>> &
  Part<'query', StaticOf<Name, 'querystring'>> &
  Part<'body', StaticOf<Name, 'body'>>;

/** What a success of an operation answers (the union of its success statuses' bodies; null for a 204). */
export type OperationResult<Name extends OperationName> =
  SchemasOfOperation<Name> extends { readonly response: infer R }
    ? { [S in keyof R]: R[S] extends TSchema ? Static<R[S]> : never }[keyof R]
    : unknown;
