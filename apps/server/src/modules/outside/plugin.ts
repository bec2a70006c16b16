import { defineModule } from '../module-plugin.js';
import { externalApiRoutes } from './external-api.js';

/** The external API: messages sent by other systems with a connection token. */
export const outsideModule = defineModule('outside', async (_app, { ctx, sender, routes }) => {
  routes((api) => externalApiRoutes(api, ctx, sender));
});
