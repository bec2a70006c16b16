import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { companies, contacts, tickets, userRatings, users } from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import { createTenant, createUser, type TenantFixture, type TestUser } from '../../test/factories.js';
import { prng } from '../../test/random.js';
import { localToday } from './dashboard-service.js';

/**
 * GET /api/dashboard reads whole local days from the rollup `dashboard_ticket_days` (kept by triggers
 * on tickets) and the partial days at a period's ends from the tickets. These tests compare its answer
 * with the plain aggregates over tickets, contacts and ratings (the statements of the first
 * implementation, below) on a random data set, for rolling windows, date ranges, single days, local
 * midnights and the old America/Sao_Paulo DST changes (both at local midnight), before and after the
 * kinds of change the triggers must follow: closing, reopening, accepting, transferring, editing times,
 * deleting tickets, contacts and users, in single and multi-row statements.
 */
let a: TenantFixture;
let b: TenantFixture;
let agents: TestUser[];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const random = prng(20260110);
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;

/** The dashboard as plain aggregates (counters and attendants of the first implementation). */
async function reference(companyId: number, query: Record<string, string>) {
  const tz = sql.raw(`'${DASHBOARD_TIME_ZONE}'`);
  const from = query.days
    ? sql`(now() - make_interval(days => ${Number(query.days)}::int))`
    : sql`(${query.date_from}::date::timestamp at time zone ${tz})`;
  const to = query.days ? sql`now()` : sql`((${query.date_to}::date + 1)::timestamp at time zone ${tz})`;
  const avg = (end: string, start: string) =>
    sql.raw(`coalesce(round(avg(extract(epoch from (${end} - ${start}))) / 60, 2), 0)::float8`);
  const db = t.app.ctx.db;
  const [counters] = (
    await db.execute(sql`select
      (select count(*)::int from tickets where company_id = ${companyId} and status = 'open') as "supportHappening",
      (select count(*)::int from tickets where company_id = ${companyId} and status = 'pending') as "supportPending",
      (select count(*)::int from tickets where company_id = ${companyId} and status = 'closed'
         and closed_at >= ${from} and closed_at < ${to}) as "supportFinished",
      (select count(*)::int from contacts where company_id = ${companyId} and not is_group
         and created_at >= ${from} and created_at < ${to}) as "leads",
      (select ${avg('closed_at', 'accepted_at')} from tickets where company_id = ${companyId}
         and status = 'closed' and closed_at >= ${from} and closed_at < ${to}
         and accepted_at is not null) as "avgSupportTime",
      (select ${avg('accepted_at', 'created_at')} from tickets where company_id = ${companyId}
         and accepted_at >= ${from} and accepted_at < ${to}) as "avgWaitTime"`)
  ).rows;
  const attendants = (
    await db.execute(sql`select u.id, u.name,
        coalesce(r.rating, 0)::float8 as rating,
        coalesce(t.avg_support, 0)::float8 as "avgSupportTime",
        u.online,
        coalesce(t.tickets, 0)::int as tickets
      from users u
      left join (
        select user_id, ${avg('closed_at', 'accepted_at')} as avg_support, count(*) as tickets
        from tickets
        where company_id = ${companyId} and status = 'closed' and user_id is not null
          and closed_at >= ${from} and closed_at < ${to}
        group by user_id
      ) t on t.user_id = u.id
      left join (
        select user_id, round(avg(rate), 2) as rating
        from user_ratings
        where company_id = ${companyId} and user_id is not null
          and created_at >= ${from} and created_at < ${to}
        group by user_id
      ) r on r.user_id = u.id
      where u.company_id = ${companyId}
      order by u.name, u.id`)
  ).rows;
  return { counters, attendants };
}

/** yyyy-MM-dd `days` before the local date `date`. */
const daysBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY).toISOString().slice(0, 10);

