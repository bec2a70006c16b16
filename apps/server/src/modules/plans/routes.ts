import { ZPlan } from '@zapdesk/shared';
import { asc } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { plans } from '../../db/schema/index.js';
import { publicRoute } from '../../lib/guards.js';
import { toPlan } from '../auth/session-user.js';

/** GET /plans/list (document 3 section 7): public list of plans for signup. */
export function planRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/plans/list',
    { config: publicRoute, schema: { tags: ['plans'], security: [], response: { 200: z.array(ZPlan) } } },
    async () => (await ctx.db.select().from(plans).orderBy(asc(plans.value), asc(plans.id))).map(toPlan),
  );
}
