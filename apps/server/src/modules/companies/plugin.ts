import { defineModule } from '../module-plugin.js';
import { companyAdminRoutes } from './admin-routes.js';
import { companyRoutes } from './routes.js';
import { companyScheduleRoutes } from './schedules.js';

/**
 * Companies: sign-up and a company's own record, its attendance hours, and the super user's
 * management of every company (which stops their sessions and removes their media on deletion).
 */
export const companiesModule = defineModule('companies', async (_app, { ctx, sessions, media, routes }) => {
  routes((api) => {
    companyRoutes(api, ctx);
    companyScheduleRoutes(api, ctx);
    companyAdminRoutes(api, ctx, sessions, media);
  });
});
