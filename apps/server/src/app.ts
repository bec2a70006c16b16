import type { FastifyInstance } from 'fastify';
import { type RouteEntry, registerApi } from './app/api-scope.js';
import { registerGuards, registerInfrastructure } from './app/infrastructure.js';
import { createServer } from './app/server.js';
import { createContext } from './app/shared-context.js';
import { registerWebFiles, serveWebApp } from './app/web-app.js';
import { AutoAssigner } from './automation/auto-assign.js';
import { BotEngine } from './automation/bots/bot-engine.js';
import { ConnectionTimers } from './automation/connection-timers.js';
import { FlowEngine } from './automation/flows/flow-engine.js';
import { QueueBot } from './automation/queue-bot.js';
import { ServiceLevels } from './automation/service-levels.js';
import { CloudChannel } from './channels/cloud/cloud-channel.js';
import { InboundPipeline } from './channels/inbound-pipeline.js';
import { MediaStore } from './channels/media-store.js';
import { OutboundSender } from './channels/outbound-sender.js';
import { type DriverFactory, SessionManager } from './channels/session-manager.js';
import { SimulatorDriver } from './channels/simulator/simulator-driver.js';
import { SimulatorNetwork } from './channels/simulator/simulator-network.js';
import type { Config } from './config.js';
import type { AppContext, ZodApp } from './context.js';
import type { DatabaseHandle } from './db/client.js';
import { JobQueue } from './jobs/job-queue.js';
import { createMetrics } from './lib/metrics.js';
import type { Secrets } from './lib/secrets.js';
import { createStorage } from './lib/storage/create-storage.js';
import type { Storage } from './lib/storage/storage.js';
import { announcementsModule } from './modules/announcements/plugin.js';
import { authModule } from './modules/auth/plugin.js';
import { billingModule } from './modules/billing/plugin.js';
import { campaignsModule } from './modules/campaigns/plugin.js';
import { chatsModule } from './modules/chats/plugin.js';
import { classicModule } from './modules/classic/plugin.js';
import { cloudModule } from './modules/cloud/plugin.js';
import { companiesModule } from './modules/companies/plugin.js';
import { contactListsModule } from './modules/contact-lists/plugin.js';
import { contactsModule } from './modules/contacts/plugin.js';
import { dashboardModule } from './modules/dashboard/plugin.js';
import { filesModule } from './modules/files/plugin.js';
import { flowsModule } from './modules/flows/plugin.js';
import { healthModule } from './modules/health/plugin.js';
import { helpsModule } from './modules/helps/plugin.js';
import { kanbanModule } from './modules/kanban/plugin.js';
import { messagesModule } from './modules/messages/plugin.js';
import type { ModuleOptions, ModulePlugin } from './modules/module-plugin.js';
import { outsideModule } from './modules/outside/plugin.js';
import { passwordResetModule } from './modules/password-reset/plugin.js';
import { plansModule } from './modules/plans/plugin.js';
import { promptsModule } from './modules/prompts/plugin.js';
import { pushModule } from './modules/push/plugin.js';
import { queueIntegrationsModule } from './modules/queue-integrations/plugin.js';
import { queuesModule } from './modules/queues/plugin.js';
import { quickMessagesModule } from './modules/quick-messages/plugin.js';
import { reportsModule } from './modules/reports/plugin.js';
import { schedulesModule } from './modules/schedules/plugin.js';
import { settingsModule } from './modules/settings/plugin.js';
import { simulatorModule } from './modules/simulator/plugin.js';
import { tagsModule } from './modules/tags/plugin.js';
import { ticketNotesModule } from './modules/ticket-notes/plugin.js';
import { ticketsModule } from './modules/tickets/plugin.js';
import { usersModule } from './modules/users/plugin.js';
import { webhooksModule } from './modules/webhooks/plugin.js';
import { whatsappModule } from './modules/whatsapp/plugin.js';

export type { RouteEntry };

/**
 * The HTTP areas, in the order their routes register (the order of the OpenAPI document and of
 * `app.routeTable`). A new area adds its plugin here.
 */
