import type { ReportFilters } from '@zapdesk/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, queues, ticketEvents, tickets, userRatings, whatsapps } from '../../db/schema/index.js';
import { createQueue, createTenant, createUser, type TenantFixture } from '../../test/factories.js';
import { prng } from '../../test/random.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { reportAgents, reportHeatmap, reportQueues, reportSummary } from './reports-service.js';
import {
  bucketOf,
  bucketValue,
  PERCENTILE_ERROR,
  planPeriod,
  rolledThroughOf,
  rollReports,
  signedRanges,
  statsOf,
} from './rollups.js';

/**
 * The report rollups (decision 0121): every report of a long period read from the rollups equals the
 * same report read from the events (`rollups: false`, itself checked against plain JavaScript in
 * reports.test.ts) on random data — counts, averages and handled exactly, medians and p90 within
 * PERCENTILE_ERROR — whatever the period's edges, filters, days not rolled yet, late events and
 * deleted tickets.
 */
let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;
let users: number[];
let queueIds: number[];
let whatsappIds: number[];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** America/Sao_Paulo: UTC-3 all year. */
const localStart = (date: string) => Date.parse(`${date}T00:00:00Z`) + 3 * HOUR;
const random = prng(27_121);
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
const maybe = <T>(items: T[]): T | null => (random() < 0.1 ? null : pick(items));
/** Seconds spread from 0 to days: exact buckets under 64, log buckets above. */
const seconds = () => Math.floor(random() < 0.2 ? random() * 64 : Math.exp(random() * 12));

/** `n` closed tickets of `fixture` with random events from 2026-05-01 over 180 days. */
async function seed(fixture: TenantFixture, us: number[], qs: number[], ws: number[], n: number) {
  const db = t.app.ctx.db;
  const [contact] = await db
    .insert(contacts)
    .values({ companyId: fixture.companyId, name: 'c', number: `55${fixture.companyId}900` })
    .returning({ id: contacts.id });
  const start = localStart('2026-05-01');
  const made = await db
    .insert(tickets)
    .values(
      Array.from({ length: n }, () => ({
        companyId: fixture.companyId,
        contactId: contact!.id,
        whatsappId: pick(ws),
        status: 'closed' as const,
        createdAt: new Date(start + Math.floor(random() * 180 * DAY)),
      })),
    )
    .returning({ id: tickets.id, createdAt: tickets.createdAt });
  await db.delete(ticketEvents).where(eq(ticketEvents.companyId, fixture.companyId));
  const events: (typeof ticketEvents.$inferInsert)[] = [];
  const ratings: (typeof userRatings.$inferInsert)[] = [];
  for (const ticket of made) {
    let at = ticket.createdAt.getTime();
    const add = (kind: (typeof events)[number]['kind'], secs: number | null, user: number | null) =>
      events.push({
        companyId: fixture.companyId,
        ticketId: ticket.id,
        kind,
        at: new Date(at),
        userId: user,
        queueId: maybe(qs),
        whatsappId: pick(ws),
        seconds: secs,
      });
    add('created', null, random() < 0.05 ? pick(us) : null);
    for (let opening = 0; opening < 1 + Math.floor(random() * 2); opening++) {
      if (opening > 0) {
        at += Math.floor(random() * 3 * DAY);
        add('reopened', null, null);
      }
      const agent = pick(us);
      for (const [kind, chance] of [
        ['assigned', 0.8],
        ['first_reply', 0.7],
        ['transferred', 0.2],
        ['resolved', 0.6],
      ] as const) {
        if (random() > chance) continue;
        const secs = kind === 'transferred' || (kind === 'assigned' && random() < 0.1) ? null : seconds();
        at += (secs ?? 60) * 1000 + Math.floor(random() * 2 * DAY);
        add(kind, secs, kind === 'transferred' ? pick(us) : agent);
        if (kind === 'resolved' && random() < 0.4)
          ratings.push({
            companyId: fixture.companyId,
            ticketId: ticket.id,
            userId: agent,
            rate: 1 + Math.floor(random() * 3),
            createdAt: new Date(at + 60_000),
          });
      }
    }
  }
  await db.insert(ticketEvents).values(events);
  await db.insert(userRatings).values(ratings);
}

