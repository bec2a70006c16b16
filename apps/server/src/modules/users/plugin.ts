import { defineModule } from '../module-plugin.js';
import { userRoutes } from './routes.js';
import { markOnline } from './user-repository.js';

/** A company's users: listing, creating, editing, removing, and each user's language. */
export const usersModule = defineModule('users', async (app, { ctx, routes }) => {
  routes((api) => userRoutes(api, ctx, app.assigner));
  // The web client's status heartbeat keeps the user marked online (the dashboard's attendants).
  ctx.realtime.onHeartbeat((auth) => {
    markOnline(ctx, auth.companyId, auth.userId).catch((error) =>
      ctx.log.warn({ err: error }, 'heartbeat: marking the user online failed'),
    );
  });
});
