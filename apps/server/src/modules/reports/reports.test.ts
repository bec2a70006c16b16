import type { ReportSummary } from '@zapdesk/shared';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  contacts,
  queues,
  tags,
  ticketEvents,
  ticketSlas,
  tickets,
  ticketTags,
  userRatings,
  whatsapps,
} from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import {
  createQueue,
  createTenant,
  createUser,
  downgradeToNoFlags,
  type TenantFixture,
  type TestUser,
} from '../../test/factories.js';
import { prng } from '../../test/random.js';

/**
 * GET /api/reports/* against straightforward JavaScript over the rows they aggregate (events, ratings,
 * tickets, tags), on seeded random data: ~200 tickets of one company over two months, with events of
 * every kind, ratings and tags, and a second company whose rows must never count.
 */
let a: TenantFixture;
let b: TenantFixture;
let agents: TestUser[];
let queueIds: number[];
let whatsappIds: number[];
let tagIds: number[];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** America/Sao_Paulo has been UTC-3 all year since 2019. */
const OFFSET = 3 * HOUR;
const localStart = (date: string) => Date.parse(`${date}T00:00:00Z`) + OFFSET;

const random = prng(20261127);
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
const maybe = <T>(items: T[]): T | null => (random() < 0.1 ? null : pick(items));

/** Random tickets of `fixture` with random events, ratings and tags, between 2026-09-01 and 2026-10-31. */
async function seed(
  fixture: TenantFixture,
  users: number[],
  qs: number[],
  ws: number[],
  ts: number[],
  n: number,
) {
  const db = t.app.ctx.db;
  const start = localStart('2026-09-01');
  for (let i = 0; i < n; i++) {
    const [contact] = await db
      .insert(contacts)
      .values({ companyId: fixture.companyId, name: `c${i}`, number: `55${fixture.companyId}9${i}` })
      .returning({ id: contacts.id });
    const created = start + Math.floor(random() * 60 * DAY);
    const status = pick(['open', 'pending', 'closed', 'closed'] as const);
    const [ticket] = await db
      .insert(tickets)
      .values({
        companyId: fixture.companyId,
        contactId: contact!.id,
        whatsappId: pick(ws),
        queueId: maybe(qs),
        userId: status === 'pending' ? null : maybe(users),
        status,
        createdAt: new Date(created),
      })
      .returning({ id: tickets.id });
    const id = ticket!.id;
    // The trigger's events are replaced by a random history.
    await db.delete(ticketEvents).where(eq(ticketEvents.ticketId, id));
    const events: (typeof ticketEvents.$inferInsert)[] = [];
    let at = created;
    const add = (kind: (typeof events)[number]['kind'], seconds: number | null, user: number | null) =>
      events.push({
        companyId: fixture.companyId,
        ticketId: id,
        kind,
        at: new Date(at),
        userId: user,
        queueId: maybe(qs),
        whatsappId: pick(ws),
        seconds,
      });
    add('created', null, random() < 0.05 ? pick(users) : null);
    for (let opening = 0; opening < 1 + Math.floor(random() * 2); opening++) {
      if (opening > 0) {
        at += Math.floor(random() * 3 * DAY);
        add('reopened', null, null);
      }
      const agent = pick(users);
      if (random() < 0.8) {
        const wait = Math.floor(random() * 7200);
        at += wait * 1000;
        add('assigned', random() < 0.9 ? wait : null, agent);
      }
      if (random() < 0.7) {
        const reply = Math.floor(random() * 9000);
        at += reply * 1000;
        add('first_reply', reply, agent);
      }
      if (random() < 0.2) add('transferred', null, pick(users));
      if (random() < 0.6) {
        const took = Math.floor(random() * 4 * DAY) / 1000;
        at += took * 1000;
        add('resolved', Math.floor(took), agent);
        if (random() < 0.4)
          await db.insert(userRatings).values({
            companyId: fixture.companyId,
            ticketId: id,
            userId: agent,
            rate: 1 + Math.floor(random() * 3),
            createdAt: new Date(at + 60_000),
          });
      }
    }
    await db.insert(ticketEvents).values(events);
    for (const tag of ts)
      if (random() < 0.3)
        await db.insert(ticketTags).values({ companyId: fixture.companyId, ticketId: id, tagId: tag });
  }
}

