/**
 * Contract test of the classic client's fork (codatendechat 6.0.0): the feature map it gates its
 * pages on (`effectiveFeatures`/`effectiveModules` in listPlan, `effectiveUserFeatures` on the
 * session user) and the calls only it makes, spoken with its headers (the API's prefix does not
 * change them: classic-client.test.ts runs the client at the root and under /api).
 */
import { CLASSIC_FEATURES, PLAN_FLAGS } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, plans } from '../db/schema/index.js';
import { CLIENT_ORIGIN, classicClient } from './classic-http.js';
import {
  createCompany,
  createConnectedTenant,
  createTenant,
  createUser,
  customerNumber,
  injectMessage,
  TEST_PASSWORD,
  type TenantFixture,
} from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

/** The API's prefix in this test (the factories call /api). */
const PREFIX = '/api';

let t: TestApp;
let tenant: TenantFixture;

beforeAll(async () => {
  t = await createTestApp({ CORS_ORIGINS: CLIENT_ORIGIN });
  tenant = await createTenant(t.app);
});
afterAll(() => t.close());

/** The client signed in as `user`, as its login page does. */
async function signedIn(user: { email: string }) {
  const client = classicClient(t.app, PREFIX);
  const login = await client.call('POST', '/auth/login', { email: user.email, password: TEST_PASSWORD });
  expect(login.statusCode).toBe(200);
  client.setToken(login.json().token);
  return { client, user: login.json().user as { effectiveUserFeatures: Record<string, boolean> } };
}

/** The company's plan row id. */
async function planOf(companyId: number): Promise<number> {
  const [row] = await t.app.ctx.db
    .select({ planId: companies.planId })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row!.planId!;
}

