import { ZDashboardResponse } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { contacts, tickets, userRatings, users } from '../../db/schema/index.js';
import { t, useAppSuite } from '../../test/app-suite.js';
import { bearer, createTenant, createUser, type TenantFixture, type TestUser } from '../../test/factories.js';
import { localToday } from './dashboard-service.js';

/**
 * A hand-built data set with exact timestamps. Days are local to America/Sao_Paulo (UTC-3, no DST):
 * 2026-01-10..2026-01-11 local is [2026-01-10T03:00Z, 2026-01-12T03:00Z).
 */
let a: TenantFixture;
let b: TenantFixture;
let carol: TestUser;
const d = (iso: string) => new Date(iso);

async function contact(companyId: number, name: string, createdAt: Date, isGroup = false) {
  const [row] = await t.app.ctx.db
    .insert(contacts)
    .values({ companyId, name, number: `55${Math.floor(Math.random() * 1e11)}`, isGroup, createdAt })
    .returning({ id: contacts.id });
  return row!.id;
}

async function ticket(
  companyId: number,
  contactId: number,
  values: {
    status: 'open' | 'pending' | 'closed';
    userId?: number | null;
    createdAt: Date;
    acceptedAt?: Date | null;
    closedAt?: Date | null;
  },
) {
  const [row] = await t.app.ctx.db
    .insert(tickets)
    .values({ companyId, contactId, ...values })
    .returning({ id: tickets.id });
  return row!.id;
}

useAppSuite();
beforeAll(async () => {
  a = await createTenant(t.app);
  b = await createTenant(t.app);
  carol = await createUser(t.app, a.companyId, { name: 'Carol' });
  await t.app.ctx.db.update(users).set({ online: true }).where(eq(users.id, carol.id));
  await t.app.ctx.db.update(users).set({ name: 'Agent A' }).where(eq(users.id, a.agent.id));
  await t.app.ctx.db.update(users).set({ name: 'Admin A' }).where(eq(users.id, a.admin.id));

  // Contacts (leads): two in the period, one just after it (local 2026-01-12 01:00), one group.
  await contact(a.companyId, 'c1', d('2026-01-10T12:00:00Z'));
  await contact(a.companyId, 'c2', d('2026-01-12T02:00:00Z')); // local 2026-01-11 23:00
  const late = await contact(a.companyId, 'c3', d('2026-01-12T04:00:00Z')); // local 2026-01-12 01:00
  await contact(a.companyId, 'group', d('2026-01-10T12:00:00Z'), true);

  const agent = a.agent.id;
  // Closed in the period: support 30, 50 (agent) and 30 (carol) minutes; waits 10, 20, 30.
  const t1 = await ticket(a.companyId, late, {
    status: 'closed',
    userId: agent,
    createdAt: d('2026-01-10T13:00:00Z'),
    acceptedAt: d('2026-01-10T13:10:00Z'),
    closedAt: d('2026-01-10T13:40:00Z'),
  });
  const t2 = await ticket(a.companyId, late, {
    status: 'closed',
    userId: agent,
    createdAt: d('2026-01-10T14:00:00Z'),
    acceptedAt: d('2026-01-10T14:20:00Z'),
    closedAt: d('2026-01-10T15:10:00Z'),
  });
  await ticket(a.companyId, late, {
    status: 'closed',
    userId: carol.id,
    createdAt: d('2026-01-11T10:00:00Z'), // local 07:00
    acceptedAt: d('2026-01-11T10:30:00Z'),
    closedAt: d('2026-01-11T11:00:00Z'),
  });
  // Closed before the period.
  await ticket(a.companyId, late, {
    status: 'closed',
    userId: carol.id,
    createdAt: d('2026-01-05T10:00:00Z'),
    acceptedAt: d('2026-01-05T10:05:00Z'),
    closedAt: d('2026-01-05T11:00:00Z'),
  });
  // Open now, accepted in the period after a 30-minute wait.
  await ticket(a.companyId, late, {
    status: 'open',
    userId: agent,
    createdAt: d('2026-01-11T20:00:00Z'), // local 17:00
    acceptedAt: d('2026-01-11T20:30:00Z'),
  });
  // Pending now: one created late on the 11th local, one early on the 12th local.
  const c4 = await contact(a.companyId, 'c4', d('2025-01-01T00:00:00Z'));
  await ticket(a.companyId, c4, { status: 'pending', createdAt: d('2026-01-12T01:30:00Z') }); // local 22:30
  const c5 = await contact(a.companyId, 'c5', d('2025-01-01T00:00:00Z'));
  await ticket(a.companyId, c5, { status: 'pending', createdAt: d('2026-01-12T03:30:00Z') });

  await t.app.ctx.db.insert(userRatings).values([
    { companyId: a.companyId, ticketId: t1, userId: agent, rate: 3, createdAt: d('2026-01-10T14:00:00Z') },
    { companyId: a.companyId, ticketId: t2, userId: agent, rate: 2, createdAt: d('2026-01-10T16:00:00Z') },
    { companyId: a.companyId, ticketId: t2, userId: agent, rate: 1, createdAt: d('2026-01-20T16:00:00Z') },
  ]);

  // Company B: the same kind of data in the same period, never counted for A.
  const bc = await contact(b.companyId, 'b1', d('2026-01-10T12:00:00Z'));
  const bt = await ticket(b.companyId, bc, {
    status: 'closed',
    userId: b.agent.id,
    createdAt: d('2026-01-10T13:00:00Z'),
    acceptedAt: d('2026-01-10T13:01:00Z'),
    closedAt: d('2026-01-10T18:00:00Z'),
  });
  const bc2 = await contact(b.companyId, 'b2', d('2026-01-10T12:00:00Z'));
  await ticket(b.companyId, bc2, {
    status: 'open',
    userId: b.agent.id,
    createdAt: d('2026-01-10T12:00:00Z'),
  });
  await t.app.ctx.db.insert(userRatings).values({
    companyId: b.companyId,
    ticketId: bt,
    userId: b.agent.id,
    rate: 1,
    createdAt: d('2026-01-10T19:00:00Z'),
  });
});

