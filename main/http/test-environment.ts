/**
 * What the server has only for the Test environment (the simulator, docs/test-environment.md): the
 * lost-answer test card's hook and the movable clock's route. A gateway that runs another
 * environment registers neither, so its requests pay nothing for them.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Gateway } from '../core/gateway.js';
import { operationOf } from './operation-route.js';
import { testClockRoutes } from './routes/centre/test-clock.js';

/** Whether the gateway runs the Test environment: its processor is the simulator (GET /ui/environment says the same). */
export function runsTestEnvironment(gateway: Gateway): boolean {
  return gateway.postbackBackOffice.environment().environment === 'test';
}

/**
 * The lost-answer test card's answers (also replays) never reach the till. Registered in the REST
 * API's scope (fastify-plugin: the hook is that scope's, after its authentication hooks).
 */
async function lostAnswer(api: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  api.addHook('onSend', async (request, reply, payload) => {
    if (
      request.method === 'POST' &&
      reply.statusCode === 200 &&
      operationOf(request) === 'payments.create' &&
      gateway.payments.dropsTerminalAnswer(request.body)
    ) {
      request.log.info('Test environment: the answer of the lost-answer test card is dropped');
      // inject() has no real socket to drop: its tests get the answer.
      if (typeof request.raw.socket?.destroy === 'function') request.raw.socket.destroy();
    }
    return payload;
  });
}

export const lostAnswerPlugin = fp(lostAnswer, { name: 'tillgate-lost-answer', fastify: '5.x' });

/** POST /test/clock, on a gateway started with `--sim-clock movable` (routes/centre/test-clock.ts). */
export async function testClockPlugin(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const clock = gateway.movableClock;
  if (clock) await app.register(testClockRoutes(clock, () => gateway.clock.now()));
}
