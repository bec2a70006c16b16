import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import Negotiator from 'negotiator';
import type { z } from 'zod';
import { BotEngine } from './automation/bots/bot-engine.js';
import { ConnectionTimers } from './automation/connection-timers.js';
import { FlowEngine } from './automation/flows/flow-engine.js';
import { QUEUE_BOT_JOB } from './automation/jobs.js';
import { QueueBot } from './automation/queue-bot.js';
import { isRatingAnswer } from './automation/ratings.js';
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
import { AppError } from './lib/app-error.js';
import { CompanyCaches } from './lib/company-cache.js';
import { errorHandler } from './lib/error-handler.js';
import type { RouteGuard } from './lib/guards.js';
import { inputGuard, keepUnnamedFields } from './lib/input-guard.js';
import { registerJsonParser } from './lib/json-body.js';
import { createMetrics } from './lib/metrics.js';
import { NotifyListener } from './lib/notify-listener.js';
import type { Secrets } from './lib/secrets.js';
import { precompressedPage, registerCompression, staticAssetHeaders } from './lib/web-delivery.js';
import { AuthCache } from './modules/auth/auth-cache.js';
import { authGuard } from './modules/auth/guard.js';
import { authRoutes } from './modules/auth/routes.js';
import { isSessionAlive } from './modules/auth/sessions.js';
import { registerSubscriptionExpiry } from './modules/auth/subscription-expiry.js';
import { verifyAccessToken } from './modules/auth/tokens.js';
import { billingRoutes } from './modules/billing/routes.js';
import { CampaignEngine } from './modules/campaigns/campaign-engine.js';
import { CampaignService } from './modules/campaigns/campaigns-service.js';
import { campaignRoutes } from './modules/campaigns/routes.js';
import { chatRoutes } from './modules/chats/routes.js';
import { cloudRoutes } from './modules/cloud/routes.js';
import { companyAdminRoutes } from './modules/companies/admin-routes.js';
import { companyRoutes } from './modules/companies/routes.js';
import { companyScheduleRoutes } from './modules/companies/schedules.js';
import { ContactListService } from './modules/contact-lists/contact-lists-service.js';
import { contactListRoutes } from './modules/contact-lists/routes.js';
import { toContact } from './modules/contacts/contacts-service.js';
import { contactRoutes } from './modules/contacts/routes.js';
import { dashboardRoutes } from './modules/dashboard/routes.js';
import { fileRoutes } from './modules/files/routes.js';
import { flowRoutes } from './modules/flows/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { kanbanRoutes } from './modules/kanban/routes.js';
import { findMessage, setMediaPrefix, toMessage } from './modules/messages/message-repository.js';
import { messageRoutes } from './modules/messages/routes.js';
import { noticeRoutes } from './modules/notices.js';
import { externalApiRoutes } from './modules/outside/external-api.js';
import { passwordResetRoutes, redactSecretUrl } from './modules/password-reset/routes.js';
import { planRoutes } from './modules/plans/routes.js';
import { promptRoutes } from './modules/prompts/routes.js';
import { queueIntegrationRoutes } from './modules/queue-integrations/routes.js';
import { queueRoutes } from './modules/queues/routes.js';
import { quickMessageRoutes } from './modules/quick-messages/routes.js';
import { scheduleRoutes } from './modules/schedules/routes.js';
import { ScheduleService } from './modules/schedules/schedules-service.js';
import { settingRoutes } from './modules/settings/routes.js';
import { simulatorRoutes } from './modules/simulator/routes.js';
import { tagRoutes } from './modules/tags/routes.js';
import { ticketNoteRoutes } from './modules/ticket-notes/routes.js';
import { ticketRoutes } from './modules/tickets/routes.js';
import { findTicket, toTicket } from './modules/tickets/ticket-repository.js';
import { userRoutes } from './modules/users/routes.js';
import { WebhookDispatcher } from './modules/webhooks/dispatcher.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
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

