import { defineModule } from '../module-plugin.js';
import { queueRoutes } from './routes.js';

/** Queues (departments) and their chatbot options. */
export const queuesModule = defineModule('queues', async (app, { ctx, routes }) => {
  routes((api) => queueRoutes(api, ctx, app.assigner));
});