describe('the feature map', () => {
  it('answers listPlan with every key the client reads, the four pages it gated on', async () => {
    const { client } = await signedIn(tenant.admin);
    const res = await client.call('GET', `/companies/listPlan/${tenant.companyId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body.effectiveFeatures).sort()).toEqual([...CLASSIC_FEATURES].sort());
    // Dashboard, tags, queues and quick messages showed "Feature unavailable" without the map.
    for (const key of ['dashboard.main', 'contacts.tags', 'team.queues', 'automation.quick_replies']) {
      expect(body.effectiveFeatures[key], key).toBe(true);
    }
    // Areas Zapdesk does not serve stay off, so the client never calls their routes.
    for (const key of ['crm.pipeline', 'team.ratings', 'agenda.calendar', 'dashboard.reports']) {
      expect(body.effectiveFeatures[key], key).toBe(false);
    }
    expect(body.effectiveModules).toMatchObject({
      useCampaigns: true,
      useFlowbuilders: true,
      useGroups: false,
    });
    expect(body.plan.name).toBeTruthy();
  });

  it('follows the plan flags, and a changed plan shows on the next call', async () => {
    const companyId = await createCompany(t.app, {
      plan: Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true])),
    });
    const admin = await createUser(t.app, companyId, { profile: 'admin' });
    const { client } = await signedIn(admin);
    const before = (await client.call('GET', `/companies/listPlan/${companyId}`)).json();
    expect(before.effectiveFeatures['attendance.kanban']).toBe(true);
    expect(before.effectiveFeatures['automation.chatbot']).toBe(true);
    await t.app.ctx.db
      .update(plans)
      .set({ useKanban: false, useCampaigns: false, useOpenAi: false })
      .where(eq(plans.id, await planOf(companyId)));
    const res = await client.call('GET', `/companies/listPlan/${companyId}`);
    const after = res.json();
    expect(after.effectiveFeatures['attendance.kanban']).toBe(false);
    expect(after.effectiveFeatures['automation.chatbot']).toBe(false);
    expect(after.effectiveFeatures['campaigns.sends']).toBe(false);
    expect(after.effectiveFeatures['automation.openai']).toBe(false);
    expect(after.effectiveFeatures['attendance.schedules']).toBe(true);
    expect(after.effectiveModules).toMatchObject({
      useKanban: false,
      useCampaigns: false,
      useSchedules: true,
    });
    // A client that asks many times a second is answered from its own cache for a few seconds.
    expect(res.headers['cache-control']).toBe('private, max-age=5');
  });

  it("gives the session user the plan's map less the admin areas for an agent", async () => {
    const admin = (await signedIn(tenant.admin)).user.effectiveUserFeatures;
    expect(admin['dashboard.main']).toBe(true);
    expect(admin['team.users']).toBe(true);
    const agent = (await signedIn(tenant.agent)).user.effectiveUserFeatures;
    expect(Object.keys(agent).sort()).toEqual([...CLASSIC_FEATURES].sort());
    for (const key of ['dashboard.main', 'team.users', 'team.queues', 'finance.invoices']) {
      expect(agent[key], key).toBe(false);
    }
    for (const key of ['attendance.inbox', 'contacts.tags', 'automation.quick_replies']) {
      expect(agent[key], key).toBe(true);
    }
  });
});

describe('the calls only the fork makes', () => {
  it('answers push config, branding and the branding script without a token', async () => {
    const client = classicClient(t.app, PREFIX);
    const push = await client.call('GET', '/system-settings/public/push-config');
    expect(push.statusCode).toBe(200);
    expect(push.json()).toEqual({
      onesignalEnabled: false,
      onesignalAppId: '',
      onesignalEnvironment: 'production',
    });
    const branding = await client.call('GET', '/system-settings/branding');
    expect(branding.statusCode).toBe(200);
    expect(branding.json()).toMatchObject({ systemName: 'Zapdesk', loginLogoUrl: '', assetRevision: '0' });
    const script = await t.app.inject({
      method: 'GET',
      url: `${PREFIX}/system-settings/branding-bootstrap.js`,
      headers: { accept: '*/*' },
    });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
    expect(script.body).not.toContain('{"');
  });

  it('counts and lists the bell, and reading an entry reads its ticket', async () => {
    // A company of its own: signing in ends the factory's session, so its data comes first.
    const own = await createConnectedTenant(t.app);
    const inbound = await injectMessage(t.app, own.admin, own.whatsappId, {
      from: customerNumber(),
      body: 'Olá!',
    });
    const { client } = await signedIn(own.admin);
    const count = await client.call('GET', '/notifications/unread-count');
    expect(count.statusCode).toBe(200);
    const before = count.json().count as number;
    expect(before).toBeGreaterThanOrEqual(1);
    const list = await client.call('GET', '/notifications', undefined, { page: '1', limit: '20' });
    expect(list.statusCode).toBe(200);
    const entry = list.json().notifications.find((n: { id: number }) => n.id === inbound.ticketId);
    expect(entry).toMatchObject({ read: false, body: 'Olá!', data: { ticketId: inbound.ticketId } });
    expect(list.json().count).toBe(before);
    const read = await client.call('PUT', `/notifications/${inbound.ticketId}/read`);
    expect(read.statusCode).toBe(204);
    expect((await client.call('GET', '/notifications/unread-count')).json().count).toBe(before - 1);
  });

  it('takes the active-view mark of a ticket the caller may open, and answers no contact labels', async () => {
    // A company of its own: signing in ends the factory's session, so its data comes first.
    const own = await createConnectedTenant(t.app);
    const inbound = await injectMessage(t.app, own.admin, own.whatsappId, {
      from: customerNumber(),
      body: 'Oi',
    });
    const { client } = await signedIn(own.admin);
    expect((await client.call('POST', `/tickets/${inbound.ticketId}/active-view`)).statusCode).toBe(204);
    expect((await client.call('POST', '/tickets/2000000000/active-view')).statusCode).toBe(404);
    const labels = await client.call('GET', '/contact-labels');
    expect(labels.statusCode).toBe(200);
    expect(labels.json()).toEqual([]);
    // Without a token every one of them is refused.
    const anonymous = classicClient(t.app, PREFIX);
    for (const url of ['/notifications/unread-count', '/notifications', '/contact-labels']) {
      expect((await anonymous.call('GET', url)).statusCode, url).toBe(401);
    }
  });
});
