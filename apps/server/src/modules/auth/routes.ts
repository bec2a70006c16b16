import { ZAuthResponse, ZLoginBody, ZSessionUser } from '@zapdesk/shared';
import type { FastifyReply } from 'fastify';
import type { AppContext, ZodApp } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { publicRoute, userRoute } from '../../lib/guards.js';
import { routeTable } from '../common/route-table.js';
import { type IssuedSession, login, logout, refresh } from './auth-service.js';
import { bearerToken } from './guard.js';
import { LoginLimiter } from './login-limiter.js';
import { loadSessionUser } from './session-user.js';
import { verifyAccessToken } from './tokens.js';

/** Name of the httpOnly cookie holding the refresh token. */
export const REFRESH_COOKIE = 'jrt';
/** The refresh cookie's path: the auth routes under API_PREFIX ('/api/auth', or '/auth' at the root). */
const cookiePath = (ctx: AppContext) => `${ctx.config.API_PREFIX}/auth`;

function setRefreshCookie(ctx: AppContext, reply: FastifyReply, session: IssuedSession): void {
  reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.config.production,
    path: cookiePath(ctx),
    expires: session.refreshExpiresAt,
  });
}

/** Auth API, core document section 7 (Auth) and section 4 (Session). */
export function authRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['auth'];
  const limiter = new LoginLimiter(
    {
      consecutiveMax: ctx.config.LOGIN_RATE_MAX,
      lockMs: ctx.config.LOGIN_RATE_WINDOW_MS,
      ipDailyMax: ctx.config.LOGIN_IP_DAILY_MAX,
      accountDailyMax: ctx.config.LOGIN_ACCOUNT_DAILY_MAX,
    },
    ctx.redis,
  );
  const route = routeTable(app, tags, publicRoute);
  route.post(
    '/auth/login',
    { security: [], body: ZLoginBody, reply: ZAuthResponse },
    async (request, reply) => {
      // Only failed sign-ins count: a right password (even of an expired company) gives the points back.
      const attempt = await limiter.attempt(request.body.email, request.ip);
      const session = await login(ctx, request.body).catch(async (error) => {
        if (error instanceof AppError && error.code === 'ERR_SUBSCRIPTION_EXPIRED') await attempt.succeeded();
        throw error;
      });
      await attempt.succeeded();
      setRefreshCookie(ctx, reply, session);
      return session.response;
    },
  );
  app.post(
    '/auth/refresh_token',
    {
      config: { ...publicRoute, rateLimit: { max: 120, timeWindow: 60_000 } },
      schema: { tags, security: [], response: { 200: ZAuthResponse } },
    },
    async (request, reply) => {
      const session = await refresh(ctx, request.cookies[REFRESH_COOKIE]).catch((error) => {
        reply.clearCookie(REFRESH_COOKIE, { path: cookiePath(ctx) });
        throw error;
      });
      setRefreshCookie(ctx, reply, session);
      return session.response;
    },
  );
  route.delete('/auth/logout', {}, async (request, reply) => {
    const token = bearerToken(request);
    const claims = token
      ? await verifyAccessToken(token, ctx.secrets.jwtSecret).catch(() => undefined)
      : undefined;
    await logout(ctx, request.cookies[REFRESH_COOKIE], claims);
    reply.clearCookie(REFRESH_COOKIE, { path: cookiePath(ctx) });
    return reply.status(204).send();
  });
  route.get('/auth/me', { guard: userRoute, reply: ZSessionUser }, (request) =>
    loadSessionUser(ctx.db, request.auth.companyId, request.auth.userId),
  );
}