function periods(): Record<string, string>[] {
  const today = localToday();
  return [
    { days: '1' },
    { days: '2' },
    { days: '3' },
    { days: '7' },
    { days: '15' },
    { date_from: today, date_to: today },
    { date_from: daysBefore(today, 1), date_to: daysBefore(today, 1) },
    { date_from: daysBefore(today, 6), date_to: today },
    { date_from: daysBefore(today, 20), date_to: daysBefore(today, 2) },
    { date_from: '2026-01-10', date_to: '2026-01-11' },
    { date_from: '2026-01-11', date_to: '2026-01-11' },
    { date_from: '2026-01-12', date_to: '2026-01-12' },
    // America/Sao_Paulo DST: began 2018-11-04 00:00 (no local midnight), ended 2019-02-17 00:00 (23:00 twice).
    { date_from: '2018-11-03', date_to: '2018-11-04' },
    { date_from: '2018-11-04', date_to: '2018-11-04' },
    { date_from: '2018-11-03', date_to: '2018-11-03' },
    { date_from: '2019-02-16', date_to: '2019-02-16' },
    { date_from: '2019-02-17', date_to: '2019-02-17' },
    { date_from: '2018-01-01', date_to: '2018-12-31' },
    { date_from: '2025-06-01', date_to: '2025-06-02' },
  ];
}

async function expectSameAsReference(fixture: TenantFixture) {
  for (const query of periods()) {
    const res = await inject('GET', `/api/dashboard?${new URLSearchParams(query)}`, fixture.admin);
    expect(res.statusCode, JSON.stringify(query)).toBe(200);
    expect(res.json(), JSON.stringify(query)).toEqual(await reference(fixture.companyId, query));
  }
}

/** The rollup rebuilt from the tickets (the migration's backfill), to compare with the kept one. */
async function rollupMismatches(): Promise<unknown[]> {
  const tz = sql.raw(`'${DASHBOARD_TIME_ZONE}'`);
  return (
    await t.app.ctx.db.execute(sql`
      with fresh as (
        select company_id, day, user_id, sum(closed)::int as closed, sum(support_count)::int as support_count,
          sum(support_seconds) as support_seconds, sum(accepted)::int as accepted, sum(wait_seconds) as wait_seconds
        from (
          select company_id, (closed_at at time zone ${tz})::date as day, coalesce(user_id, 0) as user_id,
            1 as closed, (accepted_at is not null)::int as support_count,
            coalesce(extract(epoch from closed_at - accepted_at), 0) as support_seconds,
            0 as accepted, 0 as wait_seconds
          from tickets where status = 'closed' and closed_at is not null
          union all
          select company_id, (accepted_at at time zone ${tz})::date, coalesce(user_id, 0), 0, 0, 0, 1,
            extract(epoch from accepted_at - created_at)
          from tickets where accepted_at is not null
        ) x group by 1, 2, 3
      ),
      kept as (
        select * from dashboard_ticket_days
        where closed <> 0 or support_count <> 0 or support_seconds <> 0 or accepted <> 0 or wait_seconds <> 0
      )
      select coalesce(f.company_id, k.company_id) as company_id, coalesce(f.day, k.day) as day,
        coalesce(f.user_id, k.user_id) as user_id
      from fresh f full join kept k using (company_id, day, user_id)
      where f.closed is distinct from k.closed or f.support_count is distinct from k.support_count
        or f.support_seconds is distinct from k.support_seconds or f.accepted is distinct from k.accepted
        or f.wait_seconds is distinct from k.wait_seconds`)
  ).rows;
}

/** Random tickets of one company: created around `anchors`, accepted and closed a while later. */
async function seed(fixture: TenantFixture, userIds: number[], anchors: number[], count: number) {
  for (let i = 0; i < count; i++) {
    const anchor = pick(anchors);
    const createdAt = new Date(anchor - random() * 3 * DAY + random() * DAY);
    const [contact] = await t.app.ctx.db
      .insert(contacts)
      .values({
        companyId: fixture.companyId,
        name: `c${i}`,
        number: `55${fixture.companyId}${String(i).padStart(6, '0')}`,
        isGroup: random() < 0.05,
        createdAt: new Date(createdAt.getTime() - random() * HOUR),
      })
      .returning({ id: contacts.id });
    const roll = random();
    const status = roll < 0.15 ? 'pending' : roll < 0.3 ? 'open' : 'closed';
    const acceptedAt =
      status === 'pending' || (status === 'closed' && random() < 0.1)
        ? null
        : new Date(createdAt.getTime() + Math.floor(random() * 7_200_000));
    const closedAt =
      status === 'closed'
        ? new Date((acceptedAt ?? createdAt).getTime() + Math.floor(random() * 9_000_000))
        : null;
    const userId = status === 'pending' || random() < 0.08 ? null : pick(userIds);
    const [row] = await t.app.ctx.db
      .insert(tickets)
      .values({
        companyId: fixture.companyId,
        contactId: contact!.id,
        status,
        userId,
        createdAt,
        acceptedAt,
        closedAt,
      })
      .returning({ id: tickets.id });
    if (status === 'closed' && userId && random() < 0.3) {
      await t.app.ctx.db.insert(userRatings).values({
        companyId: fixture.companyId,
        ticketId: row!.id,
        userId,
        rate: 1 + Math.floor(random() * 3),
        createdAt: new Date(closedAt!.getTime() + 60_000),
      });
    }
  }
}

