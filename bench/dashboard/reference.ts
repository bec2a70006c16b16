/**
 * The dashboard's reference answer: the plain aggregates over the tickets, which the bench checks
 * the service's answers against before measuring.
 */
import { isDeepStrictEqual } from 'node:util';
import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import type pg from 'pg';
import type { Client, Scenario } from './measure.js';

/**
 * The dashboard as the plain aggregates over tickets, contacts and ratings compute it (the statements
 * the service ran before the rollup): the bench checks the service against it on the seeded data.
 */
export async function referenceDashboard(ref: pg.Pool, companyId: number, query: Record<string, string>) {
  const tz = `'${DASHBOARD_TIME_ZONE}'`;
  const [from, to, values] = query.days
    ? ['(now() - make_interval(days => $2::int))', 'now()', [companyId, Number(query.days)]]
    : [
        `($2::date::timestamp at time zone ${tz})`,
        `(($3::date + 1)::timestamp at time zone ${tz})`,
        [companyId, query.date_from, query.date_to],
      ];
  const avg = (end: string, start: string) =>
    `coalesce(round(avg(extract(epoch from (${end} - ${start}))) / 60, 2), 0)::float8`;
  const { rows } = await ref.query<{ counters: Record<string, number>; attendants: unknown[] }>(
    `select json_build_object(
       'supportHappening', (select count(*)::int from tickets where company_id = $1 and status = 'open'),
       'supportPending', (select count(*)::int from tickets where company_id = $1 and status = 'pending'),
       'supportFinished', (select count(*)::int from tickets where company_id = $1 and status = 'closed'
          and closed_at >= ${from} and closed_at < ${to}),
       'leads', (select count(*)::int from contacts where company_id = $1 and not is_group
          and created_at >= ${from} and created_at < ${to}),
       'avgSupportTime', (select ${avg('closed_at', 'accepted_at')} from tickets where company_id = $1
          and status = 'closed' and closed_at >= ${from} and closed_at < ${to} and accepted_at is not null),
       'avgWaitTime', (select ${avg('accepted_at', 'created_at')} from tickets where company_id = $1
          and accepted_at >= ${from} and accepted_at < ${to})) as counters,
     (select json_agg(json_build_object('id', u.id, 'name', u.name, 'online', u.online,
         'rating', coalesce(r.rating, 0)::float8, 'avgSupportTime', coalesce(t.avg_support, 0)::float8,
         'tickets', coalesce(t.tickets, 0)::int) order by u.name, u.id)
      from users u
      left join (select user_id, ${avg('closed_at', 'accepted_at')} as avg_support, count(*) as tickets
        from tickets where company_id = $1 and status = 'closed' and user_id is not null
          and closed_at >= ${from} and closed_at < ${to} group by user_id) t on t.user_id = u.id
      left join (select user_id, round(avg(rate), 2) as rating from user_ratings
        where company_id = $1 and user_id is not null and created_at >= ${from} and created_at < ${to}
        group by user_id) r on r.user_id = u.id
      where u.company_id = $1) as attendants`,
    values,
  );
  return rows[0]!;
}

/**
 * Compares the app's answer for a dashboard scenario with `referenceDashboard`; a rolling window moves
 * between the two queries, so a difference is retried a few times before it fails the run.
 */
export async function checkDashboard(client: Client, ref: pg.Pool, companyId: number, scenario: Scenario) {
  for (let attempt = 1; ; attempt++) {
    const answer = JSON.parse((await client.get(scenario)).body) as unknown;
    const expected = await referenceDashboard(ref, companyId, scenario.query);
    if (isDeepStrictEqual(answer, expected)) return;
    if (attempt === 3 || !scenario.query.days) {
      throw new Error(
        `${scenario.name}: the answer differs from the plain aggregates\n` +
          `answer:   ${JSON.stringify(answer)}\nexpected: ${JSON.stringify(expected)}`,
      );
    }
  }
}
