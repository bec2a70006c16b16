import type { ReportFilters, ReportSummary, SlaFigures } from '@zapdesk/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { dayEnd, dayStart } from '../../lib/local-days.js';

/** Validated ids as an int[] literal parameter. */
const ids = (list: number[]) => sql`${`{${list.join(',')}}`}::int[]`;

/**
 * The service-level figures of the summary (docs/reports.md "Service levels"): over the openings of
 * `q.from`..`q.to` (local days, by `ticket_slas.opened_at`) that had each target, how many met it
 * (`met_at` not after `due_at`) and the rate, rounded to 4 decimals (null when none was tracked).
 * Filters: `queueIds` by the queue the target was set by; `userIds`, `whatsappIds` and `tagIds` by the
 * ticket's agent, connection and tags now. One statement over `ticket_slas (company_id, opened_at)`.
 * The caller has checked the filters' ids.
 */
export async function reportSlaFigures(
  ctx: AppContext,
  companyId: number,
  q: ReportFilters,
): Promise<NonNullable<ReportSummary['sla']>> {
  const where: SQL[] = [
    sql`s.company_id = ${companyId}`,
    sql`s.opened_at >= ${dayStart(q.from)}`,
    sql`s.opened_at < ${dayEnd(q.to)}`,
  ];
  if (q.queueIds?.length) where.push(sql`s.queue_id = any(${ids(q.queueIds)})`);
  const ticket: SQL[] = [];
  if (q.userIds?.length) ticket.push(sql`t.user_id = any(${ids(q.userIds)})`);
  if (q.whatsappIds?.length) ticket.push(sql`t.whatsapp_id = any(${ids(q.whatsappIds)})`);
  if (q.tagIds?.length)
    ticket.push(
      sql`exists (select 1 from ticket_tags tt where tt.ticket_id = t.id and tt.company_id = ${companyId}
        and tt.tag_id = any(${ids(q.tagIds)}))`,
    );
  if (ticket.length)
    where.push(
      sql`exists (select 1 from tickets t where t.id = s.ticket_id and t.company_id = ${companyId}
        and ${sql.join(ticket, sql` and `)})`,
    );
  const { rows } = await ctx.db.execute(sql`
    select s.target, count(*)::int as tracked,
      count(*) filter (where s.met_at is not null and s.due_at is not null and s.met_at <= s.due_at)::int as met
    from ticket_slas s where ${sql.join(where, sql` and `)}
    group by s.target`);
  const figures = (target: string): SlaFigures => {
    const row = (rows as { target: string; tracked: number; met: number }[]).find((r) => r.target === target);
    const tracked = row?.tracked ?? 0;
    const met = row?.met ?? 0;
    return { tracked, met, rate: tracked ? Math.round((met / tracked) * 10_000) / 10_000 : null };
  };
  return { firstResponse: figures('first_response'), resolution: figures('resolution') };
}
