import { defineModule } from '../module-plugin.js';
import { whatsappRoutes } from './routes.js';

/** WhatsApp connections and their sessions (start, restart, disconnect). */
export const whatsappModule = defineModule('whatsapp', async (_app, { ctx, sessions, routes }) => {
  routes((api) => whatsappRoutes(api, ctx, sessions));
});
