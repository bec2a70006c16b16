import { defineModule } from '../module-plugin.js';
import { ratingCommentsRoutes } from './rating-comments.js';
import { registerReportRollups } from './rollups.js';
import { reportsRoutes } from './routes.js';

/**
 * Reports over ticket events: summary, per agent, per queue and heat map, as JSON, CSV or XLSX; and
 * the every-15-minutes job that rolls closed days up for long periods.
 */
export const reportsModule = defineModule('reports', async (_app, { ctx, jobs, routes }) => {
  registerReportRollups(ctx, jobs);
  routes((api) => reportsRoutes(api, ctx));
  routes((api) => ratingCommentsRoutes(api, ctx));
});
