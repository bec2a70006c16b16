import { defineModule } from '../module-plugin.js';
import { dashboardRoutes } from './routes.js';

/** The admins' dashboard: ticket counts and attendance figures per day and per user. */
export const dashboardModule = defineModule('dashboard', async (_app, { ctx, routes }) => {
  routes((api) => dashboardRoutes(api, ctx));
});
