import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { dayEnd, dayStart, LOCAL_TZ, localToday } from '../../lib/local-days.js';

/**
 * Report rollups (decisions 0121–0123, docs/reports.md "Rollups"): per company, month and week spans
 * of ticket events counted per kind, dimension (all, agent, queue, connection, heat-map cell) and log bucket of
 * their seconds, and the agents' handled pairs per day. Long periods read them plus the events of the
 * days no whole span covers; counts and averages stay exact, medians and p90 are within
 * PERCENTILE_ERROR of the exact ones.
 */

/** Periods of at least this many days read the rollups (when the filters allow); shorter ones the events. */
export const ROLLUP_MIN_DAYS = 8;
/** Largest relative error of a median or p90 read from the rollups (before rounding to 0.1 s). */
export const PERCENTILE_ERROR = Math.sqrt(1.04) - 1;
/** The job that rolls every company's closed days (every 15 minutes, one run at a time). */
export const REPORT_ROLLUP_JOB = 'report-rollups';
/** A local day is rolled once it ended this long ago (events commit late by at most this). */
const MARGIN_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
const HANDLED_KINDS = sql`'{assigned,first_reply,transferred,resolved}'::text[]`;

/**
 * The bucket of `seconds` (SQL): -1 for null, the seconds under 64, then log base 1.04 steps. In
 * double precision: `numeric`'s ln costs about 6 µs an event (15 times the whole index read); the two
 * agree for every int4 (rollups.test.ts checks the neighbours of every bucket bound).
 */
export const bucketOf = (
  seconds: SQL,
) => sql`case when ${seconds} is null then -1 when ${seconds} < 64 then ${seconds}
  else 64 + floor(ln(${seconds} / 64.0::float8) / ln(1.04::float8))::int end`;

/** A value standing for `bucket` (its geometric middle; exact under 64 s). */
export function bucketValue(bucket: number): number {
  return bucket < 64 ? bucket : 64 * 1.04 ** (bucket - 64 + 0.5);
}

