import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { companies, plans, refreshTokens, userQueues, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../lib/guards.js';
import type { CachedUser } from './auth-cache.js';
import { verifyAccessToken } from './tokens.js';

/** Reads the bearer token of a request, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/**
 * onRequest hook enforcing each route's declared guard. For `auth: 'user'` it verifies the token,
 * takes the user with its company plan, due date, queues and whether the token's session (`sid`, the
 * refresh-token family) is still alive from the node's AuthCache, or else from one query (logout, a
 * new sign-in, password, role, queue or plan changes and deletions drop the cached answer by NOTIFY,
 * so they apply on the next request), then checks `role` and `plan`. Users of a company whose dueDate has
 * passed are refused like an ended session (super users excepted, as at login).
 * Errors: 401 ERR_SESSION_EXPIRED (no token, user gone, session ended or subscription expired), 403 ERR_SESSION_EXPIRED
 * (expired or invalid token: the client refreshes once), 403 ERR_NO_PERMISSION (role),
 * 403 ERR_PLAN_FEATURE_DISABLED (plan flag).
 */
export function authGuard(ctx: AppContext) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const config = request.routeOptions.config;
    if (config?.auth !== 'user') return;
    const token = bearerToken(request);
    if (!token) throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
    const claims = await verifyAccessToken(token, ctx.secrets.jwtSecret);
    const user = await guardLookup(ctx, claims.userId, claims.sessionId);
    if (!user || user.companyId !== claims.companyId)
      throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
    // The company's subscription ended (its dueDate passed): the login gate's rule, at once.
    if (!user.super && user.dueDate !== null && user.dueDate <= Date.now())
      throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
    const auth: AuthContext = {
      userId: user.userId,
      companyId: user.companyId,
      profile: user.profile,
      super: user.super,
      sessionId: claims.sessionId,
      planFlags: user.planFlags,
      viewer: { allTicket: user.allTicket, queueIds: user.queueIds },
    };
    request.auth = auth;
    if (config.role === 'super' && !auth.super) throw new AppError('ERR_NO_PERMISSION');
    if (config.role === 'admin' && auth.profile !== 'admin' && !auth.super)
      throw new AppError('ERR_NO_PERMISSION');
    if (config.plan && !auth.planFlags[config.plan] && !auth.super)
      throw new AppError('ERR_PLAN_FEATURE_DISABLED');
  };
}

/**
 * The guard's lookup of user `userId` with session `sessionId`: from `ctx.authCache` when it holds
 * both, else one query (user, company due date and plan, queues, the session's latest live refresh
 * token), stored in the cache. Undefined when the user is gone or the session has ended.
 */
export async function guardLookup(
  ctx: AppContext,
  userId: number,
  sessionId: string,
): Promise<CachedUser | undefined> {
  const cache = ctx.authCache;
  const cached = cache?.get(userId, sessionId);
  if (cached) return cached;
  const generation = cache?.begin() ?? 0;
  const [row] = await ctx.db
    .select({
      id: users.id,
      companyId: users.companyId,
      profile: users.profile,
      super: users.super,
      allTicket: users.allTicket,
      plan: plans,
      dueDate: companies.dueDate,
      queueIds: sql<
        number[]
      >`(select coalesce(json_agg(${userQueues.queueId} order by ${userQueues.queueId}), '[]'::json)
        from ${userQueues} where ${userQueues.userId} = ${users.id})`,
      // Epoch ms of the session's latest live refresh token, null when the session has ended.
      sessionExpiresAt: sql<
        number | null
      >`(select (extract(epoch from max(${refreshTokens.expiresAt})) * 1000)::float8
        from ${refreshTokens} where ${refreshTokens.familyId} = ${sessionId} and ${refreshTokens.userId} = ${users.id}
        and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > now())`,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row || row.sessionExpiresAt === null || row.sessionExpiresAt === undefined) return undefined;
  const user: CachedUser = {
    userId: row.id,
    companyId: row.companyId,
    profile: row.profile,
    super: row.super,
    dueDate: row.dueDate ? row.dueDate.getTime() : null,
    allTicket: row.allTicket === 'enabled',
    queueIds: row.queueIds.map(Number),
    planFlags: {
      useCampaigns: row.plan?.useCampaigns ?? false,
      useSchedules: row.plan?.useSchedules ?? false,
      useInternalChat: row.plan?.useInternalChat ?? false,
      useExternalApi: row.plan?.useExternalApi ?? false,
      useKanban: row.plan?.useKanban ?? false,
      useOpenAi: row.plan?.useOpenAi ?? false,
      useIntegrations: row.plan?.useIntegrations ?? false,
      useReports: row.plan?.useReports ?? false,
    },
  };
  cache?.store(generation, user, sessionId, Number(row.sessionExpiresAt));
  return user;
}
