import {
  SCHEDULE_MEDIA_MAX_BYTES,
  ZSchedule,
  ZScheduleBody,
  ZSchedulesPage,
  ZSchedulesQuery,
} from '@zapdesk/shared';
import type { ZodApp } from '../../context.js';
import { mediaUploadRoutes, resourceRoutes } from '../common/resource-routes.js';
import type { ScheduleService } from './schedules-service.js';

/** Every schedule route: a signed-in user of a company whose plan has useSchedules. */
const scheduleRoute = { auth: 'user', plan: 'useSchedules' } as const;

/**
 * Schedules (document 2 section 9 "Schedules"): the paged list, CRUD and the media upload. The
 * company comes from the token; another company's ids answer 404.
 */
export function scheduleRoutes(app: ZodApp, service: ScheduleService): void {
  const tags = ['schedules'];
  resourceRoutes(app, {
    path: '/schedules',
    tags,
    item: ZSchedule,
    body: ZScheduleBody,
    updateBody: ZScheduleBody.partial(),
    query: ZSchedulesQuery,
    page: ZSchedulesPage,
    list: [scheduleRoute, (auth, query) => service.list(auth, query)],
    show: [scheduleRoute, (auth, id) => service.get(auth, id)],
    create: [scheduleRoute, (auth, body) => service.create(auth, body)],
    update: [scheduleRoute, (auth, id, body) => service.update(auth, id, body)],
    remove: [scheduleRoute, (auth, id) => service.remove(auth, id)],
  });
  mediaUploadRoutes(app, {
    path: '/schedules/:id',
    tags,
    guard: scheduleRoute,
    item: ZSchedule,
    maxBytes: SCHEDULE_MEDIA_MAX_BYTES,
    check: (auth, id) => service.get(auth, id),
    upload: (auth, id, file) => service.uploadMedia(auth, id, file),
    remove: (auth, id) => service.deleteMedia(auth, id),
  });
}
