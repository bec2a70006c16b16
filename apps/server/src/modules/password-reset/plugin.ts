import { defineModule } from '../module-plugin.js';
import { passwordResetRoutes } from './routes.js';

/** Forgotten passwords: the e-mailed code and the new password it lets a user set. */
export const passwordResetModule = defineModule('password-reset', async (_app, { ctx, routes }) => {
  routes((api) => passwordResetRoutes(api, ctx));
});
