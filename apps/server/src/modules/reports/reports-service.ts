import {
  type AgentReport,
  type HeatmapReport,
  type QueueReport,
  REPORTS_TIME_ZONE,
  type ReportFigures,
  type ReportFilters,
  type ReportSummary,
} from '@zapdesk/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { dayEnd, dayStart, LOCAL_TZ } from '../../lib/local-days.js';
import {
  cellsByDim,
  countOf,
  handledOf,
  type PeriodPlan,
  planPeriod,
  ROLLUP_MIN_DAYS,
  type RollupCell,
  type RollupDim,
  rolledThroughOf,
  rollupCells,
  statsOf,
} from './rollups.js';
import { reportSlaFigures } from './sla-report.js';

/** How a report is computed: `rollups: false` reads only the events (exact percentiles). */
export interface ReportOptions {
  rollups?: boolean;
}

/** The reports' time zone (REPORTS_TIME_ZONE, the dashboard's) as an SQL literal. */
const TZ = LOCAL_TZ;
const DAY_MS = 86_400_000;

/** `date` (yyyy-MM-dd) moved by `days`. */
const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** Validated ids as an int[] literal parameter. */
const ids = (list: number[]) => sql`${`{${list.join(',')}}`}::int[]`;
/** True when a filter names ids. */
const given = (list: number[] | undefined): list is number[] => list !== undefined && list.length > 0;

interface Row {
  [key: string]: unknown;
}

/**
 * The rollup dimension serving the filters (`all` with none, `user`, `queue` or `whatsapp` when only
 * that filter is given, each allowed by `dims`), or null when they need the events (tags, mixes).
 */
function rollupDimOf(q: ReportFilters, dims: RollupDim[]): { dim: RollupDim; ids?: number[] } | null {
  if (given(q.tagIds)) return null;
  const asked = (
    [
      ['user', q.userIds],
      ['queue', q.queueIds],
      ['whatsapp', q.whatsappIds],
    ] as const
  ).filter(([, list]) => given(list));
  if (asked.length > 1) return null;
  const pick = asked.length ? { dim: asked[0]![0] as RollupDim, ids: asked[0]![1] } : { dim: dims[0]! };
  return dims.includes(pick.dim) ? pick : null;
}

/** Days in `from`..`to` (local, both included). */
const daysOf = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

/**
 * How to read `from`..`to` from the rollups (decision 0121), or null for the events: periods shorter
 * than ROLLUP_MIN_DAYS, `options.rollups` false, or a company never rolled.
 */
async function rollupPlanOf(
  ctx: AppContext,
  companyId: number,
  from: string,
  to: string,
  options: ReportOptions | undefined,
): Promise<PeriodPlan | null> {
  if (options?.rollups === false || daysOf(from, to) < ROLLUP_MIN_DAYS) return null;
  const rolled = await rolledThroughOf(ctx, companyId);
  const plan = rolled ? planPeriod(from, to, rolled) : null;
  return plan && (plan.months.length || plan.weeks.length) ? plan : null;
}

/** The summary's event figures of one period from rollup cells (dimension ids already narrowed). */
function summaryFigures(cells: RollupCell[]) {
  const of = (kind: string) => cells.filter((c) => c.kind === kind);
  return {
    opened: countOf(cells, 'created', 'reopened'),
    created: countOf(cells, 'created'),
    reopened: countOf(cells, 'reopened'),
    resolved: countOf(cells, 'resolved'),
    firstResponse: statsOf(of('first_reply')),
    resolution: statsOf(of('resolved')),
    wait: statsOf(of('assigned')),
  };
}
const rows = async <T>(ctx: AppContext, query: SQL): Promise<T[]> =>
  (await ctx.db.execute(query)).rows as Row[] as T[];

/**
 * Refuses filters naming another company's rows (or none): the tenancy answer, not found.
 * @throws ERR_NO_QUEUE_FOUND, ERR_NO_USER_FOUND, ERR_NO_WAPP_FOUND, ERR_NOT_FOUND (tags).
 */
