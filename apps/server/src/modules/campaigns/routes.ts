import {
  CAMPAIGN_MEDIA_MAX_BYTES,
  ZCampaign,
  ZCampaignBody,
  ZCampaignDetail,
  ZCampaignIdParam,
  ZCampaignSettingsAnswer,
  ZCampaignSettingsBody,
  ZCampaignShippingsPage,
  ZCampaignShippingsQuery,
  ZCampaignsPage,
  ZCampaignsQuery,
} from '@zapdesk/shared';
import type { ZodApp } from '../../context.js';
import { readSingleUpload } from '../../lib/single-upload.js';
import type { CampaignService } from './campaigns-service.js';

/** Every campaign route: a signed-in user of a company whose plan has useCampaigns. */
const campaignRoute = { auth: 'user', plan: 'useCampaigns' } as const;
/** Saving the campaign settings (the whole company's pace): admins. */
const campaignAdminRoute = { auth: 'user', role: 'admin', plan: 'useCampaigns' } as const;

/**
 * Campaigns (document 2 section 7 "Campaigns"): the paged list, CRUD, cancel, restart, media, the
 * report's recipients (GET /campaigns/:id/shippings) and the campaign settings. The company comes
 * from the token; another company's ids answer 404.
 */
export function campaignRoutes(app: ZodApp, service: CampaignService): void {
  const tags = ['campaigns'];
  app.get(
    '/campaigns',
    {
      config: campaignRoute,
      schema: { tags, querystring: ZCampaignsQuery, response: { 200: ZCampaignsPage } },
    },
    (request) => service.list(request.auth, request.query),
  );
  app.get(
    '/campaigns/:id',
    { config: campaignRoute, schema: { tags, params: ZCampaignIdParam, response: { 200: ZCampaignDetail } } },
    (request) => service.get(request.auth, request.params.id),
  );
  app.get(
    '/campaigns/:id/shippings',
    {
      config: campaignRoute,
      schema: {
        tags,
        params: ZCampaignIdParam,
        querystring: ZCampaignShippingsQuery,
        response: { 200: ZCampaignShippingsPage },
      },
    },
    (request) => service.shippings(request.auth, request.params.id, request.query),
  );
  app.post(
    '/campaigns',
    { config: campaignRoute, schema: { tags, body: ZCampaignBody, response: { 201: ZCampaign } } },
    async (request, reply) => reply.status(201).send(await service.create(request.auth, request.body)),
  );
  app.put(
    '/campaigns/:id',
    {
      config: campaignRoute,
      schema: { tags, params: ZCampaignIdParam, body: ZCampaignBody.partial(), response: { 200: ZCampaign } },
    },
    (request) => service.update(request.auth, request.params.id, request.body),
  );
  app.delete(
    '/campaigns/:id',
    { config: campaignRoute, schema: { tags, params: ZCampaignIdParam } },
    async (request, reply) => {
      await service.remove(request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/campaigns/:id/cancel',
    { config: campaignRoute, schema: { tags, params: ZCampaignIdParam, response: { 200: ZCampaign } } },
    (request) => service.cancel(request.auth, request.params.id),
  );
  app.post(
    '/campaigns/:id/restart',
    { config: campaignRoute, schema: { tags, params: ZCampaignIdParam, response: { 200: ZCampaign } } },
    (request) => service.restart(request.auth, request.params.id),
  );
  app.post(
    '/campaigns/:id/media-upload',
    { config: campaignRoute, schema: { tags, params: ZCampaignIdParam, response: { 200: ZCampaign } } },
    async (request) => {
      await service.get(request.auth, request.params.id);
      const file = await readSingleUpload(request, { maxBytes: CAMPAIGN_MEDIA_MAX_BYTES });
      return service.uploadMedia(request.auth, request.params.id, file);
    },
  );
  app.delete(
    '/campaigns/:id/media-upload',
    { config: campaignRoute, schema: { tags, params: ZCampaignIdParam, response: { 200: ZCampaign } } },
    (request) => service.deleteMedia(request.auth, request.params.id),
  );
  app.get(
    '/campaign-settings',
    { config: campaignRoute, schema: { tags, response: { 200: ZCampaignSettingsAnswer } } },
    async (request) => ({ settings: await service.settings(request.auth.companyId) }),
  );
  app.post(
    '/campaign-settings',
    {
      config: campaignAdminRoute,
      schema: { tags, body: ZCampaignSettingsBody, response: { 200: ZCampaignSettingsAnswer } },
    },
    (request) => service.saveSettings(request.auth, request.body),
  );
}
