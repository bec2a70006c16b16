import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ConnectionTimers } from './automation/connection-timers.js';
import { QueueBot } from './automation/queue-bot.js';
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
import { AppError } from './lib/app-error.js';
import { errorHandler } from './lib/error-handler.js';
import type { RouteGuard } from './lib/guards.js';
import { createMetrics } from './lib/metrics.js';
import type { Secrets } from './lib/secrets.js';
import { authGuard } from './modules/auth/guard.js';
import { authRoutes } from './modules/auth/routes.js';
import { isSessionAlive } from './modules/auth/sessions.js';
import { verifyAccessToken } from './modules/auth/tokens.js';
import { companyRoutes } from './modules/companies/routes.js';
import { companyScheduleRoutes } from './modules/companies/schedules.js';
import { contactRoutes } from './modules/contacts/routes.js';
import { dashboardRoutes } from './modules/dashboard/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { messageRoutes } from './modules/messages/routes.js';
import { planRoutes } from './modules/plans/routes.js';
import { queueRoutes } from './modules/queues/routes.js';
import { quickMessageRoutes } from './modules/quick-messages/routes.js';
import { settingRoutes } from './modules/settings/routes.js';
import { simulatorRoutes } from './modules/simulator/routes.js';
import { tagRoutes } from './modules/tags/routes.js';
import { ticketNoteRoutes } from './modules/ticket-notes/routes.js';
import { ticketRoutes } from './modules/tickets/routes.js';
import { userRoutes } from './modules/users/routes.js';
import { whatsappRoutes } from './modules/whatsapp/routes.js';
import { Realtime } from './realtime/realtime.js';
import { connectRedis, useRedisAdapter } from './realtime/redis-adapter.js';
import { visibilityRooms } from './realtime/visibility-rooms.js';

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  secrets: Secrets;
  /** pino options or false; tests pass false. */
  logger?: boolean | Record<string, unknown>;
  /** Extra drivers by provider (the Baileys driver in production; fakes in tests). */
  drivers?: Partial<Record<string, DriverFactory>>;
  /** A shared simulator network (several app instances in one process); one per app otherwise. */
  simulator?: SimulatorNetwork;
  /**
   * Run job workers and schedules in this process. Default: on, except under NODE_ENV=test, where
   * tests run queued jobs with `app.jobs.drain()`.
   */
  jobWorkers?: boolean;
}

/** A registered /api route and its declared guard (see lib/guards.ts). */
export interface RouteEntry extends RouteGuard {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Every /api route with its guard, filled while routes register. */
    routeTable: RouteEntry[];
    sessions: SessionManager;
    pipeline: InboundPipeline;
    simulator: SimulatorNetwork;
    jobs: JobQueue;
    /** The connection timers (run every minute by the job queue; tests call `run(now)`). */
    timers: ConnectionTimers;
  }
}

