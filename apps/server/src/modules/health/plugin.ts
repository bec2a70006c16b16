import { defineModule } from '../module-plugin.js';
import { healthRoutes } from './routes.js';

/** The health check of load balancers and monitors. */
export const healthModule = defineModule('health', async (_app, { ctx, routes }) => {
  routes((api) => healthRoutes(api, ctx));
});
