import { defineModule } from '../module-plugin.js';
import { cloudRoutes } from './routes.js';

/** The WhatsApp Business Cloud API: a connection's settings, Meta's webhook and template sends. */
export const cloudModule = defineModule('cloud', async (_app, { ctx, cloud, routes }) => {
  routes((api) => cloudRoutes(api, cloud, ctx));
});
