import { loadVapidKeys } from '../../lib/vapid.js';
import { defineModule } from '../module-plugin.js';
import { PushNotifier } from './push-notifier.js';
import { pushRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Web Push to agents (tests await `settled()` before draining the job queue). */
    push: PushNotifier;
  }
}

/**
 * Web Push for agents: the VAPID keys (configured, or generated once into DATA_DIR), the routes, and
 * the notifier that turns ticket, message and internal-chat events into `push-send` jobs.
 */
export const pushModule = defineModule('push', async (app, { ctx, jobs, routes }) => {
  const vapid = loadVapidKeys(ctx.config);
  const notifier = new PushNotifier(ctx, jobs, vapid);
  notifier.register();
  app.decorate('push', notifier);
  routes((api) => pushRoutes(api, ctx, vapid));
});