/** Expects `rolled` (from the rollups) to be `exact` but for percentiles within PERCENTILE_ERROR. */
function expectClose(rolled: unknown, exact: unknown, path = ''): void {
  if (exact !== null && typeof exact === 'object') {
    expect(rolled, path).toBeTypeOf('object');
    for (const key of Object.keys(exact))
      expectClose((rolled as never)[key], (exact as never)[key], `${path}.${key}`);
    return;
  }
  if (/(median|p90)$/i.test(path) && typeof exact === 'number') {
    expect(rolled, path).toBeTypeOf('number');
    expect(Math.abs((rolled as number) - exact), path).toBeLessThanOrEqual(exact * PERCENTILE_ERROR + 0.051);
    return;
  }
  expect(rolled, path).toEqual(exact);
}

const PERIODS: [string, string][] = [
  ['2026-05-01', '2026-10-31'],
  ['2026-05-03', '2026-10-27'],
  ['2026-06-01', '2026-07-31'],
  ['2026-07-15', '2026-08-20'],
  ['2026-09-20', '2026-10-29'],
  ['2026-08-03', '2026-08-12'],
];

/** Every report of every period and filter set, from the rollups and from the events, compared. */
async function compareAll(filterSets: ReportFilters[]): Promise<void> {
  for (const [from, to] of PERIODS)
    for (const f of filterSets) {
      const q = { ...f, from, to } as ReportFilters;
      for (const report of [reportSummary, reportAgents, reportQueues, reportHeatmap]) {
        const rolled = await report(t.app.ctx, a.companyId, q);
        const exact = await report(t.app.ctx, a.companyId, q, { rollups: false });
        expectClose(rolled, exact, `${report.name} ${JSON.stringify(q)}`);
      }
    }
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app);
  b = await createTenant(t.app);
  users = [a.agent.id, (await createUser(t.app, a.companyId, { name: 'Zoe' })).id, a.admin.id];
  queueIds = [
    await createQueue(t.app, a.companyId, 'Sales'),
    await createQueue(t.app, a.companyId, 'Support'),
  ];
  const db = t.app.ctx.db;
  whatsappIds = (
    await db
      .insert(whatsapps)
      .values([1, 2].map((i) => ({ companyId: a.companyId, name: `w${i}`, provider: 'simulator' })))
      .returning({ id: whatsapps.id })
  ).map((w) => w.id);
  const [wb] = await db
    .insert(whatsapps)
    .values({ companyId: b.companyId, name: 'wb', provider: 'simulator' })
    .returning({ id: whatsapps.id });
  await seed(a, users, queueIds, whatsappIds, 400);
  await seed(b, [b.agent.id], [await createQueue(t.app, b.companyId, 'B')], [wb!.id], 100);
  // Rolled through 2026-10-20: later days come from the events.
  await rollReports(t.app.ctx, a.companyId, '2026-10-20');
  await rollReports(t.app.ctx, b.companyId, '2026-10-20');
}, 900_000);

afterAll(async () => {
  await t?.close();
});

