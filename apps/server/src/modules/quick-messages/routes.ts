import { ZPageQuery, ZQuickMessage, ZQuickMessageBody, ZQuickMessagesPage } from '@zapdesk/shared';
import { z } from 'zod';
import type { MediaStore } from '../../channels/media-store.js';
import type { AppContext, ZodApp } from '../../context.js';
import { userRoute } from '../../lib/guards.js';
import { mediaUploadRoutes, resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import {
  createQuickMessage,
  deleteQuickMessage,
  deleteQuickMessageMedia,
  getEditable,
  getQuickMessage,
  listComposerQuickMessages,
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
  const route = routeTable(app, tags, userRoute);
  route.get(
    '/quick-messages/list',
    {
      querystring: z.object({ companyId: z.string().optional(), userId: z.string().optional() }),
      reply: z.array(ZQuickMessage),
    },
    (request) => listComposerQuickMessages(ctx, request.auth),
  );
  resourceRoutes(app, {
    path: '/quick-messages',
    tags,
    item: ZQuickMessage,
    body: ZQuickMessageBody,
    updateBody: ZQuickMessageBody.partial(),
    query: ZPageQuery.extend({ userId: z.string().max(20).optional() }),
    page: ZQuickMessagesPage,
    list: [userRoute, (auth, query) => listQuickMessages(ctx, auth, query)],
    show: [userRoute, (auth, id) => getQuickMessage(ctx, auth, id)],
    create: [userRoute, (auth, body) => createQuickMessage(ctx, auth, body)],
    update: [userRoute, (auth, id, body) => updateQuickMessage(ctx, auth, id, body)],
    remove: [userRoute, (auth, id) => deleteQuickMessage(ctx, media, auth, id)],
  });
  mediaUploadRoutes(app, {
    path: '/quick-messages/:id',
    tags,
    guard: userRoute,
    item: ZQuickMessage,
    check: (auth, id) => getEditable(ctx, auth, id),
    upload: (auth, id, file) => uploadQuickMessageMedia(ctx, media, auth, id, file),
    remove: (auth, id) => deleteQuickMessageMedia(ctx, media, auth, id),
  });
}
