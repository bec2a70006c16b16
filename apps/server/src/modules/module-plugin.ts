import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { FlowEngine } from '../automation/flows/flow-engine.js';
import type { CloudChannel } from '../channels/cloud/cloud-channel.js';
import type { InboundPipeline } from '../channels/inbound-pipeline.js';
import type { MediaStore } from '../channels/media-store.js';
import type { OutboundSender } from '../channels/outbound-sender.js';
import type { SessionManager } from '../channels/session-manager.js';
import type { SimulatorNetwork } from '../channels/simulator/simulator-network.js';
import type { AppContext, ZodApp } from '../context.js';
import type { JobQueue } from '../jobs/job-queue.js';

/**
 * What a module plugin receives: the app context, the objects the composition root builds once for
 * the whole app (job queue, media store, inbound pipeline, sessions, outbound sender, simulator
 * network, Cloud API channel, flow engine), and `routes`, which adds the area's routes to the API.
 */
export interface ModuleOptions {
  ctx: AppContext;
  jobs: JobQueue;
  media: MediaStore;
  pipeline: InboundPipeline;
  sessions: SessionManager;
  sender: OutboundSender;
  simulator: SimulatorNetwork;
  cloud: CloudChannel;
  flows: FlowEngine;
  /**
   * Adds routes to the API scope (below API_PREFIX, each one declaring its guard in `config`). They
   * register there once every module plugin has run, in the order the modules added them.
   */
  routes(register: (api: ZodApp) => void): void;
}

/**
 * One HTTP area as a Fastify plugin, registered by the composition root: it creates the services,
 * engines and hooks of its area (decorating the app where tests or other parts drive them) and adds
 * its routes with `routes`.
 */
export type ModulePlugin = FastifyPluginAsync<ModuleOptions>;

/**
 * Declares the module plugin of area `name`. It runs in the app's own scope (fastify-plugin): what
 * it decorates or hooks is the app's.
 */
export function defineModule(
  name: string,
  plugin: (app: FastifyInstance, options: ModuleOptions) => Promise<void>,
): ModulePlugin {
  return fp(plugin, { name: `module-${name}` });
}
