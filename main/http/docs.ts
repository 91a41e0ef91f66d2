/**
 * The API's documentation, as one plugin on the root instance (fastify-plugin: @fastify/swagger must
 * see every route registered after it, and app.swagger() is the root's): the contract's shared
 * schemas, the OpenAPI document of every route not hidden (/openapi.json), and two Swagger UI pages
 * of it. Registered before the routes; each route's place in the document is its registration order.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CheckoutSchema } from '../../contract/api/checkouts.js';
import { ErrorBodySchema } from '../../contract/api/common.js';
import { InvoiceSchema } from '../../contract/api/invoices.js';
import { NetworkTokenSchema } from '../../contract/api/network-tokens.js';
import { PaymentMethodSchema, PaymentMethodSettingSchema } from '../../contract/api/payment-methods.js';
import {
  CaptureResponseSchema,
  PayoutResponseSchema,
  RefundResponseSchema,
  ReverseResponseSchema,
  SubscriptionResponseSchema,
  TransactionResponseSchema,
} from '../../contract/api/payments.js';
import { PostbackDeliverySchema } from '../../contract/api/postbacks.js';
import { EventSchema, RefundSchema, TransactionSchema } from '../../contract/api/transactions.js';
import { addExamples } from './openapi-examples.js';

export const API_VERSION = '3.21.5';

const API_DESCRIPTION = `Payments, transaction queries, hosted checkout, invoices, network tokens and merchant management of a shop's
payment gateway, running the Test environment (a deterministic simulator). Authenticate every request with
HTTP Basic: user = API key, password = API password. Amounts are decimals in the API and integer minor units
inside. Errors share one body: \`{"error_code", "message", "errors": [{"field", "message"}]}\`.
POST requests accept \`Idempotency-Key\` (or \`X-Idempotency-Key\`); a repeat within the retention period replays
the stored reply with \`Idempotent-Replayed: true\`.`;

/** The contract's schemas that routes refer to by $id (RefTo); each is one component of the document. */
const SHARED_SCHEMAS = [
  ErrorBodySchema,
  TransactionSchema,
  EventSchema,
  TransactionResponseSchema,
  CaptureResponseSchema,
  ReverseResponseSchema,
  RefundResponseSchema,
  PayoutResponseSchema,
  SubscriptionResponseSchema,
  RefundSchema,
  PostbackDeliverySchema,
  CheckoutSchema,
  NetworkTokenSchema,
  InvoiceSchema,
  PaymentMethodSchema,
  PaymentMethodSettingSchema,
];

const TAGS = [
  { name: 'Payments', description: 'Payment operations' },
  { name: 'Transaction queries', description: 'Read transactions, their refunds and event logs' },
  { name: 'Checkout', description: "Hosted checkout sessions: the customer pays on the gateway's page" },
  {
    name: 'Network tokens',
    description: 'Network tokens for cards (visa, mastercard), their data and single-use cryptograms; the simulated token service',
  },
  { name: 'Invoices', description: 'Invoices with pay link and QR code; errors answer {message, error}' },
  { name: 'Postbacks', description: 'Signed status notifications to your postback_url: deliveries, attempts, resends, webhook key' },
  {
    name: 'Merchant management',
    description:
      "The catalog of payment methods (any credentials) and, for partners (their own Basic-auth credentials), each method's setting per merchant and per shop; a merchant key gets 403 on /v2/merchants",
  },
  {
    name: 'Tills and centre',
    description:
      'Tills joined to a centre: pairing, reports, the replica they keep, and forwarding the sales they stored while the centre was away',
  },
  {
    name: 'Back-office UI',
    description:
      'Staff sessions (cookie) used by the desktop and browser UI; staff sessions may also call the API routes their role allows',
  },
  { name: 'System', description: 'Health and documentation' },
];

// Two pages of one document: the API for POS software and integrators at /docs, the app's own
// back-office routes at /docs/back-office (Swagger UI stops rendering a page past ~138 listed
// operations; docs/decisions.md "API documentation pages"). /openapi.json holds both.
const BACK_OFFICE_TAG = 'Back-office UI';

async function docs(app: FastifyInstance): Promise<void> {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Tillgate payment gateway API', version: API_VERSION, description: API_DESCRIPTION },
      components: { securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } } },
      security: [{ basicAuth: [] }],
      tags: TAGS,
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // Request and answer examples of every operation with a body (openapi-examples.ts).
    transformObject: (document) => ('openapiObject' in document ? addExamples(document.openapiObject) : document.swaggerObject),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // Each page in a scope of its own: the plugin decorates the instance it is registered on.
  const docsPage = (routePrefix: string, backOffice: boolean) =>
    app.register(async (scope) => {
      await scope.register(fastifySwaggerUi, {
        routePrefix,
        uiConfig: { validatorUrl: null, docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
        // Offline and same-origin only. Not the plugin's default policy: it allows outside hosts and
        // says upgrade-insecure-requests, which blanks the page for tills reaching us over LAN http.
        // Inline styles stay allowed because Swagger UI injects its logo's style.
        staticCSP:
          "default-src 'self'; base-uri 'self'; connect-src 'self'; font-src 'self' data:; form-action 'self'; frame-ancestors 'self'; " +
          "img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'",
        transformSpecificationClone: true,
        transformSpecification: (spec) => docsPageSpec(spec, BACK_OFFICE_TAG, backOffice),
      });
    });
  await docsPage('/docs', false);
  await docsPage('/docs/back-office', true);
}

export const docsPlugin = fp(docs, { name: 'tillgate-docs', fastify: '5.x' });

/**
 * One page of the API documentation: the operations of the back-office tag, or all the others, with
 * a line that names the other page.
 */
function docsPageSpec(spec: Readonly<Record<string, unknown>>, backOfficeTag: string, backOffice: boolean): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of Object.entries((spec.paths ?? {}) as Record<string, Record<string, { tags?: string[] }>>)) {
    const kept = Object.fromEntries(Object.entries(methods).filter(([, op]) => (op.tags?.[0] === backOfficeTag) === backOffice));
    if (Object.keys(kept).length) paths[path] = kept;
  }
  const used = new Set(
    Object.values(paths).flatMap((methods) => Object.values(methods as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? [])),
  );
  const tags = ((spec.tags ?? []) as Array<{ name: string }>).filter((tag) => used.has(tag.name));
  const info = (spec.info ?? {}) as { title?: string; description?: string };
  const other = backOffice
    ? 'The API for POS software and integrators is at /docs.'
    : "The app's own back-office routes (staff sessions) are at /docs/back-office; /openapi.json holds both.";
  return {
    ...spec,
    paths,
    tags,
    info: {
      ...info,
      ...(backOffice ? { title: `${info.title ?? ''}: back-office routes` } : {}),
      description: `${info.description ?? ''}\n\n${other}`,
    },
  };
}
