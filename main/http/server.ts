/**
 * buildServer(gateway) assembles the Fastify app and never listens: hosts call listen(), tests
 * call inject(). Type coercion is off: a string where a number belongs is a 400, not a guess.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
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
import type { Gateway } from '../core/gateway.js';
import { protect } from './api-context.js';
import { installErrorHandling, sendApiError, sendFrameworkError } from './errors.js';
import { ErrorCode } from '../../contract/codes.js';
import { apiError, validationError } from '../core/errors.js';
import { installJsonParser, urlPartWithNul } from './json-body.js';
import { installTillRelay } from './till-relay.js';
import { operationOf } from './operations.js';
import { addExamples } from './openapi-examples.js';
import { hostedPages } from './pages/hosted-pages.js';
import { mandateRoutes } from './routes/mandates/routes.js';
import { paymentRoutes } from './routes/payments/routes.js';
import { postbackRoutes } from './routes/postbacks/routes.js';
import { staffRoutes } from './routes/staff/routes.js';
import { tillRoutes, type TillSettings } from './routes/till/routes.js';
import { shopRoutes } from './routes/payment-methods/shops.js';
import { shopTillRoutes } from './routes/tills/routes.js';
import { centrePairingRoutes, centreRoutes, setupRoutes, tillLinkRoutes } from './routes/centre/routes.js';
import { testClockRoutes } from './routes/centre/test-clock.js';
import { receiptRoutes } from './routes/receipts/routes.js';
import { reportRoutes, shopDayRoutes } from './routes/reports/routes.js';
import { transactionDetailRoutes } from './routes/transactions/detail.js';
import { dashboardRoutes } from './routes/dashboard/routes.js';
import { checkoutRoutes } from './routes/checkouts/routes.js';
import { networkTokenRoutes } from './routes/network-tokens/routes.js';
import { merchantManagementRoutes, paymentMethodCatalogRoutes } from './routes/payment-methods/routes.js';
import { invoiceRoutes } from './routes/invoices/routes.js';
import { invoiceEmailRoutes } from './routes/invoices/emails.js';
import { invoiceBackOfficeRoutes } from './routes/invoices/back-office.js';
import { networkTokenBackOfficeRoutes } from './routes/network-tokens/back-office.js';
import { checkoutBackOfficeRoutes } from './routes/checkouts/back-office.js';
import { postbackBackOfficeRoutes } from './routes/postbacks/back-office.js';
import { settingsBackOfficeRoutes } from './routes/settings/back-office.js';
import { transactionRoutes } from './routes/transactions/routes.js';

export const API_VERSION = '3.21.5';
export const BODY_LIMIT = 1024 * 1024;
const DEFAULT_UI_DIR = fileURLToPath(new URL('../../renderer/dist/', import.meta.url));
export const UI_NOT_BUILT =
  'The back-office UI is not built in this checkout. Build it with `npm run build:renderer` (`npm start` builds it on its first run), then reload this page. The REST API and /docs work without it.';

export function isUiBuilt(uiDir: string = DEFAULT_UI_DIR): boolean {
  return existsSync(join(uiDir, 'index.html'));
}

export interface ServerOptions {
  /** Serve HTTPS with this key and certificate (a host listening beyond loopback; main/infra/tls.ts). */
  https?: { key: string; cert: string };
  logger?: PinoLogger;
  /** Built renderer (the back-office UI); served at /app/ when present. */
  uiDir?: string;
  /** Trust X-Forwarded-* from a reverse proxy (for the lock-out's source address). */
  trustProxy?: boolean;
  /**
   * Level of the two lines logged per request ("incoming request", "request completed"); errors
   * are logged as errors either way. The headless server uses debug: at a few thousand requests
   * per second these info lines cost about a tenth of the throughput (docs/benchmarks.md) and
   * gigabytes of log a day. Default info.
   */
  requestLogLevel?: 'info' | 'debug';
  /** The till's settings (GET /ui/terminal); default: confirm above 1,000.00. */
  till?: TillSettings;
}

/** Fastify's per-request log lines at debug instead of info (errors unchanged). */
class DebugRequestLog extends LogController {
  /** `enabled`: the logger's level admits debug (fixed at start), so the lines are written at all. */
  constructor(private readonly enabled: boolean) {
    super();
  }

