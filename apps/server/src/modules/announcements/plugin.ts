import { defineModule } from '../module-plugin.js';
import { announcementRoutes } from './routes.js';

/** The platform's announcements to every user. */
export const announcementsModule = defineModule('announcements', async (_app, { ctx, media, routes }) => {
  routes((api) => announcementRoutes(api, ctx, media));
});
