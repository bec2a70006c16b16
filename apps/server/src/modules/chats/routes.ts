import {
  ZChat,
  ZChatBody,
  ZChatMessage,
  ZChatMessageBody,
  ZChatMessagesPage,
  ZChatsPage,
  ZId,
  ZIdParam,
  ZPageQuery,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import type { RouteGuard } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import {
  createChat,
  deleteChat,
  getParticipantChatByUuid,
  listChatMessages,
  listChats,
  markChatRead,
  sendChatMessage,
  updateChat,
} from './chats-service.js';

/** Every chat route needs a signed-in user whose company plan has internal chat. */
const chatRoute = { auth: 'user', plan: 'useInternalChat' } as const satisfies RouteGuard;

/**
 * Internal chat (document 2 section 7 "Internal chat"): the caller's chats, create, owner-only edit
 * and delete, mark read, and the messages (paged newest first) and posting. A chat whose caller is
 * not a participant answers 404 like another company's.
 */
export function chatRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['chats'];
  const route = routeTable(app, tags, chatRoute);
  route.get('/chats', { querystring: ZPageQuery, reply: ZChatsPage }, (request) =>
    listChats(ctx, request.auth, request.query),
  );
  route.get('/chats/u/:uuid', { params: z.object({ uuid: z.string().uuid() }), reply: ZChat }, (request) =>
    getParticipantChatByUuid(ctx, request.auth, request.params.uuid),
  );
  resourceRoutes(app, {
    path: '/chats',
    tags,
    item: ZChat,
    body: ZChatBody,
    updateBody: ZChatBody.partial(),
    create: [chatRoute, (auth, body) => createChat(ctx, auth, body)],
    update: [chatRoute, (auth, id, body) => updateChat(ctx, auth, id, body)],
    remove: [chatRoute, (auth, id) => deleteChat(ctx, auth, id)],
  });
  app.post(
    '/chats/:id/read',
    {
      config: chatRoute,
      schema: {
        tags,
        params: ZIdParam,
        // The spec's body names the user; the caller comes only from the token.
        body: z.object({ userId: ZId.optional() }).nullish(),
        response: { 200: ZChat },
      },
    },
    (request) => markChatRead(ctx, request.auth, request.params.id),
  );
  route.get(
    '/chats/:id/messages',
    { params: ZIdParam, querystring: ZPageQuery.pick({ pageNumber: true }), reply: ZChatMessagesPage },
    (request) => listChatMessages(ctx, request.auth, request.params.id, request.query.pageNumber),
  );
  route.post(
    '/chats/:id/messages',
    { params: ZIdParam, body: ZChatMessageBody, response: { 201: ZChatMessage } },
    async (request, reply) =>
      reply.status(201).send(await sendChatMessage(ctx, request.auth, request.params.id, request.body)),
  );
}