/** A registered API route and its declared guard (see lib/guards.ts). */
export interface RouteEntry extends RouteGuard {
  method: string;
  /** The URL as registered, API_PREFIX included ('/api/tickets/:id', or '/tickets/:id' at the root). */
  url: string;
  /** The URL below API_PREFIX ('/tickets/:id'), the same whatever the prefix. */
  path: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Every API route with its guard, filled while routes register. */
    routeTable: RouteEntry[];
    sessions: SessionManager;
    pipeline: InboundPipeline;
    simulator: SimulatorNetwork;
    jobs: JobQueue;
    /** Scheduled messages (issue 11 item 1); campaigns and tests call it. */
    schedules: ScheduleService;
    /** The campaign engine (issue 11 item 4): tests and benchmarks drive it. */
    campaigns: CampaignEngine;
    /** Contact lists (issue 11): campaigns call `validRecipients` on it. */
    contactLists: ContactListService;
    /** The answering engine of AI prompts and queue integrations. */
    bots: BotEngine;
    /** The flow engine (issue 14): flow runs advanced by jobs; tests call it. */
    flows: FlowEngine;
    /** The connection timers (run every minute by the job queue; tests call `run(now)`). */
    timers: ConnectionTimers;
    /** Outgoing webhooks (tests await `settled()` before draining the job queue). */
    webhooks: WebhookDispatcher;
  }
}

/**
 * The Content-Security-Policy of the web app and the API (docs/architecture.md, "Headers"): scripts
 * and everything else from the app's own origin; inline styles (MUI's emotion inserts <style>
 * tags); images and media also from data: and blob: (media is fetched with the token into blob
 * URLs); socket.io over the same origin ('self' covers ws:/wss: of the page's host); no frames,
 * plugins or foreign form targets.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Help video thumbnails (document 2 section 2 Helps).
  imgSrc: ["'self'", 'data:', 'blob:', 'https://i.ytimg.com'],
  mediaSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  // Only the privacy-enhanced YouTube player of the help videos may be framed.
  frameSrc: ['https://www.youtube-nocookie.com'],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  upgradeInsecureRequests: null,
};

/**
 * The logger options with a request serializer that never writes the values of the password-reset
 * paths (e-mail, code, new password) to the logs.
 */
