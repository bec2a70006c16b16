import {
  ZIdParam,
  ZPageQuery,
  ZQueueIntegration,
  ZQueueIntegrationBody,
  ZQueueIntegrationsPage,
  ZTestSessionBody,
  ZTestSessionResult,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { queueIntegrationView, viewerOf } from '../../lib/secret-views.js';
import { routeTable } from '../common/route-table.js';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  listIntegrations,
  testSession,
  updateIntegration,
} from './queue-integrations-service.js';

/** Integrations need the plan's useIntegrations flag (document 2 section 6). */
const readRoute = { auth: 'user', plan: 'useIntegrations' } as const;
const adminRoute = { auth: 'user', role: 'admin', plan: 'useIntegrations' } as const;

/**
 * Queue integrations API (document 2 section 7 "Queue integrations"). Every user reads them (pickers);
 * the signing secret only admins (`queueIntegrationView`).
 */
export function queueIntegrationRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['queue-integrations'];
  const route = routeTable(app, tags, adminRoute);
  route.get(
    '/queueIntegration',
    { guard: readRoute, querystring: ZPageQuery, reply: ZQueueIntegrationsPage },
    async (request) => {
      const page = await listIntegrations(ctx, request.auth.companyId, request.query);
      const viewer = viewerOf(request.auth);
      return {
        ...page,
        queueIntegrations: page.queueIntegrations.map((i) => queueIntegrationView(viewer, i)),
      };
    },
  );
  route.post(
    '/queueIntegration/testSession',
    { body: ZTestSessionBody, reply: ZTestSessionResult },
    (request) => testSession(ctx, request.auth.companyId, request.body),
  );
  route.get(
    '/queueIntegration/:id',
    { guard: readRoute, params: ZIdParam, reply: ZQueueIntegration },
    async (request) =>
      queueIntegrationView(
        viewerOf(request.auth),
        await getIntegration(ctx, request.auth.companyId, request.params.id),
      ),
  );
  // Create answers 200 and delete a message (not 201 and 204 as resourceRoutes does): kept as they are.
  route.post('/queueIntegration', { body: ZQueueIntegrationBody, reply: ZQueueIntegration }, (request) =>
    createIntegration(ctx, request.auth.companyId, request.body),
  );
  route.put(
    '/queueIntegration/:id',
    { params: ZIdParam, body: ZQueueIntegrationBody.partial(), reply: ZQueueIntegration },
    (request) => updateIntegration(ctx, request.auth.companyId, request.params.id, request.body),
  );
  route.delete(
    '/queueIntegration/:id',
    { params: ZIdParam, reply: z.object({ message: z.string() }) },
    async (request) => {
      await deleteIntegration(ctx, request.auth.companyId, request.params.id);
      return { message: 'Integration deleted' };
    },
  );
}
