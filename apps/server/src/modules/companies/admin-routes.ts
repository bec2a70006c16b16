import { ZCompaniesPage, ZCompaniesQuery, ZCompanyBody, ZCompanyRow, ZIdParam } from '@zapdesk/shared';
import { z } from 'zod';
import type { MediaStore } from '../../channels/media-store.js';
import type { AppContext, ZodApp } from '../../context.js';
import { superRoute } from '../../lib/guards.js';
import type { SessionControl } from '../whatsapp/whatsapp-service.js';
import {
  allCompanies,
  createCompanyAdmin,
  deleteCompanyAdmin,
  extendCompanyDueDate,
  listCompanies,
  updateCompanyAdmin,
} from './companies-admin.js';

/**
 * Companies administration (document 3 sections 2 and 7, settings companies tab): super user only.
 * GET /companies/:id stays with the shell's routes (a user reads its own company).
 */
export function companyAdminRoutes(
  app: ZodApp,
  ctx: AppContext,
  sessions: SessionControl,
  media: MediaStore,
): void {
  const tags = ['companies'];
  app.get(
    '/companies',
    { config: superRoute, schema: { tags, querystring: ZCompaniesQuery, response: { 200: ZCompaniesPage } } },
    (request) => listCompanies(ctx, request.query),
  );
  app.get(
    '/companies/list',
    { config: superRoute, schema: { tags, response: { 200: z.array(ZCompanyRow) } } },
    () => allCompanies(ctx),
  );
  app.post(
    '/companies',
    { config: superRoute, schema: { tags, body: ZCompanyBody, response: { 201: ZCompanyRow } } },
    async (request, reply) => reply.status(201).send(await createCompanyAdmin(ctx, request.body)),
  );
  app.put(
    '/companies/:id',
    {
      config: superRoute,
      schema: { tags, params: ZIdParam, body: ZCompanyBody.partial(), response: { 200: ZCompanyRow } },
    },
    (request) => updateCompanyAdmin(ctx, request.params.id, request.body),
  );
  app.post(
    '/companies/:id/extend',
    { config: superRoute, schema: { tags, params: ZIdParam, response: { 200: ZCompanyRow } } },
    (request) => extendCompanyDueDate(ctx, request.params.id),
  );
  app.delete(
    '/companies/:id',
    { config: superRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await deleteCompanyAdmin(ctx, sessions, media, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
}
