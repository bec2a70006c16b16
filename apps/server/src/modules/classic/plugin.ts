import { defineModule } from '../module-plugin.js';
import { classicRoutes } from './routes.js';

/** The classic client's fork: the calls only it makes (docs/compatibility.md). */
export const classicModule = defineModule('classic', async (_app, { ctx, sessions, routes }) => {
  routes((api) => classicRoutes(api, ctx, sessions));
});
