/**
 * buildServer(gateway) assembles the Fastify app and never listens: hosts call listen(), tests
 * call inject(). Type coercion is off: a string where a number belongs is a 400, not a guess. The
 * app is five plugins, registered in this order: what every request passes (security.ts), the
 * documentation (docs.ts), the routes (routes.ts, with the Test environment's in
 * test-environment.ts), and the hosted pages and the renderer (static.ts).
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Gateway } from '../core/gateway.js';
import { docsPlugin } from './docs.js';
import { installErrorHandling, sendFrameworkError } from './errors.js';
import { routesPlugin } from './routes.js';
import type { TillSettings } from './routes/tills/terminal.js';
import { securityPlugin } from './security.js';
import { staticPlugin } from './static.js';

export { API_VERSION } from './docs.js';
export { isUiBuilt, UI_NOT_BUILT } from './static.js';

export const BODY_LIMIT = 1024 * 1024;

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

export async function buildServer(gateway: Gateway, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // One instance type for both: an HTTPS server is still answered and injected the same way.
    ...(options.https ? ({ https: options.https } as object) : {}),
    ...(options.logger ? { loggerInstance: options.logger as FastifyBaseLogger } : { logger: false }),
    ...(options.requestLogLevel === 'debug'
      ? { logController: new DebugRequestLog(options.logger?.isLevelEnabled('debug') ?? false) }
      : {}),
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    genReqId: () => uuidv7(),
    // Fastify's own 503 while closing has a body of its own; ours (security.ts) answers in the D3 shape.
    return503OnClosing: false,
    frameworkErrors: sendFrameworkError,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false, useDefaults: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installErrorHandling(app);
  // A till joined to a centre: known before the first request, so none is handled as an ordinary gateway's.
  await gateway.tillLink.ready();
  // A brand-new gateway may still join a shop's gateway from its first screen (the desktop).
  const mayJoinCentre = !gateway.tillLink.linked && (await gateway.merchants.list()).length === 0;
  await app.register(securityPlugin, { gateway, mayJoinCentre, bodyLimit: BODY_LIMIT });
  await app.register(docsPlugin);
  await app.register(routesPlugin, { gateway, till: options.till });
  await app.register(staticPlugin, { gateway, uiDir: options.uiDir });
  return app;
}
