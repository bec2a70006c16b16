import { ZCoercedId, ZCompany, ZListPlanResponse, ZSignupBody, ZSignupResponse } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { publicRoute, userRoute } from '../../lib/guards.js';
import { getCompany, getCompanyPlan, signup } from './companies-service.js';

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
  app.get(
    '/companies/:id',
    {
      config: userRoute,
      schema: {
        tags,
        params: z.object({ id: ZCoercedId }),
        response: { 200: ZCompany },
      },
    },
    (request) => getCompany(ctx, request.auth, request.params.id),
  );
  app.get(
    '/companies/listPlan/:companyId',
    {
      config: userRoute,
      schema: {
        tags,
        params: z.object({ companyId: ZCoercedId }),
        response: { 200: ZListPlanResponse },
      },
    },
    (request) => getCompanyPlan(ctx, request.auth, request.params.companyId),
  );
}
