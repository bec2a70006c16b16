import { defineModule } from '../module-plugin.js';
import { ratingCommentsRoutes } from './rating-comments.js';
import { reportsRoutes } from './routes.js';

/** Reports over ticket events: summary, per agent, per queue and heat map, as JSON, CSV or XLSX. */
export const reportsModule = defineModule('reports', async (_app, { ctx, routes }) => {
  routes((api) => reportsRoutes(api, ctx));
  routes((api) => ratingCommentsRoutes(api, ctx));
});
