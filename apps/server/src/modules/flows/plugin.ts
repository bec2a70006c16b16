import { defineModule } from '../module-plugin.js';
import { flowRoutes } from './routes.js';

/** Flows and flow campaigns, with the editor's test run on a simulator connection. */
export const flowsModule = defineModule('flows', async (_app, { ctx, media, flows, sessions, routes }) => {
  routes((api) => flowRoutes(api, ctx, media, { engine: flows, sessions }));
});
