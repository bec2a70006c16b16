import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { publicRoute } from '../../lib/guards.js';

/** GET /health: 200 `{ status: 'ok' }`, or 503 `{ status: 'error', error }` when the database does not answer. */
export function healthRoutes(app: ZodApp, ctx: AppContext): void {
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
}
