import { NodeRelay } from '../../lib/node-relay.js';
import { defineModule } from '../module-plugin.js';
import { simulatorRoutes } from './routes.js';
import { SimulatorCalls } from './simulator-calls.js';

/**
 * The simulator: customer messages injected into simulated connections, a number's outbox, read
 * marks. With several nodes (session leases) and REDIS_URL, a call reaching a node that does not run
 * the session is relayed to the one that does.
 */
export const simulatorModule = defineModule(
  'simulator',
  async (app, { ctx, sessions, simulator, routes }) => {
    const relay =
      ctx.config.REDIS_URL && sessions.lease.enabled
        ? new NodeRelay(ctx.config.REDIS_URL, sessions.lease.nodeId)
        : undefined;
    if (relay) {
      app.addHook('onReady', async () => relay.start());
      app.addHook('onClose', async () => relay.stop());
    }
    const calls = new SimulatorCalls(sessions, simulator, relay);
    routes((api) => simulatorRoutes(api, ctx, calls));
  },
);