export async function assertFiltersOwned(
  ctx: AppContext,
  companyId: number,
  q: ReportFilters,
): Promise<void> {
  const checks: [number[] | undefined, string, AppError['code']][] = [
    [q.queueIds, 'queues', 'ERR_NO_QUEUE_FOUND'],
    [q.userIds, 'users', 'ERR_NO_USER_FOUND'],
    [q.whatsappIds, 'whatsapps', 'ERR_NO_WAPP_FOUND'],
    [q.tagIds, 'tags', 'ERR_NOT_FOUND'],
  ];
  const asked = checks.filter(([list]) => given(list));
  if (!asked.length) return;
  const [found] = await rows<Record<string, boolean>>(
    ctx,
    sql`select ${sql.join(
      asked.map(
        ([list, table]) =>
          sql`(select count(*) from ${sql.identifier(table)} x where x.company_id = ${companyId}
            and x.id = any(${ids(list!)})) = cardinality(array(select distinct unnest(${ids(list!)})))
            as ${sql.identifier(table)}`,
      ),
      sql`, `,
    )}`,
  );
  for (const [, table, code] of asked) if (!found![table]) throw new AppError(code);
}

/**
 * The events of the company in [from, to) of `kinds`, narrowed by the filters: the event's queue,
 * agent and connection, and the ticket's tags (any of them). Reads `ticket_events (company_id, kind,
 * at)`; the tag filter probes `ticket_tags` by its key.
 */
function eventsOf(companyId: number, q: ReportFilters, kinds: string[], from: SQL, to: SQL): SQL {
  const where: SQL[] = [
    sql`e.company_id = ${companyId}`,
    sql`e.kind = any(${`{${kinds.join(',')}}`}::text[])`,
    sql`e.at >= ${from}`,
    sql`e.at < ${to}`,
  ];
  if (given(q.queueIds)) where.push(sql`e.queue_id = any(${ids(q.queueIds)})`);
  if (given(q.userIds)) where.push(sql`e.user_id = any(${ids(q.userIds)})`);
  if (given(q.whatsappIds)) where.push(sql`e.whatsapp_id = any(${ids(q.whatsappIds)})`);
  if (given(q.tagIds))
    where.push(
      sql`exists (select 1 from ticket_tags tt where tt.ticket_id = e.ticket_id and tt.company_id = ${companyId}
        and tt.tag_id = any(${ids(q.tagIds)}))`,
    );
  return sql`select e.kind, e.at, e.user_id, e.queue_id, e.whatsapp_id, e.ticket_id, e.seconds
    from ticket_events e where ${sql.join(where, sql` and `)}`;
}

/** Checks the filters' ids (assertFiltersOwned), then the filtered events of `kinds` in the query's period. */
async function periodEvents(
  ctx: AppContext,
  companyId: number,
  q: ReportFilters,
  kinds: string[],
): Promise<SQL> {
  await assertFiltersOwned(ctx, companyId, q);
  return eventsOf(companyId, q, kinds, dayStart(q.from), dayEnd(q.to));
}

/**
 * The filters on a ticket row `t` of the company now (open-now counts and ratings): queue, connection,
 * tags. Naming the company lets the ids of a queue or connection come from the indexes
 * `tickets (company_id, queue_id, id)` / `(company_id, whatsapp_id, id)` alone, hashed once.
 */
export function ticketFilters(companyId: number, q: ReportFilters): SQL {
  const where: SQL[] = [sql`t.company_id = ${companyId}`];
  if (given(q.queueIds)) where.push(sql`t.queue_id = any(${ids(q.queueIds)})`);
  if (given(q.whatsappIds)) where.push(sql`t.whatsapp_id = any(${ids(q.whatsappIds)})`);
  if (given(q.tagIds))
    where.push(
      sql`exists (select 1 from ticket_tags tt where tt.ticket_id = t.id and tt.company_id = ${companyId}
        and tt.tag_id = any(${ids(q.tagIds)}))`,
    );
  return sql.join(where, sql` and `);
}

