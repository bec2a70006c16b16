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
import { mediaUploadRoutes, resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
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
  resourceRoutes(app, {
    path: '/campaigns',
    tags,
    params: ZCampaignIdParam,
    item: ZCampaign,
    body: ZCampaignBody,
    updateBody: ZCampaignBody.partial(),
    query: ZCampaignsQuery,
    page: ZCampaignsPage,
    list: [campaignRoute, (auth, query) => service.list(auth, query)],
    create: [campaignRoute, (auth, body) => service.create(auth, body)],
    update: [campaignRoute, (auth, id, body) => service.update(auth, id, body)],
    remove: [campaignRoute, (auth, id) => service.remove(auth, id)],
  });
  const route = routeTable(app, tags, campaignRoute);
  route.get('/campaigns/:id', { params: ZCampaignIdParam, reply: ZCampaignDetail }, (request) =>
    service.get(request.auth, request.params.id),
  );
  route.get(
    '/campaigns/:id/shippings',
    { params: ZCampaignIdParam, querystring: ZCampaignShippingsQuery, reply: ZCampaignShippingsPage },
    (request) => service.shippings(request.auth, request.params.id, request.query),
  );
  route.post('/campaigns/:id/cancel', { params: ZCampaignIdParam, reply: ZCampaign }, (request) =>
    service.cancel(request.auth, request.params.id),
  );
  route.post('/campaigns/:id/restart', { params: ZCampaignIdParam, reply: ZCampaign }, (request) =>
    service.restart(request.auth, request.params.id),
  );
  mediaUploadRoutes(app, {
    path: '/campaigns/:id',
    tags,
    guard: campaignRoute,
    params: ZCampaignIdParam,
    item: ZCampaign,
    maxBytes: CAMPAIGN_MEDIA_MAX_BYTES,
    check: (auth, id) => service.get(auth, id),
    upload: (auth, id, file) => service.uploadMedia(auth, id, file),
    remove: (auth, id) => service.deleteMedia(auth, id),
  });
  route.get('/campaign-settings', { reply: ZCampaignSettingsAnswer }, async (request) => ({
    settings: await service.settings(request.auth.companyId),
  }));
  route.post(
    '/campaign-settings',
    { guard: campaignAdminRoute, body: ZCampaignSettingsBody, reply: ZCampaignSettingsAnswer },
    (request) => service.saveSettings(request.auth, request.body),
  );
}
