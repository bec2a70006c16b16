import { ZPublicUser, ZUsersPage } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import {
  createCompany,
  createCompanyAdmin,
  createQueue,
  createSimulatorConnection,
  createTenant,
  createUser,
  login,
  TEST_PASSWORD,
} from '../../test/factories.js';
import { VALID_BILLING_PROFILE } from '../../test/fixtures.js';

useAppSuite();

describe('GET /api/users', () => {
  it('pages by 20 with hasMore and count, searches name and e-mail, and stays inside the company', async () => {
    const { admin, companyId } = await createTenant(t.app);
    for (let i = 0; i < 22; i++)
      await createUser(t.app, companyId, { name: `Zeta ${String(i).padStart(2, '0')}` });
    await createUser(t.app, companyId, { name: 'Maria Search', email: `findme-${Date.now()}@example.test` });
    const other = await createTenant(t.app);
    await createUser(t.app, other.companyId, { name: 'Zeta Outsider' });

    const first = ZUsersPage.parse((await inject('GET', '/api/users/?pageNumber=1', admin)).json());
    expect(first.users).toHaveLength(20);
    expect(first.count).toBe(25);
    expect(first.hasMore).toBe(true);
    const second = ZUsersPage.parse((await inject('GET', '/api/users?pageNumber=2', admin)).json());
    expect(second.users).toHaveLength(5);
    expect(second.hasMore).toBe(false);
    expect([...first.users, ...second.users].every((u) => u.companyId === companyId)).toBe(true);

    const zeta = ZUsersPage.parse((await inject('GET', '/api/users?searchParam=zeta', admin)).json());
    expect(zeta.count).toBe(22);
    const byMail = ZUsersPage.parse((await inject('GET', '/api/users?searchParam=findme', admin)).json());
    expect(byMail.users.map((u) => u.name)).toEqual(['Maria Search']);
    const wildcard = ZUsersPage.parse((await inject('GET', '/api/users?searchParam=%25', admin)).json());
    expect(wildcard.count).toBe(0);
  });

  it("answers each user's company{dueDate} in the page and by id (core section 3)", async () => {
    const due = new Date('2031-03-04T05:06:07.000Z');
    const companyId = await createCompany(t.app, { dueDate: due });
    const admin = await createUser(t.app, companyId, { profile: 'admin', name: 'Due Admin' });
    const agent = await createUser(t.app, companyId, { name: 'Due Agent' });
    const page = ZUsersPage.parse((await inject('GET', '/api/users', admin)).json());
    expect(page.users).toHaveLength(2);
    expect(page.users.map((u) => u.company)).toEqual([
      { dueDate: due.toISOString() },
      { dueDate: due.toISOString() },
    ]);
    const one = ZPublicUser.parse((await inject('GET', `/api/users/${agent.id}`, admin)).json());
    expect(one.company).toEqual({ dueDate: due.toISOString() });

    const lone = await createCompanyAdmin(t.app, { dueDate: null });
    const never = ZPublicUser.parse((await inject('GET', `/api/users/${lone.id}`, lone)).json());
    expect(never.company).toEqual({ dueDate: null });
  });

  it('lists id and name for /api/users/list', async () => {
    const { agent, admin } = await createTenant(t.app);
    const res = await inject('GET', '/api/users/list', agent);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .map((u: { id: number }) => u.id)
        .sort(),
    ).toEqual([admin.id, agent.id].sort());
    expect(Object.keys(res.json()[0]).sort()).toEqual(['id', 'name']);
  });
});

