import { defineModule } from '../module-plugin.js';
import { fileRoutes } from './routes.js';

/** File lists: named sets of uploaded files, open to every user of the company. */
export const filesModule = defineModule('files', async (_app, { ctx, media, routes }) => {
  routes((api) => fileRoutes(api, ctx, media));
});
