import { defineModule } from '../module-plugin.js';
import { kanbanRoutes } from './routes.js';

/** The kanban board: its tickets and each ticket's lane tags. */
export const kanbanModule = defineModule('kanban', async (_app, { ctx, routes }) => {
  routes((api) => kanbanRoutes(api, ctx));
});
