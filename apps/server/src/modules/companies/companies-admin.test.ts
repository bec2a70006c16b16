/**
 * Companies administration (document 3 sections 4, 7 and 9): the super user
 * lists, creates, edits, extends (Expire) and deletes companies; everyone else gets 403.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../../db/schema/index.js';
import { t, useAppSuite } from '../../test/app-suite.js';
import {
  bearer,
  createConnectedTenant,
  createSuperUser,
  createTenant,
  createUser,
  customerNumber,
  injectMessage,
  login,
  setDueDate,
  type TenantFixture,
  type TestUser,
} from '../../test/factories.js';

useAppSuite();
let root: TestUser;
let tenant: TenantFixture;
let planId: number;
beforeAll(async () => {
  root = await createSuperUser(t.app);
  tenant = await createTenant(t.app);
  planId = ((await as(root, 'GET', '/api/plans/all')).json() as { id: number; name: string }[]).find(
    (p) => p.name === 'Básico',
  )!.id;
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function as(user: TestUser | undefined, method: Method, url: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    ...(user ? { headers: bearer(user) } : {}),
    ...(payload ? { payload } : {}),
  });
}

const dueOf = async (id: number) =>
  (await t.app.ctx.db.select({ d: companies.dueDate }).from(companies).where(eq(companies.id, id)))[0]!.d;

describe('companies administration', () => {
  it('answers 403 to company admins and agents on every administration route', async () => {
    const calls: [Method, string, object?][] = [
      ['GET', '/api/companies'],
      ['GET', '/api/companies/list'],
      ['POST', '/api/companies', { name: 'Nova', planId }],
      ['PUT', `/api/companies/${tenant.companyId}`, { name: 'Minha' }],
      ['POST', `/api/companies/${tenant.companyId}/extend`],
      ['DELETE', `/api/companies/${tenant.companyId}`],
    ];
    for (const user of [tenant.admin, tenant.agent]) {
      for (const [method, url, payload] of calls) {
        const res = await as(user, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      }
    }
    // Positive control: the super user may.
    expect((await as(root, 'GET', '/api/companies')).statusCode).toBe(200);
  });

  it('creates a company with its admin, who signs in; lists and searches it', async () => {
    const email = `dono-${Date.now()}@example.test`;
    const res = await as(root, 'POST', '/api/companies', {
      name: 'Padaria Central',
      email,
      phone: '11988887777',
      planId,
      dueDate: '2031-01-15',
      recurrence: 'ANUAL',
      password: 'senha1',
    });
    expect(res.statusCode, res.body).toBe(201);
    const company = res.json();
    expect(company).toMatchObject({
      name: 'Padaria Central',
      email,
      planId,
      plan: { name: 'Básico' },
      status: true,
      recurrence: 'ANUAL',
      dueDate: '2031-01-15T00:00:00.000Z',
      userCount: 1,
    });
    const session = await login(t.app, email, 'senha1');
    expect(session.statusCode).toBe(200);
    expect(session.json().user.companyId).toBe(company.id);
    const page = (await as(root, 'GET', '/api/companies?searchParam=padaria')).json();
    expect(page.companies.map((c: { id: number }) => c.id)).toEqual([company.id]);
    expect(page).toMatchObject({ count: 1, hasMore: false });
    expect((await as(root, 'GET', '/api/companies/list')).json().length).toBeGreaterThanOrEqual(3);
    const duplicate = await as(root, 'POST', '/api/companies', {
      name: 'Outra',
      email,
      planId,
      password: 'senha1',
    });
    expect(duplicate.json().error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    const noPlan = await as(root, 'POST', '/api/companies', { name: 'Sem plano', planId: 999_999 });
    expect(noPlan.statusCode).toBe(404);
    expect(noPlan.json().error).toBe('ERR_NO_PLAN_FOUND');
  });

  it('edits the plan, status and due date; an empty due date is null, an invalid one is refused', async () => {
    const id = (await as(root, 'POST', '/api/companies', { name: 'Editável', planId })).json().id;
    const res = await as(root, 'PUT', `/api/companies/${id}`, { status: false, dueDate: '2031-02-28' });
    expect(res.json()).toMatchObject({
      status: false,
      dueDate: '2031-02-28T00:00:00.000Z',
      name: 'Editável',
    });
    for (const dueDate of ['not a date', 'now', '0001-01-01', '2026-02-30', '2031-13-01', '9999-12-31']) {
      const refused = await as(root, 'PUT', `/api/companies/${id}`, { dueDate });
      expect(refused.statusCode, dueDate).toBe(400);
      expect(refused.json(), dueDate).toMatchObject({ error: 'ERR_VALIDATION', field: 'dueDate' });
      const created = await as(root, 'POST', '/api/companies', { name: 'Data ruim', planId, dueDate });
      expect(created.statusCode, dueDate).toBe(400);
    }
    expect((await dueOf(id))?.toISOString()).toBe('2031-02-28T00:00:00.000Z');
    expect((await as(root, 'PUT', `/api/companies/${id}`, { dueDate: '' })).json().dueDate).toBeNull();
    expect((await as(root, 'PUT', `/api/companies/${id}`, { recurrence: 'X' })).statusCode).toBe(400);
    expect((await as(root, 'PUT', `/api/companies/999999`, { name: 'Ninguém' })).statusCode).toBe(404);
  });

  it('locks a company out when its due date is moved to the past, and Expire lets it back in', async () => {
    const company = await createTenant(t.app);
    expect((await as(company.admin, 'GET', '/api/auth/me')).statusCode).toBe(200);
    await as(root, 'PUT', `/api/companies/${company.companyId}`, {
      dueDate: new Date(Date.now() - 86_400_000).toISOString(),
    });
    expect((await as(company.admin, 'GET', '/api/auth/me')).statusCode).toBe(401);
    // MENSAL: one month forward from the (past) due date is in the future again.
    const extended = await as(root, 'POST', `/api/companies/${company.companyId}/extend`);
    expect(extended.statusCode).toBe(200);
    expect(new Date(extended.json().dueDate).getTime()).toBeGreaterThan(Date.now());
    const relogin = await createUser(t.app, company.companyId, { profile: 'admin' });
    expect((await as(relogin, 'GET', '/api/auth/me')).statusCode).toBe(200);
  });

  it('Expire moves dueDate by 1, 2, 3, 6 or 12 months by the recurrence, from now when there is none', async () => {
    const base = new Date('2030-01-31T15:00:00.000Z');
    const expected: [string | null, string][] = [
      ['MENSAL', '2030-02-28T15:00:00.000Z'],
      ['BIMESTRAL', '2030-03-31T15:00:00.000Z'],
      ['TRIMESTRAL', '2030-04-30T15:00:00.000Z'],
      ['SEMESTRAL', '2030-07-31T15:00:00.000Z'],
      ['ANUAL', '2031-01-31T15:00:00.000Z'],
      [null, '2030-02-28T15:00:00.000Z'],
    ];
    for (const [recurrence, due] of expected) {
      const id = (
        await as(root, 'POST', '/api/companies', {
          name: `R ${recurrence}`,
          planId,
          recurrence,
          dueDate: base.toISOString(),
        })
      ).json().id;
      const res = await as(root, 'POST', `/api/companies/${id}/extend`);
      expect(res.json().dueDate, String(recurrence)).toBe(due);
      expect((await dueOf(id))!.toISOString()).toBe(due);
    }
    const open = (
      await as(root, 'POST', '/api/companies', { name: 'Sem data', planId, recurrence: 'ANUAL' })
    ).json();
    await setDueDate(t.app, open.id, null);
    const from = Date.now();
    const due = new Date(
      (await as(root, 'POST', `/api/companies/${open.id}/extend`)).json().dueDate,
    ).getTime();
    expect(due).toBeGreaterThanOrEqual(from + 365 * 86_400_000 - 60_000);
    expect(due).toBeLessThanOrEqual(Date.now() + 366 * 86_400_000 + 60_000);
    // Two concurrent clicks add two periods.
    const id = (
      await as(root, 'POST', '/api/companies', { name: 'Duplo', planId, dueDate: '2030-01-15T15:00:00.000Z' })
    ).json().id;
    await Promise.all([
      as(root, 'POST', `/api/companies/${id}/extend`),
      as(root, 'POST', `/api/companies/${id}/extend`),
    ]);
    expect((await dueOf(id))!.toISOString()).toBe('2030-03-15T15:00:00.000Z');
  });

  it("deletes a company with its users, but never the super user's own", async () => {
    const doomed = await createConnectedTenant(t.app);
    const pixel =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAAASUVORK5CYII=';
    await injectMessage(t.app, doomed.admin, doomed.whatsappId, {
      from: customerNumber(),
      body: 'foto',
      mediaUrl: pixel,
      mediaType: 'image',
    });
    const folder = path.join(t.config.dataDir, 'media', String(doomed.companyId));
    expect(fs.readdirSync(folder).length).toBeGreaterThan(0);
    expect((await as(root, 'DELETE', `/api/companies/${doomed.companyId}`)).statusCode).toBe(204);
    expect(fs.existsSync(folder)).toBe(false);
    expect((await as(doomed.admin, 'GET', '/api/auth/me')).statusCode).toBe(401);
    expect((await as(root, 'GET', `/api/companies/${doomed.companyId}`)).statusCode).toBe(404);
    const own = await as(root, 'DELETE', `/api/companies/${root.companyId}`);
    expect(own.statusCode).toBe(403);
    expect((await as(root, 'GET', `/api/companies/${root.companyId}`)).statusCode).toBe(200);
  });
});
