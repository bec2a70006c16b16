import {
  ZCreateTicketBody,
  ZIdParam,
  ZTicket,
  ZTicketsPage,
  ZTicketsQuery,
  ZUpdateTicketBody,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { AutoAssigner } from '../../automation/auto-assign.js';
import type { ServiceLevels } from '../../automation/service-levels.js';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import type { AppContext, ZodApp } from '../../context.js';
import { adminRoute, userRoute } from '../../lib/guards.js';
import { compiledJsonSerializer } from '../../lib/json-serializer.js';
import { routeTable } from '../common/route-table.js';
import {
  createTicket,
  deleteTicket,
  getVisibleTicket,
  listTickets,
  updateTicket,
} from './tickets-service.js';

/** Tickets API (core section 7 Tickets and messages). */
export function ticketRoutes(
  app: ZodApp,
  ctx: AppContext,
  sender: OutboundSender,
  assigner?: AutoAssigner,
  sla?: Pick<ServiceLevels, 'request'>,
): void {
  const tags = ['tickets'];
  app.get(
    '/tickets',
    {
      config: userRoute,
      schema: { tags, querystring: ZTicketsQuery, response: { 200: ZTicketsPage } },
      // The service builds every ticket in ZTicket's shape: a serializer compiled once, no Zod parse.
      serializerCompiler: compiledJsonSerializer(ZTicketsPage),
    },
    (request) => listTickets(ctx, request.auth, request.query),
  );
  const route = routeTable(app, tags, userRoute);
  route.get(
    '/tickets/u/:uuid',
    { params: z.object({ uuid: z.string().uuid() }), reply: ZTicket },
    (request) => getVisibleTicket(ctx, request.auth, { uuid: request.params.uuid }),
  );
  route.get('/tickets/:id', { params: ZIdParam, reply: ZTicket }, (request) =>
    getVisibleTicket(ctx, request.auth, { id: request.params.id }),
  );
  route.post('/tickets', { body: ZCreateTicketBody, response: { 201: ZTicket } }, async (request, reply) => {
    const ticket = await createTicket(ctx, request.auth, request.body);
    // A ticket opened in a queue with targets gets its due times (docs/reports.md "Service levels").
    if (ticket.queueId !== null) await sla?.request(request.auth.companyId);
    return reply.status(201).send(ticket);
  });
  route.put('/tickets/:id', { params: ZIdParam, body: ZUpdateTicketBody, reply: ZTicket }, (request) =>
    updateTicket(ctx, sender, request.auth, request.params.id, request.body, async (before, after) => {
      const { companyId } = request.auth;
      // Reopened or moved to another queue: its due times are computed again.
      if (after.queueId !== null && (before.status === 'closed' || before.queueId !== after.queueId)) {
        await sla?.request(companyId);
      }
      // Returned or moved to a queue: it may be assigned; closed or passed on: its agent has room.
      if (after.status === 'pending' && after.userId === null && after.queueId !== null) {
        await assigner?.ticketWaiting(companyId, after.id);
      }
      const released = after.status !== 'open' || after.userId !== before.userId;
      if (before.userId !== null && before.status === 'open' && released) {
        await assigner?.request({ companyId, userId: before.userId });
      }
    }),
  );
  route.delete('/tickets/:id', { guard: adminRoute, params: ZIdParam }, async (request, reply) => {
    await deleteTicket(ctx, request.auth, request.params.id);
    return reply.status(204).send();
  });
}
