import { ZHelp, ZHelpBody, ZHelpsPage, ZIdParam, ZPageQuery } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { superRoute, userRoute } from '../../lib/guards.js';
import { allHelps, createHelp, deleteHelp, listHelps, updateHelp } from './helps-service.js';

/** Helps (document 2 sections 2 and 7, document 3 Helps): every user reads; the super user writes. */
export function helpRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['helps'];
  app.get(
    '/helps',
    { config: userRoute, schema: { tags, querystring: ZPageQuery, response: { 200: ZHelpsPage } } },
    (request) => listHelps(ctx, request.query),
  );
  app.get('/helps/list', { config: userRoute, schema: { tags, response: { 200: z.array(ZHelp) } } }, () =>
    allHelps(ctx),
  );
  app.post(
    '/helps',
    { config: superRoute, schema: { tags, body: ZHelpBody, response: { 201: ZHelp } } },
    async (request, reply) => reply.status(201).send(await createHelp(ctx, request.body)),
  );
  app.put(
    '/helps/:id',
    {
      config: superRoute,
      schema: { tags, params: ZIdParam, body: ZHelpBody.partial(), response: { 200: ZHelp } },
    },
    (request) => updateHelp(ctx, request.params.id, request.body),
  );
  app.delete(
    '/helps/:id',
    { config: superRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await deleteHelp(ctx, request.params.id);
      return reply.status(204).send();
    },
  );
}