const MODULES: ModulePlugin[] = [
  healthModule,
  authModule,
  passwordResetModule,
  usersModule,
  settingsModule,
  companiesModule,
  dashboardModule,
  reportsModule,
  plansModule,
  billingModule,
  queuesModule,
  whatsappModule,
  messagesModule,
  ticketsModule,
  ticketNotesModule,
  tagsModule,
  quickMessagesModule,
  schedulesModule,
  filesModule,
  contactsModule,
  chatsModule,
  kanbanModule,
  announcementsModule,
  helpsModule,
  simulatorModule,
  promptsModule,
  queueIntegrationsModule,
  outsideModule,
  webhooksModule,
  pushModule,
  cloudModule,
  contactListsModule,
  campaignsModule,
  flowsModule,
  classicModule,
];

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  secrets: Secrets;
  /** pino options or false; tests pass false. */
  logger?: boolean | Record<string, unknown>;
  /** Extra drivers by provider (the Baileys driver in production; fakes in tests). */
  drivers?: Partial<Record<string, DriverFactory>>;
  /** The media storage (main.ts passes the checked one); built from the config when absent. */
  storage?: Storage;
  /** A shared simulator network (several app instances in one process); one per app otherwise. */
  simulator?: SimulatorNetwork;
  /**
   * Run job workers and schedules in this process. Default: on, except under NODE_ENV=test, where
   * tests run queued jobs with `app.jobs.drain()`.
   */
  jobWorkers?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    sessions: SessionManager;
    pipeline: InboundPipeline;
    simulator: SimulatorNetwork;
    jobs: JobQueue;
    /** The answering engine of AI prompts and queue integrations. */
    bots: BotEngine;
    /** The flow engine: flow runs advanced by jobs; tests call it. */
    flows: FlowEngine;
    /** The connection timers (run every minute by the job queue; tests call `run(now)`). */
    timers: ConnectionTimers;
    /** Automatic assignment per queue (run by the job queue; tests call `run` or `assignQueue`). */
    assigner: AutoAssigner;
    /** Service levels: due times and their warning and breach jobs (tests call `plan` and `alert`). */
    sla: ServiceLevels;
  }
}

/**
 * Builds the Fastify application without listening: the server and the app context, the HTTP
 * infrastructure (headers, CORS, compression, cookies, multipart, rate limits, OpenAPI at
 * `<prefix>/docs`), metrics, the request guards, the channels and automation shared by every area,
 * then the module plugins (API routes under API_PREFIX, '/api' by default, '' for the root) and the
 * built web app when present. Used by main.ts and by every server test through `app.inject()`.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = createServer(config, options.logger ?? { level: config.LOG_LEVEL });
  const ctx = await createContext(app, options);
  await registerInfrastructure(app, config);
  createMetrics(app as unknown as FastifyInstance, config);
  const web = serveWebApp(app, config);
  registerGuards(app, ctx);
  const shared = createChannels(app, ctx, options);
  const flows = createAutomation(app, shared);
  const routes: ((api: ZodApp) => void)[] = [];
  for (const module of MODULES) {
    await app.register(module, { ...shared, flows, routes: (register) => void routes.push(register) });
  }
  await registerApi(app, config.API_PREFIX, routes);
  await registerWebFiles(app, web, config.API_PREFIX);
  return app as unknown as FastifyInstance;
}

/** What the channels layer builds once for the whole app. */
type Channels = Omit<ModuleOptions, 'flows' | 'routes'>;

/**
 * The channels shared by every area: media store, job queue, inbound pipeline, simulator network,
 * sessions (simulator and Cloud API drivers, plus `options.drivers`), outbound sender with its
 * retries, and the Cloud API channel. Starts the queue when the app is ready and stops it, then the
 * sessions, when it closes.
 */
