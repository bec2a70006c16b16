import { defineModule } from '../module-plugin.js';
import { simulatorRoutes } from './routes.js';

/** The simulator: customer messages injected into simulated connections, a number's outbox, read marks. */
export const simulatorModule = defineModule(
  'simulator',
  async (_app, { ctx, sessions, simulator, routes }) => {
    routes((api) => simulatorRoutes(api, ctx, sessions, simulator));
  },
);
