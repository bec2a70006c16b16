import { defineModule } from '../module-plugin.js';
import { userRoutes } from './routes.js';

/** A company's users: listing, creating, editing, removing, and each user's language. */
export const usersModule = defineModule('users', async (app, { ctx, routes }) => {
  routes((api) => userRoutes(api, ctx, app.assigner));
});
