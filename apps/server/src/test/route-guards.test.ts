/**
 * Every API route declares its guard. This table is the reviewed list: a new route fails here
 * until it is added with its auth requirement, role and plan flag. Paths are written below the API
 * prefix ('/tickets', served at '/api/tickets' by default) and checked with API_PREFIX '/api' and ''.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTenant, type TenantFixture } from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

const ROUTES: [route: string, auth: 'public' | 'user', role?: 'admin' | 'super', plan?: string][] = [
  ['GET /health', 'public'],
  ['POST /auth/login', 'public'],
  ['POST /auth/refresh_token', 'public'],
  ['DELETE /auth/logout', 'public'],
  ['GET /auth/me', 'user'],
  ['GET /users', 'user'],
  ['GET /users/list', 'user'],
  ['GET /users/:id', 'user'],
  ['POST /users', 'user', 'admin'],
  ['PUT /users/:id', 'user'],
  ['DELETE /users/:id', 'user', 'admin'],
  ['POST /users/set-language/:lang', 'user'],
  ['GET /settings', 'user'],
  ['PUT /settings/:key', 'user', 'admin'],
  ['POST /companies/cadastro', 'public'],
  ['GET /companies/:id', 'user'],
  ['GET /companies/listPlan/:companyId', 'user'],
  ['PUT /companies/:id/schedules', 'user', 'admin'],
  ['GET /companies', 'user', 'super'],
  ['GET /companies/list', 'user', 'super'],
  ['POST /companies', 'user', 'super'],
  ['PUT /companies/:id', 'user', 'super'],
  ['POST /companies/:id/extend', 'user', 'super'],
  ['DELETE /companies/:id', 'user', 'super'],
  ['POST /forgetpassword/:email', 'public'],
  ['POST /forgetpassword', 'public'],
  ['POST /resetpasswords/:email/:token/:password', 'public'],
  ['POST /resetpasswords', 'public'],
  ['GET /dashboard', 'user', 'admin'],
  ['GET /dashboard/ticketsUsers', 'user', 'admin'],
  ['GET /dashboard/ticketsDay', 'user', 'admin'],
  ['GET /plans/list', 'public'],
  ['GET /plans/all', 'user'],
  ['GET /plans/:id', 'user'],
  ['POST /plans', 'user', 'super'],
  ['PUT /plans/:id', 'user', 'super'],
  ['DELETE /plans/:id', 'user', 'super'],
  ['GET /queue', 'user'],
  ['GET /queue/:id', 'user'],
  ['POST /queue', 'user', 'admin'],
  ['PUT /queue/:id', 'user', 'admin'],
  ['DELETE /queue/:id', 'user', 'admin'],
  ['GET /queue-options', 'user'],
  ['POST /queue-options', 'user', 'admin'],
  ['PUT /queue-options/:id', 'user', 'admin'],
  ['DELETE /queue-options/:id', 'user', 'admin'],
  ['GET /whatsapp', 'user'],
  ['GET /whatsapp/:id', 'user'],
  ['POST /whatsapp', 'user', 'admin'],
  ['PUT /whatsapp/:id', 'user', 'admin'],
  ['DELETE /whatsapp/:id', 'user', 'admin'],
  ['POST /whatsappsession/:id', 'user', 'admin'],
  ['PUT /whatsappsession/:id', 'user', 'admin'],
  ['DELETE /whatsappsession/:id', 'user', 'admin'],
  ['GET /messages/:ticketId', 'user'],
  ['POST /messages/:ticketId', 'user'],
  ['POST /messages/:id/retry', 'user'],
  ['DELETE /messages/:id', 'user'],
  ['GET /public/:name', 'user'],
  ['POST /messages/send', 'public'],
  ['GET /webhooks', 'user', 'admin', 'useExternalApi'],
  ['POST /webhooks', 'user', 'admin', 'useExternalApi'],
  ['GET /webhooks/:id', 'user', 'admin', 'useExternalApi'],
  ['PUT /webhooks/:id', 'user', 'admin', 'useExternalApi'],
  ['DELETE /webhooks/:id', 'user', 'admin', 'useExternalApi'],
  ['POST /webhooks/:id/secret', 'user', 'admin', 'useExternalApi'],
  ['GET /webhooks/:id/deliveries', 'user', 'admin', 'useExternalApi'],
  ['POST /webhooks/:id/deliveries/:deliveryId/retry', 'user', 'admin', 'useExternalApi'],
  ['POST /simulator/:whatsappId/messages', 'user', 'admin'],
  ['GET /simulator/:whatsappId/outbox', 'user', 'admin'],
  ['POST /simulator/:whatsappId/read', 'user', 'admin'],
  ['GET /whatsapp/:id/cloud', 'user', 'admin'],
  ['PUT /whatsapp/:id/cloud', 'user', 'admin'],
  ['GET /cloud/webhook/:id', 'public'],
  ['POST /cloud/webhook/:id', 'public'],
  ['GET /cloud/tickets/:ticketId/window', 'user'],
  ['GET /cloud/tickets/:ticketId/templates', 'user'],
  ['POST /cloud/tickets/:ticketId/template', 'user'],
  ['GET /tickets', 'user'],
  ['GET /tickets/u/:uuid', 'user'],
  ['GET /tickets/:id', 'user'],
  ['POST /tickets', 'user'],
  ['PUT /tickets/:id', 'user'],
  ['DELETE /tickets/:id', 'user', 'admin'],
  ['GET /tickets/:id/flow-run', 'user'],
  ['GET /ticket-notes/list', 'user'],
  ['POST /ticket-notes', 'user'],
  ['DELETE /ticket-notes/:id', 'user'],
  ['GET /tags/list', 'user'],
  ['POST /tags/sync', 'user'],
  ['GET /tags', 'user'],
  ['GET /tags/kanban', 'user', undefined, 'useKanban'],
  ['GET /tags/:id', 'user'],
  ['POST /tags', 'user'],
  ['PUT /tags/:id', 'user'],
  ['DELETE /tags/:id', 'user'],
  ['GET /schedules', 'user', undefined, 'useSchedules'],
  ['GET /schedules/:id', 'user', undefined, 'useSchedules'],
  ['POST /schedules', 'user', undefined, 'useSchedules'],
  ['PUT /schedules/:id', 'user', undefined, 'useSchedules'],
  ['DELETE /schedules/:id', 'user', undefined, 'useSchedules'],
  ['POST /schedules/:id/media-upload', 'user', undefined, 'useSchedules'],
  ['DELETE /schedules/:id/media-upload', 'user', undefined, 'useSchedules'],
  ['GET /campaigns', 'user', undefined, 'useCampaigns'],
  ['GET /campaigns/:id', 'user', undefined, 'useCampaigns'],
  ['GET /campaigns/:id/shippings', 'user', undefined, 'useCampaigns'],
  ['POST /campaigns', 'user', undefined, 'useCampaigns'],
  ['PUT /campaigns/:id', 'user', undefined, 'useCampaigns'],
  ['DELETE /campaigns/:id', 'user', undefined, 'useCampaigns'],
  ['POST /campaigns/:id/cancel', 'user', undefined, 'useCampaigns'],
  ['POST /campaigns/:id/restart', 'user', undefined, 'useCampaigns'],
  ['POST /campaigns/:id/media-upload', 'user', undefined, 'useCampaigns'],
  ['DELETE /campaigns/:id/media-upload', 'user', undefined, 'useCampaigns'],
  ['GET /campaign-settings', 'user', undefined, 'useCampaigns'],
  ['POST /campaign-settings', 'user', 'admin', 'useCampaigns'],
  ['GET /contact-lists', 'user', 'admin', 'useCampaigns'],
  ['GET /contact-lists/list', 'user', 'admin', 'useCampaigns'],
  ['GET /contact-lists/sample', 'user', 'admin', 'useCampaigns'],
  ['GET /contact-lists/:id', 'user', 'admin', 'useCampaigns'],
  ['POST /contact-lists', 'user', 'admin', 'useCampaigns'],
  ['PUT /contact-lists/:id', 'user', 'admin', 'useCampaigns'],
  ['DELETE /contact-lists/:id', 'user', 'admin', 'useCampaigns'],
  ['POST /contact-lists/:id/upload', 'user', 'admin', 'useCampaigns'],
  ['GET /contact-lists/:id/import', 'user', 'admin', 'useCampaigns'],
  ['GET /contact-list-items', 'user', 'admin', 'useCampaigns'],
  ['GET /contact-list-items/:id', 'user', 'admin', 'useCampaigns'],
  ['POST /contact-list-items', 'user', 'admin', 'useCampaigns'],
  ['PUT /contact-list-items/:id', 'user', 'admin', 'useCampaigns'],
  ['DELETE /contact-list-items/:id', 'user', 'admin', 'useCampaigns'],
  ['GET /flowbuilder', 'user', undefined, 'useCampaigns'],
  ['POST /flowbuilder', 'user', 'admin', 'useCampaigns'],
  ['PUT /flowbuilder', 'user', 'admin', 'useCampaigns'],
  ['DELETE /flowbuilder/:id', 'user', 'admin', 'useCampaigns'],
  ['POST /flowbuilder/duplicate', 'user', 'admin', 'useCampaigns'],
  ['GET /flowbuilder/flow/:id', 'user', undefined, 'useCampaigns'],
  ['POST /flowbuilder/flow', 'user', 'admin', 'useCampaigns'],
  ['POST /flowbuilder/img', 'user', 'admin', 'useCampaigns'],
  ['POST /flowbuilder/audio', 'user', 'admin', 'useCampaigns'],
  ['POST /flowbuilder/content', 'user', 'admin', 'useCampaigns'],
  ['POST /flowbuilder/:id/test', 'user', 'admin', 'useCampaigns'],
  ['GET /flowcampaign', 'user', undefined, 'useCampaigns'],
  ['GET /flowcampaign/:id', 'user', undefined, 'useCampaigns'],
  ['POST /flowcampaign', 'user', 'admin', 'useCampaigns'],
  ['PUT /flowcampaign', 'user', 'admin', 'useCampaigns'],
  ['DELETE /flowcampaign/:id', 'user', 'admin', 'useCampaigns'],
  ['GET /quick-messages/list', 'user'],
  ['GET /quick-messages', 'user'],
  ['GET /quick-messages/:id', 'user'],
  ['POST /quick-messages', 'user'],
  ['PUT /quick-messages/:id', 'user'],
  ['DELETE /quick-messages/:id', 'user'],
  ['POST /quick-messages/:id/media-upload', 'user'],
  ['DELETE /quick-messages/:id/media-upload', 'user'],
  ['GET /files', 'user'],
  ['GET /files/:id', 'user'],
  ['POST /files', 'user'],
  ['PUT /files/:id', 'user'],
  ['DELETE /files/:id', 'user'],
  ['POST /files/uploadList/:id', 'user'],
  ['GET /contacts', 'user'],
  ['GET /contacts/:id', 'user'],
  ['PUT /contacts/:id', 'user'],
  ['GET /contacts/list', 'user'],
  ['POST /contacts', 'user'],
  ['DELETE /contacts/:id', 'user', 'admin'],
  ['POST /contacts/upload', 'user'],
  ['POST /contacts/import', 'user'],
  ['GET /chats', 'user', undefined, 'useInternalChat'],
  ['GET /chats/u/:uuid', 'user', undefined, 'useInternalChat'],
  ['POST /chats', 'user', undefined, 'useInternalChat'],
  ['PUT /chats/:id', 'user', undefined, 'useInternalChat'],
  ['DELETE /chats/:id', 'user', undefined, 'useInternalChat'],
  ['POST /chats/:id/read', 'user', undefined, 'useInternalChat'],
  ['GET /chats/:id/messages', 'user', undefined, 'useInternalChat'],
  ['POST /chats/:id/messages', 'user', undefined, 'useInternalChat'],
  ['GET /ticket/kanban', 'user', undefined, 'useKanban'],
  ['PUT /ticket-tags/:ticketId/:tagId', 'user', undefined, 'useKanban'],
  ['DELETE /ticket-tags/:ticketId', 'user', undefined, 'useKanban'],
  ['GET /announcements', 'user'],
  ['GET /announcements/:id', 'user'],
  ['GET /announcements/:id/media', 'user'],
  ['POST /announcements', 'user', 'super'],
  ['PUT /announcements/:id', 'user', 'super'],
  ['DELETE /announcements/:id', 'user', 'super'],
  ['POST /announcements/:id/media-upload', 'user', 'super'],
  ['DELETE /announcements/:id/media-upload', 'user', 'super'],
  ['GET /helps', 'user'],
  ['GET /helps/list', 'user'],
  ['POST /helps', 'user', 'super'],
  ['PUT /helps/:id', 'user', 'super'],
  ['DELETE /helps/:id', 'user', 'super'],
  ['GET /prompt', 'user', undefined, 'useOpenAi'],
  ['GET /prompt/:id', 'user', undefined, 'useOpenAi'],
  ['POST /prompt', 'user', 'admin', 'useOpenAi'],
  ['PUT /prompt/:id', 'user', 'admin', 'useOpenAi'],
  ['DELETE /prompt/:id', 'user', 'admin', 'useOpenAi'],
  ['GET /queueIntegration', 'user', undefined, 'useIntegrations'],
  ['GET /queueIntegration/:id', 'user', undefined, 'useIntegrations'],
  ['POST /queueIntegration', 'user', 'admin', 'useIntegrations'],
  ['POST /queueIntegration/testSession', 'user', 'admin', 'useIntegrations'],
  ['PUT /queueIntegration/:id', 'user', 'admin', 'useIntegrations'],
  ['DELETE /queueIntegration/:id', 'user', 'admin', 'useIntegrations'],
  ['GET /billing/info', 'user'],
  ['GET /billing/profile', 'user', 'admin'],
  ['PUT /billing/profile', 'user', 'admin'],
  ['GET /billing/pix-settings', 'user', 'super'],
  ['PUT /billing/pix-settings', 'user', 'super'],
  ['POST /billing/webhooks/asaas', 'public'],
  ['GET /invoices/all', 'user', 'admin'],
  ['GET /invoices/admin', 'user', 'super'],
  ['GET /invoices/:id', 'user', 'admin'],
  ['POST /invoices/:id/cancel', 'user', 'admin'],
  ['POST /invoices/:id/pay', 'user', 'super'],
  ['POST /subscription', 'user', 'admin'],
  ['GET /crm-verify-customer', 'user', 'admin'],
  ['POST /crm-create-customer', 'user', 'admin'],
  ['PUT /crm-update-customer', 'user', 'admin'],
  ['POST /crm-create-invoice', 'user', 'admin'],
  ['PUT /crm-update-invoice', 'user', 'admin'],
  ['GET /crm-verify-invoice', 'user', 'admin'],
  ['DELETE /crm-delete-invoice', 'user', 'admin'],
];

/** Fills a route's parameters with plausible values. */
const sample = (url: string, companyId: number) =>
  url.replace(':lang', 'en').replace(':key', 'userRating').replace(/:\w+/g, String(companyId));

