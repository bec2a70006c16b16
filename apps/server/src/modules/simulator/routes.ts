import { ZCoercedId, ZPresenceState, ZSimulatorInboundBody, ZSimulatorOutboxItem } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { messages } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { adminRoute } from '../../lib/guards.js';
import { routeTable } from '../common/route-table.js';
import { requireWhatsapp } from '../whatsapp/whatsapp-service.js';
import type { SimulatorCalls } from './simulator-calls.js';

const ZParams = z.object({ whatsappId: ZCoercedId });
const ZNumber = z.string().regex(/^\d{8,20}$/);

/**
 * Simulator routes, for company admins and simulator connections only: inject a customer message,
 * read the outbox of a number, mark it read, make the phone type or record (presence) and read what
 * it sees of the business's presence. The calls run on the node running the session.
 */
export function simulatorRoutes(app: ZodApp, ctx: AppContext, calls: SimulatorCalls): void {
  const tags = ['simulator'];
  /** The company's simulator connection, or 404 / ERR_WRONG_PROVIDER. */
  const simulatorOf = async (companyId: number, whatsappId: number): Promise<void> => {
    const connection = await requireWhatsapp(ctx, companyId, whatsappId);
    if (connection.provider !== 'simulator') throw new AppError('ERR_WRONG_PROVIDER');
  };
  app.post(
    '/simulator/:whatsappId/messages',
    {
      config: adminRoute,
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        tags,
        params: ZParams,
        body: ZSimulatorInboundBody,
        response: { 201: z.object({ id: z.number(), ticketId: z.number() }) },
      },
    },
    async (request, reply) => {
      await simulatorOf(request.auth.companyId, request.params.whatsappId);
      const providerId = await calls.receive(request.params.whatsappId, request.body);
      const [stored] = await ctx.db
        .select({ id: messages.id, ticketId: messages.ticketId })
        .from(messages)
        .where(and(eq(messages.whatsappId, request.params.whatsappId), eq(messages.wid, providerId)));
      if (!stored) throw new AppError('ERR_CREATING_MESSAGE');
      return reply.status(201).send(stored);
    },
  );
  const route = routeTable(app, tags, adminRoute);
  route.get(
    '/simulator/:whatsappId/outbox',
    {
      params: ZParams,
      querystring: z.object({ number: z.string().regex(/^\d{8,20}$/) }),
      reply: z.array(ZSimulatorOutboxItem),
    },
    async (request) => {
      await simulatorOf(request.auth.companyId, request.params.whatsappId);
      return calls.outbox(request.params.whatsappId, request.query.number);
    },
  );
  route.post(
    '/simulator/:whatsappId/read',
    { params: ZParams, body: z.object({ number: z.string().regex(/^\d{8,20}$/) }) },
    async (request, reply) => {
      await simulatorOf(request.auth.companyId, request.params.whatsappId);
      await calls.read(request.params.whatsappId, request.body.number);
      return reply.status(204).send();
    },
  );
  route.post(
    '/simulator/:whatsappId/presence',
    { params: ZParams, body: z.object({ number: ZNumber, presence: ZPresenceState }) },
    async (request, reply) => {
      await simulatorOf(request.auth.companyId, request.params.whatsappId);
      await calls.presence(request.params.whatsappId, request.body.number, request.body.presence);
      return reply.status(204).send();
    },
  );
  route.get(
    '/simulator/:whatsappId/presence',
    {
      params: ZParams,
      querystring: z.object({ number: ZNumber }),
      reply: z.object({ shown: z.string().nullable(), subscribed: z.boolean() }),
    },
    async (request) => {
      await simulatorOf(request.auth.companyId, request.params.whatsappId);
      return calls.shownPresence(request.params.whatsappId, request.query.number);
    },
  );
}
