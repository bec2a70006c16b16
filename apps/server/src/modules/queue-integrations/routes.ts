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
  app.get(
    '/queueIntegration',
    {
      config: readRoute,
      schema: { tags, querystring: ZPageQuery, response: { 200: ZQueueIntegrationsPage } },
    },
    async (request) => {
      const page = await listIntegrations(ctx, request.auth.companyId, request.query);
      const viewer = viewerOf(request.auth);
      return {
        ...page,
        queueIntegrations: page.queueIntegrations.map((i) => queueIntegrationView(viewer, i)),
      };
    },
  );
  app.post(
    '/queueIntegration/testSession',
    {
      config: adminRoute,
      schema: { tags, body: ZTestSessionBody, response: { 200: ZTestSessionResult } },
    },
    (request) => testSession(ctx, request.auth.companyId, request.body),
  );
  app.get(
    '/queueIntegration/:id',
    { config: readRoute, schema: { tags, params: ZIdParam, response: { 200: ZQueueIntegration } } },
    async (request) =>
      queueIntegrationView(
        viewerOf(request.auth),
        await getIntegration(ctx, request.auth.companyId, request.params.id),
      ),
  );
  // Create answers 200 and delete a message (not 201 and 204 as resourceRoutes does): kept as they are.
  app.post(
    '/queueIntegration',
    {
      config: adminRoute,
      schema: { tags, body: ZQueueIntegrationBody, response: { 200: ZQueueIntegration } },
    },
    (request) => createIntegration(ctx, request.auth.companyId, request.body),
  );
  app.put(
    '/queueIntegration/:id',
    {
      config: adminRoute,
      schema: {
        tags,
        params: ZIdParam,
        body: ZQueueIntegrationBody.partial(),
        response: { 200: ZQueueIntegration },
      },
    },
    (request) => updateIntegration(ctx, request.auth.companyId, request.params.id, request.body),
  );
  app.delete(
    '/queueIntegration/:id',
    {
      config: adminRoute,
      schema: { tags, params: ZIdParam, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      await deleteIntegration(ctx, request.auth.companyId, request.params.id);
      return { message: 'Integration deleted' };
    },
  );
}