/** Ratings of the company given in [from, to), narrowed by the filters (the rated ticket's queue...). */
function ratingsOf(companyId: number, q: ReportFilters, from: SQL, to: SQL): SQL {
  const user = given(q.userIds) ? sql`and r.user_id = any(${ids(q.userIds)})` : sql``;
  const ticket =
    given(q.queueIds) || given(q.whatsappIds) || given(q.tagIds)
      ? sql`and exists (select 1 from tickets t where t.id = r.ticket_id and ${ticketFilters(companyId, q)})`
      : sql``;
  return sql`select r.user_id, r.rate, r.created_at from user_ratings r
    where r.company_id = ${companyId} and r.created_at >= ${from} and r.created_at < ${to} ${user} ${ticket}`;
}

/**
 * Count, average, median and p90 (`percentile_cont`, linear between neighbours) of `seconds` over the
 * rows matching `when`, rounded to 0.1 s; null when none. As JSON for one column per figure set.
 */
const statsJson = (when: SQL) => sql`json_build_object(
    'count', count(seconds) filter (where ${when}),
    'avg', round(avg(seconds) filter (where ${when}), 1)::float8,
    'median', round((percentile_cont(0.5) within group (order by seconds) filter (where ${when}))::numeric, 1)::float8,
    'p90', round((percentile_cont(0.9) within group (order by seconds) filter (where ${when}))::numeric, 1)::float8)`;
/** The same three figures as columns `<prefix>Avg`, `<prefix>Median`, `<prefix>P90`. */
const statsColumns = (when: SQL, prefix: string) => sql`
    round(avg(seconds) filter (where ${when}), 1)::float8 as ${sql.identifier(`${prefix}Avg`)},
    round((percentile_cont(0.5) within group (order by seconds) filter (where ${when}))::numeric, 1)::float8
      as ${sql.identifier(`${prefix}Median`)},
    round((percentile_cont(0.9) within group (order by seconds) filter (where ${when}))::numeric, 1)::float8
      as ${sql.identifier(`${prefix}P90`)}`;

const FIRST_REPLY = sql`kind = 'first_reply'`;
const RESOLVED = sql`kind = 'resolved'`;
const WAIT = sql`kind = 'assigned' and seconds is not null`;

/**
 * GET /reports/summary: for the period `from`..`to` (local days) and the previous period of the same
 * length, tickets opened (created + reopened), resolved, first response, resolution and wait times
 * (seconds: avg, median, p90) and ratings (count, average, distribution 1..3). Two statements of
 * aggregates over `ticket_events` and `user_ratings`, both periods grouped at once.
 * @throws the not-found errors of the filters (assertFiltersOwned).
 */
