import type {
  DashboardChartQuery,
  DashboardQuery,
  DashboardResponse,
  TicketsDayResponse,
  TicketsUsersResponse,
} from '@zapdesk/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { dayEnd, dayStart, LOCAL_TZ, localToday } from '../../lib/local-days.js';

export { localToday };

const TZ = LOCAL_TZ;

/**
 * The half-open period [from, to) of GET /dashboard: `days` is a rolling window ending now;
 * `date_from`/`date_to` are whole local days; nothing means today (local).
 */
function periodBounds(query: DashboardQuery): { from: SQL; to: SQL } {
  if (query.date_from && query.date_to) return { from: dayStart(query.date_from), to: dayEnd(query.date_to) };
  if (query.days) return { from: sql`(now() - make_interval(days => ${query.days}::int))`, to: sql`now()` };
  const today = localToday();
  return { from: dayStart(today), to: dayEnd(today) };
}

/**
 * Average minutes from a sum of seconds and a count, both summed over parts (rollup days and tickets),
 * rounded to 2 decimals; 0 when the count is 0. The same figure as the plain aggregate
 * `round(avg(extract(epoch from end - start)) / 60, 2)` over the same tickets, to the last digit:
 * `avg` over numeric is the numeric sum (scale 6, as `extract(epoch …)` gives) divided by the count,
 * and `round(sum, 6)` gives the summed parts that scale whatever parts are zero.
 */
const avgMinutesOfSums = (seconds: SQL, count: SQL) =>
  sql`coalesce(round(round(sum(${seconds}), 6) / nullif(sum(${count}), 0) / 60, 2), 0)::float8`;

/**
 * The period's bounds split for the rollup, as the one-row CTE `p`: `f`..`t` is the half-open period;
 * `a`..`b` (dates, `b` excluded) are its whole local days, read from `dashboard_ticket_days`; the rest,
 * `f`..`l1` and `l2`..`t` (empty for whole-day periods, together the whole period when it holds no
 * whole day), is read from the tickets themselves.
 */
const periodSplit = (from: SQL, to: SQL) => sql`p as materialized (
    select f, t, a, b, l1, greatest(l1, b::timestamp at time zone ${TZ}) as l2
    from (select f, t, a, b, least(t, a::timestamp at time zone ${TZ}) as l1
      from (select f, t,
          (f at time zone ${TZ})::date
            + case when (f at time zone ${TZ})::date::timestamp at time zone ${TZ} = f then 0 else 1 end as a,
          (t at time zone ${TZ})::date as b
        from (select ${from}::timestamptz as f, ${to}::timestamptz as t) x) y) z
  )`;

/** `column` in the period's partial days (see `periodSplit`): two ranges, each an index range scan. */
const partialDays = (column: SQL): [SQL, SQL] => [
  sql`${column} >= (select f from p) and ${column} < (select l1 from p)`,
  sql`${column} >= (select l2 from p) and ${column} < (select t from p)`,
];

interface Row {
  [key: string]: unknown;
}
const rows = async <T>(ctx: AppContext, query: SQL): Promise<T[]> =>
  (await ctx.db.execute(query)).rows as Row[] as T[];

/** One row of the dashboard statement: the counters and the attendants as a JSON array. */
type DashboardRow = DashboardResponse['counters'] & { attendants: DashboardResponse['attendants'] | null };

/**
 * GET /dashboard (core sections 2, 3 and 7): counters and attendants of the caller's company.
 * supportHappening/supportPending count tickets open/pending now; supportFinished counts tickets
 * closed in the period; leads counts non-group contacts created in the period; avgSupportTime is
 * the average minutes acceptedAt -> closedAt of tickets closed in the period; avgWaitTime the
 * average minutes createdAt -> acceptedAt of tickets accepted in the period. Attendants: every user
 * of the company with its average rating (0..3, 0 when none) of ratings given in the period, its
 * average support time and count of tickets closed in the period, and whether it is online.
 * One SQL statement of aggregates, nothing loaded row by row into Node: the whole local days of the
 * period come from the per-day rollup `dashboard_ticket_days` (kept by triggers on tickets), the
 * partial days at its ends from the tickets through covering indexes (index-only scans); per user and
 * in total in one grouping (grouping sets).
 */
