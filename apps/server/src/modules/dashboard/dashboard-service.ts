import {
  DASHBOARD_TIME_ZONE,
  type DashboardChartQuery,
  type DashboardQuery,
  type DashboardResponse,
  type TicketsDayResponse,
  type TicketsUsersResponse,
} from '@zapdesk/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';

/** The company-local time zone of the dashboard's days (pt-BR default), as an SQL literal. */
const TZ = sql.raw(`'${DASHBOARD_TIME_ZONE}'`);

/** Today's date (yyyy-MM-dd) in the dashboard time zone. */
export function localToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: DASHBOARD_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** Start of a local day as timestamptz. */
const dayStart = (date: string) => sql`(${date}::date::timestamp at time zone ${TZ})`;
/** Start of the local day after `date` as timestamptz. */
const dayEnd = (date: string) => sql`((${date}::date + 1)::timestamp at time zone ${TZ})`;

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

/** Minutes between two timestamptz columns, averaged and rounded to 2 decimals; 0 when none. */
const avgMinutes = (end: SQL, start: SQL) =>
  sql`coalesce(round(avg(extract(epoch from (${end} - ${start}))) / 60, 2), 0)::float8`;

interface Row {
  [key: string]: unknown;
}
const rows = async <T>(ctx: AppContext, query: SQL): Promise<T[]> =>
  (await ctx.db.execute(query)).rows as Row[] as T[];

/**
 * GET /dashboard (core sections 2, 3 and 7): counters and attendants of the caller's company.
 * supportHappening/supportPending count tickets open/pending now; supportFinished counts tickets
 * closed in the period; leads counts non-group contacts created in the period; avgSupportTime is
 * the average minutes acceptedAt -> closedAt of tickets closed in the period; avgWaitTime the
 * average minutes createdAt -> acceptedAt of tickets accepted in the period. Attendants: every user
 * of the company with its average rating (0..3, 0 when none) of ratings given in the period, its
 * average support time and count of tickets closed in the period, and whether it is online.
 * Two SQL statements of aggregates over (company_id, …) indexes; no rows are loaded into Node.
 */
export async function getDashboard(
  ctx: AppContext,
  companyId: number,
  query: DashboardQuery,
): Promise<DashboardResponse> {
  const { from, to } = periodBounds(query);
  const [counters] = await rows<DashboardResponse['counters']>(
    ctx,
    sql`select
      (select count(*)::int from tickets where company_id = ${companyId} and status = 'open') as "supportHappening",
      (select count(*)::int from tickets where company_id = ${companyId} and status = 'pending') as "supportPending",
      (select count(*)::int from tickets where company_id = ${companyId} and status = 'closed'
         and closed_at >= ${from} and closed_at < ${to}) as "supportFinished",
      (select count(*)::int from contacts where company_id = ${companyId} and not is_group
         and created_at >= ${from} and created_at < ${to}) as "leads",
      (select ${avgMinutes(sql`closed_at`, sql`accepted_at`)} from tickets where company_id = ${companyId}
         and status = 'closed' and closed_at >= ${from} and closed_at < ${to}
         and accepted_at is not null) as "avgSupportTime",
      (select ${avgMinutes(sql`accepted_at`, sql`created_at`)} from tickets where company_id = ${companyId}
         and accepted_at >= ${from} and accepted_at < ${to}) as "avgWaitTime"`,
  );
  const attendants = await rows<DashboardResponse['attendants'][number]>(
    ctx,
    sql`select u.id, u.name, u.online,
        coalesce(r.rating, 0)::float8 as rating,
        coalesce(t.avg_support, 0)::float8 as "avgSupportTime",
        coalesce(t.tickets, 0)::int as tickets
      from users u
      left join (
        select user_id, ${avgMinutes(sql`closed_at`, sql`accepted_at`)} as avg_support, count(*) as tickets
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
      order by u.name, u.id`,
  );
  return { counters: counters!, attendants };
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