/** yyyy-MM-dd arithmetic on UTC dates. */
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const monthStart = (date: string) => `${date.slice(0, 8)}01`;
const nextMonth = (date: string) => {
  const d = new Date(`${monthStart(date)}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
};
const weekStart = (date: string) => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
const dates = (list: string[]) => sql`${`{${list.join(',')}}`}::date[]`;

/** The last local day the job may roll at `now`: the day before the one MARGIN_MS ago. */
export function closedThrough(now = new Date()): string {
  return addDays(localToday(new Date(now.getTime() - MARGIN_MS)), -1);
}

/** How a period is read: whole spans from the rollups, the other days (inclusive ranges) from events. */
export interface PeriodPlan {
  months: string[];
  weeks: string[];
  eventDays: [string, string][];
  /** The last day read from the rollups (null when none is). */
  rolledEnd: string | null;
}

/**
 * Splits the local days `from`..`to` into whole months and weeks (Monday first) ending by
 * `rolledThrough`, and ranges of days read from the events (the edges and the days not rolled yet).
 */
export function planPeriod(from: string, to: string, rolledThrough: string | null): PeriodPlan {
  const plan: PeriodPlan = { months: [], weeks: [], eventDays: [], rolledEnd: null };
  const end = rolledThrough && rolledThrough < to ? rolledThrough : to;
  const eventDay = (day: string) => {
    const last = plan.eventDays[plan.eventDays.length - 1];
    if (last && addDays(last[1], 1) === day) last[1] = day;
    else plan.eventDays.push([day, day]);
  };
  let day = from;
  if (rolledThrough && rolledThrough >= from) {
    while (day <= end) {
      const next = nextMonth(day);
      if (day === monthStart(day) && addDays(next, -1) <= end) {
        plan.months.push(day);
        day = next;
      } else if (
        day === weekStart(day) &&
        addDays(day, 6) <= end &&
        // A week never runs into a month that could be read whole.
        (addDays(day, 6) < nextMonth(day) || addDays(nextMonth(nextMonth(day)), -1) > end)
      ) {
        plan.weeks.push(day);
        day = addDays(day, 7);
      } else {
        eventDay(day);
        day = addDays(day, 1);
      }
    }
    plan.rolledEnd = end;
  }
  for (; day <= to; day = addDays(day, 1)) eventDay(day);
  return plan;
}

/** The company's rollup mark (the last rolled local day), or null. */
export async function rolledThroughOf(ctx: AppContext, companyId: number): Promise<string | null> {
  const { rows } = await ctx.db.execute(
    sql`select rolled_through::text as d from report_rollup_marks where company_id = ${companyId}`,
  );
  return (rows[0] as { d: string } | undefined)?.d ?? null;
}

/** Rows whose `column` falls in the inclusive local-day ranges (an SQL condition). */
const inDays = (ranges: [string, string][], column = sql`e.at`) =>
  ranges.length
    ? sql`(${sql.join(
        ranges.map(([a, b]) => sql`(${column} >= ${dayStart(a)} and ${column} < ${dayEnd(b)})`),
        sql` or `,
      )})`
    : sql`false`;

/** A dimension of the rollups and its expression over an event `e`. */
export type RollupDim = 'all' | 'user' | 'queue' | 'whatsapp' | 'heat';
const dimExpr: Record<RollupDim, SQL> = {
  all: sql`null::int`,
  user: sql`e.user_id`,
  queue: sql`e.queue_id`,
  whatsapp: sql`e.whatsapp_id`,
  heat: sql`(extract(dow from e.at at time zone ${LOCAL_TZ}) * 24 + extract(hour from e.at at time zone ${LOCAL_TZ}))::int`,
};

/** One merged histogram cell: dimension id, kind, bucket (-1: no seconds), count and seconds' sum. */
export interface RollupCell {
  dimId: number | null;
  kind: string;
  bucket: number;
  n: number;
  total: number;
}

/** Days in `from`..`to` (yyyy-MM-dd, both included). */
const dayCount = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

/**
 * The plan's event days as ranges to add (sign 1) or subtract (-1), and the weeks to read: a range
 * inside one rolled week longer than the rest of that week is read as the whole week minus the
 * week's other days (fewer events to read; counts and sums subtract exactly).
 */
export function signedRanges(plan: PeriodPlan): { weeks: string[]; ranges: [string, string, 1 | -1][] } {
  const weeks = [...plan.weeks];
  const ranges: [string, string, 1 | -1][] = [];
  for (const [a, b] of plan.eventDays) {
    const week = weekStart(a);
    const last = addDays(week, 6);
    const inside = dayCount(a, b);
    if (
      plan.rolledEnd &&
      b <= last &&
      last <= plan.rolledEnd &&
      7 - inside < inside &&
      !weeks.includes(week)
    ) {
      weeks.push(week);
      if (a > week) ranges.push([week, addDays(a, -1), -1]);
      if (b < last) ranges.push([addDays(b, 1), last, -1]);
    } else ranges.push([a, b, 1]);
  }
  return { weeks, ranges };
}

/**
 * The histogram cells of `kinds` over a planned period for one dimension (narrowed to `dimIds` when
 * given): the rollups' spans plus the events of the plan's other days (see `signedRanges`), merged;
 * cells that sum to no event are left out. Each range of those days is its own branch, so that it is an index range on `at` (ORed ranges would scan every event of
 * the kinds). The kind `rating`
 * (dimensions `all` and `user` only) counts `user_ratings` by rate (the bucket) and their agent.
 */
export async function rollupCells(
  ctx: AppContext,
  companyId: number,
  plan: PeriodPlan,
  dim: RollupDim,
  kinds: string[],
  dimIds?: number[],
): Promise<RollupCell[]> {
  const kindList = sql`${`{${kinds.join(',')}}`}::text[]`;
  const onlyIds = dimIds?.length ? sql`${`{${dimIds.join(',')}}`}::int[]` : null;
  const read = signedRanges(plan);
  const { rows } = await ctx.db.execute(sql`
    select dim_id as "dimId", kind, bucket, sum(n)::int as n, sum(total)::float8 as total from (
      select dim_id, kind, bucket::int as bucket, n, total from report_rollups
      where company_id = ${companyId} and dim = ${dim} and kind = any(${kindList})
        and ((span = 'month' and start = any(${dates(plan.months)}))
          or (span = 'week' and start = any(${dates(read.weeks)})))
        ${onlyIds ? sql`and dim_id = any(${onlyIds})` : sql``}
      ${sql.join(
        read.ranges.map(
          ([from, to, sign]) => sql`union all
      select ${dimExpr[dim]}, e.kind, ${dim === 'heat' ? sql`-1` : bucketOf(sql`e.seconds`)}, ${sign}::int,
        ${sign}::int * coalesce(e.seconds, 0)
      from ticket_events e
      where e.company_id = ${companyId} and e.kind = any(${kindList}) and ${inDays([[from, to]])}
        ${onlyIds ? sql`and ${dimExpr[dim]} = any(${onlyIds})` : sql``}
      ${
        kinds.includes('rating') && (dim === 'all' || dim === 'user')
          ? sql`union all
      select ${dim === 'user' ? sql`r.user_id` : sql`null::int`}, 'rating', r.rate::int, ${sign}::int,
        ${sign}::int * r.rate::int
      from user_ratings r where r.company_id = ${companyId} and ${inDays([[from, to]], sql`r.created_at`)}
        ${onlyIds ? sql`and r.user_id = any(${onlyIds})` : sql``}`
          : sql``
      }`,
        ),
        sql` `,
      )}
    ) x group by 1, 2, 3 having sum(n) <> 0`);
  return rows as unknown as RollupCell[];
}

/** The cells grouped by their dimension id (one pass; a report's rows then look theirs up). */
export function cellsByDim(cells: RollupCell[]): Map<number | null, RollupCell[]> {
  const groups = new Map<number | null, RollupCell[]>();
  for (const cell of cells) {
    const group = groups.get(cell.dimId);
    if (group) group.push(cell);
    else groups.set(cell.dimId, [cell]);
  }
  return groups;
}

/** Count, average, median and p90 (seconds, rounded to 0.1; null when none), as the exact path's. */
export interface RollupStats {
  count: number;
  avg: number | null;
  median: number | null;
  p90: number | null;
}

/**
 * The seconds' figures of the cells (buckets >= 0): count and average exact, median and p90 as
 * `percentile_cont` over the buckets' values (within PERCENTILE_ERROR).
 */
export function statsOf(cells: RollupCell[]): RollupStats {
  const sorted = cells.filter((c) => c.bucket >= 0).sort((x, y) => x.bucket - y.bucket);
  const count = sorted.reduce((sum, c) => sum + c.n, 0);
  if (!count) return { count: 0, avg: null, median: null, p90: null };
  const total = sorted.reduce((sum, c) => sum + c.total, 0);
  /** The value of the rank-th (0-based) smallest. */
  const at = (rank: number) => {
    let seen = 0;
    for (const c of sorted) {
      seen += c.n;
      if (rank < seen) return bucketValue(c.bucket);
    }
    return bucketValue(sorted[sorted.length - 1]!.bucket);
  };
  const percentile = (p: number) => {
    const h = p * (count - 1);
    const lo = Math.floor(h);
    const v = at(lo) + (h - lo) * (at(Math.min(lo + 1, count - 1)) - at(lo));
    return Math.round(v * 10) / 10;
  };
  return { count, avg: Math.round((total * 10) / count) / 10, median: percentile(0.5), p90: percentile(0.9) };
}

/** Sum of `n` of the cells matching `kinds`. */
export const countOf = (cells: RollupCell[], ...kinds: string[]) =>
  cells.filter((c) => kinds.includes(c.kind)).reduce((sum, c) => sum + c.n, 0);

/**
 * Agents' handled (distinct tickets with an assigned, first_reply, transferred or resolved event of
 * the agent) in `from`..`to`: the handled rows of the rolled days, then the pairs of the later days
 * that had no event in the rolled part. Map user id → count.
 */
export async function handledOf(
  ctx: AppContext,
  companyId: number,
  from: string,
  to: string,
  rolledEnd: string,
  userIds?: number[],
): Promise<Map<number, number>> {
  const only = (column: SQL) =>
    userIds?.length ? sql`and ${column} = any(${`{${userIds.join(',')}}`}::int[])` : sql``;
  const tail = rolledEnd < to ? addDays(rolledEnd, 1) : null;
  const { rows } = await ctx.db.execute(sql`
    select user_id as "userId", sum(n)::int as n from (
      select user_id, n from report_handled h
      where h.company_id = ${companyId} and h.day >= ${from}::date and h.day <= ${rolledEnd}::date
        and (h.prev_day is null or h.prev_day < ${from}::date) ${only(sql`h.user_id`)}
      ${
        tail
          ? sql`union all
      select e.user_id, count(distinct e.ticket_id) from ticket_events e
      where e.company_id = ${companyId} and e.kind = any(${HANDLED_KINDS}) and e.user_id is not null
        and e.at >= ${dayStart(tail)} and e.at < ${dayEnd(to)} ${only(sql`e.user_id`)}
        and not exists (select 1 from ticket_events p where p.ticket_id = e.ticket_id and p.company_id = ${companyId}
          and p.user_id = e.user_id and p.kind = any(${HANDLED_KINDS})
          and p.at >= ${dayStart(from)} and p.at < ${dayStart(tail)})
      group by e.user_id`
          : sql``
      }
    ) x group by 1`);
  return new Map((rows as { userId: number; n: number }[]).map((r) => [r.userId, r.n]));
}

/** Writes the spans `span` (month or week) starting at or after `first` and ending by `through`. */
async function rollSpans(
  tx: AppContext['db'],
  companyId: number,
  span: 'month' | 'week',
  first: string,
  through: string,
): Promise<void> {
  let last: string | null = null;
  for (let s = first; ; ) {
    const next = span === 'month' ? nextMonth(s) : addDays(s, 7);
    if (addDays(next, -1) > through) break;
    last = addDays(next, -1);
    s = next;
  }
  if (!last) return;
  const trunc = sql.raw(`'${span}'`);
  await tx.execute(sql`
    insert into report_rollups (company_id, span, start, kind, dim, dim_id, bucket, n, total)
    with b as (
      select date_trunc(${trunc}, e.at at time zone ${LOCAL_TZ})::date as start, e.kind, e.user_id, e.queue_id,
        e.whatsapp_id,
        ${dimExpr.heat} as cell, ${bucketOf(sql`e.seconds`)} as bucket, coalesce(e.seconds, 0) as s
      from ticket_events e
      where e.company_id = ${companyId} and e.at >= ${dayStart(first)} and e.at < ${dayEnd(last)}
    ),
    rt as (
      select date_trunc(${trunc}, r.created_at at time zone ${LOCAL_TZ})::date as start, r.user_id, r.rate::int as rate
      from user_ratings r
      where r.company_id = ${companyId} and r.created_at >= ${dayStart(first)} and r.created_at < ${dayEnd(last)}
    )
    select ${companyId}, ${span}, start, kind, dim, dim_id, bucket, count(*), sum(s) from (
      select start, kind, 'all' as dim, null::int as dim_id, bucket, s from b
      union all select start, kind, 'user', user_id, bucket, s from b
      union all select start, kind, 'queue', queue_id, bucket, s from b
      union all select start, kind, 'whatsapp', whatsapp_id, bucket, s from b
      union all select start, kind, 'heat', cell, -1, 0 from b where kind in ('created', 'reopened')
      union all select start, 'rating', 'all', null, rate, rate from rt
      union all select start, 'rating', 'user', user_id, rate, rate from rt
    ) x group by start, kind, dim, dim_id, bucket`);
}

/**
 * Rolls the company's events up to the local day `through` (yyyy-MM-dd): rewrites the spans and
 * handled rows from the day after its mark (or its first event) and moves the mark. One transaction;
 * a roll already running for the company makes this one return at once.
 * @returns the first day rewritten, or null when there was nothing to roll.
 */
export async function rollReports(
  ctx: Pick<AppContext, 'db'>,
  companyId: number,
  through = closedThrough(),
): Promise<string | null> {
  return ctx.db.transaction(async (tx) => {
    const { rows: lock } = await tx.execute(
      sql`select pg_try_advisory_xact_lock(hashtext('report-rollups'), ${companyId}) as ok`,
    );
    if (!(lock[0] as { ok: boolean }).ok) return null;
    const { rows: marks } = await tx.execute(
      sql`select rolled_through::text as d from report_rollup_marks where company_id = ${companyId}`,
    );
    const mark = (marks[0] as { d: string } | undefined)?.d ?? null;
    if (mark && mark >= through) return null;
    let from = mark ? addDays(mark, 1) : null;
    if (!from) {
      const { rows } = await tx.execute(sql`
        select min(m)::text as d from unnest('{created,assigned,first_reply,resolved,reopened,transferred}'::text[]) k
        cross join lateral (select min((e.at at time zone ${LOCAL_TZ})::date) as m from ticket_events e
          where e.company_id = ${companyId} and e.kind = k) x`);
      from = (rows[0] as { d: string | null }).d ?? through;
    }
    if (from <= through) {
      const month = monthStart(from);
      const week = weekStart(from);
      await tx.execute(sql`delete from report_rollups where company_id = ${companyId}
        and ((span = 'month' and start >= ${month}::date) or (span = 'week' and start >= ${week}::date))`);
      await tx.execute(
        sql`delete from report_handled where company_id = ${companyId} and day >= ${from}::date`,
      );
      await rollSpans(tx as unknown as AppContext['db'], companyId, 'month', month, through);
      await rollSpans(tx as unknown as AppContext['db'], companyId, 'week', week, through);
      await tx.execute(sql`
        insert into report_handled (company_id, day, user_id, prev_day, n)
        with d as (
          select distinct e.ticket_id, e.user_id, (e.at at time zone ${LOCAL_TZ})::date as day from ticket_events e
          where e.company_id = ${companyId} and e.kind = any(${HANDLED_KINDS}) and e.user_id is not null
            and e.at >= ${dayStart(from)} and e.at < ${dayEnd(through)}
        ),
        l as (select ticket_id, user_id, day, lag(day) over (partition by ticket_id, user_id order by day) as prev from d)
        select ${companyId}, day, user_id, ${
          mark
            ? sql`coalesce(prev, (select max((p.at at time zone ${LOCAL_TZ})::date) from ticket_events p
                where p.ticket_id = l.ticket_id and p.company_id = ${companyId} and p.user_id = l.user_id
                  and p.kind = any(${HANDLED_KINDS}) and p.at < ${dayStart(from)}))`
            : sql`prev`
        }, count(*) from l group by 2, 3, 4`);
    }
    await tx.execute(sql`insert into report_rollup_marks (company_id, rolled_through) values (${companyId}, ${through})
      on conflict (company_id) do update set rolled_through = excluded.rolled_through`);
    return from <= through ? from : null;
  });
}

/** Rolls every company's closed days (the job's work). */
export async function rollAllReports(ctx: Pick<AppContext, 'db'>, through = closedThrough()): Promise<void> {
  const { rows } = await ctx.db.execute(sql`select id from companies order by id`);
  for (const { id } of rows as { id: number }[]) await rollReports(ctx, id, through);
}

/** Registers the every-15-minutes rollup job (one run at a time across nodes). */
export function registerReportRollups(ctx: AppContext, jobs: JobQueue): void {
  jobs.define(REPORT_ROLLUP_JOB, () => rollAllReports(ctx), {
    cron: '*/15 * * * *',
    retryLimit: 0,
    key: () => REPORT_ROLLUP_JOB,
    concurrency: 1,
  });
}