export async function getDashboard(
  ctx: AppContext,
  companyId: number,
  query: DashboardQuery,
): Promise<DashboardResponse> {
  const { from, to } = periodBounds(query);
  const [closedFirst, closedLast] = partialDays(sql`closed_at`);
  const [acceptedFirst, acceptedLast] = partialDays(sql`accepted_at`);
  const closedTicket = sql`select coalesce(user_id, 0), 1, (accepted_at is not null)::int,
      extract(epoch from (closed_at - accepted_at))
    from tickets where company_id = ${companyId} and status = 'closed'`;
  const acceptedTicket = sql`select 1, extract(epoch from (accepted_at - created_at))
    from tickets where company_id = ${companyId}`;
  const [row] = await rows<DashboardRow>(
    ctx,
    sql`with ${periodSplit(from, to)},
      days as (
        select user_id, sum(closed) as closed, sum(support_count) as support_count,
          sum(support_seconds) as support_seconds, sum(accepted) as accepted, sum(wait_seconds) as wait_seconds
        from dashboard_ticket_days
        where company_id = ${companyId} and day >= (select a from p) and day < (select b from p)
        group by user_id
      ),
      closed as (
        select user_id, grouping(user_id) = 1 as total, sum(n)::int as tickets,
          ${avgMinutesOfSums(sql`seconds`, sql`support_count`)} as avg_support
        from (
          select user_id, closed, support_count, support_seconds from days
          union all ${closedTicket} and ${closedFirst}
          union all ${closedTicket} and ${closedLast}
        ) x (user_id, n, support_count, seconds)
        group by grouping sets ((user_id), ())
      ),
      accepted as (
        select ${avgMinutesOfSums(sql`seconds`, sql`n`)} as avg_wait
        from (
          select accepted, wait_seconds from days
          union all ${acceptedTicket} and ${acceptedFirst}
          union all ${acceptedTicket} and ${acceptedLast}
        ) x (n, seconds)
      ),
      live as (
        select count(*) filter (where status = 'open')::int as open,
          count(*) filter (where status = 'pending')::int as pending
        from tickets where company_id = ${companyId} and status in ('open', 'pending')
      ),
      ratings as (
        select user_id, round(avg(rate), 2) as rating
        from user_ratings
        where company_id = ${companyId} and user_id is not null
          and created_at >= ${from} and created_at < ${to}
        group by user_id
      )
      select live.open as "supportHappening", live.pending as "supportPending",
        coalesce((select tickets from closed where total), 0) as "supportFinished",
        (select count(*)::int from contacts where company_id = ${companyId} and not is_group
           and created_at >= ${from} and created_at < ${to}) as "leads",
        coalesce((select avg_support from closed where total), 0) as "avgSupportTime",
        accepted.avg_wait as "avgWaitTime",
        (select json_agg(json_build_object('id', u.id, 'name', u.name,
             'rating', coalesce(r.rating, 0)::float8, 'avgSupportTime', coalesce(c.avg_support, 0),
             'online', u.online, 'tickets', coalesce(c.tickets, 0)) order by u.name, u.id)
           from users u
           left join closed c on c.user_id = u.id and not c.total
           left join ratings r on r.user_id = u.id
           where u.company_id = ${companyId}) as attendants
      from live, accepted`,
  );
  const { attendants, ...counters } = row!;
  return { counters, attendants: attendants ?? [] };
}

/** Resolves a chart period: a missing end takes the other one; both missing mean today (local). */
function chartRange(query: DashboardChartQuery): { initial: string; final: string } {
  const initial = query.initialDate ?? query.finalDate ?? localToday();
  return { initial, final: query.finalDate ?? initial };
}

/**
 * GET /dashboard/ticketsUsers: tickets created in the period (local days initialDate..finalDate)
 * per assigned user, most first, as `{ nome, quantidade }`; `count` is the total of those tickets.
 */
export async function ticketsByUser(
  ctx: AppContext,
  companyId: number,
  query: DashboardChartQuery,
): Promise<TicketsUsersResponse> {
  const { initial, final } = chartRange(query);
  const data = await rows<{ nome: string; quantidade: number }>(
    ctx,
    sql`select u.name as nome, count(*)::int as quantidade
      from tickets t join users u on u.id = t.user_id
      where t.company_id = ${companyId} and u.company_id = ${companyId}
        and t.created_at >= ${dayStart(initial)} and t.created_at < ${dayEnd(final)}
      group by u.id, u.name
      order by quantidade desc, nome`,
  );
  return { data, count: data.reduce((sum, row) => sum + row.quantidade, 0) };
}

/**
 * GET /dashboard/ticketsDay: tickets created per local day `{ data: 'yyyy-MM-dd', total }` over
 * initialDate..finalDate, or per local hour `{ horario: 0..23, total }` when both are the same day;
 * every day or hour is listed (0 when none); `count` is the total.
 */
export async function ticketsByDay(
  ctx: AppContext,
  companyId: number,
  query: DashboardChartQuery,
): Promise<TicketsDayResponse> {
  const { initial, final } = chartRange(query);
  const range = sql`t.company_id = ${companyId}
    and t.created_at >= ${dayStart(initial)} and t.created_at < ${dayEnd(final)}`;
  const data =
    initial === final
      ? await rows<{ horario: number; total: number }>(
          ctx,
          sql`select h.hour as horario, coalesce(x.total, 0)::int as total
            from generate_series(0, 23) as h(hour)
            left join (
              select extract(hour from t.created_at at time zone ${TZ})::int as hour, count(*) as total
              from tickets t where ${range} group by 1
            ) x on x.hour = h.hour
            order by h.hour`,
        )
      : await rows<{ data: string; total: number }>(
          ctx,
          sql`select to_char(d.day, 'YYYY-MM-DD') as data, coalesce(x.total, 0)::int as total
            from generate_series(${initial}::date, ${final}::date, interval '1 day') as d(day)
            left join (
              select (t.created_at at time zone ${TZ})::date as day, count(*) as total
              from tickets t where ${range} group by 1
            ) x on x.day = d.day::date
            order by d.day`,
        );
  return { data, count: data.reduce((sum, row) => sum + row.total, 0) };
}
