import { FREE_TRIAL_PLAN_NAME, ZCompany, ZListPlanResponse } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies, plans, settings, users } from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import { bearer, createTenant, createUser, login } from '../../test/factories.js';

useAppSuite();

const signup = (payload: object, ip = '10.20.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/companies/cadastro', payload, remoteAddress: ip });

describe('POST /api/companies/cadastro', () => {
  it('creates a trial company with one admin; the server sets dueDate, status, recurrence and plan', async () => {
    const before = Date.now();
    const res = await signup({
      name: 'Loja da Ana',
      email: 'ana@loja.test',
      phone: '(11) 98765-4321',
      password: 'abcde',
      planId: 999,
      dueDate: '2099-01-01',
      recurrence: 'ANUAL',
      status: false,
    });
    expect(res.statusCode).toBe(201);
    const { companyId, userId } = res.json();
    const [company] = await t.app.ctx.db.select().from(companies).where(eq(companies.id, companyId));
    const [trial] = await t.app.ctx.db.select().from(plans).where(eq(plans.name, FREE_TRIAL_PLAN_NAME));
    expect(company?.planId).toBe(trial?.id);
    expect(company?.status).toBe(true);
    expect(company?.recurrence).toBe('MENSAL');
    expect(company?.phone).toBe('11987654321');
    const days = (company!.dueDate!.getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    const [admin] = await t.app.ctx.db.select().from(users).where(eq(users.id, userId));
    expect(admin).toMatchObject({ companyId, profile: 'admin', super: false, email: 'ana@loja.test' });
    const companySettings = await t.app.ctx.db
      .select()
      .from(settings)
      .where(eq(settings.companyId, companyId));
    expect(companySettings.length).toBeGreaterThan(5);
    const session = await login(t.app, 'ana@loja.test', 'abcde');
    expect(session.statusCode).toBe(200);
  });

  it('validates name, e-mail, password and phone, naming the field', async () => {
    const good = { name: 'Empresa', email: 'e@x.test', password: 'abcde', phone: '11987654321' };
    const cases: [object, string][] = [
      [{ ...good, name: 'E' }, 'name'],
      [{ ...good, name: 'E'.repeat(51) }, 'name'],
      [{ ...good, email: 'bad' }, 'email'],
      [{ ...good, password: '1234' }, 'password'],
      [{ ...good, password: 'x'.repeat(51) }, 'password'],
      [{ ...good, phone: '123456789012' }, 'phone'],
    ];
    for (const [payload, field] of cases) {
      const res = await signup(payload, '10.21.0.1');
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
  });

  it('refuses an e-mail already in use', async () => {
    const { admin } = await createTenant(t.app);
    const res = await signup({ name: 'Outra', email: admin.email, password: 'abcde' }, '10.22.0.1');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
  });
});

describe('companies and plans for the shell', () => {
  it('GET /api/companies/:id answers the own company; another one is 404 unless super', async () => {
    const a = await createTenant(t.app);
    const b = await createTenant(t.app);
    const own = await inject('GET', `/api/companies/${a.companyId}`, a.agent);
    expect(own.statusCode).toBe(200);
    expect(ZCompany.parse(own.json()).id).toBe(a.companyId);
    const other = await inject('GET', `/api/companies/${b.companyId}`, a.admin);
    expect(other.statusCode).toBe(404);
    const superUser = await createUser(t.app, a.companyId, { profile: 'admin', super: true });
    const bySuper = await inject('GET', `/api/companies/${b.companyId}`, superUser);
    expect(bySuper.statusCode).toBe(200);
  });

  it('GET /api/companies/listPlan/:companyId answers the plan flags and due date', async () => {
    const a = await createTenant(t.app);
    const res = await inject('GET', `/api/companies/listPlan/${a.companyId}`, a.agent);
    const body = ZListPlanResponse.parse(res.json());
    expect(body.plan.name).toBe('Completo');
    expect(body.plan.useCampaigns).toBe(true);
    expect(body.dueDate).not.toBeNull();
  });

  it('GET /api/plans/list is public', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/plans/list' });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((p: { name: string }) => p.name)).toContain(FREE_TRIAL_PLAN_NAME);
  });
});

describe('settings', () => {
  it('lists the company settings and lets admins change a value', async () => {
    const a = await createTenant(t.app);
    const b = await createTenant(t.app);
    const list = await inject('GET', '/api/settings/', a.agent);
    expect(list.json()).toContainEqual({ key: 'sendGreetingAccepted', value: 'disabled' });
    const put = await inject('PUT', '/api/settings/sendGreetingAccepted', a.admin, { value: 'enabled' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ key: 'sendGreetingAccepted', value: 'enabled' });
    const after = await inject('GET', '/api/settings', a.agent);
    expect(after.json()).toContainEqual({ key: 'sendGreetingAccepted', value: 'enabled' });
    const untouched = await inject('GET', '/api/settings', b.agent);
    expect(untouched.json()).toContainEqual({ key: 'sendGreetingAccepted', value: 'disabled' });
  });

  it('refuses agents, unknown keys and values the key does not allow', async () => {
    const a = await createTenant(t.app);
    const put = (user: { token: string }, key: string, value: unknown) =>
      inject('PUT', `/api/settings/${key}`, user, { value });
    expect((await put(a.agent, 'userRating', 'enabled')).statusCode).toBe(403);
    expect((await put(a.admin, 'noSuchKey', 'enabled')).json()).toEqual({ error: 'ERR_NO_SETTING_FOUND' });
    const bad = await put(a.admin, 'scheduleType', 'sometimes');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('value');
    expect((await put(a.admin, 'scheduleType', 'company')).statusCode).toBe(200);
    expect((await put(a.admin, 'userRating', 5)).json().field).toBe('value');
  });

  it('accepts the key in the body as the classic client sends it, when it names the same setting', async () => {
    const a = await createTenant(t.app);
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/settings/call', headers: bearer(a.admin), payload });
    const same = await put({ key: 'call', value: 'enabled' });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual({ key: 'call', value: 'enabled' });
    const other = await put({ key: 'userRating', value: 'disabled' });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'key' });
    const list = await inject('GET', '/api/settings', a.admin);
    expect(list.json()).toContainEqual({ key: 'call', value: 'enabled' });
  });
});

describe('GET /api/queue', () => {
  it('lists only the company queues', async () => {
    const a = await createTenant(t.app);
    await createTenant(t.app);
    const res = await inject('GET', '/api/queue', a.agent);
    expect(res.json().map((q: { id: number }) => q.id)).toEqual([a.queueId]);
  });
});
