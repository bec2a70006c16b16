/**
 * Every /api route declares its guard. This table is the reviewed list: a new route fails here
 * until it is added with its auth requirement, role and plan flag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTenant, type TenantFixture } from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

const ROUTES: [route: string, auth: 'public' | 'user', role?: 'admin' | 'super', plan?: string][] = [
  ['GET /api/health', 'public'],
  ['POST /api/auth/login', 'public'],
  ['POST /api/auth/refresh_token', 'public'],
  ['DELETE /api/auth/logout', 'public'],
  ['GET /api/auth/me', 'user'],
  ['GET /api/users', 'user'],
  ['GET /api/users/list', 'user'],
  ['GET /api/users/:id', 'user'],
  ['POST /api/users', 'user', 'admin'],
  ['PUT /api/users/:id', 'user'],
  ['DELETE /api/users/:id', 'user', 'admin'],
  ['POST /api/users/set-language/:lang', 'user'],
  ['GET /api/settings', 'user'],
  ['PUT /api/settings/:key', 'user', 'admin'],
  ['POST /api/companies/cadastro', 'public'],
  ['GET /api/companies/:id', 'user'],
  ['GET /api/companies/listPlan/:companyId', 'user'],
  ['PUT /api/companies/:id/schedules', 'user', 'admin'],
  ['GET /api/dashboard', 'user', 'admin'],
  ['GET /api/dashboard/ticketsUsers', 'user', 'admin'],
  ['GET /api/dashboard/ticketsDay', 'user', 'admin'],
  ['GET /api/plans/list', 'public'],
  ['GET /api/queue', 'user'],
  ['GET /api/queue/:id', 'user'],
  ['POST /api/queue', 'user', 'admin'],
  ['PUT /api/queue/:id', 'user', 'admin'],
  ['DELETE /api/queue/:id', 'user', 'admin'],
  ['GET /api/queue-options', 'user'],
  ['POST /api/queue-options', 'user', 'admin'],
  ['PUT /api/queue-options/:id', 'user', 'admin'],
  ['DELETE /api/queue-options/:id', 'user', 'admin'],
  ['GET /api/whatsapp', 'user'],
  ['GET /api/whatsapp/:id', 'user'],
  ['POST /api/whatsapp', 'user', 'admin'],
  ['PUT /api/whatsapp/:id', 'user', 'admin'],
  ['DELETE /api/whatsapp/:id', 'user', 'admin'],
  ['POST /api/whatsappsession/:id', 'user', 'admin'],
  ['PUT /api/whatsappsession/:id', 'user', 'admin'],
  ['DELETE /api/whatsappsession/:id', 'user', 'admin'],
  ['GET /api/messages/:ticketId', 'user'],
  ['POST /api/messages/:ticketId', 'user'],
  ['POST /api/messages/:id/retry', 'user'],
  ['DELETE /api/messages/:id', 'user'],
  ['GET /api/public/:name', 'user'],
  ['POST /api/simulator/:whatsappId/messages', 'user', 'admin'],
  ['GET /api/simulator/:whatsappId/outbox', 'user', 'admin'],
  ['POST /api/simulator/:whatsappId/read', 'user', 'admin'],
  ['GET /api/tickets', 'user'],
  ['GET /api/tickets/u/:uuid', 'user'],
  ['GET /api/tickets/:id', 'user'],
  ['POST /api/tickets', 'user'],
  ['PUT /api/tickets/:id', 'user'],
  ['DELETE /api/tickets/:id', 'user', 'admin'],
  ['GET /api/ticket-notes/list', 'user'],
  ['POST /api/ticket-notes', 'user'],
  ['DELETE /api/ticket-notes/:id', 'user'],
  ['GET /api/tags/list', 'user'],
  ['POST /api/tags/sync', 'user'],
  ['GET /api/tags', 'user'],
  ['GET /api/tags/kanban', 'user'],
  ['GET /api/tags/:id', 'user'],
  ['POST /api/tags', 'user'],
  ['PUT /api/tags/:id', 'user'],
  ['DELETE /api/tags/:id', 'user'],
  ['GET /api/quick-messages/list', 'user'],
  ['GET /api/quick-messages', 'user'],
  ['GET /api/quick-messages/:id', 'user'],
  ['POST /api/quick-messages', 'user'],
  ['PUT /api/quick-messages/:id', 'user'],
  ['DELETE /api/quick-messages/:id', 'user'],
  ['POST /api/quick-messages/:id/media-upload', 'user'],
  ['DELETE /api/quick-messages/:id/media-upload', 'user'],
  ['GET /api/contacts', 'user'],
  ['GET /api/contacts/:id', 'user'],
  ['PUT /api/contacts/:id', 'user'],
  ['GET /api/contacts/list', 'user'],
  ['POST /api/contacts', 'user'],
  ['DELETE /api/contacts/:id', 'user', 'admin'],
  ['POST /api/contacts/upload', 'user'],
  ['POST /api/contacts/import', 'user'],
];

let t: TestApp;
let tenant: TenantFixture;
beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t.app);
});
afterAll(() => t.close());

const sample = (url: string) =>
  url
    .replace(':lang', 'en')
    .replace(':key', 'userRating')
    .replace(/:\w+/g, String(tenant?.companyId ?? 1));

describe('route guards', () => {
  it('match the reviewed table exactly', () => {
    const actual = t.app.routeTable
      .map((r) => [`${r.method} ${r.url}`, r.auth, r.role, r.plan].filter((v) => v !== undefined).join(' '))
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
        url: sample(url),
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
        url: sample(url),
        headers: bearer(tenant.agent),
        payload: method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, route).toBe(403);
      expect(res.json(), route).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });
});
