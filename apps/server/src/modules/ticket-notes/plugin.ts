import { defineModule } from '../module-plugin.js';
import { ticketNoteRoutes } from './routes.js';

/** Agents' internal notes on a ticket. */
export const ticketNotesModule = defineModule('ticket-notes', async (_app, { ctx, routes }) => {
  routes((api) => ticketNoteRoutes(api, ctx));
});
