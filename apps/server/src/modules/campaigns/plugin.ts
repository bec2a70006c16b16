import { defineModule } from '../module-plugin.js';
import { CampaignEngine } from './campaign-engine.js';
import { CampaignService } from './campaigns-service.js';
import { campaignRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The campaign engine: tests and benchmarks drive it. */
    campaigns: CampaignEngine;
  }
}

/**
 * Campaigns: their routes and the engine that sends them (`app.campaigns`). The engine reads the
 * customers' answers (opt-out, confirmation) from the inbound pipeline and resumes the sends of a
 * connection once its pending messages went out.
 */
export const campaignsModule = defineModule('campaigns', async (app, options) => {
  const { ctx, jobs, sender, media, sessions, pipeline, routes } = options;
  const engine = new CampaignEngine(ctx, jobs, sender, media, sessions, pipeline);
  engine.register();
  const service = new CampaignService(ctx, media, engine);
  engine.notify = (companyId, campaignId) => service.emit(companyId, campaignId);
  pipeline.observers.push((connection, result) => engine.optOutFromInbound(connection.companyId, result));
  pipeline.observers.push((connection, result) =>
    engine.confirmFromInbound(connection.companyId, connection.id, result),
  );
  // Campaign sends paused while the connection was away resume at its pace.
  sessions.onPendingDelivery((ids) => engine.resume(ids));
  app.decorate('campaigns', engine);
  routes((api) => campaignRoutes(api, service));
});
