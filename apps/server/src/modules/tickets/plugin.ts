import { defineModule } from '../module-plugin.js';
import { ticketRoutes } from './routes.js';

/** Tickets: listing, opening, accepting, transferring and closing them. */
export const ticketsModule = defineModule('tickets', async (app, { ctx, sender, routes }) => {
  routes((api) => ticketRoutes(api, ctx, sender, app.assigner, app.sla));
});
