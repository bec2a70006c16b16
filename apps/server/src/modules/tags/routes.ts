import { ZKanbanTags, ZPageQuery, ZSyncTagsBody, ZTag, ZTagBody, ZTagsPage, ZTicket } from '@zapdesk/shared';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { tags, ticketTags } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { userRoute } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { kanbanRoute } from '../kanban/routes.js';
import { emitTicketUpdate, getVisibleTicket } from '../tickets/tickets-service.js';
import { createTag, deleteTag, getTag, listKanbanTags, listTags, updateTag } from './tags-service.js';

/**
 * Tags (document 2 section 7 Tags and kanban): paged list with ticket counts, full list, kanban
 * lanes, CRUD (kanban flag by admins only) and the ticket tag sync.
 */
export function tagRoutes(app: ZodApp, ctx: AppContext): void {
  const tagsDoc = ['tags'];
  resourceRoutes(app, {
    path: '/tags',
    tags: tagsDoc,
    item: ZTag,
    body: ZTagBody,
    updateBody: ZTagBody.partial(),
    query: ZPageQuery.passthrough(),
    page: ZTagsPage,
    list: [userRoute, (auth, query) => listTags(ctx, auth.companyId, query)],
    show: [userRoute, (auth, id) => getTag(ctx, auth.companyId, id)],
    create: [userRoute, (auth, body) => createTag(ctx, auth, body)],
    update: [userRoute, (auth, id, body) => updateTag(ctx, auth, id, body)],
    remove: [userRoute, (auth, id) => deleteTag(ctx, auth.companyId, id)],
  });
  app.get(
    '/tags/kanban',
    { config: kanbanRoute, schema: { tags: tagsDoc, response: { 200: ZKanbanTags } } },
    (request) => listKanbanTags(ctx, request.auth.companyId),
  );
  app.get(
    '/tags/list',
    { config: userRoute, schema: { tags: tagsDoc, response: { 200: z.array(ZTag) } } },
    (request) =>
      ctx.db
        .select({ id: tags.id, name: tags.name, color: tags.color, kanban: tags.kanban })
        .from(tags)
        .where(eq(tags.companyId, request.auth.companyId))
        .orderBy(asc(tags.name)),
  );
  app.post(
    '/tags/sync',
    { config: userRoute, schema: { tags: tagsDoc, body: ZSyncTagsBody, response: { 200: ZTicket } } },
    async (request) => {
      const { companyId } = request.auth;
      await getVisibleTicket(ctx, request.auth, { id: request.body.ticketId });
      const ids = [...new Set(request.body.tags.map((t) => (typeof t === 'number' ? t : t.id)))];
      if (ids.length) {
        const [found] = await ctx.db
          .select({ value: count() })
          .from(tags)
          .where(and(eq(tags.companyId, companyId), inArray(tags.id, ids)));
        if ((found?.value ?? 0) !== ids.length)
          throw new AppError('ERR_VALIDATION', { extra: { field: 'tags', message: 'invalid' } });
      }
      await ctx.db.transaction(async (tx) => {
        await tx
          .delete(ticketTags)
          .where(and(eq(ticketTags.companyId, companyId), eq(ticketTags.ticketId, request.body.ticketId)));
        if (ids.length)
          await tx
            .insert(ticketTags)
            .values(ids.map((tagId) => ({ companyId, ticketId: request.body.ticketId, tagId })));
      });
      return emitTicketUpdate(ctx, companyId, request.body.ticketId);
    },
  );
}
