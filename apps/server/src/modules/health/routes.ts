import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { migrationsApplied } from '../../db/client.js';
import { publicRoute } from '../../lib/guards.js';

/** Whether this node takes new work; `draining` is set when a graceful stop begins (main.ts). */
export interface Readiness {
  draining: boolean;
}

const ZCheck = z.enum(['ok', 'error', 'off']);
const ZChecks = z.object({ database: ZCheck, redis: ZCheck, migrations: ZCheck, draining: z.boolean() });

/** Runs `probe`: 'ok' when it resolves true, 'error' when it rejects or resolves false. */
async function check(probe: () => Promise<boolean>): Promise<'ok' | 'error'> {
  try {
    return (await probe()) ? 'ok' : 'error';
  } catch {
    return 'error';
  }
}

/**
 * GET /health (liveness: the process answers and its database does): 200 `{ status: 'ok' }`, or
 * 503 `{ status: 'error', error }` when the database does not answer.
 * GET /ready (readiness: send this node traffic): 200 `{ status: 'ready', checks }` when the
 * database answers, Redis answers (when REDIS_URL is set; 'off' otherwise), every migration of this
 * build is applied and the node is not draining; otherwise 503 with `error: ERR_SERVICE_UNAVAILABLE`
 * and the same checks.
 */
export function healthRoutes(app: ZodApp, ctx: AppContext, readiness: Readiness): void {
  app.get(
    '/health',
    {
      config: publicRoute,
      schema: {
        tags: ['health'],
        security: [],
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('error'), error: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await ctx.database.ping();
        return { status: 'ok' as const };
      } catch {
        return reply.status(503).send({ status: 'error' as const, error: 'ERR_SERVICE_UNAVAILABLE' });
      }
    },
  );
  app.get(
    '/ready',
    {
      config: publicRoute,
      schema: {
        tags: ['health'],
        security: [],
        response: {
          200: z.object({ status: z.literal('ready'), checks: ZChecks }),
          503: z.object({ status: z.literal('error'), error: z.string(), checks: ZChecks }),
        },
      },
    },
    async (_request, reply) => {
      const redis = ctx.redis;
      const [database, redisCheck, migrations] = await Promise.all([
        check(async () => {
          await ctx.database.ping();
          return true;
        }),
        redis ? check(async () => (await redis.ping()) === 'PONG') : ('off' as const),
        check(() => migrationsApplied(ctx.database)),
      ]);
      const checks = { database, redis: redisCheck, migrations, draining: readiness.draining };
      const ready = database === 'ok' && redisCheck !== 'error' && migrations === 'ok' && !readiness.draining;
      if (ready) return { status: 'ready' as const, checks };
      return reply.status(503).send({ status: 'error' as const, error: 'ERR_SERVICE_UNAVAILABLE', checks });
    },
  );
}
