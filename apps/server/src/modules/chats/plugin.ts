import { defineModule } from '../module-plugin.js';
import { chatRoutes } from './routes.js';

/** The internal chat between a company's users. */
export const chatsModule = defineModule('chats', async (_app, { ctx, routes }) => {
  routes((api) => chatRoutes(api, ctx));
});