export async function reportSummary(
  ctx: AppContext,
  companyId: number,
  q: ReportFilters,
  options?: ReportOptions,
): Promise<ReportSummary> {
  await assertFiltersOwned(ctx, companyId, q);
  const days = daysOf(q.from, q.to);
  const previous = { from: shift(q.from, -days), to: shift(q.from, -1) };
  const boundary = dayStart(q.from);
  const period = sql`case when at >= ${boundary} then 'current' else 'previous' end`;
  const kinds = ['created', 'reopened', 'assigned', 'first_reply', 'resolved'];
  const events = eventsOf(companyId, q, kinds, dayStart(previous.from), dayEnd(q.to));
  const dim = rollupDimOf(q, ['all', 'user', 'queue', 'whatsapp']);
  const plan = dim && (await rollupPlanOf(ctx, companyId, previous.from, q.to, options));
  const figures: (Omit<ReportFigures, 'from' | 'to' | 'csat'> & { period: string })[] = [];
  // Ratings by their agent (all or userIds) come with the cells; by the ticket's queue or connection, from SQL.
  const rolledRatings: { period: string; rate: number; count: number }[] | null =
    dim && plan && (dim.dim === 'all' || dim.dim === 'user') ? [] : null;
  if (dim && plan)
    for (const [name, bounds] of [
      ['current', q],
      ['previous', previous],
    ] as const) {
      const part = planPeriod(bounds.from, bounds.to, plan.rolledEnd);
      const cells = await rollupCells(ctx, companyId, part, dim.dim, [...kinds, 'rating'], dim.ids);
      figures.push({ period: name, ...summaryFigures(cells) });
      for (const rate of [1, 2, 3])
        rolledRatings?.push({
          period: name,
          rate,
          count: cells
            .filter((c) => c.kind === 'rating' && c.bucket === rate)
            .reduce((sum, c) => sum + c.n, 0),
        });
    }
  else
    figures.push(
      ...(await rows<Omit<ReportFigures, 'from' | 'to' | 'csat'> & { period: string }>(
        ctx,
        sql`select ${period} as period,
        count(*) filter (where kind in ('created', 'reopened'))::int as opened,
        count(*) filter (where kind = 'created')::int as created,
        count(*) filter (where kind = 'reopened')::int as reopened,
        count(*) filter (where ${RESOLVED})::int as resolved,
        ${statsJson(FIRST_REPLY)} as "firstResponse",
        ${statsJson(RESOLVED)} as resolution,
        ${statsJson(WAIT)} as wait
      from (${events}) x group by 1`,
      )),
    );
  const ratings =
    rolledRatings ??
    (await rows<{ period: string; rate: number; count: number }>(
      ctx,
      sql`select case when created_at >= ${boundary} then 'current' else 'previous' end as period,
        rate::int as rate, count(*)::int as count
      from (${ratingsOf(companyId, q, dayStart(previous.from), dayEnd(q.to))}) r group by 1, 2`,
    ));
  const build = (name: string, bounds: { from: string; to: string }): ReportFigures => {
    const row = figures.find((f) => f.period === name);
    const empty = { count: 0, avg: null, median: null, p90: null };
    const distribution = [1, 2, 3].map((rate) => ({
      rate,
      count: ratings.find((r) => r.period === name && r.rate === rate)?.count ?? 0,
    }));
    const count = distribution.reduce((sum, d) => sum + d.count, 0);
    const total = distribution.reduce((sum, d) => sum + d.rate * d.count, 0);
    return {
      ...bounds,
      opened: row?.opened ?? 0,
      created: row?.created ?? 0,
      reopened: row?.reopened ?? 0,
      resolved: row?.resolved ?? 0,
      firstResponse: row?.firstResponse ?? empty,
      resolution: row?.resolution ?? empty,
      wait: row?.wait ?? empty,
      csat: { count, average: count ? Math.round((total / count) * 100) / 100 : null, distribution },
    };
  };
  return {
    timeZone: REPORTS_TIME_ZONE,
    current: build('current', { from: q.from, to: q.to }),
    previous: build('previous', previous),
    sla: await reportSlaFigures(ctx, companyId, q),
  };
}

/**
 * GET /reports/agents: every agent of the company (or those of `userIds`), by name: tickets handled
 * (assigned, answered, transferred to or resolved by the agent in the period), resolved, open now,
 * first response and resolution times (avg, median, p90 seconds) and ratings (count, average).
 * @throws the not-found errors of the filters.
 */
