import { defineModule } from '../module-plugin.js';
import { setMediaPrefix } from './message-repository.js';
import { messageRoutes } from './routes.js';

/**
 * A ticket's messages: reading, sending, retrying and deleting them, and the public media they
 * carry, whose paths follow API_PREFIX.
 */
export const messagesModule = defineModule(
  'messages',
  async (_app, { ctx, sender, media, sessions, routes }) => {
    setMediaPrefix(ctx.config.API_PREFIX);
    routes((api) => messageRoutes(api, ctx, sender, media, sessions));
  },
);
