import {
  ZCloudConfig,
  ZCloudConfigBody,
  ZCloudTemplate,
  ZCloudTemplateSendBody,
  ZCloudWindow,
  ZCoercedId,
  ZIdParam,
  ZMessage,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { CloudChannel } from '../../channels/cloud/cloud-channel.js';
import type { AppContext, ZodApp } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { adminRoute, publicRoute, userRoute } from '../../lib/guards.js';
import { routeTable } from '../common/route-table.js';
import { getVisibleTicket } from '../tickets/tickets-service.js';

/** Largest webhook body accepted (Meta batches up to 1000 changes), bytes. */
const WEBHOOK_LIMIT = 3 * 1024 * 1024;

const ZTicketParam = z.object({ ticketId: ZCoercedId });

/**
 * WhatsApp Business Cloud API routes: the connection's settings (admin), Meta's
 * webhook (public, authenticated by the verify token and the app secret's signature), and for
 * agents the 24-hour window, the approved templates and template sends of a ticket — of a ticket the
 * caller may open (docs/security.md "Acting on a ticket"; 403 ERR_NO_PERMISSION otherwise).
 */
export function cloudRoutes(app: ZodApp, cloud: CloudChannel, ctx: AppContext): void {
  const tags = ['cloud'];
  const route = routeTable(app, tags, userRoute);
  route.get(
    '/whatsapp/:id/cloud',
    { guard: adminRoute, params: ZIdParam, reply: ZCloudConfig.nullable() },
    (request) => cloud.config(request.auth.companyId, request.params.id),
  );
  route.put(
    '/whatsapp/:id/cloud',
    { guard: adminRoute, params: ZIdParam, body: ZCloudConfigBody.partial(), reply: ZCloudConfig },
    (request) => cloud.saveConfig(request.auth.companyId, request.params.id, request.body),
  );
  route.get(
    '/cloud/tickets/:ticketId/window',
    { params: ZTicketParam, reply: ZCloudWindow },
    async (request) => {
      await getVisibleTicket(ctx, request.auth, { id: request.params.ticketId });
      return cloud.window(request.auth.companyId, request.params.ticketId);
    },
  );
  route.get(
    '/cloud/tickets/:ticketId/templates',
    { params: ZTicketParam, reply: z.array(ZCloudTemplate) },
    async (request) => {
      await getVisibleTicket(ctx, request.auth, { id: request.params.ticketId });
      return cloud.templates(request.auth.companyId, request.params.ticketId);
    },
  );
  route.post(
    '/cloud/tickets/:ticketId/template',
    { params: ZTicketParam, body: ZCloudTemplateSendBody, response: { 201: ZMessage } },
    async (request, reply) => {
      const { name, language, parameters } = ZCloudTemplateSendBody.parse(request.body);
      await getVisibleTicket(ctx, request.auth, { id: request.params.ticketId });
      const message = await cloud.sendTemplate(
        request.auth.companyId,
        request.auth.userId,
        request.params.ticketId,
        {
          name,
          language,
          parameters,
        },
      );
      return reply.status(201).send(message);
    },
  );

  // Meta's webhook: its own context, where JSON bodies stay raw bytes for the signature check.
  app.register(async (child) => {
    const webhook = child as unknown as ZodApp;
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_LIMIT },
      (_request, body, done) => done(null, body),
    );
    webhook.get(
      '/cloud/webhook/:id',
      {
        config: publicRoute,
        schema: {
          tags,
          params: ZIdParam,
          querystring: z.object({
            'hub.mode': z.string().max(50).optional(),
            'hub.verify_token': z.string().max(200).optional(),
            'hub.challenge': z.string().max(200).optional(),
          }),
        },
      },
      async (request, reply) => {
        const challenge = await cloud.verify(request.params.id, {
          mode: request.query['hub.mode'],
          token: request.query['hub.verify_token'],
          challenge: request.query['hub.challenge'],
        });
        return reply.type('text/plain').send(challenge);
      },
    );
    webhook.post(
      '/cloud/webhook/:id',
      { config: publicRoute, bodyLimit: WEBHOOK_LIMIT, schema: { tags, params: ZIdParam } },
      async (request, reply) => {
        const raw = request.body;
        if (!Buffer.isBuffer(raw)) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
        const signature = request.headers['x-hub-signature-256'];
        await cloud.receive(request.params.id, raw, typeof signature === 'string' ? signature : undefined);
        return reply.type('text/plain').send('EVENT_RECEIVED');
      },
    );
  });
}
