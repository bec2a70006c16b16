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
import { routeTable } from '../common/route-table.js';
import { addTicketTag, listKanbanTickets, removeTicketKanbanTags } from './kanban-service.js';

/** Kanban routes need the plan's useKanban flag (document 2 section 2 Kanban; core plan flags). */
export const kanbanRoute = { auth: 'user', plan: 'useKanban' } as const satisfies RouteGuard;

/**
 * Kanban (document 2 section 7 Tags and kanban): the board's tickets and the ticket's lane tags.
 * GET /tags/kanban (the lanes) lives with the tags routes.
 */
export function kanbanRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['kanban'];
  const route = routeTable(app, tags, kanbanRoute);
  route.get('/ticket/kanban', { querystring: ZKanbanQuery, reply: ZKanbanPage }, (request) =>
    listKanbanTickets(ctx, request.auth, request.query),
  );
  route.put(
    '/ticket-tags/:ticketId/:tagId',
    { params: ZTicketTagParams, querystring: ZTicketTagQuery, reply: ZTicket },
    (request) =>
      addTicketTag(ctx, request.auth, request.params.ticketId, request.params.tagId, request.query.replace),
  );
  route.delete('/ticket-tags/:ticketId', { params: ZTicketIdParam, reply: ZTicket }, (request) =>
    removeTicketKanbanTags(ctx, request.auth, request.params.ticketId),
  );
}
