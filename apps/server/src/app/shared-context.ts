import { QUEUE_BOT_JOB } from '../automation/jobs.js';
import { isRatingAnswer } from '../automation/ratings.js';
import { SLA_PLAN_JOB } from '../automation/service-levels.js';
import type { Config } from '../config.js';
import type { AppContext, ZodApp } from '../context.js';
import type { DatabaseHandle } from '../db/client.js';
import { findMessage, toMessage } from '../db/message-repository.js';
import { findTicket, toTicket } from '../db/ticket-repository.js';
import { JOB_WAKE_CHANNEL } from '../jobs/job-queue.js';
import { AppError } from '../lib/app-error.js';
import { CompanyCaches } from '../lib/company-cache.js';
import { NotifyListener } from '../lib/notify-listener.js';
import { LEASE_RELEASE_CHANNEL, NotifySignal } from '../lib/notify-signal.js';
import type { Secrets } from '../lib/secrets.js';
import { AuthCache } from '../modules/auth/auth-cache.js';
import { isSessionAlive } from '../modules/auth/sessions.js';
import { verifyAccessToken } from '../modules/auth/tokens.js';
import { toContact } from '../modules/contacts/contacts-service.js';
import { Realtime } from '../realtime/realtime.js';
import { connectRedis, useRedisAdapter } from '../realtime/redis-adapter.js';
import { visibilityRooms } from '../realtime/visibility-rooms.js';

/**
 * The app context every service receives, built on the app's server: the socket layer (its
 * handshake needs a live session's token), Redis when REDIS_URL is set, and the per-node caches on
 * the node's one LISTEN connection. Decorates the app with it (`app.ctx`) and closes what it opened
 * with the app.
 */
export async function createContext(
  app: ZodApp,
  { config, database, secrets }: { config: Config; database: DatabaseHandle; secrets: Secrets },
): Promise<AppContext> {
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
  // Another node gave its session leases back: this node takes them over at once (SessionManager).
  const leaseReleases = new NotifySignal(LEASE_RELEASE_CHANNEL);
  // A job queued or freed on any node wakes this node's worker of its kind (JobQueue `wakes`).
  const jobWakes = new NotifySignal(JOB_WAKE_CHANNEL);
  const notifications = new NotifyListener().add(authCache).add(caches).add(leaseReleases).add(jobWakes);
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
    leaseReleases,
    jobWakes,
    // What the inbound pipeline asks of automation and modules (it imports nothing above channels).
    inbound: {
      automation: { botJob: QUEUE_BOT_JOB, isRatingAnswer, slaPlanJob: SLA_PLAN_JOB },
      records: { toMessage, toTicket, findMessage, findTicket, toContact },
    },
  };
  app.decorate('ctx', ctx);
  if (config.REDIS_URL) {
    const closeRedis = await useRedisAdapter(realtime, config.REDIS_URL);
    app.addHook('onClose', closeRedis);
  }
  app.addHook('preClose', async () => realtime.close());
  return ctx;
}
