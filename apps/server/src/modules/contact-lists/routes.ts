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
  app.get(
    '/contact-lists',
    {
      config: campaignRoute,
      schema: { tags, querystring: ZPageQuery.passthrough(), response: { 200: ZContactListsPage } },
    },
    (request) => service.list(request.auth.companyId, request.query),
  );
  app.get(
    '/contact-lists/list',
    { config: campaignRoute, schema: { tags, response: { 200: z.array(ZContactListWithCount) } } },
    (request) => service.all(request.auth.companyId),
  );
  app.get('/contact-lists/sample', { config: campaignRoute, schema: { tags } }, async (_request, reply) =>
    reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', 'attachment; filename="contact-list-sample.xlsx"')
      .send(await sampleSheet()),
  );
  app.get(
    '/contact-lists/:id',
    { config: campaignRoute, schema: { tags, params: ZIdParam, response: { 200: ZContactListWithCount } } },
    (request) => service.get(request.auth.companyId, request.params.id),
  );
  app.post(
    '/contact-lists',
    {
      config: campaignRoute,
      schema: { tags, body: ZContactListBody, response: { 201: ZContactListWithCount } },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.auth.companyId, request.body)),
  );
  app.put(
    '/contact-lists/:id',
    {
      config: campaignRoute,
      schema: {
        tags,
        params: ZIdParam,
        body: ZContactListBody.partial(),
        response: { 200: ZContactListWithCount },
      },
    },
    (request) => service.update(request.auth.companyId, request.params.id, request.body),
  );
  app.delete(
    '/contact-lists/:id',
    { config: campaignRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await service.remove(request.auth.companyId, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/contact-lists/:id/upload',
    { config: campaignRoute, schema: { tags, params: ZIdParam, response: { 202: ZContactListImport } } },
    async (request, reply) => {
      await service.get(request.auth.companyId, request.params.id);
      const file = await readSingleUpload(request, { maxBytes: CONTACT_LIST_SHEET_MAX_BYTES });
      assertXlsx(file.data, file.fileName);
      return reply
        .status(202)
        .send(await service.startImport(request.auth.companyId, request.params.id, file.data));
    },
  );
  app.get(
    '/contact-lists/:id/import',
    {
      config: campaignRoute,
      schema: { tags, params: ZIdParam, response: { 200: ZContactListImport.nullable() } },
    },
    (request) => service.latestImport(request.auth.companyId, request.params.id),
  );
  app.get(
    '/contact-list-items',
    {
      config: campaignRoute,
      schema: { tags, querystring: ZContactListItemsQuery, response: { 200: ZContactListItemsPage } },
    },
    (request) => service.listItems(request.auth.companyId, request.query),
  );
  app.get(
    '/contact-list-items/:id',
    { config: campaignRoute, schema: { tags, params: ZIdParam, response: { 200: ZContactListEntry } } },
    (request) => service.getItem(request.auth.companyId, request.params.id),
  );
  app.post(
    '/contact-list-items',
    {
      config: campaignRoute,
      schema: { tags, body: ZContactListItemBody, response: { 201: ZContactListEntry } },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createItem(request.auth.companyId, request.body)),
  );
  app.put(
    '/contact-list-items/:id',
    {
      config: campaignRoute,
      schema: {
        tags,
        params: ZIdParam,
        body: ZContactListItemBody.partial(),
        response: { 200: ZContactListEntry },
      },
    },
    (request) => service.updateItem(request.auth.companyId, request.params.id, request.body),
  );
  app.delete(
    '/contact-list-items/:id',
    { config: campaignRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await service.removeItem(request.auth.companyId, request.params.id);
      return reply.status(204).send();
    },
  );
}
