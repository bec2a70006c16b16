import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { companies, plans, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../lib/guards.js';
import { sessionAliveSql } from './sessions.js';
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
 * loads the user with its company plan and whether the token's session (`sid`, the refresh-token
 * family) is still alive, all in one query (so logout, a new sign-in, password or role changes and
 * deletions apply at once), then checks `role` and `plan`. Users of a company whose dueDate has
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
    const [row] = await ctx.db
      .select({
        id: users.id,
        companyId: users.companyId,
        profile: users.profile,
        super: users.super,
        plan: plans,
        sessionAlive: sessionAliveSql(claims.sessionId, users.id),
        dueDate: companies.dueDate,
      })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(eq(users.id, claims.userId))
      .limit(1);
    if (!row || row.companyId !== claims.companyId || !row.sessionAlive)
      throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
    // The company's subscription ended (its dueDate passed): the login gate's rule, at once.
    if (!row.super && row.dueDate && row.dueDate.getTime() <= Date.now())
      throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
    const auth: AuthContext = {
      userId: row.id,
      companyId: row.companyId,
      profile: row.profile,
      super: row.super,
      sessionId: claims.sessionId,
      planFlags: {
        useCampaigns: row.plan?.useCampaigns ?? false,
        useSchedules: row.plan?.useSchedules ?? false,
        useInternalChat: row.plan?.useInternalChat ?? false,
        useExternalApi: row.plan?.useExternalApi ?? false,
        useKanban: row.plan?.useKanban ?? false,
        useOpenAi: row.plan?.useOpenAi ?? false,
        useIntegrations: row.plan?.useIntegrations ?? false,
      },
    };
    request.auth = auth;
    if (config.role === 'super' && !auth.super) throw new AppError('ERR_NO_PERMISSION');
    if (config.role === 'admin' && auth.profile !== 'admin' && !auth.super)
      throw new AppError('ERR_NO_PERMISSION');
    if (config.plan && !auth.planFlags[config.plan] && !auth.super)
      throw new AppError('ERR_PLAN_FEATURE_DISABLED');
  };
}
