import { ZCoercedId, ZCompany, ZListPlanResponse, ZSignupBody, ZSignupResponse } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { publicRoute, userRoute } from '../../lib/guards.js';
import { routeTable } from '../common/route-table.js';
import { getCompany, getCompanyPlan, signup } from './companies-service.js';

/** How long (s) a browser may reuse a listPlan answer without asking again. */
const LIST_PLAN_MAX_AGE_S = 5;

/** Companies API used by the shell (core section 7) and public signup (document 3 section 7). */
export function companyRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['companies'];
  app.post(
    '/companies/cadastro',
    {
      config: { ...publicRoute, rateLimit: { max: 10, timeWindow: 15 * 60_000 } },
      schema: { tags, security: [], body: ZSignupBody, response: { 201: ZSignupResponse } },
    },
    async (request, reply) => reply.status(201).send(await signup(ctx, request.body)),
  );
  const route = routeTable(app, tags, userRoute);
  route.get('/companies/:id', { params: z.object({ id: ZCoercedId }), reply: ZCompany }, (request) =>
    getCompany(ctx, request.auth, request.params.id),
  );
  route.get(
    '/companies/listPlan/:companyId',
    { params: z.object({ companyId: ZCoercedId }), reply: ZListPlanResponse },
    async (request, reply) => {
      const plan = await getCompanyPlan(ctx, request.auth, request.params.companyId);
      // A client that asks many times a second (the classic client refetches it on every render)
      // is served from its browser's cache for a few seconds; the plan seldom changes.
      reply
        .header('cache-control', `private, max-age=${LIST_PLAN_MAX_AGE_S}`)
        .header('vary', 'authorization');
      return plan;
    },
  );
}
