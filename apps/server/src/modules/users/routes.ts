import {
  ZCreateUserBody,
  ZIdParam,
  ZLanguageParam,
  ZPageQuery,
  ZPublicUser,
  ZUpdateUserBody,
  ZUserListItem,
  ZUsersPage,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { adminRoute, userRoute } from '../../lib/guards.js';
import {
  createUser,
  deleteUser,
  getUser,
  listUserNames,
  listUsers,
  setLanguage,
  updateUser,
} from './users-service.js';

/** Users API, core document section 7 (Users). */
export function userRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['users'];
  app.get(
    '/users',
    { config: userRoute, schema: { tags, querystring: ZPageQuery, response: { 200: ZUsersPage } } },
    (request) => listUsers(ctx, request.auth.companyId, request.query),
  );
  app.get(
    '/users/list',
    { config: userRoute, schema: { tags, response: { 200: z.array(ZUserListItem) } } },
    (request) => listUserNames(ctx, request.auth.companyId),
  );
  app.get(
    '/users/:id',
    { config: userRoute, schema: { tags, params: ZIdParam, response: { 200: ZPublicUser } } },
    (request) => getUser(ctx, request.auth.companyId, request.params.id),
  );
  app.post(
    '/users',
    { config: adminRoute, schema: { tags, body: ZCreateUserBody, response: { 201: ZPublicUser } } },
    async (request, reply) => reply.status(201).send(await createUser(ctx, request.auth, request.body)),
  );
  app.put(
    '/users/:id',
    {
      config: userRoute,
      schema: { tags, params: ZIdParam, body: ZUpdateUserBody, response: { 200: ZPublicUser } },
    },
    (request) => updateUser(ctx, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/users/:id',
    { config: adminRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await deleteUser(ctx, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/users/set-language/:lang',
    { config: userRoute, schema: { tags, params: ZLanguageParam } },
    async (request, reply) => {
      await setLanguage(ctx, request.auth, request.params.lang);
      return reply.status(204).send();
    },
  );
}
