import { defineModule } from '../module-plugin.js';
import { promptRoutes } from './routes.js';

/** AI prompts that answer customers in a queue. */
export const promptsModule = defineModule('prompts', async (_app, { ctx, routes }) => {
  routes((api) => promptRoutes(api, ctx));
});
