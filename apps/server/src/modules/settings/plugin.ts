import { defineModule } from '../module-plugin.js';
import { settingRoutes } from './routes.js';

/** A company's settings, read by its users and written by its admins. */
export const settingsModule = defineModule('settings', async (_app, { ctx, routes }) => {
  routes((api) => settingRoutes(api, ctx));
});
