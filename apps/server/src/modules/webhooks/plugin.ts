import { defineModule } from '../module-plugin.js';
import { WebhookDispatcher } from './dispatcher.js';
import { webhookRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing webhooks (tests await `settled()` before draining the job queue). */
    webhooks: WebhookDispatcher;
  }
}

/**
 * Outgoing webhooks: their routes, and the dispatcher that turns realtime emissions into delivery
 * jobs (`app.webhooks`).
 */
export const webhooksModule = defineModule('webhooks', async (app, { ctx, jobs, routes }) => {
  const dispatcher = new WebhookDispatcher(ctx, jobs);
  dispatcher.register();
  app.decorate('webhooks', dispatcher);
  routes((api) => webhookRoutes(api, ctx, jobs));
});