useAppSuite();
beforeAll(async () => {
  a = await createTenant(t.app);
  b = await createTenant(t.app);
  agents = [
    a.agent,
    await createUser(t.app, a.companyId, { name: 'Zoe' }),
    await createUser(t.app, a.companyId, { name: 'Ana' }),
  ];
  const now = Date.now();
  const anchors = [
    now,
    now - DAY,
    now - 2 * DAY,
    now - 6 * DAY,
    now - 14 * DAY,
    Date.parse('2026-01-11T03:00:00Z'), // local midnight starting 2026-01-11
    Date.parse('2018-11-04T03:00:00Z'), // DST began: local 01:00 of 2018-11-04
    Date.parse('2019-02-17T02:30:00Z'), // DST ended: the second local 23:30 of 2019-02-16
  ];
  await seed(
    a,
    agents.map((u) => u.id),
    anchors,
    240,
  );
  await seed(b, [b.agent.id], anchors, 40);
  // Exactly on local midnights: closed at the first instant of 2026-01-12 and of 2018-11-04.
  for (const at of ['2026-01-12T03:00:00Z', '2018-11-04T03:00:00Z', '2019-02-17T03:00:00Z']) {
    const [contact] = await t.app.ctx.db
      .insert(contacts)
      .values({
        companyId: a.companyId,
        name: `midnight ${at}`,
        number: `55999${Date.parse(at)}`,
        createdAt: new Date(at),
      })
      .returning({ id: contacts.id });
    await t.app.ctx.db.insert(tickets).values({
      companyId: a.companyId,
      contactId: contact!.id,
      status: 'closed',
      userId: a.agent.id,
      createdAt: new Date(Date.parse(at) - HOUR),
      acceptedAt: new Date(at),
      closedAt: new Date(at),
    });
  }
});

