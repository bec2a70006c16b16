import { defineModule } from '../module-plugin.js';
import { queueIntegrationRoutes } from './routes.js';

/** Queue integrations: the external bots and flows that answer customers in a queue. */
export const queueIntegrationsModule = defineModule('queue-integrations', async (_app, { ctx, routes }) => {
  routes((api) => queueIntegrationRoutes(api, ctx));
});
