import { ZIdParam, ZPageQuery, ZQuickMessage, ZQuickMessageBody, ZQuickMessagesPage } from '@zapdesk/shared';
import { and, asc, eq, or } from 'drizzle-orm';
import { z } from 'zod';
import type { MediaStore } from '../../channels/media-store.js';
import type { AppContext, ZodApp } from '../../context.js';
import { quickMessages } from '../../db/schema/index.js';
import { userRoute } from '../../lib/guards.js';
import { readSingleUpload } from '../../lib/single-upload.js';
import {
  createQuickMessage,
  deleteQuickMessage,
  deleteQuickMessageMedia,
  getEditable,
  getQuickMessage,
  listQuickMessages,
  updateQuickMessage,
  uploadQuickMessageMedia,
} from './quick-messages-service.js';

/**
 * Quick messages (document 2 section 7): GET /quick-messages/list (company-wide and the caller's
 * own, for the composer), the paged list, CRUD (own only unless admin) and media upload.
 */
export function quickMessageRoutes(app: ZodApp, ctx: AppContext, media: MediaStore): void {
  const tags = ['quick-messages'];
  app.get(
    '/quick-messages/list',
    {
      config: userRoute,
      schema: {
        tags,
        querystring: z.object({ companyId: z.string().optional(), userId: z.string().optional() }),
        response: { 200: z.array(ZQuickMessage) },
      },
    },
    (request) =>
      ctx.db
        .select({
          id: quickMessages.id,
          shortcode: quickMessages.shortcode,
          message: quickMessages.message,
          mediaPath: quickMessages.mediaPath,
          mediaName: quickMessages.mediaName,
          geral: quickMessages.geral,
          userId: quickMessages.userId,
        })
        .from(quickMessages)
        .where(
          and(
            eq(quickMessages.companyId, request.auth.companyId),
            or(eq(quickMessages.geral, true), eq(quickMessages.userId, request.auth.userId)),
          ),
        )
        .orderBy(asc(quickMessages.shortcode)),
  );
  app.get(
    '/quick-messages',
    {
      config: userRoute,
      schema: {
        tags,
        querystring: ZPageQuery.extend({ userId: z.string().max(20).optional() }),
        response: { 200: ZQuickMessagesPage },
      },
    },
    (request) => listQuickMessages(ctx, request.auth, request.query),
  );
  app.get(
    '/quick-messages/:id',
    { config: userRoute, schema: { tags, params: ZIdParam, response: { 200: ZQuickMessage } } },
    (request) => getQuickMessage(ctx, request.auth, request.params.id),
  );
  app.post(
    '/quick-messages',
    { config: userRoute, schema: { tags, body: ZQuickMessageBody, response: { 201: ZQuickMessage } } },
    async (request, reply) =>
      reply.status(201).send(await createQuickMessage(ctx, request.auth, request.body)),
  );
  app.put(
    '/quick-messages/:id',
    {
      config: userRoute,
      schema: { tags, params: ZIdParam, body: ZQuickMessageBody.partial(), response: { 200: ZQuickMessage } },
    },
    (request) => updateQuickMessage(ctx, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/quick-messages/:id',
    { config: userRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await deleteQuickMessage(ctx, media, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/quick-messages/:id/media-upload',
    { config: userRoute, schema: { tags, params: ZIdParam, response: { 200: ZQuickMessage } } },
    async (request) => {
      await getEditable(ctx, request.auth, request.params.id);
      const file = await readSingleUpload(request);
      return uploadQuickMessageMedia(ctx, media, request.auth, request.params.id, file);
    },
  );
  app.delete(
    '/quick-messages/:id/media-upload',
    { config: userRoute, schema: { tags, params: ZIdParam, response: { 200: ZQuickMessage } } },
    (request) => deleteQuickMessageMedia(ctx, media, request.auth, request.params.id),
  );
}
