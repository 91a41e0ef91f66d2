/**
 * The Test environment's movable clock (issue 26): `POST /test/clock` moves the clock of a gateway
 * started with `--sim-clock movable` forward, so a test rehearses a two-hour outage or the stored-sale
 * age limit in seconds. Registered only on such a gateway, and answered only to this computer.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorCode } from '../../../../contract/codes.js';
import { apiError } from '../../../core/errors.js';
import type { MovableClockControl } from '../../../core/gateway.js';
import { sendApiError } from '../../errors.js';
import { route } from '../../operation-route.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export function testClockRoutes(clock: MovableClockControl, now: () => Date): FastifyPluginAsyncTypebox {
  return async (app) => {
    route(
      app,
      'centre.advanceClock',
      {
        schema: {
          tags: ['Test environment'],
          summary: 'Moves the movable clock forward (only a gateway started with --sim-clock movable; only from this computer)',
          security: [],
        },
        errors: [400, 403],
      },
      async (request, reply) => {
        if (!LOOPBACK.test(request.ip))
          return sendApiError(reply, apiError(ErrorCode.forbidden, 'The clock is moved only from this computer'));
        const offset = clock.advance(request.body.advance_seconds * 1000);
        return reply.send({ now: now().toISOString(), offset_seconds: offset / 1000 });
      },
    );
  };
}
