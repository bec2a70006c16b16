import { defineModule } from '../module-plugin.js';
import { tagRoutes } from './routes.js';

/** Tags: their list with ticket counts, kanban lanes, editing and the tags of a ticket. */
export const tagsModule = defineModule('tags', async (_app, { ctx, routes }) => {
  routes((api) => tagRoutes(api, ctx));
});
