import { ZPlan, ZPlanBody } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { publicRoute, superRoute, userRoute } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import { createPlan, deletePlan, getPlan, listPlans, updatePlan } from './plans-service.js';

/**
 * Plans (document 3 section 7): the public list for signup, reads for signed-in users (the plans
 * page) and the super user's administration (settings, plans tab).
 */
export function planRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['plans'];
  const list = { 200: z.array(ZPlan) };
  const route = routeTable(app, tags, publicRoute);
  route.get('/plans/list', { security: [], response: list }, () => listPlans(ctx));
  route.get('/plans/all', { guard: userRoute, response: list }, () => listPlans(ctx));
  resourceRoutes(app, {
    path: '/plans',
    tags,
    item: ZPlan,
    body: ZPlanBody,
    updateBody: ZPlanBody.partial(),
    show: [userRoute, (_auth, id) => getPlan(ctx, id)],
    create: [superRoute, (_auth, body) => createPlan(ctx, body)],
    update: [superRoute, (_auth, id, body) => updatePlan(ctx, id, body)],
    remove: [superRoute, (_auth, id) => deletePlan(ctx, id)],
  });
}