describe('report rollups', () => {
  it('plans whole months, then whole weeks, and reads the other days from the events', () => {
    expect(planPeriod('2026-05-03', '2026-10-27', '2026-10-20')).toEqual({
      months: ['2026-06-01', '2026-07-01', '2026-08-01', '2026-09-01'],
      weeks: ['2026-05-04', '2026-05-11', '2026-05-18', '2026-05-25', '2026-10-05', '2026-10-12'],
      eventDays: [
        ['2026-05-03', '2026-05-03'],
        ['2026-10-01', '2026-10-04'],
        ['2026-10-19', '2026-10-27'],
      ],
      rolledEnd: '2026-10-20',
    });
    // A week running into a month read whole is left to the events.
    expect(planPeriod('2026-06-29', '2026-07-31', '2026-08-10').weeks).toEqual([]);
    expect(planPeriod('2026-05-03', '2026-06-10', null)).toEqual({
      months: [],
      weeks: [],
      eventDays: [['2026-05-03', '2026-06-10']],
      rolledEnd: null,
    });
  });

  it('reads an edge range as its rolled week minus the other days when those are fewer', () => {
    expect(signedRanges(planPeriod('2026-07-15', '2026-08-20', '2026-10-20'))).toEqual({
      weeks: ['2026-07-20', '2026-07-27', '2026-08-03', '2026-08-10', '2026-07-13'],
      ranges: [
        ['2026-07-13', '2026-07-14', -1],
        ['2026-08-17', '2026-08-20', 1],
      ],
    });
    // A week not rolled to its end stays on the events.
    expect(signedRanges(planPeriod('2026-07-15', '2026-08-20', '2026-07-18')).ranges).toEqual([
      ['2026-07-15', '2026-08-20', 1],
    ]);
  });

  it('computes exact figures under 64 s and percentiles within the bound above', () => {
    const cells = [3, 5, 5, 9].map((bucket) => ({
      dimId: null,
      kind: 'resolved',
      bucket,
      n: 1,
      total: bucket,
    }));
    expect(statsOf(cells)).toEqual({ count: 4, avg: 5.5, median: 5, p90: 7.8 });
    for (const value of [64, 100, 1000, 86_400, 63_000_000]) {
      const bucket = 64 + Math.floor(Math.log(value / 64) / Math.log(1.04));
      expect(Math.abs(bucketValue(bucket) - value) / value).toBeLessThanOrEqual(PERCENTILE_ERROR);
    }
  });

  it('buckets in double precision exactly as in numeric, at both sides of every bucket bound', async () => {
    // A difference could only show next to a bound 64 * 1.04^k; every int4 second is covered.
    const { rows } = await t.app.ctx.db.execute(sql`
      with b as (select 64 * power(1.04::numeric, k) as v from generate_series(0, 480) k),
      s as (select distinct x::int as s from b, lateral (values (floor(b.v) - 1), (floor(b.v)), (ceil(b.v)),
        (ceil(b.v) + 1)) t(x) where x between 64 and 2147483647)
      select count(*)::int as n,
        count(*) filter (where ${bucketOf(sql`s`)} <> 64 + floor(ln(s / 64.0) / ln(1.04))::int)::int as differ
      from s`);
    expect(rows[0]).toEqual({ n: expect.any(Number), differ: 0 });
    expect((rows[0] as { n: number }).n).toBeGreaterThan(1500);
  });

  it('moves the mark forward and writes spans and handled rows of the company only', async () => {
    expect(await rolledThroughOf(t.app.ctx, a.companyId)).toBe('2026-10-20');
    const { rows } = await t.app.ctx.db.execute(sql`
      select (select count(*) from report_rollups where company_id = ${a.companyId})::int as a,
        (select count(*) from report_handled where company_id = ${a.companyId})::int as h,
        (select count(*) from report_rollups where company_id = ${b.companyId}
          and dim = 'user' and dim_id <> ${b.agent.id})::int as foreign`);
    expect(rows[0]).toMatchObject({ foreign: 0 });
    expect((rows[0] as { a: number }).a).toBeGreaterThan(0);
    expect((rows[0] as { h: number }).h).toBeGreaterThan(0);
    expect(await rollReports(t.app.ctx, a.companyId, '2026-10-20')).toBeNull();
  });

  it('answers every report from the rollups as from the events, with and without filters', async () => {
    await compareAll([
      {},
      { userIds: [users[1]!] },
      { userIds: [users[0]!, users[2]!] },
      { queueIds: [queueIds[0]!] },
      { whatsappIds: [whatsappIds[1]!] },
      { queueIds: queueIds, userIds: [users[0]!] },
    ] as ReportFilters[]);
  }, 300_000);

  it('reads the rollups for long periods (a changed rollup row changes the answer)', async () => {
    const q = { from: '2026-06-01', to: '2026-07-31' } as ReportFilters;
    const before = await reportSummary(t.app.ctx, a.companyId, q);
    await t.app.ctx.db.execute(sql`update report_rollups set n = n + 1000 where company_id = ${a.companyId}
      and span = 'month' and start = '2026-06-01' and dim = 'all' and kind = 'created'`);
    const after = await reportSummary(t.app.ctx, a.companyId, q);
    expect(after.current.created).toBe(before.current.created + 1000);
    await t.app.ctx.db.execute(sql`update report_rollups set n = n - 1000 where company_id = ${a.companyId}
      and span = 'month' and start = '2026-06-01' and dim = 'all' and kind = 'created'`);
  });

  it('reads the connection filter from the rollups (a changed connection row changes the answer)', async () => {
    const q = { from: '2026-06-01', to: '2026-07-31', whatsappIds: [whatsappIds[0]!] } as ReportFilters;
    const change = (by: number) =>
      t.app.ctx.db.execute(sql`update report_rollups set n = n + ${by} where company_id = ${a.companyId}
        and span = 'month' and start = '2026-06-01' and dim = 'whatsapp' and dim_id = ${whatsappIds[0]!}
        and kind = 'created'`);
    const before = await reportSummary(t.app.ctx, a.companyId, q);
    await change(1000);
    const after = await reportSummary(t.app.ctx, a.companyId, q);
    await change(-1000);
    expect(after.current.created).toBe(before.current.created + 1000);
  });

  it('reads a late event, a deleted ticket and a late rating at once, and rolls them again', async () => {
    const db = t.app.ctx.db;
    const [late] = await db
      .select({ ticketId: ticketEvents.ticketId })
      .from(ticketEvents)
      .where(sql`${ticketEvents.companyId} = ${a.companyId} and ${ticketEvents.kind} = 'resolved'`)
      .limit(1);
    await db.insert(ticketEvents).values({
      companyId: a.companyId,
      ticketId: late!.ticketId,
      kind: 'first_reply',
      at: new Date(localStart('2026-07-10') + 5 * HOUR),
      userId: users[1]!,
      queueId: queueIds[1]!,
      whatsappId: whatsappIds[0]!,
      seconds: 321,
    });
    expect(await rolledThroughOf(t.app.ctx, a.companyId)).toBe('2026-07-09');
    const [gone] = await db
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        sql`${tickets.companyId} = ${a.companyId} and ${tickets.createdAt} < ${new Date(localStart('2026-06-01'))}`,
      )
      .limit(1);
    await db.delete(tickets).where(eq(tickets.id, gone!.id));
    expect((await rolledThroughOf(t.app.ctx, a.companyId))! < '2026-06-01').toBe(true);
    await rollReports(t.app.ctx, a.companyId, '2026-10-20');
    await db.insert(userRatings).values({
      companyId: a.companyId,
      ticketId: late!.ticketId,
      userId: users[1]!,
      rate: 1,
      createdAt: new Date(localStart('2026-08-05') + 5 * HOUR),
    });
    expect(await rolledThroughOf(t.app.ctx, a.companyId)).toBe('2026-08-04');
    await compareAll([{}, { userIds: [users[1]!] }] as ReportFilters[]);
    await rollReports(t.app.ctx, a.companyId, '2026-10-20');
    expect(await rolledThroughOf(t.app.ctx, a.companyId)).toBe('2026-10-20');
    await compareAll([{}, { queueIds: [queueIds[1]!] }, { userIds: [users[1]!] }] as ReportFilters[]);
  }, 300_000);

  it('answers the same after a queue with history is deleted', async () => {
    // A queue deleted keeps its history in the events (plain numbers): the rollups read the same.
    await t.app.ctx.db.delete(queues).where(eq(queues.id, queueIds[1]!));
    await compareAll([{}] as ReportFilters[]);
  }, 120_000);
});