  override incomingRequest(request: FastifyRequest, _reply: FastifyReply): void {
    if (this.enabled) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else if (this.enabled) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * Response serializers compiled on a route's first reply instead of at start. Compiling the
 * fast-json-stringify serializers of every route's responses took ~0.4 s of a ~0.9 s cold start
 * (docs/benchmarks.md); most processes answer a handful of routes. The serializer is the one
 * Fastify would build (same schemas, same options), only later.
 */
function lazySerializers(externalSchemas?: unknown, options?: SerializerSelector.Options): SerializerSelector.SerializerCompiler {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: SerializerSelector.Serializer | undefined;
    return (payload) => (serialize ??= compile(route))(payload);
  };
}

const API_DESCRIPTION = `Payments, transaction queries, hosted checkout, invoices, network tokens and merchant management of a shop's
payment gateway, running the Test environment (a deterministic simulator). Authenticate every request with
HTTP Basic: user = API key, password = API password. Amounts are decimals in the API and integer minor units
inside. Errors share one body: \`{"error_code", "message", "errors": [{"field", "message"}]}\`.
POST requests accept \`Idempotency-Key\` (or \`X-Idempotency-Key\`); a repeat within the retention period replays
the stored reply with \`Idempotent-Replayed: true\`.`;

export async function buildServer(gateway: Gateway, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // One instance type for both: an HTTPS server is still answered and injected the same way.
    ...(options.https ? ({ https: options.https } as object) : {}),
    ...(options.logger ? { loggerInstance: options.logger as FastifyBaseLogger } : { logger: false }),
    ...(options.requestLogLevel === 'debug' ? { logController: new DebugRequestLog(options.logger?.isLevelEnabled('debug') ?? false) } : {}),
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    genReqId: () => uuidv7(),
    // Fastify's own 503 while closing has a body of its own; ours (below) answers in the D3 shape.
    return503OnClosing: false,
    frameworkErrors: sendFrameworkError,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false, useDefaults: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installErrorHandling(app);
  // A till joined to a centre: known before the first request, so none is handled as an ordinary gateway's.
  await gateway.tillLink.ready();
  // A brand-new gateway may still join a shop's gateway from its first screen (the desktop).
  installTillRelay(app, gateway, !gateway.tillLink.linked && (await gateway.merchants.list()).length === 0);
  // The API speaks JSON only: without this, Fastify's built-in text/plain parser would hand a
  // string body to validation ("must be object") instead of the 415 naming Content-Type.
  app.removeContentTypeParser('text/plain');
  installJsonParser(app, BODY_LIMIT);
  // Requests that reach a closing server (pipelined, or on a busy keep-alive connection) are not started.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook, not an async one: it runs on every request and costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      reply.header('Connection', 'close').header('Retry-After', '5');
      void sendApiError(reply, apiError(ErrorCode.shuttingDown, 'The gateway is shutting down; nothing was done. Send the request again in a moment.'));
      return;
    }
    const withNul = urlPartWithNul(request.url);
    if (withNul) {
      void sendApiError(reply, validationError([{ field: withNul, message: 'must not contain the NUL character (%00)' }]));
      return;
    }
    done();
  });
  // Callback hooks on every request: an async hook costs a promise and a turn of the hook runner.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id);
    done(null, payload);
  });

  // The contract's schemas that routes refer to by $id (RefTo); each is one component of the document.
  for (const schema of [
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
  ]) {
    app.addSchema(schema);
  }

  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Tillgate payment gateway API', version: API_VERSION, description: API_DESCRIPTION },
      components: { securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } } },
      security: [{ basicAuth: [] }],
      tags: [
        { name: 'Payments', description: 'Payment operations' },
        { name: 'Transaction queries', description: 'Read transactions, their refunds and event logs' },
        { name: 'Checkout', description: 'Hosted checkout sessions: the customer pays on the gateway\'s page' },
        { name: 'Network tokens', description: 'Network tokens for cards (visa, mastercard), their data and single-use cryptograms; the simulated token service' },
        { name: 'Invoices', description: 'Invoices with pay link and QR code; errors answer {message, error}' },
        { name: 'Postbacks', description: 'Signed status notifications to your postback_url: deliveries, attempts, resends, webhook key' },
        {
          name: 'Merchant management',
          description:
            "The catalog of payment methods (any credentials) and, for partners (their own Basic-auth credentials), each method's setting per merchant and per shop; a merchant key gets 403 on /v2/merchants",
        },
        { name: 'Tills and centre', description: 'Tills joined to a centre: pairing, reports, the replica they keep, and forwarding the sales they stored while the centre was away' },
        { name: 'Back-office UI', description: 'Staff sessions (cookie) used by the desktop and browser UI; staff sessions may also call the API routes their role allows' },
        { name: 'System', description: 'Health and documentation' },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // Request and answer examples of every operation with a body (openapi-examples.ts).
    transformObject: (document) => ('openapiObject' in document ? addExamples(document.openapiObject) : document.swaggerObject),
  });

  // The REST API: every route in this scope is authenticated and scoped to one merchant.
  await app.register(async (api) => {
    protect(api, gateway, 'merchant');
    // Test environment: the lost-answer test card's answers (also replays) never reach the till.
    api.addHook('onSend', async (request, reply, payload) => {
      if (request.method === 'POST' && reply.statusCode === 200 && operationOf(request) === 'payments.create' && gateway.payments.dropsTerminalAnswer(request.body)) {
        request.log.info('Test environment: the answer of the lost-answer test card is dropped');
        // inject() has no real socket to drop: its tests get the answer.
        if (typeof request.raw.socket?.destroy === 'function') request.raw.socket.destroy();
      }
      return payload;
    });
    await api.register(transactionRoutes(gateway));
    await api.register(paymentRoutes(gateway));
    await api.register(mandateRoutes(gateway));
    await api.register(postbackRoutes(gateway));
    await api.register(checkoutRoutes(gateway));
    await api.register(networkTokenRoutes(gateway));
    await api.register(invoiceRoutes(gateway));
    await api.register(invoiceEmailRoutes(gateway));
    await api.register(centreRoutes(gateway));
  });
  await app.register(centrePairingRoutes(gateway));

  // Merchant management (D15): the catalog for any API credentials, the rest for partners only.
  await app.register(async (catalog) => {
    protect(catalog, gateway, ['merchant', 'partner']);
    await catalog.register(paymentMethodCatalogRoutes(gateway));
  });
  await app.register(async (partner) => {
    protect(partner, gateway, 'partner');
    await partner.register(merchantManagementRoutes(gateway));
  });

  await app.register(staffRoutes(gateway));
  await app.register(tillRoutes(gateway, options.till));
  await app.register(shopRoutes(gateway));
  await app.register(shopTillRoutes(gateway));
  await app.register(shopDayRoutes(gateway));
  await app.register(tillLinkRoutes(gateway));
  await app.register(setupRoutes(gateway));
  if (gateway.movableClock) await app.register(testClockRoutes(gateway.movableClock, () => gateway.clock.now()));
  await app.register(receiptRoutes(gateway));
  await app.register(reportRoutes(gateway));
  await app.register(transactionDetailRoutes(gateway));
  await app.register(dashboardRoutes(gateway));
  await app.register(invoiceBackOfficeRoutes(gateway));
  await app.register(networkTokenBackOfficeRoutes(gateway));
  await app.register(checkoutBackOfficeRoutes(gateway));
  await app.register(postbackBackOfficeRoutes(gateway));
  await app.register(settingsBackOfficeRoutes(gateway));
  await app.register(hostedPages(gateway));

  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok', version: API_VERSION }));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Two pages of one document: the API for POS software and integrators at /docs, the app's own
  // back-office routes at /docs/back-office (Swagger UI stops rendering a page past ~138 listed
  // operations; docs/decisions.md "API documentation pages"). /openapi.json holds both.
  const BACK_OFFICE_TAG = 'Back-office UI';
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

  const uiDir = options.uiDir ?? DEFAULT_UI_DIR;
  const uiBuilt = isUiBuilt(uiDir);
  if (uiBuilt) {
    await app.register(fastifyStatic, {
      root: uiDir,
      prefix: '/app/',
      setHeaders: (reply) => {
        reply.header(
          'Content-Security-Policy',
          "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
        );
      },
    });
  } else {
    // A checkout where the renderer was never built (`gateway serve` straight after a clone): say
    // how to get the UI instead of a bare "No route".
    app.get('/app/*', { schema: { hide: true } }, async (_request, reply) =>
      reply.code(503).header('Retry-After', '60').type('text/plain; charset=utf-8').send(UI_NOT_BUILT),
    );
  }
  app.get('/app', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/app/'));
  app.get('/', { schema: { hide: true } }, async (_request, reply) => (uiBuilt ? reply.redirect('/app/') : reply.redirect('/docs')));

  return app;
}

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
  const used = new Set(Object.values(paths).flatMap((methods) => Object.values(methods as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? [])));
  const tags = ((spec.tags ?? []) as Array<{ name: string }>).filter((tag) => used.has(tag.name));
  const info = (spec.info ?? {}) as { title?: string; description?: string };
  const other = backOffice
    ? 'The API for POS software and integrators is at /docs.'
    : "The app's own back-office routes (staff sessions) are at /docs/back-office; /openapi.json holds both.";
  return { ...spec, paths, tags, info: { ...info, ...(backOffice ? { title: `${info.title ?? ''}: back-office routes` } : {}), description: `${info.description ?? ''}\n\n${other}` } };
}