/**
 * Builds the Fastify application without listening: plugins, error handling, guards, the /api
 * routes, socket.io, metrics, OpenAPI at /api/docs and the built web app when present.
 * Used by main.ts and by every server test through `app.inject()`.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database, secrets } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.LOG_LEVEL },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY (off by default).
    trustProxy: config.TRUST_PROXY,
  }).withTypeProvider() as unknown as ZodApp;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);

  const realtime = new Realtime(
    app.server,
    // A handshake needs a valid token of a session that has not ended.
    async (token) => {
      const claims = await verifyAccessToken(token, secrets.jwtSecret);
      if (!(await isSessionAlive(database.db, claims.userId, claims.sessionId))) {
        throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
      }
      return claims;
    },
    app.log,
    (auth) => visibilityRooms(database.db, auth.companyId, auth.userId),
  );
  // With REDIS_URL, counters shared by every node (login limits) live in Redis.
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
  const ctx: AppContext = { config, database, db: database.db, secrets, realtime, log: app.log, redis };
  app.decorate('ctx', ctx);
  app.decorate('routeTable', [] as RouteEntry[]);
  if (config.REDIS_URL) {
    const closeRedis = await useRedisAdapter(realtime, config.REDIS_URL);
    app.addHook('onClose', closeRedis);
  }
  app.addHook('preClose', async () => realtime.close());

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const guard = route.config as Partial<RouteGuard> | undefined;
    if (guard?.auth !== 'public' && guard?.auth !== 'user') {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no guard (config.auth)`);
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      app.routeTable.push({ method, url: route.url, auth: guard.auth, role: guard.role, plan: guard.plan });
    }
  });

  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: 100 * 1024 * 1024, files: 10, fields: 20, fieldSize: 65_536 },
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      error: 'ERR_TOO_MANY_REQUESTS',
      retryAfter: Math.ceil(context.ttl / 1000),
    }),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Zapdesk API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const metrics = createMetrics(app, config);
  app.addHook('onRequest', authGuard(ctx));

  const media = new MediaStore(path.join(config.dataDir, 'media'));
  const jobs = new JobQueue(database, {
    log: app.log,
    workers: options.jobWorkers ?? config.NODE_ENV !== 'test',
  });
  const pipeline = new InboundPipeline(ctx, media, jobs);
  const network = options.simulator ?? new SimulatorNetwork(config.NODE_ENV === 'test' ? 5 : 300);
  const sessions = new SessionManager(
    ctx,
    pipeline,
    {
      simulator: (driverContext) =>
        new SimulatorDriver({
          ...driverContext,
          network,
          pairDelayMs: config.NODE_ENV === 'test' ? 0 : config.SIMULATOR_PAIR_MS,
        }),
      ...options.drivers,
    },
    // Several nodes share a Postgres server: each session runs on the node holding its lease.
    { enabled: database.kind === 'postgres', nodeId: crypto.randomUUID(), ttlMs: config.SESSION_LEASE_MS },
  );
  const sender = new OutboundSender(ctx, sessions, media);
  sessions.onPendingDelivery(async (ids) => void (await sender.deliverPending(ids)));
  new QueueBot(ctx, sender).register(jobs);
  const timers = new ConnectionTimers(ctx, sender);
  timers.register(jobs);
  app.decorate('sessions', sessions);
  app.decorate('pipeline', pipeline);
  app.decorate('simulator', network);
  app.decorate('jobs', jobs);
  app.decorate('timers', timers);
  // The job queue's schema is installed before any request can queue a job inside a transaction.
  app.addHook('onReady', async () => jobs.start());
  app.addHook('preClose', async () => jobs.stop());
  app.addHook('preClose', async () => sessions.closeAll());

  await app.register(
    async (api) => {
      const zapi = api as unknown as ZodApp;
      healthRoutes(zapi, ctx);
      authRoutes(zapi, ctx);
      userRoutes(zapi, ctx);
      settingRoutes(zapi, ctx);
      companyRoutes(zapi, ctx);
      companyScheduleRoutes(zapi, ctx);
      dashboardRoutes(zapi, ctx);
      planRoutes(zapi, ctx);
      queueRoutes(zapi, ctx);
      whatsappRoutes(zapi, ctx, sessions);
      messageRoutes(zapi, ctx, sender, media, sessions);
      ticketRoutes(zapi, ctx, sender);
      ticketNoteRoutes(zapi, ctx);
      tagRoutes(zapi, ctx);
      quickMessageRoutes(zapi, ctx, media);
      contactRoutes(zapi, ctx);
      simulatorRoutes(zapi, ctx, sessions, network);
    },
    { prefix: '/api' },
  );
  void metrics;

  const webDist = config.WEB_DIST ?? path.resolve(import.meta.dirname ?? '.', '../../web/dist');
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const isApi = url.startsWith('/api') || url.startsWith('/socket.io') || url === '/metrics';
    if (hasWeb && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').sendFile('index.html');
    }
    throw new AppError('ERR_NOT_FOUND');
  });
  return app as unknown as FastifyInstance;
}