describe('GET /api/dashboard over the per-day rollup', () => {
  it('answers the plain aggregates for every kind of period', async () => {
    expect(await rollupMismatches()).toEqual([]);
    await expectSameAsReference(a);
    await expectSameAsReference(b);
  });

  it('puts a ticket closed at a local midnight on the day it starts', async () => {
    const day = async (date: string) =>
      (await inject('GET', `/api/dashboard?date_from=${date}&date_to=${date}`, a.admin)).json().counters
        .supportFinished as number;
    const closedOn = async (from: string, to: string) =>
      (
        await t.app.ctx.db.execute(
          sql`select count(*)::int as n from tickets where company_id = ${a.companyId} and status = 'closed'
            and closed_at >= ${from}::timestamptz and closed_at < ${to}::timestamptz`,
        )
      ).rows[0]!.n;
    expect(await day('2026-01-12')).toBe(await closedOn('2026-01-12T03:00:00Z', '2026-01-13T03:00:00Z'));
    expect(await day('2026-01-11')).toBe(await closedOn('2026-01-11T03:00:00Z', '2026-01-12T03:00:00Z'));
    expect(await day('2026-01-12')).toBeGreaterThan(0);
  });

  it('follows closing, reopening, accepting, transfers, time edits and deletions', async () => {
    const db = t.app.ctx.db;
    const all = await db
      .select({ id: tickets.id, status: tickets.status })
      .from(tickets)
      .where(eq(tickets.companyId, a.companyId));
    const ids = (status: string) => all.filter((x) => x.status === status).map((x) => x.id);
    const closed = ids('closed');
    const open = ids('open');
    const pending = ids('pending');
    const now = new Date();

    // Reopen as the inbound pipeline does (pending, no agent, no accepted/closed time).
    await db
      .update(tickets)
      .set({ status: 'pending', userId: null, closedAt: null, acceptedAt: null })
      .where(inArray(tickets.id, closed.slice(0, 12)));
    // Accept pending tickets (one statement each) and close open ones.
    for (const id of pending.slice(0, 6)) {
      await db
        .update(tickets)
        .set({ status: 'open', acceptedAt: now, userId: agents[1]!.id })
        .where(eq(tickets.id, id));
    }
    await db
      .update(tickets)
      .set({ status: 'closed', closedAt: now })
      .where(inArray(tickets.id, open.slice(0, 8)));
    // Transfer closed and open tickets; move times; a status write that changes nothing.
    await db
      .update(tickets)
      .set({ userId: agents[2]!.id })
      .where(inArray(tickets.id, closed.slice(12, 30)));
    await db
      .update(tickets)
      .set({ userId: null })
      .where(inArray(tickets.id, open.slice(8, 12)));
    await db
      .update(tickets)
      .set({ closedAt: sql`${tickets.closedAt} + interval '20 hours'` })
      .where(inArray(tickets.id, closed.slice(30, 40)));
    await db
      .update(tickets)
      .set({
        acceptedAt: sql`${tickets.acceptedAt} - interval '7 hours'`,
        createdAt: sql`${tickets.createdAt} - interval '9 hours'`,
      })
      .where(inArray(tickets.id, closed.slice(40, 50)));
    await db
      .update(tickets)
      .set({ status: 'closed' })
      .where(inArray(tickets.id, closed.slice(50, 60)));
    // Sub-millisecond times (the app writes milliseconds, Postgres keeps microseconds).
    await db
      .update(tickets)
      .set({ closedAt: sql`${tickets.closedAt} + interval '123 microseconds'` })
      .where(inArray(tickets.id, closed.slice(72, 90)));
    // A status change on a closed ticket's row that keeps its closed time (not how the app closes).
    await db
      .update(tickets)
      .set({ status: 'open' })
      .where(inArray(tickets.id, closed.slice(60, 64)));
    // Deletions: tickets, a contact (its tickets cascade) and a user (its tickets lose their agent).
    await db.delete(tickets).where(inArray(tickets.id, closed.slice(64, 70)));
    const [victim] = await db
      .select({ contactId: tickets.contactId })
      .from(tickets)
      .where(eq(tickets.id, closed[70]!));
    await db.delete(contacts).where(eq(contacts.id, victim!.contactId));
    await db.delete(userRatings).where(eq(userRatings.userId, agents[1]!.id));
    await db.delete(users).where(and(eq(users.id, agents[1]!.id), eq(users.companyId, a.companyId)));

    expect(await rollupMismatches()).toEqual([]);
    await expectSameAsReference(a);
    await expectSameAsReference(b);
  });

  it('computes its local days in the dashboard time zone', async () => {
    // The triggers (migration 0010) name the zone; changing DASHBOARD_TIME_ZONE needs a migration that
    // rewrites them and rebuilds the rollup.
    const { rows } = await t.app.ctx.db.execute(
      sql`select prosrc from pg_proc where proname = 'dashboard_ticket_days_sync'`,
    );
    const source = String(rows[0]!.prosrc);
    expect(source.match(/AT TIME ZONE '([^']+)'/g)?.length).toBe(4);
    expect(
      source.match(/AT TIME ZONE '([^']+)'/g)?.every((zone) => zone.includes(`'${DASHBOARD_TIME_ZONE}'`)),
    ).toBe(true);
  });

  it('goes away with its company', async () => {
    await t.app.ctx.db.delete(companies).where(eq(companies.id, b.companyId));
    expect(await rollupMismatches()).toEqual([]);
    const left = await t.app.ctx.db.execute(
      sql`select count(*)::int as n from dashboard_ticket_days where company_id = ${b.companyId}`,
    );
    expect(left.rows[0]!.n).toBe(0);
  });
});