function withRedactedRequests(logger: boolean | Record<string, unknown>): boolean | Record<string, unknown> {
  if (logger === false) return false;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    serializers: {
      ...(options.serializers as Record<string, unknown> | undefined),
      req: (request: {
        method: string;
        url: string;
        host?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: request.method,
        url: redactSecretUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}

/**
 * Builds the Fastify application without listening: plugins, security headers, CORS, error
 * handling, guards, the API routes under API_PREFIX ('/api' by default, '' for the root), socket.io,
 * metrics, OpenAPI at `<prefix>/docs` and the built web app when present.
 * Used by main.ts and by every server test through `app.inject()`.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database, secrets } = options;
  const app = Fastify({
    logger: withRedactedRequests(options.logger ?? { level: config.LOG_LEVEL }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY (off by default).
    trustProxy: config.TRUST_PROXY,
  }).withTypeProvider() as unknown as ZodApp;
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  // JSON bodies nested deeper than MAX_JSON_DEPTH are refused before they are parsed.
  registerJsonParser(app as unknown as FastifyInstance);
  app.setValidatorCompiler(numericParamsAsNotFound);
  const prefix = config.API_PREFIX;
  setMediaPrefix(prefix);

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
    config.CORS_ORIGINS,
  );
  // With REDIS_URL, counters shared by every node (login limits) live in Redis.
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
  // The guard's per-node cache, dropped by the database's NOTIFY on every change it depends on, and
  // the per-company values the inbound hooks read for every message, dropped the same way: both on
  // the node's one LISTEN connection.
  const authCache = new AuthCache();
  const caches = new CompanyCaches();
  const notifications = new NotifyListener().add(authCache).add(caches);
  await notifications.start(database);
  app.addHook('onClose', async () => notifications.stop());
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    secrets,
    realtime,
    log: app.log,
    redis,
    authCache,
    caches,
    notifications,
    // What the inbound pipeline asks of automation and modules (it imports nothing above channels).
    inbound: {
      automation: { botJob: QUEUE_BOT_JOB, isRatingAnswer },
      records: { toMessage, toTicket, findMessage, findTicket, toContact },
    },
  };
  app.decorate('ctx', ctx);
  app.decorate('routeTable', [] as RouteEntry[]);
  if (config.REDIS_URL) {
    const closeRedis = await useRedisAdapter(realtime, config.REDIS_URL);
    app.addHook('onClose', closeRedis);
  }
  app.addHook('preClose', async () => realtime.close());

  await app.register(helmet, {
    contentSecurityPolicy: { directives: CSP_DIRECTIVES },
    // HSTS only where HTTPS is the rule; in development it would pin localhost to https.
    strictTransportSecurity: config.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    // Allowed browser origins (CORS_ORIGINS) may also embed the API's answers.
    crossOriginResourcePolicy: { policy: config.CORS_ORIGINS.length ? 'cross-origin' : 'same-origin' },
  });
  if (config.CORS_ORIGINS.length) {
    await app.register(cors, {
      origin: config.CORS_ORIGINS,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      maxAge: 600,
    });
  }
  // brotli/gzip for text answers above a threshold (lib/web-delivery.ts); before any route.
  await registerCompression(app as unknown as FastifyInstance);
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
  await app.register(swaggerUi, {
    routePrefix: `${prefix}/docs`,
    // Its own CSP for its files, without forcing https (a plain-http install would lose its assets).
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });

  const metrics = createMetrics(app, config);
  const webDist = config.WEB_DIST ?? path.resolve(import.meta.dirname ?? '.', '../../web/dist');
  const indexHtml = readIndexHtml(webDist, prefix);
  const page = indexHtml === undefined ? undefined : precompressedPage(indexHtml);
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => page?.(request, reply);
  if (indexHtml !== undefined && prefix === '') {
    // At the root, client routes (/tickets) and API routes share paths: a browser navigation
    // (asks for HTML, carries no token) gets the web app; API calls go on to their handler.
    app.addHook('onRequest', async (request, reply) => {
      if (isNavigation(request) && request.routeOptions.config?.auth) return sendIndex(request, reply);
    });
  }
  app.addHook('onRequest', authGuard(ctx));
  app.addHook('preValidation', inputGuard);
  app.addHook('preHandler', keepUnnamedFields);

  const media = new MediaStore(path.join(config.dataDir, 'media'));
  const jobs = new JobQueue(database, {
    log: app.log,
    workers: options.jobWorkers ?? config.NODE_ENV !== 'test',
    nodeId: config.nodeId,
  });
  const pipeline = new InboundPipeline(ctx, media, jobs);
  const network =
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
          network,
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
  const campaignEngine = new CampaignEngine(ctx, jobs, sender, media, sessions, pipeline);
  campaignEngine.register();
  const campaignService = new CampaignService(ctx, media, campaignEngine);
  campaignEngine.notify = (companyId, campaignId) => campaignService.emit(companyId, campaignId);
  pipeline.observers.push((connection, result) =>
    campaignEngine.optOutFromInbound(connection.companyId, result),
  );
  pipeline.observers.push((connection, result) =>
    campaignEngine.confirmFromInbound(connection.companyId, connection.id, result),
  );
  sessions.onPendingDelivery(async (ids) => {
    await sender.deliverPending(ids);
    // Campaign sends paused while the connection was away resume at its pace.
    await campaignEngine.resume(ids);
  });
  sender.useRetries(jobs, { baseSeconds: config.SEND_RETRY_BASE_SECONDS, limit: config.SEND_RETRY_LIMIT });
  cloud = new CloudChannel(ctx, pipeline, jobs, sessions);
  cloud.register();
  sender.sendChecks.push(cloud.sendCheck);
  const bots = new BotEngine(ctx, sender, jobs);
  const flowEngine = new FlowEngine(ctx, sender, jobs);
  flowEngine.register();
  bots.setFlowResponder(({ companyId, ticketId, job, body }) =>
    flowEngine.answer(companyId, ticketId, job, body),
  );
  bots.setFlowStarter(({ companyId, ticketId, integrationId }) =>
    flowEngine.startForIntegration(companyId, ticketId, integrationId),
  );
  new QueueBot(ctx, sender, bots).register(jobs);
  const timers = new ConnectionTimers(ctx, sender);
  timers.register(jobs);
  registerSubscriptionExpiry(ctx, jobs);
  const scheduleService = new ScheduleService(ctx, jobs, sender, media);
  scheduleService.register();
  const webhookDispatcher = new WebhookDispatcher(ctx, jobs);
  webhookDispatcher.register();
  const contactListService = new ContactListService(ctx, jobs, sessions);
  contactListService.register();
  app.decorate('contactLists', contactListService);
  app.decorate('campaigns', campaignEngine);
  app.decorate('webhooks', webhookDispatcher);
  app.decorate('sessions', sessions);
  app.decorate('pipeline', pipeline);
  app.decorate('simulator', network);
  app.decorate('jobs', jobs);
  app.decorate('schedules', scheduleService);
  app.decorate('timers', timers);
  app.decorate('bots', bots);
  app.decorate('flows', flowEngine);
  // The job queue's schema is installed before any request can queue a job inside a transaction.
  app.addHook('onReady', async () => jobs.start());
  // Before any session starts: send claims left by this node id's previous process are given back.
  app.addHook('onReady', async () => void (await sender.releaseDeadClaims()));
  app.addHook('preClose', async () => jobs.stop());
  app.addHook('preClose', async () => sessions.closeAll());

  await app.register(
    async (api) => {
      // Every route of the API declares its guard; the table keeps it with the prefix-free path.
      api.addHook('onRoute', (route: RouteOptions) => {
        const guard = route.config as Partial<RouteGuard> | undefined;
        if (guard?.auth !== 'public' && guard?.auth !== 'user') {
          throw new Error(`Route ${String(route.method)} ${route.url} declares no guard (config.auth)`);
        }
        const routePath = route.url.slice(prefix.length) || '/';
        for (const method of [route.method].flat()) {
          if (method === 'HEAD') continue;
          app.routeTable.push({
            method,
            url: route.url,
            path: routePath,
            auth: guard.auth,
            role: guard.role,
            plan: guard.plan,
          });
        }
      });
      const zapi = api as unknown as ZodApp;
      healthRoutes(zapi, ctx);
      authRoutes(zapi, ctx);
      passwordResetRoutes(zapi, ctx);
      userRoutes(zapi, ctx);
      settingRoutes(zapi, ctx);
      companyRoutes(zapi, ctx);
      companyScheduleRoutes(zapi, ctx);
      companyAdminRoutes(zapi, ctx, sessions, media);
      dashboardRoutes(zapi, ctx);
      planRoutes(zapi, ctx);
      billingRoutes(zapi, ctx);
      queueRoutes(zapi, ctx);
      whatsappRoutes(zapi, ctx, sessions);
      messageRoutes(zapi, ctx, sender, media, sessions);
      ticketRoutes(zapi, ctx, sender);
      ticketNoteRoutes(zapi, ctx);
      tagRoutes(zapi, ctx);
      quickMessageRoutes(zapi, ctx, media);
      scheduleRoutes(zapi, scheduleService);
      fileRoutes(zapi, ctx, media);
      contactRoutes(zapi, ctx);
      chatRoutes(zapi, ctx);
      kanbanRoutes(zapi, ctx);
      noticeRoutes(zapi, ctx, media);
      simulatorRoutes(zapi, ctx, sessions, network);
      promptRoutes(zapi, ctx);
      queueIntegrationRoutes(zapi, ctx);
      externalApiRoutes(zapi, ctx, sender);
      webhookRoutes(zapi, ctx, jobs);
      cloudRoutes(zapi, cloud, ctx);
      contactListRoutes(zapi, contactListService);
      campaignRoutes(zapi, campaignService);
      flowRoutes(zapi, ctx, media, { engine: flowEngine, sessions });
    },
    { prefix },
  );
  void metrics;

  if (indexHtml !== undefined) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // index.html goes out only as the page above, with the API prefix in it.
      allowedPath: (pathName) => pathName !== '/index.html',
      // The build's .br/.gz siblings (apps/web/scripts/precompress.mjs), per Accept-Encoding.
      preCompressed: true,
      // The cache headers are set per file (immutable hashed assets); see lib/web-delivery.ts.
      cacheControl: false,
      setHeaders: staticAssetHeaders,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const underApi = prefix !== '' && (url === prefix || url.startsWith(`${prefix}/`));
    const isApi = underApi || url.startsWith('/socket.io') || url === '/metrics';
    if (indexHtml !== undefined && !isApi && isPageRequest(request, url)) return sendIndex(request, reply);
    throw new AppError('ERR_NOT_FOUND');
  });
  return app as unknown as FastifyInstance;
}

/**
 * The zod validator compiler, except that a numeric path parameter that fails its schema (a word
 * where an id goes: /companies/something, an id out of range) names no resource and answers 404
 * ERR_NOT_FOUND, as an undefined path does, instead of a validation error. Other parameters
 * (/users/set-language/:lang) keep their 400 ERR_VALIDATION.
 */
const numericParamsAsNotFound: typeof validatorCompiler = (route) => {
  const validate = validatorCompiler(route);
  if (route.httpPart !== 'params') return validate;
  const shape = (route.schema as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const numeric = Object.entries(shape).filter(([, field]) => isNumberSchema(field));
  if (!numeric.length) return validate;
  return (data: unknown) => {
    const result = validate(data) as { error?: Error; value?: unknown };
    if (!result.error) return result;
    const params = (data ?? {}) as Record<string, unknown>;
    const badId = numeric.some(([key, field]) => !field.safeParse(params[key]).success);
    return badId ? { error: new AppError('ERR_NOT_FOUND') } : result;
  };
};

/** True when a zod schema takes a number (through optional, default and pipe wrappers). */
function isNumberSchema(schema: z.ZodType): boolean {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  if (def.type === 'number' || def.type === 'int') return true;
  const inner = [def.innerType, def.in, def.out].filter(Boolean) as z.ZodType[];
  return inner.some(isNumberSchema);
}

/** A browser loading a page: GET or HEAD asking for HTML, without a bearer token. */
function isNavigation(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.headers.authorization &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * Whether an unknown path gets the web app (its client routes): a navigation (above) to a path whose
 * last segment has no file extension, with HTML preferred to JSON in Accept (negotiated: an Accept of
 * only any type is not enough); /index.html is the page too. /favicon.ico, /foo.js or an API client's
 * call answer 404 instead.
 */
function isPageRequest(request: FastifyRequest, url: string): boolean {
  if (!isNavigation(request)) return false;
  const lastSegment = url.slice(url.lastIndexOf('/') + 1);
  if (url !== '/index.html' && path.posix.extname(lastSegment) !== '') return false;
  return new Negotiator(request).mediaType(['application/json', 'text/html']) === 'text/html';
}

/**
 * The built web app's index.html with the API prefix in `<meta name="zapdesk-api-base">` (the web
 * app reads it to reach the API wherever API_PREFIX puts it), or undefined when there is no build.
 */
function readIndexHtml(webDist: string, prefix: string): string | undefined {
  const file = path.join(webDist, 'index.html');
  if (!fs.existsSync(file)) return undefined;
  const html = fs.readFileSync(file, 'utf8');
  const meta = `<meta name="zapdesk-api-base" content="${prefix}" />`;
  return html.includes('</head>') ? html.replace('</head>', `${meta}</head>`) : `${meta}${html}`;
}
