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
  app.get(
    '/tickets/u/:uuid',
    {
      config: userRoute,
      schema: { tags, params: z.object({ uuid: z.string().uuid() }), response: { 200: ZTicket } },
    },
    (request) => getVisibleTicket(ctx, request.auth, { uuid: request.params.uuid }),
  );
  app.get(
    '/tickets/:id',
    { config: userRoute, schema: { tags, params: ZIdParam, response: { 200: ZTicket } } },
    (request) => getVisibleTicket(ctx, request.auth, { id: request.params.id }),
  );
  app.post(
    '/tickets',
    { config: userRoute, schema: { tags, body: ZCreateTicketBody, response: { 201: ZTicket } } },
    async (request, reply) => {
      const ticket = await createTicket(ctx, request.auth, request.body);
      // A ticket opened in a queue with targets gets its due times (docs/reports.md "Service levels").
      if (ticket.queueId !== null) await sla?.request(request.auth.companyId);
      return reply.status(201).send(ticket);
    },
  );
  app.put(
    '/tickets/:id',
    {
      config: userRoute,
      schema: { tags, params: ZIdParam, body: ZUpdateTicketBody, response: { 200: ZTicket } },
    },
    (request) =>
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
  app.delete(
    '/tickets/:id',
    { config: adminRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await deleteTicket(ctx, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
}
