import { defineModule } from '../module-plugin.js';
import { planRoutes } from './routes.js';

/** The plans companies subscribe to: the public list and their management by the super user. */
export const plansModule = defineModule('plans', async (_app, { ctx, routes }) => {
  routes((api) => planRoutes(api, ctx));
});
