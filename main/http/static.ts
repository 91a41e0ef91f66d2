/**
 * What the gateway serves besides its API: the customer-facing hosted pages (pages/hosted-pages.ts)
 * and the built renderer (the back-office UI) at /app/, or, in a checkout where it was never built,
 * a page saying how to build it. Hidden from the OpenAPI document.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../core/gateway.js';
import { hostedPages } from './pages/hosted-pages.js';

const DEFAULT_UI_DIR = fileURLToPath(new URL('../../renderer/dist/', import.meta.url));
export const UI_NOT_BUILT =
  'The back-office UI is not built in this checkout. Build it with `npm run build:renderer` (`npm start` builds it on its first run), then reload this page. The REST API and /docs work without it.';

export function isUiBuilt(uiDir: string = DEFAULT_UI_DIR): boolean {
  return existsSync(join(uiDir, 'index.html'));
}

export interface StaticOptions {
  gateway: Gateway;
  /** Built renderer; default renderer/dist of this checkout. */
  uiDir: string | undefined;
}

export async function staticPlugin(app: FastifyInstance, { gateway, uiDir = DEFAULT_UI_DIR }: StaticOptions): Promise<void> {
  await app.register(hostedPages(gateway));
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
}