/**
 * Random service-level targets for the openings (`created`, `reopened` events) of `fixture`'s tickets:
 * met in time, met late, breached and never met, or not yet planned.
 */
async function seedSlas(fixture: TenantFixture, qs: number[]) {
  const db = t.app.ctx.db;
  const openings = await db
    .select()
    .from(ticketEvents)
    .where(eq(ticketEvents.companyId, fixture.companyId))
    .then((rows) => rows.filter((e) => e.kind === 'created' || e.kind === 'reopened'));
  const rows: (typeof ticketSlas.$inferInsert)[] = [];
  for (const opening of openings) {
    for (const target of ['first_response', 'resolution'] as const) {
      if (random() < 0.3) continue;
      const minutes = 1 + Math.floor(random() * 600);
      const due = opening.at.getTime() + minutes * 60_000;
      const outcome = random();
      const metAt =
        outcome < 0.5
          ? new Date(due - Math.floor(random() * minutes * 60_000))
          : outcome < 0.7
            ? new Date(due + 1000 + Math.floor(random() * DAY))
            : outcome < 0.75
              ? new Date(due)
              : null;
      rows.push({
        companyId: fixture.companyId,
        ticketId: opening.ticketId,
        target,
        openedAt: opening.at,
        queueId: maybe(qs),
        minutes,
        dueAt: outcome > 0.95 ? null : new Date(due),
        metAt,
        breachedAt: metAt === null || metAt.getTime() > due ? new Date(due) : null,
      });
    }
  }
  if (rows.length) await db.insert(ticketSlas).values(rows).onConflictDoNothing();
}

interface Filters {
  queueIds?: number[];
  userIds?: number[];
  whatsappIds?: number[];
  tagIds?: number[];
}

/** Everything of company A the reports read, loaded once per check. */
async function load() {
  const db = t.app.ctx.db;
  const events = await db.select().from(ticketEvents).where(eq(ticketEvents.companyId, a.companyId));
  const ratings = await db.select().from(userRatings).where(eq(userRatings.companyId, a.companyId));
  const all = await db.select().from(tickets).where(eq(tickets.companyId, a.companyId));
  const tagged = await db.select().from(ticketTags).where(eq(ticketTags.companyId, a.companyId));
  const slas = await db.select().from(ticketSlas).where(eq(ticketSlas.companyId, a.companyId));
  return { events, ratings, tickets: all, tagged, slas };
}
type Data = Awaited<ReturnType<typeof load>>;

/** percentile_cont: linear between the sorted neighbours. */
function percentile(sorted: number[], p: number): number {
  const pos = p * (sorted.length - 1);
  const low = Math.floor(pos);
  const high = Math.ceil(pos);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (pos - low);
}
function stats(values: number[]) {
  if (!values.length) return { count: 0, avg: null, median: null, p90: null };
  const sorted = [...values].sort((x, y) => x - y);
  return {
    count: values.length,
    avg: values.reduce((s, v) => s + v, 0) / values.length,
    median: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
  };
}

/** `stats` of a figure as the per-agent and per-queue rows name them: `<name>Avg`, `<name>Median`, `<name>P90`. */
function flatStats(name: string, figure: ReturnType<typeof stats>) {
  return { [`${name}Avg`]: figure.avg, [`${name}Median`]: figure.median, [`${name}P90`]: figure.p90 };
}

