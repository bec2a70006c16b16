/**
 * Plans administration (document 3 section 7): the super user creates, edits and
 * deletes plans; everyone signed in reads them; a plan in use cannot be deleted; a plan's new
 * limits and flags apply to its companies at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { t, useAppSuite } from '../../test/app-suite.js';
import {
  bearer,
  createCompany,
  createSuperUser,
  createTenant,
  createUser,
  type TestUser,
} from '../../test/factories.js';

useAppSuite();
let root: TestUser;
let admin: TestUser;
beforeAll(async () => {
  root = await createSuperUser(t.app);
  admin = (await createTenant(t.app)).admin;
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const as = (user: TestUser | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, ...(user ? { headers: bearer(user) } : {}), ...(payload ? { payload } : {}) });

let seq = 0;
const planBody = (extra: object = {}) => ({
  name: `Plano ${Date.now()}-${++seq}`,
  value: 79.9,
  users: 3,
  connections: 1,
  queues: 2,
  useKanban: true,
  ...extra,
});

describe('plans administration', () => {
  it('lets the super user create, read, edit and delete a plan', async () => {
    const created = await as(root, 'POST', '/api/plans', planBody({ useCampaigns: true }));
    expect(created.statusCode).toBe(201);
    const plan = created.json();
    expect(plan).toMatchObject({
      value: 79.9,
      users: 3,
      useCampaigns: true,
      useKanban: true,
      useOpenAi: false,
    });
    expect((await as(admin, 'GET', `/api/plans/${plan.id}`)).json()).toEqual(plan);
    expect((await as(admin, 'GET', '/api/plans/all')).json()).toContainEqual(plan);
    expect((await as(undefined, 'GET', '/api/plans/list')).json()).toContainEqual(plan);
    const edited = await as(root, 'PUT', `/api/plans/${plan.id}`, { value: 89.5, useKanban: false });
    expect(edited.json()).toEqual({ ...plan, value: 89.5, useKanban: false });
    expect((await as(root, 'DELETE', `/api/plans/${plan.id}`)).statusCode).toBe(204);
    expect((await as(root, 'GET', `/api/plans/${plan.id}`)).json()).toEqual({ error: 'ERR_NO_PLAN_FOUND' });
    expect((await as(root, 'DELETE', `/api/plans/${plan.id}`)).statusCode).toBe(404);
  });

  it('answers 403 to a company admin on every write, and writes nothing', async () => {
    const plan = (await as(root, 'POST', '/api/plans', planBody())).json();
    for (const [method, url, payload] of [
      ['POST', '/api/plans', planBody()],
      ['PUT', `/api/plans/${plan.id}`, { value: 1 }],
      ['DELETE', `/api/plans/${plan.id}`],
    ] as [Method, string, object?][]) {
      const res = await as(admin, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await as(root, 'GET', `/api/plans/${plan.id}`)).json()).toEqual(plan);
  });

  it('validates the body and refuses a duplicate name', async () => {
    for (const [body, field] of [
      [planBody({ name: '' }), 'name'],
      [planBody({ value: -1 }), 'value'],
      [planBody({ value: 10.123 }), 'value'],
      [planBody({ users: 0 }), 'users'],
      [planBody({ queues: 1.5 }), 'queues'],
      [planBody({ connections: 3_000_000_000 }), 'connections'],
    ] as const) {
      const res = await as(root, 'POST', '/api/plans', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    const body = planBody();
    expect((await as(root, 'POST', '/api/plans', body)).statusCode).toBe(201);
    const twin = await as(root, 'POST', '/api/plans', body);
    expect(twin.statusCode).toBe(409);
    expect(twin.json()).toMatchObject({ error: 'ERR_NAME_ALREADY_EXISTS' });
  });

  it('refuses to delete a plan in use until its companies move (ERR_PLAN_IN_USE)', async () => {
    const plan = (await as(root, 'POST', '/api/plans', planBody())).json();
    const other = (await as(root, 'POST', '/api/plans', planBody())).json();
    const company = (
      await as(root, 'POST', '/api/companies', { name: 'Usa o plano', planId: plan.id })
    ).json();
    const refused = await as(root, 'DELETE', `/api/plans/${plan.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'ERR_PLAN_IN_USE', companies: 1 });
    expect((await as(root, 'GET', `/api/plans/${plan.id}`)).statusCode).toBe(200);
    await as(root, 'PUT', `/api/companies/${company.id}`, { planId: other.id });
    expect((await as(root, 'DELETE', `/api/plans/${plan.id}`)).statusCode).toBe(204);
  });

  it("applies a plan's new flags and limits to its companies at once", async () => {
    const plan = (await as(root, 'POST', '/api/plans', planBody({ users: 5, useKanban: true }))).json();
    const companyId = await createCompany(t.app, {});
    await as(root, 'PUT', `/api/companies/${companyId}`, { planId: plan.id });
    const boss = await createUser(t.app, companyId, { profile: 'admin' });
    expect((await as(boss, 'GET', '/api/tags/kanban')).statusCode).toBe(200);
    await as(root, 'PUT', `/api/plans/${plan.id}`, { useKanban: false, users: 1 });
    const kanban = await as(boss, 'GET', '/api/tags/kanban');
    expect(kanban.statusCode).toBe(403);
    expect(kanban.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    const extra = await as(boss, 'POST', '/api/users', {
      name: 'Mais um',
      email: `mais-${Date.now()}@example.test`,
      password: 'abcde',
    });
    expect(extra.statusCode).toBe(403);
    expect(extra.json()).toEqual({ error: 'ERR_USER_LIMIT_REACHED', limit: 1 });
    await as(root, 'PUT', `/api/plans/${plan.id}`, { users: 2 });
    const allowed = await as(boss, 'POST', '/api/users', {
      name: 'Mais um',
      email: `mais2-${Date.now()}@example.test`,
      password: 'abcde',
    });
    expect(allowed.statusCode).toBe(201);
  });
});
