import { defineModule } from '../module-plugin.js';
import { contactRoutes } from './routes.js';

/** Contacts: listing, reading, editing, removing and importing them. */
export const contactsModule = defineModule('contacts', async (_app, { ctx, routes }) => {
  routes((api) => contactRoutes(api, ctx));
});
