import {
  ZCreateQueueOptionBody,
  ZIdParam,
  ZQueue,
  ZQueueBody,
  ZQueueDetail,
  ZQueueOption,
  ZQueueOptionsQuery,
  ZUpdateQueueOptionBody,
} from '@zapdesk/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { queues } from '../../db/schema/index.js';
import { adminRoute, userRoute } from '../../lib/guards.js';
import {
  createOption,
  createQueue,
  deleteOption,
  deleteQueue,
  getQueue,
  listOptions,
  updateOption,
  updateQueue,
} from './queues-service.js';

/**
 * Queues and their options tree (document 2 section 7 Queues): reads for every user, writes for
 * admins. GET /queue keeps its list shape (ordered by order, then name).
 */
export function queueRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['queues'];
  app.get('/queue', { config: userRoute, schema: { tags, response: { 200: z.array(ZQueue) } } }, (request) =>
    ctx.db
      .select({
        id: queues.id,
        name: queues.name,
        color: queues.color,
        orderQueue: queues.orderQueue,
        greetingMessage: queues.greetingMessage,
        outOfHoursMessage: queues.outOfHoursMessage,
      })
      .from(queues)
      .where(eq(queues.companyId, request.auth.companyId))
      .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name)),
  );
  app.get(
    '/queue/:id',
    { config: userRoute, schema: { tags, params: ZIdParam, response: { 200: ZQueueDetail } } },
    (request) => getQueue(ctx, request.auth.companyId, request.params.id),
  );
  app.post(
    '/queue',
    { config: adminRoute, schema: { tags, body: ZQueueBody, response: { 201: ZQueueDetail } } },
    async (request, reply) =>
      reply.status(201).send(await createQueue(ctx, request.auth.companyId, request.body)),
  );
  app.put(
    '/queue/:id',
    {
      config: adminRoute,
      schema: { tags, params: ZIdParam, body: ZQueueBody.partial(), response: { 200: ZQueueDetail } },
    },
    (request) => updateQueue(ctx, request.auth.companyId, request.params.id, request.body),
  );
  app.delete(
    '/queue/:id',
    { config: adminRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await deleteQueue(ctx, request.auth.companyId, request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/queue-options',
    {
      config: userRoute,
      schema: { tags, querystring: ZQueueOptionsQuery, response: { 200: z.array(ZQueueOption) } },
    },
    (request) => listOptions(ctx, request.auth.companyId, request.query.queueId, request.query.parentId),
  );
  app.post(
    '/queue-options',
    { config: adminRoute, schema: { tags, body: ZCreateQueueOptionBody, response: { 201: ZQueueOption } } },
    async (request, reply) =>
      reply.status(201).send(await createOption(ctx, request.auth.companyId, request.body)),
  );
  app.put(
    '/queue-options/:id',
    {
      config: adminRoute,
      schema: {
        tags,
        params: ZIdParam,
        body: ZUpdateQueueOptionBody.partial(),
        response: { 200: ZQueueOption },
      },
    },
    (request) => updateOption(ctx, request.auth.companyId, request.params.id, request.body),
  );
  app.delete(
    '/queue-options/:id',
    { config: adminRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await deleteOption(ctx, request.auth.companyId, request.params.id);
      return reply.status(204).send();
    },
  );
}
