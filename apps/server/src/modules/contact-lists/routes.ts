import {
  ZContactListBody,
  ZContactListEntry,
  ZContactListImport,
  ZContactListItemBody,
  ZContactListItemsPage,
  ZContactListItemsQuery,
  ZContactListsPage,
  ZContactListWithCount,
  ZIdParam,
  ZPageQuery,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { ZodApp } from '../../context.js';
import type { RouteGuard } from '../../lib/guards.js';
import { readSingleUpload } from '../../lib/single-upload.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import type { ContactListService } from './contact-lists-service.js';
import { assertXlsx, sampleSheet } from './sheet-reader.js';

/** Largest sheet accepted by POST /contact-lists/:id/upload (bytes). */
export const CONTACT_LIST_SHEET_MAX_BYTES = 20 * 1024 * 1024;

/** Campaign pages are admins' (core side menu) and need the plan's campaigns flag. */
const campaignRoute = { auth: 'user', role: 'admin', plan: 'useCampaigns' } as const satisfies RouteGuard;

/**
 * Contact lists (document 2 section 7 "Contact lists"): lists with counts, items,
 * sheet import (as a job), the sample sheet and the latest import's state.
 */
export function contactListRoutes(app: ZodApp, service: ContactListService): void {
  const tags = ['contact-lists'];
  const route = routeTable(app, tags, campaignRoute);
  resourceRoutes(app, {
    path: '/contact-lists',
    tags,
    item: ZContactListWithCount,
    body: ZContactListBody,
    updateBody: ZContactListBody.partial(),
    query: ZPageQuery.passthrough(),
    page: ZContactListsPage,
    list: [campaignRoute, (auth, query) => service.list(auth.companyId, query)],
    show: [campaignRoute, (auth, id) => service.get(auth.companyId, id)],
    create: [campaignRoute, (auth, body) => service.create(auth.companyId, body)],
    update: [campaignRoute, (auth, id, body) => service.update(auth.companyId, id, body)],
    remove: [campaignRoute, (auth, id) => service.remove(auth.companyId, id)],
  });
  route.get('/contact-lists/list', { reply: z.array(ZContactListWithCount) }, (request) =>
    service.all(request.auth.companyId),
  );
  route.get('/contact-lists/sample', {}, async (_request, reply) =>
    reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', 'attachment; filename="contact-list-sample.xlsx"')
      .send(await sampleSheet()),
  );
  route.post(
    '/contact-lists/:id/upload',
    { params: ZIdParam, response: { 202: ZContactListImport } },
    async (request, reply) => {
      await service.get(request.auth.companyId, request.params.id);
      const file = await readSingleUpload(request, { maxBytes: CONTACT_LIST_SHEET_MAX_BYTES });
      assertXlsx(file.data, file.fileName);
      return reply
        .status(202)
        .send(await service.startImport(request.auth.companyId, request.params.id, file.data));
    },
  );
  route.get(
    '/contact-lists/:id/import',
    { params: ZIdParam, reply: ZContactListImport.nullable() },
    (request) => service.latestImport(request.auth.companyId, request.params.id),
  );
  resourceRoutes(app, {
    path: '/contact-list-items',
    tags,
    item: ZContactListEntry,
    body: ZContactListItemBody,
    updateBody: ZContactListItemBody.partial(),
    query: ZContactListItemsQuery,
    page: ZContactListItemsPage,
    list: [campaignRoute, (auth, query) => service.listItems(auth.companyId, query)],
    show: [campaignRoute, (auth, id) => service.getItem(auth.companyId, id)],
    create: [campaignRoute, (auth, body) => service.createItem(auth.companyId, body)],
    update: [campaignRoute, (auth, id, body) => service.updateItem(auth.companyId, id, body)],
    remove: [campaignRoute, (auth, id) => service.removeItem(auth.companyId, id)],
  });
}
