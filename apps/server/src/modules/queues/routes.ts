import {
  type QueueDetail,
  ZCreateQueueOptionBody,
  ZQueue,
  ZQueueBody,
  ZQueueDetail,
  ZQueueOption,
  ZQueueOptionsQuery,
  ZUpdateQueueOptionBody,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { AutoAssigner } from '../../automation/auto-assign.js';
import type { AppContext, ZodApp } from '../../context.js';
import { adminRoute, userRoute } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import {
  createOption,
  createQueue,
  deleteOption,
  deleteQueue,
  getQueue,
  listOptions,
  listQueues,
  updateOption,
  updateQueue,
} from './queues-service.js';

/**
 * Queues and their options tree (document 2 section 7 Queues): reads for every user, writes for
 * admins. GET /queue keeps its list shape (ordered by order, then name).
 */
export function queueRoutes(app: ZodApp, ctx: AppContext, assigner?: AutoAssigner): void {
  const tags = ['queues'];
  // A queue that assigns automatically takes its waiting tickets as soon as it is saved.
  const assignNow = async (companyId: number, queue: QueueDetail) => {
    if (queue.autoAssignment !== 'off') await assigner?.request({ companyId, queueId: queue.id });
    return queue;
  };
  const route = routeTable(app, tags, userRoute);
  route.get('/queue', { reply: z.array(ZQueue) }, (request) => listQueues(ctx, request.auth.companyId));
  resourceRoutes(app, {
    path: '/queue',
    tags,
    item: ZQueueDetail,
    body: ZQueueBody,
    updateBody: ZQueueBody.partial(),
    show: [userRoute, (auth, id) => getQueue(ctx, auth.companyId, id)],
    create: [
      adminRoute,
      async (auth, body) => assignNow(auth.companyId, await createQueue(ctx, auth.companyId, body)),
    ],
    update: [
      adminRoute,
      async (auth, id, body) => assignNow(auth.companyId, await updateQueue(ctx, auth.companyId, id, body)),
    ],
    remove: [adminRoute, (auth, id) => deleteQueue(ctx, auth.companyId, id)],
  });

  route.get('/queue-options', { querystring: ZQueueOptionsQuery, reply: z.array(ZQueueOption) }, (request) =>
    listOptions(ctx, request.auth.companyId, request.query.queueId, request.query.parentId),
  );
  resourceRoutes(app, {
    path: '/queue-options',
    tags,
    item: ZQueueOption,
    body: ZCreateQueueOptionBody,
    updateBody: ZUpdateQueueOptionBody.partial(),
    create: [adminRoute, (auth, body) => createOption(ctx, auth.companyId, body)],
    update: [adminRoute, (auth, id, body) => updateOption(ctx, auth.companyId, id, body)],
    remove: [adminRoute, (auth, id) => deleteOption(ctx, auth.companyId, id)],
  });
}
