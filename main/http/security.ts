/**
 * What every request of the gateway passes before its route, as one plugin on the root instance
 * (fastify-plugin: its hooks and parsers are the root's, so they apply to every route, whatever scope
 * registers it). In this order: a till's relay (till-relay.ts), JSON-only bodies with their bounds
 * (json-body.ts), the refusal of requests reaching a closing server and of URLs with a NUL, the
 * X-Request-Id of every answer, and the staff session cookie. Hooks are callback hooks where they run
 * on every request: an async hook costs a promise and a turn of the hook runner.
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '../../contract/codes.js';
import { apiError, validationError } from '../core/errors.js';
import type { Gateway } from '../core/gateway.js';
import { sendApiError } from './errors.js';
import { installJsonParser, urlPartWithNul } from './json-body.js';
import { installTillRelay } from './till-relay.js';

export interface SecurityOptions {
  gateway: Gateway;
  /** A brand-new gateway that may still join a shop's gateway from its first screen (the desktop). */
  mayJoinCentre: boolean;
  bodyLimit: number;
}

async function security(app: FastifyInstance, { gateway, mayJoinCentre, bodyLimit }: SecurityOptions): Promise<void> {
  installTillRelay(app, gateway, mayJoinCentre);
  // The API speaks JSON only: without this, Fastify's built-in text/plain parser would hand a
  // string body to validation ("must be object") instead of the 415 naming Content-Type.
  app.removeContentTypeParser('text/plain');
  installJsonParser(app, bodyLimit);
  // Requests that reach a closing server (pipelined, or on a busy keep-alive connection) are not started.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook, not an async one: it runs on every request and costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      reply.header('Connection', 'close').header('Retry-After', '5');
      void sendApiError(
        reply,
        apiError(ErrorCode.shuttingDown, 'The gateway is shutting down; nothing was done. Send the request again in a moment.'),
      );
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
  await app.register(fastifyCookie);
}

export const securityPlugin = fp(security, { name: 'tillgate-security', fastify: '5.x' });
