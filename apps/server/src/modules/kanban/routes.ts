import {
  ZKanbanPage,
  ZKanbanQuery,
  ZTicket,
  ZTicketIdParam,
  ZTicketTagParams,
  ZTicketTagQuery,
} from '@zapdesk/shared';
import type { AppContext, ZodApp } from '../../context.js';
import type { RouteGuard } from '../../lib/guards.js';
import { addTicketTag, listKanbanTickets, removeTicketKanbanTags } from './kanban-service.js';

/** Kanban routes need the plan's useKanban flag (document 2 section 2 Kanban; core plan flags). */
export const kanbanRoute = { auth: 'user', plan: 'useKanban' } as const satisfies RouteGuard;

/**
 * Kanban (document 2 section 7 Tags and kanban): the board's tickets and the ticket's lane tags.
 * GET /tags/kanban (the lanes) lives with the tags routes.
 */
export function kanbanRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['kanban'];
  app.get(
    '/ticket/kanban',
    { config: kanbanRoute, schema: { tags, querystring: ZKanbanQuery, response: { 200: ZKanbanPage } } },
    (request) => listKanbanTickets(ctx, request.auth, request.query),
  );
  app.put(
    '/ticket-tags/:ticketId/:tagId',
    {
      config: kanbanRoute,
      schema: { tags, params: ZTicketTagParams, querystring: ZTicketTagQuery, response: { 200: ZTicket } },
    },
    (request) =>
      addTicketTag(ctx, request.auth, request.params.ticketId, request.params.tagId, request.query.replace),
  );
  app.delete(
    '/ticket-tags/:ticketId',
    { config: kanbanRoute, schema: { tags, params: ZTicketIdParam, response: { 200: ZTicket } } },
    (request) => removeTicketKanbanTags(ctx, request.auth, request.params.ticketId),
  );
}