const get = (url: string, user: { token: string } = a.admin) =>
  t.app.inject({ method: 'GET', url, headers: bearer(user) });

describe('GET /api/dashboard', () => {
  it('computes every counter and attendant figure of the hand-built period', async () => {
    const res = await get('/api/dashboard?date_from=2026-01-10&date_to=2026-01-11');
    expect(res.statusCode).toBe(200);
    const body = ZDashboardResponse.parse(res.json());
    expect(body.counters).toEqual({
      supportHappening: 1,
      supportPending: 2,
      supportFinished: 3,
      leads: 2,
      avgSupportTime: 36.67,
      avgWaitTime: 22.5,
    });
    expect(body.attendants).toEqual([
      { id: a.admin.id, name: 'Admin A', rating: 0, avgSupportTime: 0, online: false, tickets: 0 },
      { id: a.agent.id, name: 'Agent A', rating: 2.5, avgSupportTime: 40, online: false, tickets: 2 },
      { id: carol.id, name: 'Carol', rating: 0, avgSupportTime: 30, online: true, tickets: 1 },
    ]);
  });

  it('uses company-local days: a single day excludes what is UTC-same-day but local-next-day', async () => {
    const res = await get('/api/dashboard?date_from=2026-01-11&date_to=2026-01-11');
    const { counters } = res.json();
    expect(counters.supportFinished).toBe(1);
    expect(counters.leads).toBe(1); // c2 at local 23:00; c3 (local 01:00 of the 12th) is out
    expect(counters.avgSupportTime).toBe(30);
    expect(counters.avgWaitTime).toBe(30);
  });

  it('answers zeros for an empty period and keeps the now counters', async () => {
    const res = await get('/api/dashboard?date_from=2025-06-01&date_to=2025-06-02');
    expect(res.json().counters).toEqual({
      supportHappening: 1,
      supportPending: 2,
      supportFinished: 0,
      leads: 0,
      avgSupportTime: 0,
      avgWaitTime: 0,
    });
  });

  it('filters by a rolling number of days and defaults to today', async () => {
    const tenant = await createTenant(t.app);
    const now = Date.now();
    const c = await contact(tenant.companyId, 'recent', new Date(now - 60_000));
    await ticket(tenant.companyId, c, {
      status: 'closed',
      userId: tenant.agent.id,
      createdAt: new Date(now - 3 * 60_000),
      acceptedAt: new Date(now - 2 * 60_000),
      closedAt: new Date(now - 60_000),
    });
    const old = await contact(tenant.companyId, 'old', new Date(now - 10 * 86_400_000));
    await ticket(tenant.companyId, old, {
      status: 'closed',
      userId: tenant.agent.id,
      createdAt: new Date(now - 10 * 86_400_000 - 120 * 60_000),
      acceptedAt: new Date(now - 10 * 86_400_000 - 60 * 60_000),
      closedAt: new Date(now - 10 * 86_400_000),
    });
    const three = (await get('/api/dashboard?days=3', tenant.admin)).json().counters;
    expect(three).toMatchObject({ supportFinished: 1, leads: 1, avgSupportTime: 1, avgWaitTime: 1 });
    const fifteen = (await get('/api/dashboard?days=15', tenant.admin)).json().counters;
    expect(fifteen).toMatchObject({ supportFinished: 2, leads: 2, avgSupportTime: 30.5, avgWaitTime: 30.5 });
    const today = await get('/api/dashboard', tenant.admin);
    expect(today.statusCode).toBe(200);
    expect(today.json().counters.leads).toBe(1);
  });

  it('counts only the caller company (B sees its own figures, none of A)', async () => {
    const res = await get(
      `/api/dashboard?date_from=2026-01-10&date_to=2026-01-11&companyId=${a.companyId}`,
      b.admin,
    );
    const body = res.json();
    expect(body.counters).toEqual({
      supportHappening: 1,
      supportPending: 0,
      supportFinished: 1,
      leads: 2,
      avgSupportTime: 299,
      avgWaitTime: 1,
    });
    expect(body.attendants.map((u: { id: number }) => u.id).sort()).toEqual([b.admin.id, b.agent.id].sort());
    expect(body.attendants.find((u: { id: number }) => u.id === b.agent.id).rating).toBe(1);
  });

  it('refuses bad dates naming the field', async () => {
    const cases: [string, string][] = [
      ['date_from=2026-02-30&date_to=2026-03-01', 'date_from'],
      ['date_from=10/01/2026&date_to=2026-03-01', 'date_from'],
      ['date_from=2026-01-10', 'date_to'],
      ['date_to=2026-01-10', 'date_from'],
      ['date_from=2026-01-10&date_to=2026-01-09', 'date_to'],
      ['date_from=2020-01-01&date_to=2026-01-09', 'date_to'],
      ['days=abc', 'days'],
      ['days=0', 'days'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`/api/dashboard?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
  });

  it('is for admins only', async () => {
    for (const url of ['/api/dashboard', '/api/dashboard/ticketsUsers', '/api/dashboard/ticketsDay']) {
      const res = await get(url, a.agent);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });
});

describe('GET /api/dashboard/ticketsUsers', () => {
  it('counts tickets created in the local period per user', async () => {
    const res = await get('/api/dashboard/ticketsUsers?initialDate=2026-01-10&finalDate=2026-01-11');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        { nome: 'Agent A', quantidade: 3 },
        { nome: 'Carol', quantidade: 1 },
      ],
      count: 4,
    });
    const forB = await get(
      '/api/dashboard/ticketsUsers?initialDate=2026-01-10&finalDate=2026-01-11',
      b.admin,
    );
    expect(forB.json().count).toBe(2);
    expect(forB.json().data.map((r: { nome: string }) => r.nome)).not.toContain('Agent A');
  });

  it('refuses bad dates naming the field', async () => {
    const bad = await get('/api/dashboard/ticketsUsers?initialDate=2026-13-01&finalDate=2026-01-11');
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'initialDate' });
    const reversed = await get('/api/dashboard/ticketsUsers?initialDate=2026-01-11&finalDate=2026-01-10');
    expect(reversed.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'finalDate' });
  });
});

describe('GET /api/dashboard/ticketsDay', () => {
  it('lists every local day of the range with its ticket count', async () => {
    const res = await get('/api/dashboard/ticketsDay?initialDate=2026-01-09&finalDate=2026-01-12');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        { data: '2026-01-09', total: 0 },
        { data: '2026-01-10', total: 2 },
        { data: '2026-01-11', total: 3 },
        { data: '2026-01-12', total: 1 },
      ],
      count: 6,
    });
  });

  it('lists the 24 local hours when the range is one day', async () => {
    const res = await get('/api/dashboard/ticketsDay?initialDate=2026-01-11&finalDate=2026-01-11');
    const body = res.json() as { data: { horario: number; total: number }[]; count: number };
    expect(body.data).toHaveLength(24);
    expect(body.data.filter((r) => r.total > 0)).toEqual([
      { horario: 7, total: 1 },
      { horario: 17, total: 1 },
      { horario: 22, total: 1 },
    ]);
    expect(body.count).toBe(3);
  });

  it('defaults to today and refuses bad dates', async () => {
    const today = await get('/api/dashboard/ticketsDay');
    expect(today.statusCode).toBe(200);
    expect(today.json().data).toHaveLength(24);
    expect(localToday(new Date('2026-01-12T02:00:00Z'))).toBe('2026-01-11');
    const bad = await get('/api/dashboard/ticketsDay?initialDate=2026-01-01&finalDate=nope');
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'finalDate' });
  });
});
