import { defineModule } from '../module-plugin.js';
import { healthRoutes, type Readiness } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set `draining` when a graceful stop begins: GET /ready answers 503 from then on. */
    readiness: Readiness;
  }
}

/**
 * The liveness and readiness checks of load balancers, orchestrators and monitors; while a graceful
 * stop drains, answers close their connections.
 */
export const healthModule = defineModule('health', async (app, { ctx, routes }) => {
  const readiness: Readiness = { draining: false };
  app.decorate('readiness', readiness);
  // While draining, every answer closes its connection: a proxy's pooled connection to this node is
  // not reused for a request that would meet the closed listener (app/graceful-stop.ts).
  app.addHook('onSend', async (_request, reply) => {
    if (readiness.draining) reply.header('connection', 'close');
  });
  routes((api) => healthRoutes(api, ctx, readiness));
});
