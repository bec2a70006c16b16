import { defineModule } from '../module-plugin.js';
import { scheduleRoutes } from './routes.js';
import { ScheduleService } from './schedules-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Scheduled messages; campaigns and tests call it. */
    schedules: ScheduleService;
  }
}

/** Scheduled messages: their routes and the job that sends each one at its time (`app.schedules`). */
export const schedulesModule = defineModule(
  'schedules',
  async (app, { ctx, jobs, sender, media, routes }) => {
    const service = new ScheduleService(ctx, jobs, sender, media);
    service.register();
    app.decorate('schedules', service);
    routes((api) => scheduleRoutes(api, service));
  },
);
