import { ZCompaniesPage, ZCompaniesQuery, ZCompanyBody, ZCompanyRow, ZIdParam } from '@zapdesk/shared';
import { z } from 'zod';
import type { MediaStore } from '../../channels/media-store.js';
import type { AppContext, ZodApp } from '../../context.js';
import { superRoute } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
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
  resourceRoutes(app, {
    path: '/companies',
    tags,
    item: ZCompanyRow,
    body: ZCompanyBody,
    updateBody: ZCompanyBody.partial(),
    query: ZCompaniesQuery,
    page: ZCompaniesPage,
    list: [superRoute, (_auth, query) => listCompanies(ctx, query)],
    create: [superRoute, (_auth, body) => createCompanyAdmin(ctx, body)],
    update: [superRoute, (_auth, id, body) => updateCompanyAdmin(ctx, id, body)],
    remove: [superRoute, (auth, id) => deleteCompanyAdmin(ctx, sessions, media, auth, id)],
  });
  const route = routeTable(app, tags, superRoute);
  route.get('/companies/list', { reply: z.array(ZCompanyRow) }, () => allCompanies(ctx));
  route.post('/companies/:id/extend', { params: ZIdParam, reply: ZCompanyRow }, (request) =>
    extendCompanyDueDate(ctx, request.params.id),
  );
}
