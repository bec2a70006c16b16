import { defineModule } from '../module-plugin.js';
import { helpRoutes } from './routes.js';

/** The platform's help videos: every user reads them, the super user writes them. */
export const helpsModule = defineModule('helps', async (_app, { ctx, routes }) => {
  routes((api) => helpRoutes(api, ctx));
});
