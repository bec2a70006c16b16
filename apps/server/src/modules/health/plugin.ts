import { defineModule } from '../module-plugin.js';
import { healthRoutes, type Readiness } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set `draining` when a graceful stop begins: GET /ready answers 503 from then on. */
    readiness: Readiness;
  }
}

/** The liveness and readiness checks of load balancers, orchestrators and monitors. */
export const healthModule = defineModule('health', async (app, { ctx, routes }) => {
  const readiness: Readiness = { draining: false };
  app.decorate('readiness', readiness);
  routes((api) => healthRoutes(api, ctx, readiness));
});
