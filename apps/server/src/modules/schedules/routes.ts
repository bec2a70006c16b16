import {
  SCHEDULE_MEDIA_MAX_BYTES,
  ZIdParam,
  ZSchedule,
  ZScheduleBody,
  ZSchedulesPage,
  ZSchedulesQuery,
} from '@zapdesk/shared';
import type { ZodApp } from '../../context.js';
import { readSingleUpload } from '../../lib/single-upload.js';
import type { ScheduleService } from './schedules-service.js';

/** Every schedule route: a signed-in user of a company whose plan has useSchedules. */
const scheduleRoute = { auth: 'user', plan: 'useSchedules' } as const;

/**
 * Schedules (document 2 section 9 "Schedules"): the paged list, CRUD and the media upload. The
 * company comes from the token; another company's ids answer 404.
 */
export function scheduleRoutes(app: ZodApp, service: ScheduleService): void {
  const tags = ['schedules'];
  app.get(
    '/schedules',
    {
      config: scheduleRoute,
      schema: { tags, querystring: ZSchedulesQuery, response: { 200: ZSchedulesPage } },
    },
    (request) => service.list(request.auth, request.query),
  );
  app.get(
    '/schedules/:id',
    { config: scheduleRoute, schema: { tags, params: ZIdParam, response: { 200: ZSchedule } } },
    (request) => service.get(request.auth, request.params.id),
  );
  app.post(
    '/schedules',
    { config: scheduleRoute, schema: { tags, body: ZScheduleBody, response: { 201: ZSchedule } } },
    async (request, reply) => reply.status(201).send(await service.create(request.auth, request.body)),
  );
  app.put(
    '/schedules/:id',
    {
      config: scheduleRoute,
      schema: { tags, params: ZIdParam, body: ZScheduleBody.partial(), response: { 200: ZSchedule } },
    },
    (request) => service.update(request.auth, request.params.id, request.body),
  );
  app.delete(
    '/schedules/:id',
    { config: scheduleRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await service.remove(request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/schedules/:id/media-upload',
    { config: scheduleRoute, schema: { tags, params: ZIdParam, response: { 200: ZSchedule } } },
    async (request) => {
      await service.get(request.auth, request.params.id);
      const file = await readSingleUpload(request, { maxBytes: SCHEDULE_MEDIA_MAX_BYTES });
      return service.uploadMedia(request.auth, request.params.id, file);
    },
  );
  app.delete(
    '/schedules/:id/media-upload',
    { config: scheduleRoute, schema: { tags, params: ZIdParam, response: { 200: ZSchedule } } },
    (request) => service.deleteMedia(request.auth, request.params.id),
  );
}