function createChannels(app: ZodApp, ctx: AppContext, options: BuildAppOptions): Channels {
  const { config, database } = ctx;
  const media = new MediaStore(options.storage ?? createStorage(config));
  const jobs = new JobQueue(database, {
    log: app.log,
    workers: options.jobWorkers ?? config.NODE_ENV !== 'test',
    nodeId: config.nodeId,
    wakes: ctx.jobWakes,
  });
  const pipeline = new InboundPipeline(ctx, media, jobs);
  const simulator =
    options.simulator ?? new SimulatorNetwork(config.NODE_ENV === 'test' ? 5 : 300, config.SIMULATOR_JOURNAL);
  // The Cloud API channel needs the session manager, which needs its driver factory: late-bound.
  let cloud: CloudChannel | undefined;
  const sessions = new SessionManager(
    ctx,
    pipeline,
    {
      simulator: (driverContext) =>
        new SimulatorDriver({
          ...driverContext,
          network: simulator,
          pairDelayMs: config.NODE_ENV === 'test' ? 0 : config.SIMULATOR_PAIR_MS,
        }),
      cloud: (driverContext) => cloud!.driver(driverContext),
      ...options.drivers,
    },
    // Several nodes share a Postgres server: each session runs on the node holding its lease. The id
    // is stable across restarts, so a restarted node takes its own sessions back at once.
    { enabled: database.kind === 'postgres', nodeId: config.nodeId, ttlMs: config.SESSION_LEASE_MS },
  );
  const sender = new OutboundSender(ctx, sessions, media, {
    nodeId: config.nodeId,
    claimMs: config.SENDING_CLAIM_MS,
  });
  // A node that stops gracefully gives its leases back and says so: take its sessions over now.
  ctx.leaseReleases?.on(() => sessions.tickSoon());
  sessions.onPendingDelivery(async (ids) => {
    await sender.deliverPending(ids);
  });
  sender.useRetries(jobs, { baseSeconds: config.SEND_RETRY_BASE_SECONDS, limit: config.SEND_RETRY_LIMIT });
  cloud = new CloudChannel(ctx, pipeline, jobs, sessions);
  cloud.register();
  sender.sendChecks.push(cloud.sendCheck);
  app.decorate('sessions', sessions);
  app.decorate('pipeline', pipeline);
  app.decorate('simulator', simulator);
  app.decorate('jobs', jobs);
  // The job queue's schema is installed before any request can queue a job inside a transaction.
  app.addHook('onReady', async () => jobs.start());
  // Before any session starts: send claims left by this node id's previous process are given back.
  app.addHook('onReady', async () => void (await sender.releaseDeadClaims()));
  app.addHook('preClose', async () => jobs.stop());
  app.addHook('preClose', async () => sessions.closeAll());
  return { ctx, jobs, media, pipeline, simulator, sessions, sender, cloud };
}

/**
 * The automation on top of the channels: the bots of AI prompts and queue integrations, the flow
 * engine they start and answer through, the queue chatbot and the connection timers. What the inbound
 * pipeline hands to automation is wired here. Returns the flow engine, which the flows area drives.
 */
function createAutomation(app: ZodApp, { ctx, jobs, sender }: Channels): FlowEngine {
  const bots = new BotEngine(ctx, sender, jobs);
  const flows = new FlowEngine(ctx, sender, jobs);
  flows.register();
  bots.setFlowResponder(({ companyId, ticketId, job, body, ticket }) =>
    flows.answer(companyId, ticketId, job, body, ticket),
  );
  bots.setFlowStarter(({ companyId, ticketId, integrationId }) =>
    flows.startForIntegration(companyId, ticketId, integrationId),
  );
  const assigner = new AutoAssigner(ctx, sender);
  assigner.register(jobs);
  // Service levels: a ticket a bot, a flow or a timer puts in a queue with targets gets its due
  // times from a plan run queued then, not from the every-minute sweep (decision 0124).
  const sla = new ServiceLevels(ctx);
  sla.register(jobs);
  flows.setHandOver(async (tx, companyId, queueId) => {
    await sla.requestForQueue(tx, companyId, queueId);
    await assigner.requestIn(tx, companyId, queueId);
  });
  new QueueBot(ctx, sender, bots, async (companyId, ticketId) => {
    await sla.requestFor([ticketId]);
    await assigner.assignWaiting(companyId, ticketId);
  }).register(jobs);
  const timers = new ConnectionTimers(ctx, sender, assigner, sla);
  timers.register(jobs);
  app.decorate('timers', timers);
  app.decorate('bots', bots);
  app.decorate('flows', flows);
  app.decorate('assigner', assigner);
  app.decorate('sla', sla);
  return flows;
}
