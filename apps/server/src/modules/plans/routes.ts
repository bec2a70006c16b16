import { ZIdParam, ZPlan, ZPlanBody } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { publicRoute, superRoute, userRoute } from '../../lib/guards.js';
import { createPlan, deletePlan, getPlan, listPlans, updatePlan } from './plans-service.js';

/**
 * Plans (document 3 section 7): the public list for signup, reads for signed-in users (the plans
 * page) and the super user's administration (settings, plans tab).
 */
export function planRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['plans'];
  const list = { 200: z.array(ZPlan) };
  app.get('/plans/list', { config: publicRoute, schema: { tags, security: [], response: list } }, () =>
    listPlans(ctx),
  );
  app.get('/plans/all', { config: userRoute, schema: { tags, response: list } }, () => listPlans(ctx));
  app.get(
    '/plans/:id',
    { config: userRoute, schema: { tags, params: ZIdParam, response: { 200: ZPlan } } },
    (request) => getPlan(ctx, request.params.id),
  );
  app.post(
    '/plans',
    { config: superRoute, schema: { tags, body: ZPlanBody, response: { 201: ZPlan } } },
    async (request, reply) => reply.status(201).send(await createPlan(ctx, request.body)),
  );
  app.put(
    '/plans/:id',
    {
      config: superRoute,
      schema: { tags, params: ZIdParam, body: ZPlanBody.partial(), response: { 200: ZPlan } },
    },
    (request) => updatePlan(ctx, request.params.id, request.body),
  );
  app.delete(
    '/plans/:id',
    { config: superRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await deletePlan(ctx, request.params.id);
      return reply.status(204).send();
    },
  );
}