export async function reportAgents(
  ctx: AppContext,
  companyId: number,
  q: ReportFilters,
  options?: ReportOptions,
): Promise<AgentReport> {
  const kinds = ['assigned', 'first_reply', 'transferred', 'resolved'];
  let events = await periodEvents(ctx, companyId, q, kinds);
  const dim = rollupDimOf(q, ['user']);
  const plan = dim && (await rollupPlanOf(ctx, companyId, q.from, q.to, options));
  // From the rollups: the statement below reads no event, the figures come from the cells.
  if (plan) events = sql`${events} and false`;
  const only = given(q.userIds) ? sql`and u.id = any(${ids(q.userIds)})` : sql``;
  const result = await rows<AgentReport['rows'][number]>(
    ctx,
    sql`with e as (${events}),
      agg as (
        select user_id, count(distinct ticket_id)::int as handled, count(*) filter (where ${RESOLVED})::int as resolved,
          ${statsColumns(FIRST_REPLY, 'firstResponse')},
          ${statsColumns(RESOLVED, 'resolution')}
        from e where user_id is not null group by user_id
      ),
      live as (
        select t.user_id, count(*)::int as open from tickets t
        where t.status = 'open' and t.user_id is not null and ${ticketFilters(companyId, q)}
        group by t.user_id
      ),
      ratings as (
        select user_id, count(*)::int as n, round(avg(rate), 2)::float8 as average
        from (${ratingsOf(companyId, q, dayStart(q.from), dayEnd(q.to))}) r ${plan ? sql`where false` : sql``} group by user_id
      )
      select u.id as "userId", u.name, coalesce(a.handled, 0) as handled, coalesce(a.resolved, 0) as resolved,
        coalesce(l.open, 0) as "openNow",
        a."firstResponseAvg", a."firstResponseMedian", a."firstResponseP90",
        a."resolutionAvg", a."resolutionMedian", a."resolutionP90",
        coalesce(r.n, 0) as "ratingCount", r.average as "ratingAverage"
      from users u
      left join agg a on a.user_id = u.id
      left join live l on l.user_id = u.id
      left join ratings r on r.user_id = u.id
      where u.company_id = ${companyId} ${only}
      order by u.name, u.id`,
  );
  if (plan) {
    const cells = await rollupCells(ctx, companyId, plan, 'user', [...kinds, 'rating'], q.userIds);
    const handled = await handledOf(ctx, companyId, q.from, q.to, plan.rolledEnd!, q.userIds);
    const byUser = cellsByDim(cells);
    for (const row of result) {
      const mine = byUser.get(row.userId) ?? [];
      const firstResponse = statsOf(mine.filter((c) => c.kind === 'first_reply'));
      const resolution = statsOf(mine.filter((c) => c.kind === 'resolved'));
      const rated = mine.filter((c) => c.kind === 'rating');
      const ratingCount = countOf(rated, 'rating');
      const ratingSum = rated.reduce((sum, c) => sum + c.total, 0);
      Object.assign(row, {
        ratingCount,
        ratingAverage: ratingCount ? Math.round((ratingSum * 100) / ratingCount) / 100 : null,
        handled: handled.get(row.userId) ?? 0,
        resolved: countOf(mine, 'resolved'),
        firstResponseAvg: firstResponse.avg,
        firstResponseMedian: firstResponse.median,
        firstResponseP90: firstResponse.p90,
        resolutionAvg: resolution.avg,
        resolutionMedian: resolution.median,
        resolutionP90: resolution.p90,
      });
    }
  }
  return { rows: result };
}

/**
 * GET /reports/queues: every queue of the company (or those of `queueIds`), by name, and the tickets
 * without a queue (`queueId` null, when they have figures and no queue filter is given): opened,
 * resolved, open and pending now, wait, first response and resolution times (avg, median, p90).
 * @throws the not-found errors of the filters.
 */