/** Checks `actual` against `expected`: numbers within the answer's rounding (0.1 s, 0.01 rating). */
function expectClose(actual: unknown, expected: unknown, label: string) {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect(Math.abs(actual - expected), `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
      0.05 + 1e-9,
    );
  } else if (expected && typeof expected === 'object') {
    expect(actual, label).toBeTypeOf('object');
    for (const [key, value] of Object.entries(expected)) {
      expectClose((actual as Record<string, unknown>)[key], value, `${label}.${key}`);
    }
  } else {
    expect(actual, label).toEqual(expected);
  }
}

/** The reference: the plain computations over the loaded rows. */
function reference(data: Data, from: string, to: string, f: Filters) {
  const lo = localStart(from);
  const hi = localStart(to) + DAY;
  const tagsOf = (ticketId: number) => data.tagged.filter((x) => x.ticketId === ticketId).map((x) => x.tagId);
  const has = (list: number[] | undefined, value: number | null) =>
    !list || (value !== null && list.includes(value));
  const taggedOk = (ticketId: number | null) =>
    !f.tagIds || (ticketId !== null && tagsOf(ticketId).some((tag) => f.tagIds!.includes(tag)));
  const events = data.events.filter(
    (e) =>
      e.at.getTime() >= lo &&
      e.at.getTime() < hi &&
      has(f.queueIds, e.queueId) &&
      has(f.userIds, e.userId) &&
      has(f.whatsappIds, e.whatsappId) &&
      taggedOk(e.ticketId),
  );
  const ticketOk = (ticketId: number | null) => {
    const ticket = data.tickets.find((x) => x.id === ticketId);
    return (
      !!ticket &&
      has(f.queueIds, ticket.queueId) &&
      has(f.whatsappIds, ticket.whatsappId) &&
      taggedOk(ticket.id)
    );
  };
  const ratings = data.ratings.filter(
    (r) =>
      r.createdAt.getTime() >= lo &&
      r.createdAt.getTime() < hi &&
      has(f.userIds, r.userId) &&
      (!(f.queueIds || f.whatsappIds || f.tagIds) || ticketOk(r.ticketId)),
  );
  const seconds = (kind: string, list = events) =>
    list.filter((e) => e.kind === kind && e.seconds !== null).map((e) => e.seconds!);
  const count = (kind: string, list = events) => list.filter((e) => e.kind === kind).length;
  return { events, ratings, seconds, count, ticketOk };
}

function figures(data: Data, from: string, to: string, f: Filters) {
  const r = reference(data, from, to, f);
  const distribution = [1, 2, 3].map((rate) => ({
    rate,
    count: r.ratings.filter((x) => x.rate === rate).length,
  }));
  const n = r.ratings.length;
  return {
    from,
    to,
    opened: r.count('created') + r.count('reopened'),
    created: r.count('created'),
    reopened: r.count('reopened'),
    resolved: r.count('resolved'),
    firstResponse: stats(r.seconds('first_reply')),
    resolution: stats(r.seconds('resolved')),
    wait: stats(r.seconds('assigned')),
    csat: { count: n, average: n ? r.ratings.reduce((s, x) => s + x.rate, 0) / n : null, distribution },
  };
}

const PERIODS: [string, string][] = [
  ['2026-09-01', '2026-10-31'],
  ['2026-10-01', '2026-10-15'],
  ['2026-09-20', '2026-09-20'],
  ['2026-11-01', '2026-11-30'],
];

function filterSets(): Filters[] {
  return [
    {},
    { queueIds: [queueIds[0]!] },
    { queueIds: queueIds.slice(0, 2) },
    { userIds: [agents[1]!.id] },
    { userIds: [agents[0]!.id, agents[2]!.id] },
    { whatsappIds: [whatsappIds[1]!] },
    { tagIds: [tagIds[0]!] },
    { queueIds: [queueIds[1]!], tagIds: tagIds, whatsappIds: [whatsappIds[0]!] },
  ];
}

const query = (from: string, to: string, f: Filters, extra = '') =>
  `from=${from}&to=${to}${Object.entries(f)
    .map(([key, list]) => `&${key}=${(list as number[]).join(',')}`)
    .join('')}${extra}`;
/** The first sheet of an XLSX answer. */
async function sheetOf(payload: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as unknown as ArrayBuffer);
  return workbook.worksheets[0]!;
}
const get = (user: TestUser, path: string) => inject('GET', `/api/reports/${path}`, user);

/** The parts of a report's JSON answer the checks read (summary: current, previous, sla; tables: rows, cells). */
interface ReportAnswer {
  current: unknown;
  previous: { from: string; to: string };
  sla: unknown;
  rows: unknown[];
  cells: unknown[];
}

/**
 * GETs `/api/reports/<report>` as company A's admin for each period of `periods` with each filter
 * set of `filters`, expects 200 each time, and hands `check` the answer's JSON and the case.
 */
async function eachCase(
  report: string,
  periods: [string, string][],
  filters: Filters[],
  check: (body: ReportAnswer, c: { from: string; to: string; f: Filters }) => void,
): Promise<void> {
  for (const [from, to] of periods) {
    for (const f of filters) {
      const res = await get(a.admin, `${report}?${query(from, to, f)}`);
      expect(res.statusCode, res.body).toBe(200);
      check(res.json(), { from, to, f });
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
  queueIds = [a.queueId, await createQueue(t.app, a.companyId), await createQueue(t.app, a.companyId)];
  const connections = await t.app.ctx.db
    .insert(whatsapps)
    .values([
      { companyId: a.companyId, name: 'W1' },
      { companyId: a.companyId, name: 'W2' },
      { companyId: b.companyId, name: 'WB' },
    ])
    .returning({ id: whatsapps.id });
  whatsappIds = connections.slice(0, 2).map((c) => c.id);
  const tagRows = await t.app.ctx.db
    .insert(tags)
    .values([
      { companyId: a.companyId, name: 'T1' },
      { companyId: a.companyId, name: 'T2' },
    ])
    .returning({ id: tags.id });
  tagIds = tagRows.map((x) => x.id);
  await seed(
    a,
    agents.map((u) => u.id),
    queueIds,
    whatsappIds,
    tagIds,
    200,
  );
  await seed(b, [b.agent.id], [b.queueId], [connections[2]!.id], [], 30);
  await seedSlas(a, queueIds);
  await seedSlas(b, [b.queueId]);
}, 300_000);

describe('GET /api/reports/*', () => {
  it('summary: every figure of both periods matches the plain computation', async () => {
    const data = await load();
    await eachCase('summary', PERIODS, filterSets(), (body, { from, to, f }) => {
      const label = `${from}..${to} ${JSON.stringify(f)}`;
      expectClose(body.current, figures(data, from, to, f), `${label} current`);
      expectClose(body.previous, figures(data, body.previous.from, body.previous.to, f), `${label} previous`);
      const days = (Date.parse(to) - Date.parse(from)) / DAY + 1;
      expect(Date.parse(body.previous.to) - Date.parse(body.previous.from), label).toBe((days - 1) * DAY);
      expect(Date.parse(from) - Date.parse(body.previous.to), label).toBe(DAY);
    });
  });

  it('summary: the service levels of the openings in the period match the plain computation', async () => {
    const data = await load();
    expect(data.slas.length).toBeGreaterThan(100);
    await eachCase('summary', PERIODS, filterSets(), (body, { from, to, f }) => {
      const lo = localStart(from);
      const hi = localStart(to) + DAY;
      const has = (list: number[] | undefined, value: number | null) =>
        !list || (value !== null && list.includes(value));
      const figuresOf = (target: string) => {
        const rows = data.slas.filter((x) => {
          const ticket = data.tickets.find((tk) => tk.id === x.ticketId)!;
          const tags = data.tagged.filter((tt) => tt.ticketId === ticket.id).map((tt) => tt.tagId);
          return (
            x.target === target &&
            x.openedAt.getTime() >= lo &&
            x.openedAt.getTime() < hi &&
            has(f.queueIds, x.queueId) &&
            has(f.userIds, ticket.userId) &&
            has(f.whatsappIds, ticket.whatsappId) &&
            (!f.tagIds || tags.some((tag) => f.tagIds!.includes(tag)))
          );
        });
        const met = rows.filter((x) => x.metAt && x.dueAt && x.metAt.getTime() <= x.dueAt.getTime()).length;
        return {
          tracked: rows.length,
          met,
          rate: rows.length ? Math.round((met / rows.length) * 10_000) / 10_000 : null,
        };
      };
      expect(body.sla, `${from}..${to} ${JSON.stringify(f)}`).toEqual({
        firstResponse: figuresOf('first_response'),
        resolution: figuresOf('resolution'),
      });
    });
  });

  it('agents: handled, resolved, open now, times and ratings of each agent match', async () => {
    const data = await load();
    await eachCase('agents', PERIODS.slice(0, 2), filterSets(), (body, { from, to, f }) => {
      const r = reference(data, from, to, f);
      const users = [...agents, a.admin]
        .filter((u) => !f.userIds || f.userIds.includes(u.id))
        .map((u) => u.id)
        .sort((x, y) => x - y);
      const rows = body.rows as { userId: number }[];
      expect(rows.map((x) => x.userId).sort((x, y) => x - y)).toEqual(users);
      for (const row of rows) {
        const mine = r.events.filter(
          (e) =>
            e.userId === row.userId &&
            ['assigned', 'first_reply', 'transferred', 'resolved'].includes(e.kind),
        );
        const first = stats(r.seconds('first_reply', mine));
        const resolution = stats(r.seconds('resolved', mine));
        const rated = r.ratings.filter((x) => x.userId === row.userId);
        expectClose(
          row,
          {
            handled: new Set(mine.map((e) => e.ticketId)).size,
            resolved: r.count('resolved', mine),
            openNow: data.tickets.filter(
              (x) => x.status === 'open' && x.userId === row.userId && r.ticketOk(x.id),
            ).length,
            ...flatStats('firstResponse', first),
            ...flatStats('resolution', resolution),
            ratingCount: rated.length,
            ratingAverage: rated.length ? rated.reduce((s, x) => s + x.rate, 0) / rated.length : null,
          },
          `${from} ${JSON.stringify(f)} user ${row.userId}`,
        );
      }
    });
  });

  it('queues: each queue and the tickets without one match', async () => {
    const data = await load();
    await eachCase('queues', PERIODS.slice(0, 2), filterSets(), (body, { from, to, f }) => {
      const r = reference(data, from, to, f);
      const rows = body.rows as { queueId: number | null }[];
      const expectedIds = [...queueIds.filter((q) => !f.queueIds || f.queueIds.includes(q))].sort(
        (x, y) => x - y,
      );
      expect(
        rows
          .filter((x) => x.queueId !== null)
          .map((x) => x.queueId)
          .sort((x, y) => x! - y!),
      ).toEqual(expectedIds);
      for (const row of rows) {
        const mine = r.events.filter((e) => e.queueId === row.queueId);
        const live = data.tickets.filter(
          (x) =>
            x.queueId === row.queueId && r.ticketOk(x.id) && (!f.userIds || f.userIds.includes(x.userId!)),
        );
        const wait = stats(r.seconds('assigned', mine));
        const first = stats(r.seconds('first_reply', mine));
        const resolution = stats(r.seconds('resolved', mine));
        expectClose(
          row,
          {
            opened: r.count('created', mine) + r.count('reopened', mine),
            resolved: r.count('resolved', mine),
            openNow: live.filter((x) => x.status === 'open').length,
            pendingNow: live.filter((x) => x.status === 'pending').length,
            ...flatStats('wait', wait),
            ...flatStats('firstResponse', first),
            ...flatStats('resolution', resolution),
          },
          `${from} ${JSON.stringify(f)} queue ${row.queueId}`,
        );
      }
      if (!f.queueIds) {
        const none = r.events.some((e) => e.queueId === null && e.kind !== 'transferred');
        const liveNone = data.tickets.some(
          (x) =>
            x.queueId === null &&
            x.status !== 'closed' &&
            r.ticketOk(x.id) &&
            (!f.userIds || f.userIds.includes(x.userId!)),
        );
        expect(
          rows.some((x) => x.queueId === null),
          `${from} ${JSON.stringify(f)} no queue`,
        ).toBe(none || liveNone);
      }
    });
  });

  it('heat map: opened tickets per local weekday and hour match, all 168 cells', async () => {
    const data = await load();
    await eachCase('heatmap', PERIODS, filterSets().slice(0, 4), (body, { from, to, f }) => {
      const r = reference(data, from, to, f);
      const expected = new Map<string, number>();
      for (const e of r.events.filter((x) => x.kind === 'created' || x.kind === 'reopened')) {
        const local = new Date(e.at.getTime() - OFFSET);
        const key = `${local.getUTCDay()}:${local.getUTCHours()}`;
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
      const cells = body.cells as { weekday: number; hour: number; opened: number }[];
      expect(cells).toHaveLength(168);
      expect(cells.filter((c) => c.opened > 0).length).toBe(expected.size);
      for (const c of cells) expect(c.opened).toBe(expected.get(`${c.weekday}:${c.hour}`) ?? 0);
    });
  });

  it('exports each table as CSV and XLSX with the JSON answer’s figures', async () => {
    const period = 'from=2026-09-01&to=2026-10-31';
    const agentsJson = (await get(a.admin, `agents?${period}`)).json().rows as Record<string, unknown>[];
    const csv = await get(a.admin, `agents?${period}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="agents-2026-09-01_2026-10-31.csv"',
    );
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(Object.keys(agentsJson[0]!).join(','));
    expect(lines).toHaveLength(agentsJson.length + 1);
    expect(lines[1]!.split(',')[0]).toBe(String(agentsJson[0]!.userId));

    for (const path of ['summary', 'agents', 'queues', 'heatmap']) {
      const xlsx = await get(a.admin, `${path}?${period}&format=xlsx`);
      expect(xlsx.statusCode, path).toBe(200);
      const sheet = await sheetOf(xlsx.rawPayload);
      expect(sheet.name).toBe(path);
      expect(sheet.rowCount, path).toBeGreaterThan(1);
    }
    const heat = await get(a.admin, `heatmap?${period}&format=xlsx`);
    const sheet = await sheetOf(heat.rawPayload);
    const json = (await get(a.admin, `heatmap?${period}`)).json().cells as { opened: number }[];
    expect(sheet.getRow(2).values).toEqual([undefined, 0, 0, json[0]!.opened]);
    expect(sheet.rowCount).toBe(169);
  });

  it('exports the summary with the service-level rows of the JSON answer, in CSV and XLSX', async () => {
    const period = 'from=2026-09-01&to=2026-10-31';
    const json = (await get(a.admin, `summary?${period}`)).json() as ReportSummary;
    expect(json.sla?.firstResponse.tracked).toBeGreaterThan(0);
    const expected = (['firstResponse', 'resolution'] as const).flatMap((target) =>
      (['tracked', 'met', 'rate'] as const).map((stat) => [`sla.${target}.${stat}`, json.sla![target][stat]]),
    );
    const csv = await get(a.admin, `summary?${period}&format=csv`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\n');
    const slaLines = lines.filter((line) => line.startsWith('sla.'));
    // No previous value: the row ends after the current one, as for any empty last cell.
    expect(slaLines).toEqual(expected.map(([figure, value]) => `${figure},${value ?? ''}`));
    expect(lines.find((line) => line.startsWith('resolved,'))).toBe(
      `resolved,${json.current.resolved},${json.previous.resolved}`,
    );

    const sheet = await sheetOf((await get(a.admin, `summary?${period}&format=xlsx`)).rawPayload);
    const rows: unknown[][] = [];
    sheet.eachRow((row) => {
      const values = row.values as unknown[];
      if (String(values[1]).startsWith('sla.')) rows.push(values.slice(1, 3));
    });
    expect(rows).toEqual(expected);
  });

  it('keeps names that look like formulas as text in exports', async () => {
    await t.app.ctx.db.update(queues).set({ name: '=HYPERLINK("x")' }).where(eq(queues.id, queueIds[2]!));
    const csv = await get(a.admin, 'queues?from=2026-09-01&to=2026-10-31&format=csv');
    expect(csv.body).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('refuses bad periods and filters with the field', async () => {
    const cases: [string, string][] = [
      ['to=2026-10-01', 'from'],
      ['from=2026-10-01', 'to'],
      ['from=2026-10-02&to=2026-10-01', 'to'],
      ['from=2024-01-01&to=2026-01-02', 'to'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=0000-01-01&to=2026-03-01', 'from'],
      ['from=2026-01-01&to=2101-01-01', 'to'],
      ['from=2026-10-01&to=2026-10-02&queueIds=x', 'queueIds'],
      [
        `from=2026-10-01&to=2026-10-02&userIds=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
        'userIds',
      ],
      ['from=2026-10-01&to=2026-10-02&whatsappIds=99999999999', 'whatsappIds'],
      ['from=2026-10-01&to=2026-10-02&format=pdf', 'format'],
    ];
    for (const [q, field] of cases) {
      for (const path of ['summary', 'agents', 'queues', 'heatmap']) {
        const res = await get(a.admin, `${path}?${q}`);
        expect(res.statusCode, `${path}?${q}`).toBe(400);
        expect(res.json(), `${path}?${q}`).toMatchObject({ error: 'ERR_VALIDATION', field });
      }
    }
    const twoYears = await get(a.admin, 'summary?from=2024-01-01&to=2025-12-31');
    expect(twoYears.statusCode).toBe(200);
  });

  it("answers 404 for another company's queue, agent, connection or tag", async () => {
    const [wb] = await t.app.ctx.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(eq(whatsapps.companyId, b.companyId));
    const [tb] = await t.app.ctx.db
      .insert(tags)
      .values({ companyId: b.companyId, name: 'TB' })
      .returning({ id: tags.id });
    const cases: [string, string][] = [
      [`queueIds=${queueIds[0]},${b.queueId}`, 'ERR_NO_QUEUE_FOUND'],
      [`userIds=${b.agent.id}`, 'ERR_NO_USER_FOUND'],
      [`whatsappIds=${wb!.id}`, 'ERR_NO_WAPP_FOUND'],
      [`tagIds=${tb!.id}`, 'ERR_NOT_FOUND'],
    ];
    for (const [filter, error] of cases) {
      for (const path of ['summary', 'agents', 'queues', 'heatmap']) {
        const res = await get(a.admin, `${path}?from=2026-09-01&to=2026-09-30&${filter}`);
        expect(res.statusCode, `${path} ${filter}`).toBe(404);
        expect(res.json()).toEqual({ error });
      }
    }
  });

  it('counts only the caller company', async () => {
    const ofB = await get(b.admin, 'summary?from=2026-09-01&to=2026-10-31');
    const countB = await t.app.ctx.db.execute(
      sql`select count(*)::int as n from ticket_events where company_id = ${b.companyId} and kind = 'created'
        and at >= '2026-09-01T03:00:00Z' and at < '2026-11-01T03:00:00Z'`,
    );
    expect(ofB.json().current.created).toBe(countB.rows[0]!.n);
  });

  it('is refused to agents and to plans without useReports', async () => {
    const agent = await get(a.agent, 'summary?from=2026-09-01&to=2026-09-30');
    expect(agent.statusCode).toBe(403);
    expect(agent.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const c = await createTenant(t.app);
    await downgradeToNoFlags(t.app, c.companyId);
    for (const path of ['summary', 'agents', 'queues', 'heatmap']) {
      const res = await get(c.admin, `${path}?from=2026-09-01&to=2026-09-30`);
      expect(res.statusCode, path).toBe(403);
      expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });
});
