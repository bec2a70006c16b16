import { defineModule } from '../module-plugin.js';
import { quickMessageRoutes } from './routes.js';

/** Quick answers agents insert with a shortcut, with their media. */
export const quickMessagesModule = defineModule('quick-messages', async (_app, { ctx, media, routes }) => {
  routes((api) => quickMessageRoutes(api, ctx, media));
});