export async function reportQueues(
  ctx: AppContext,
  companyId: number,
  q: ReportFilters,
  options?: ReportOptions,
): Promise<QueueReport> {
  const kinds = ['created', 'reopened', 'assigned', 'first_reply', 'resolved'];
  let events = await periodEvents(ctx, companyId, q, kinds);
  const dim = rollupDimOf(q, ['queue']);
  const plan = dim && (await rollupPlanOf(ctx, companyId, q.from, q.to, options));
  const cells = plan ? await rollupCells(ctx, companyId, plan, 'queue', kinds, q.queueIds) : [];
  // From the rollups: the statement reads no event; a null-queue cell keeps the no-queue row.
  if (plan) events = sql`${events} and false`;
  const noQueue = cells.some((c) => c.dimId === null);
  const only = given(q.queueIds) ? sql`and q.id = any(${ids(q.queueIds)})` : sql``;
  const agents = given(q.userIds) ? sql`and t.user_id = any(${ids(q.userIds)})` : sql``;
  const result = await rows<QueueReport['rows'][number]>(
    ctx,
    sql`with agg as (
        select queue_id, count(*) filter (where kind in ('created', 'reopened'))::int as opened,
          count(*) filter (where ${RESOLVED})::int as resolved,
          ${statsColumns(WAIT, 'wait')},
          ${statsColumns(FIRST_REPLY, 'firstResponse')},
          ${statsColumns(RESOLVED, 'resolution')}
        from (${events}) e group by queue_id
      ),
      live as (
        select t.queue_id, count(*) filter (where t.status = 'open')::int as open,
          count(*) filter (where t.status = 'pending')::int as pending
        from tickets t
        where t.status in ('open', 'pending') and ${ticketFilters(companyId, q)} ${agents}
        group by t.queue_id
      ),
      keys as (
        select q.id, q.name from queues q where q.company_id = ${companyId} ${only}
        union all
        select null, null where ${given(q.queueIds) ? sql`false` : sql`true`}
          and (${noQueue} or exists (select 1 from agg where queue_id is null)
            or exists (select 1 from live where queue_id is null))
      )
      select k.id as "queueId", k.name, coalesce(a.opened, 0) as opened, coalesce(a.resolved, 0) as resolved,
        coalesce(l.open, 0) as "openNow", coalesce(l.pending, 0) as "pendingNow",
        a."waitAvg", a."waitMedian", a."waitP90", a."firstResponseAvg", a."firstResponseMedian",
        a."firstResponseP90", a."resolutionAvg", a."resolutionMedian", a."resolutionP90"
      from keys k
      left join agg a on a.queue_id is not distinct from k.id
      left join live l on l.queue_id is not distinct from k.id
      order by k.id is null, k.name, k.id`,
  );
  const byQueue = cellsByDim(cells);
  if (plan)
    for (const row of result) {
      const mine = byQueue.get(row.queueId) ?? [];
      const stats = (kind: string, prefix: string) => {
        const f = statsOf(mine.filter((c) => c.kind === kind));
        return { [`${prefix}Avg`]: f.avg, [`${prefix}Median`]: f.median, [`${prefix}P90`]: f.p90 };
      };
      Object.assign(row, {
        opened: countOf(mine, 'created', 'reopened'),
        resolved: countOf(mine, 'resolved'),
        ...stats('assigned', 'wait'),
        ...stats('first_reply', 'firstResponse'),
        ...stats('resolved', 'resolution'),
      });
    }
  return { rows: result };
}

/**
 * GET /reports/heatmap: tickets opened (created + reopened) in the period per local weekday (0 Sunday)
 * and hour, every one of the 168 cells listed (0 when none), Sunday 0h first.
 * @throws the not-found errors of the filters.
 */
export async function reportHeatmap(
  ctx: AppContext,
  companyId: number,
  q: ReportFilters,
  options?: ReportOptions,
): Promise<HeatmapReport> {
  const events = await periodEvents(ctx, companyId, q, ['created', 'reopened']);
  const filtered = given(q.queueIds) || given(q.userIds) || given(q.whatsappIds) || given(q.tagIds);
  const plan = !filtered && (await rollupPlanOf(ctx, companyId, q.from, q.to, options));
  if (plan) {
    const byCell = cellsByDim(await rollupCells(ctx, companyId, plan, 'heat', ['created', 'reopened']));
    return {
      timeZone: REPORTS_TIME_ZONE,
      cells: Array.from({ length: 168 }, (_, i) => ({
        weekday: Math.floor(i / 24),
        hour: i % 24,
        opened: countOf(byCell.get(i) ?? [], 'created', 'reopened'),
      })),
    };
  }
  const cells = await rows<HeatmapReport['cells'][number]>(
    ctx,
    sql`with counts as (
        select extract(dow from at at time zone ${TZ})::int as weekday,
          extract(hour from at at time zone ${TZ})::int as hour, count(*)::int as opened
        from (${events}) e group by 1, 2
      )
      select d as weekday, h as hour, coalesce(c.opened, 0) as opened
      from generate_series(0, 6) d cross join generate_series(0, 23) h
      left join counts c on c.weekday = d and c.hour = h
      order by d, h`,
  );
  return { timeZone: REPORTS_TIME_ZONE, cells };
}
