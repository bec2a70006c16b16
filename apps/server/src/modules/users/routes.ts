import {
  ZCreateUserBody,
  ZLanguageParam,
  ZPageQuery,
  ZPublicUser,
  ZUpdateUserBody,
  ZUserListItem,
  ZUserLoad,
  ZUsersPage,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { AutoAssigner } from '../../automation/auto-assign.js';
import type { AppContext, ZodApp } from '../../context.js';
import { adminRoute, userRoute } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import {
  createUser,
  deleteUser,
  getUser,
  listUserLoads,
  listUserNames,
  listUsers,
  setLanguage,
  updateUser,
} from './users-service.js';

/** Users API, core document section 7 (Users). */
export function userRoutes(app: ZodApp, ctx: AppContext, assigner?: AutoAssigner): void {
  const tags = ['users'];
  resourceRoutes(app, {
    path: '/users',
    tags,
    item: ZPublicUser,
    body: ZCreateUserBody,
    updateBody: ZUpdateUserBody,
    query: ZPageQuery,
    page: ZUsersPage,
    list: [userRoute, (auth, query) => listUsers(ctx, auth, query)],
    show: [userRoute, (auth, id) => getUser(ctx, auth, id)],
    create: [adminRoute, (auth, body) => createUser(ctx, auth, body)],
    update: [
      userRoute,
      async (auth, id, body) => {
        const user = await updateUser(ctx, auth, id, body);
        // More room, a return from 'away' or new queues: the user may take waiting tickets now.
        if (body.maxOpenTickets !== undefined || body.availability === 'online' || body.queueIds) {
          await assigner?.request({ companyId: auth.companyId, userId: id });
        }
        return user;
      },
    ],
    remove: [
      adminRoute,
      async (auth, id) => {
        await deleteUser(ctx, auth, id);
        // Its open tickets wait again: the queues that assign by themselves hand them out.
        await assigner?.request({ companyId: auth.companyId });
      },
    ],
  });
  const route = routeTable(app, tags, userRoute);
  route.get('/users/list', { reply: z.array(ZUserListItem) }, (request) =>
    listUserNames(ctx, request.auth.companyId),
  );
  route.get('/users/load', { guard: adminRoute, reply: z.array(ZUserLoad) }, (request) =>
    listUserLoads(ctx, request.auth.companyId),
  );
  route.post('/users/set-language/:lang', { params: ZLanguageParam }, async (request, reply) => {
    await setLanguage(ctx, request.auth, request.params.lang);
    return reply.status(204).send();
  });
}