describe('POST /api/users', () => {
  it('creates a user with queues; the password is hashed with argon2id and never answered', async () => {
    const { admin, companyId, queueId } = await createTenant(t.app);
    const res = await inject('POST', '/api/users', admin, {
      name: 'Nova Pessoa',
      email: 'Nova.Pessoa@Example.test',
      password: 'abcde',
      profile: 'user',
      queueIds: [queueId],
    });
    expect(res.statusCode).toBe(201);
    const user = ZPublicUser.parse(res.json());
    expect(user.email).toBe('nova.pessoa@example.test');
    expect(user.queues.map((q) => q.id)).toEqual([queueId]);
    expect(res.body).not.toContain('password');
    const [row] = await t.app.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(row?.companyId).toBe(companyId);
    const session = await login(t.app, user.email, 'abcde');
    expect(session.statusCode).toBe(200);
  });

  it('validates with the spec messages and names the field', async () => {
    const { admin } = await createTenant(t.app);
    const cases: [object, string, string][] = [
      [{ name: 'A', email: 'a@b.test', password: 'abcde' }, 'name', 'tooShort'],
      [{ name: 'A'.repeat(51), email: 'a@b.test', password: 'abcde' }, 'name', 'tooLong'],
      [{ name: 'Ana', email: 'not-an-email', password: 'abcde' }, 'email', 'invalidEmail'],
      [{ name: 'Ana', email: 'a@b.test', password: 'abc' }, 'password', 'tooShort'],
      [{ name: 'Ana', password: 'abcde' }, 'email', 'required'],
      [{ name: 'Ana', email: 'a@b.test', password: 'abcde', profile: 'root' }, 'profile', ''],
    ];
    for (const [payload, field, message] of cases) {
      const res = await inject('POST', '/api/users', admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toBe(field);
      if (message) expect(res.json().message).toBe(message);
    }
  });

  it("refuses a duplicate e-mail, other companies' queues, agents, and the plan limit", async () => {
    const { admin, agent } = await createTenant(t.app);
    const dup = await inject('POST', '/api/users', admin, {
      name: 'Dup',
      email: agent.email.toUpperCase(),
      password: 'abcde',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' });

    const other = await createTenant(t.app);
    const foreignQueue = await inject('POST', '/api/users', admin, {
      name: 'Queue',
      email: 'q@example.test',
      password: 'abcde',
      queueIds: [other.queueId],
    });
    expect(foreignQueue.statusCode).toBe(400);
    expect(foreignQueue.json().field).toBe('queueIds');

    const byAgent = await inject('POST', '/api/users', agent, {
      name: 'Nope',
      email: 'nope@example.test',
      password: 'abcde',
    });
    expect(byAgent.statusCode).toBe(403);
    expect(byAgent.json()).toEqual({ error: 'ERR_NO_PERMISSION' });

    const smallAdmin = await createCompanyAdmin(t.app, { plan: { users: 2 } });
    expect(
      (
        await inject('POST', '/api/users', smallAdmin, {
          name: 'Second',
          email: 's2@example.test',
          password: 'abcde',
        })
      ).statusCode,
    ).toBe(201);
    const third = await inject('POST', '/api/users', smallAdmin, {
      name: 'Third',
      email: 's3@example.test',
      password: 'abcde',
    });
    expect(third.statusCode).toBe(403);
    expect(third.json()).toMatchObject({ error: 'ERR_USER_LIMIT_REACHED', limit: 2 });
  });

  it('creates at most the plan limit under concurrency', async () => {
    const small = await createCompany(t.app, { plan: { users: 3 } });
    const smallAdmin = await createUser(t.app, small, { profile: 'admin' });
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        inject('POST', '/api/users', smallAdmin, {
          name: `Par ${i}`,
          email: `par${i}-${small}@example.test`,
          password: 'abcde',
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
    expect(results.filter((r) => r.statusCode === 403)).toHaveLength(2);
  });
});

describe('PUT /api/users/:id', () => {
  it('lets an admin change profile, queues, allTicket and password', async () => {
    const { admin, agent, companyId } = await createTenant(t.app);
    const queue2 = await createQueue(t.app, companyId);
    const res = await inject('PUT', `/api/users/${agent.id}`, admin, {
      profile: 'admin',
      queueIds: [queue2],
      allTicket: 'enabled',
      password: 'newpass',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ profile: 'admin', allTicket: 'enabled', queues: [{ id: queue2 }] });
    const session = await login(t.app, agent.email, 'newpass');
    expect(session.statusCode).toBe(200);
  });

  it('lets a user edit its own name, e-mail and password but not raise its profile or touch others', async () => {
    const { admin, agent } = await createTenant(t.app);
    const own = await inject('PUT', `/api/users/${agent.id}`, agent, { name: 'Novo Nome', password: '' });
    expect(own.statusCode).toBe(200);
    expect(own.json().name).toBe('Novo Nome');
    const session = await login(t.app, agent.email);
    expect(session.statusCode).toBe(200);
    // The sign-in ended the agent's earlier session: go on with the new one.
    const signedIn = { ...agent, token: session.json().token as string };
    for (const body of [
      { profile: 'admin' },
      { queueIds: [] },
      { allTicket: 'enabled' },
      { whatsappId: 1 },
    ]) {
      const res = await inject('PUT', `/api/users/${agent.id}`, signedIn, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
    }
    expect((await inject('PUT', `/api/users/${admin.id}`, signedIn, { name: 'Hacked' })).statusCode).toBe(
      403,
    );
    const [row] = await t.app.ctx.db.select().from(users).where(eq(users.id, agent.id));
    expect(row?.profile).toBe('user');
  });

  it("saves and answers the billing data on the user: its own and the admins' view, never other members'", async () => {
    const { admin, agent, companyId } = await createTenant(t.app);
    const colleague = await createUser(t.app, companyId, { name: 'Colega' });
    const { name: _name, email: _email, ...billing } = VALID_BILLING_PROFILE;
    const saved = await inject('PUT', `/api/users/${agent.id}`, agent, billing);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject(billing);
    // Another change keeps them.
    expect((await inject('PUT', `/api/users/${agent.id}`, agent, { name: 'Agente Azul' })).statusCode).toBe(
      200,
    );
    const own = ZPublicUser.parse((await inject('GET', `/api/users/${agent.id}`, agent)).json());
    expect(own).toMatchObject({ ...billing, name: 'Agente Azul' });
    expect((await inject('GET', `/api/users/${agent.id}`, admin)).json()).toMatchObject(billing);
    // A colleague reads the user without them, by id and in the list.
    const seen = (await inject('GET', `/api/users/${agent.id}`, colleague)).json();
    expect(seen).toMatchObject({ name: 'Agente Azul', phone: '', cnpjCpf: '', address: '', zipcode: '' });
    const listed = ZUsersPage.parse((await inject('GET', '/api/users/?pageNumber=1', colleague)).json());
    expect(listed.users.find((u) => u.id === agent.id)).toMatchObject({ phone: '', city: '', country: '' });
    const mine = ZUsersPage.parse((await inject('GET', '/api/users/?pageNumber=1', agent)).json());
    expect(mine.users.find((u) => u.id === agent.id)).toMatchObject(billing);

    // Bounded like the billing dialog: a 16-character phone, a wrong CPF, an unknown country.
    for (const [field, value] of [
      ['phone', '1'.repeat(16)],
      ['cnpjCpf', '111.111.111-11'],
      ['zipcode', '0'.repeat(11)],
      ['country', 'Brasil'],
      ['address', 'x'.repeat(201)],
    ] as const) {
      const res = await inject('PUT', `/api/users/${agent.id}`, agent, { [field]: value });
      expect(res.statusCode, field).toBe(400);
      expect(res.json(), field).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    // A member still cannot write another user's billing data.
    expect((await inject('PUT', `/api/users/${colleague.id}`, agent, { phone: '1' })).statusCode).toBe(403);
  });

  it('never leaves a company without an admin', async () => {
    const { admin } = await createTenant(t.app);
    const demote = await inject('PUT', `/api/users/${admin.id}`, admin, { profile: 'user' });
    expect(demote.statusCode).toBe(400);
    expect(demote.json()).toEqual({ error: 'ERR_LAST_ADMIN' });
    const remove = await inject('DELETE', `/api/users/${admin.id}`, admin);
    expect(remove.statusCode).toBe(400);
    expect(remove.json()).toEqual({ error: 'ERR_LAST_ADMIN' });
  });
});

describe('DELETE /api/users/:id', () => {
  it('deletes a user for admins only; the deleted user loses access at once', async () => {
    const { admin, agent, companyId } = await createTenant(t.app);
    const victim = await createUser(t.app, companyId);
    expect((await inject('DELETE', `/api/users/${victim.id}`, agent)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/users/${victim.id}`, admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/users/${victim.id}`, admin)).statusCode).toBe(404);
    expect((await inject('GET', '/api/auth/me', victim)).statusCode).toBe(401);
    const second = await createUser(t.app, companyId, { profile: 'admin' });
    expect((await inject('DELETE', `/api/users/${admin.id}`, second)).statusCode).toBe(204);
  });
});

describe('POST /api/users/set-language/:lang', () => {
  it('stores pt, en or es and refuses others', async () => {
    const { agent } = await createTenant(t.app);
    expect((await inject('POST', '/api/users/set-language/es', agent)).statusCode).toBe(204);
    expect((await inject('GET', '/api/auth/me', agent)).json().language).toBe('es');
    const bad = await inject('POST', '/api/users/set-language/fr', agent);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('lang');
  });
});

describe('default connection of a user', () => {
  it("refuses another company's connection on create and update; the company's own is kept", async () => {
    const a = await createTenant(t.app);
    const b = await createTenant(t.app);
    const own = await createSimulatorConnection(t.app, a.admin);
    const foreign = await createSimulatorConnection(t.app, b.admin);
    const payload = (whatsappId: number) => ({
      name: 'Padrão',
      email: `default-${whatsappId}-${Date.now()}@example.test`,
      password: TEST_PASSWORD,
      profile: 'user',
      whatsappId,
    });
    const refused = await inject('POST', '/api/users', a.admin, payload(foreign));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'whatsappId' });
    expect(refused.body).not.toContain(`"whatsappId":${foreign}`);
    const created = await inject('POST', '/api/users', a.admin, payload(own));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const [stored] = await t.app.ctx.db.select().from(users).where(eq(users.id, id));
    expect(stored!.whatsappId).toBe(own);
    const update = await inject('PUT', `/api/users/${id}`, a.admin, { whatsappId: foreign });
    expect(update.statusCode).toBe(400);
    expect(update.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'whatsappId' });
    const [after] = await t.app.ctx.db.select().from(users).where(eq(users.id, id));
    expect(after!.whatsappId).toBe(own);
    const cleared = await inject('PUT', `/api/users/${id}`, a.admin, { whatsappId: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
  });
});
