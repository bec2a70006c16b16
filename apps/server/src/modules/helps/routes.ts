import { ZHelp, ZHelpBody, ZHelpsPage, ZPageQuery } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { superRoute, userRoute } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import { allHelps, createHelp, deleteHelp, listHelps, updateHelp } from './helps-service.js';

/** Helps (document 2 sections 2 and 7, document 3 Helps): every user reads; the super user writes. */
export function helpRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['helps'];
  const route = routeTable(app, tags, userRoute);
  route.get('/helps', { querystring: ZPageQuery, reply: ZHelpsPage }, (request) =>
    listHelps(ctx, request.query),
  );
  route.get('/helps/list', { reply: z.array(ZHelp) }, () => allHelps(ctx));
  resourceRoutes(app, {
    path: '/helps',
    tags,
    item: ZHelp,
    body: ZHelpBody,
    updateBody: ZHelpBody.partial(),
    create: [superRoute, (_auth, body) => createHelp(ctx, body)],
    update: [superRoute, (_auth, id, body) => updateHelp(ctx, id, body)],
    remove: [superRoute, (_auth, id) => deleteHelp(ctx, id)],
  });
}
