import { defineModule } from '../module-plugin.js';
import { ContactListService } from './contact-lists-service.js';
import { contactListRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Contact lists: campaigns call `validRecipients` on it. */
    contactLists: ContactListService;
  }
}

/** Contact lists: their routes and the jobs that import and check their numbers (`app.contactLists`). */
export const contactListsModule = defineModule(
  'contact-lists',
  async (app, { ctx, jobs, sessions, routes }) => {
    const service = new ContactListService(ctx, jobs, sessions);
    service.register();
    app.decorate('contactLists', service);
    routes((api) => contactListRoutes(api, service));
  },
);