describe.each(['/api', ''])("route guards with API_PREFIX='%s'", (prefix) => {
  let t: TestApp;
  let tenant: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp({ API_PREFIX: prefix });
    tenant = await createTenant(t.app);
  });
  afterAll(() => t.close());

  it('match the reviewed table exactly, below the prefix', () => {
    expect(t.app.routeTable.every((r) => r.url === `${prefix}${r.path}`)).toBe(true);
    const actual = t.app.routeTable
      .map((r) => [`${r.method} ${r.path}`, r.auth, r.role, r.plan].filter((v) => v !== undefined).join(' '))
      .sort();
    const expected = ROUTES.map((r) => r.filter((v) => v !== undefined).join(' ')).sort();
    expect(actual).toEqual(expected);
  });

  it('user routes answer 401 ERR_SESSION_EXPIRED without a token', async () => {
    for (const [route, auth] of ROUTES) {
      if (auth !== 'user') continue;
      const [method, url] = route.split(' ') as ['GET', string];
      const res = await t.app.inject({
        method,
        url: `${prefix}${sample(url, tenant.companyId)}`,
        payload: method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, route).toBe(401);
      expect(res.json(), route).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    }
  });

  it('admin routes answer 403 ERR_NO_PERMISSION to an agent', async () => {
    for (const [route, , role] of ROUTES) {
      if (role !== 'admin') continue;
      const [method, url] = route.split(' ') as ['GET', string];
      const res = await t.app.inject({
        method,
        url: `${prefix}${sample(url, tenant.companyId)}`,
        headers: bearer(tenant.agent),
        payload: method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, route).toBe(403);
      expect(res.json(), route).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });
});
