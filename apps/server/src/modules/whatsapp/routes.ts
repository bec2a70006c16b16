import { ZIdParam, ZWhatsapp, ZWhatsappBody } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { selectWhatsapps } from '../../db/whatsapp-repository.js';
import { adminRoute, userRoute } from '../../lib/guards.js';
import { viewerOf, whatsappView } from '../../lib/secret-views.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import {
  createWhatsapp,
  deleteWhatsapp,
  regenerateToken,
  requireWhatsapp,
  type SessionControl,
  updateWhatsapp,
} from './whatsapp-service.js';

/** Connections and sessions API (document 2 section 7 Connections). */
export function whatsappRoutes(app: ZodApp, ctx: AppContext, sessions: SessionControl): void {
  const tags = ['connections'];
  // Agents see connections for pickers, without the API token (the one serializer of REST and sockets).
  const route = routeTable(app, tags, adminRoute);
  route.get(
    '/whatsapp',
    {
      guard: userRoute,
      querystring: z.object({ session: z.string().optional(), companyId: z.string().optional() }),
      reply: z.array(ZWhatsapp),
    },
    async (request) =>
      (await selectWhatsapps(ctx.db, request.auth.companyId)).map((w) =>
        whatsappView(viewerOf(request.auth), w),
      ),
  );
  resourceRoutes(app, {
    path: '/whatsapp',
    tags,
    item: ZWhatsapp,
    body: ZWhatsappBody,
    updateBody: ZWhatsappBody.partial(),
    show: [
      userRoute,
      async (auth, id) => whatsappView(viewerOf(auth), await requireWhatsapp(ctx, auth.companyId, id)),
    ],
    create: [adminRoute, (auth, body) => createWhatsapp(ctx, sessions, auth, body)],
    update: [adminRoute, (auth, id, body) => updateWhatsapp(ctx, sessions, auth, id, body)],
    remove: [adminRoute, (auth, id) => deleteWhatsapp(ctx, sessions, auth, id)],
  });
  route.post(
    '/whatsapp/:id/token',
    {
      summary: "Replace the connection's external-API token",
      description:
        'A new random token (256 bits) replaces the old one, which stops working at once. Answers the ' +
        'connection with its new token. Errors: 404 ERR_NO_WAPP_FOUND.',
      params: ZIdParam,
      reply: ZWhatsapp,
    },
    (request) => regenerateToken(ctx, request.auth, request.params.id),
  );

  // Session control: start, new QR (restart pairing), disconnect.
  route.post('/whatsappsession/:id', { params: ZIdParam }, async (request, reply) => {
    await requireWhatsapp(ctx, request.auth.companyId, request.params.id);
    await sessions.start(request.auth.companyId, request.params.id);
    return reply.status(204).send();
  });
  route.put('/whatsappsession/:id', { params: ZIdParam }, async (request, reply) => {
    await requireWhatsapp(ctx, request.auth.companyId, request.params.id);
    await sessions.stop(request.auth.companyId, request.params.id, { logout: true });
    await sessions.start(request.auth.companyId, request.params.id);
    return reply.status(204).send();
  });
  route.delete('/whatsappsession/:id', { params: ZIdParam }, async (request, reply) => {
    await requireWhatsapp(ctx, request.auth.companyId, request.params.id);
    await sessions.stop(request.auth.companyId, request.params.id, { logout: true });
    return reply.status(204).send();
  });
}
