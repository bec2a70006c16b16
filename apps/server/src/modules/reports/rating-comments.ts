import {
  LOW_RATING_RATE,
  RATING_COMMENTS_EXPORT_MAX,
  RATING_COMMENTS_PAGE_SIZE,
  type RatingComment,
  type RatingCommentsPage,
  type ReportFilters,
  ZRatingCommentsPage,
  ZRatingCommentsQuery,
} from '@zapdesk/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext, ZodApp } from '../../context.js';
import { dayEnd, dayStart } from '../../lib/local-days.js';
import { sendTable, tableOf } from './report-export.js';
import { assertFiltersOwned, ticketFilters } from './reports-service.js';
import { reportsRoute } from './routes.js';

/** Columns of the comments' CSV/XLSX, in order. */
const COLUMNS: (keyof RatingComment & string)[] = [
  'createdAt',
  'rate',
  'comment',
  'contactName',
  'userName',
  'ticketId',
];

/**
 * The low ratings (rate LOW_RATING_RATE) with a comment given in the period `q.from`..`q.to` (local
 * days), newest first: `limit` rows from `offset`. Filters as the reports' ratings: `userIds` by the
 * rated agent, `queueIds`, `whatsappIds` and `tagIds` by the rated ticket now. One statement over
 * the partial index `user_ratings_low_comments_idx`. The caller has checked the filters' ids.
 */
async function lowRatingComments(
  ctx: AppContext,
  companyId: number,
  q: ReportFilters,
  limit: number,
  offset: number,
): Promise<RatingComment[]> {
  const where: SQL[] = [
    sql`r.company_id = ${companyId}`,
    sql`r.rate = ${LOW_RATING_RATE}`,
    sql`r.comment is not null`,
    sql`r.created_at >= ${dayStart(q.from)}`,
    sql`r.created_at < ${dayEnd(q.to)}`,
  ];
  if (q.userIds?.length) where.push(sql`r.user_id = any(${`{${q.userIds.join(',')}}`}::int[])`);
  if (q.queueIds?.length || q.whatsappIds?.length || q.tagIds?.length)
    where.push(
      sql`exists (select 1 from tickets t where t.id = r.ticket_id and ${ticketFilters(companyId, q)})`,
    );
  const { rows } = await ctx.db.execute<{
    id: number;
    rate: number;
    comment: string;
    created_at: Date | string;
    ticket_id: number | null;
    ticket_uuid: string | null;
    contact_name: string | null;
    user_id: number | null;
    user_name: string | null;
  }>(sql`
    select r.id, r.rate, r.comment, r.created_at, r.ticket_id, t.uuid as ticket_uuid,
      c.name as contact_name, r.user_id, u.name as user_name
    from user_ratings r
    left join tickets t on t.id = r.ticket_id and t.company_id = r.company_id
    left join contacts c on c.id = t.contact_id
    left join users u on u.id = r.user_id and u.company_id = r.company_id
    where ${sql.join(where, sql` and `)}
    order by r.created_at desc, r.id desc
    limit ${limit} offset ${offset}`);
  return rows.map((row) => ({
    id: Number(row.id),
    rate: Number(row.rate),
    comment: row.comment,
    createdAt: new Date(row.created_at).toISOString(),
    ticketId: row.ticket_id === null ? null : Number(row.ticket_id),
    ticketUuid: row.ticket_uuid,
    contactName: row.contact_name,
    userId: row.user_id === null ? null : Number(row.user_id),
    userName: row.user_name,
  }));
}

/**
 * A page of the period's low-rating comments (docs/reports.md "CSAT comments", decision 0125):
 * RATING_COMMENTS_PAGE_SIZE records of page `pageNumber` and whether more follow.
 * @throws the reports' not-found codes when a filter names another company's rows.
 */
export async function ratingCommentsPage(
  ctx: AppContext,
  companyId: number,
  q: ReportFilters & { pageNumber: number },
): Promise<RatingCommentsPage> {
  await assertFiltersOwned(ctx, companyId, q);
  const size = RATING_COMMENTS_PAGE_SIZE;
  const found = await lowRatingComments(ctx, companyId, q, size + 1, (q.pageNumber - 1) * size);
  return { records: found.slice(0, size), hasMore: found.length > size };
}

/**
 * GET /reports/ratings/comments (admin, plan useReports): a page of the period's comments of low
 * ratings as JSON, or with `?format=csv|xlsx` the newest RATING_COMMENTS_EXPORT_MAX of them as a
 * download named `ratingComments-<from>_<to>`.
 */
export function ratingCommentsRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/reports/ratings/comments',
    {
      config: reportsRoute,
      schema: {
        tags: ['reports'],
        querystring: ZRatingCommentsQuery,
        response: { 200: ZRatingCommentsPage },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { companyId } = request.auth;
      if (q.format === 'json') return ratingCommentsPage(ctx, companyId, q);
      await assertFiltersOwned(ctx, companyId, q);
      const all = await lowRatingComments(ctx, companyId, q, RATING_COMMENTS_EXPORT_MAX, 0);
      return sendTable(reply, tableOf('ratingComments', COLUMNS, all), q.format, `${q.from}_${q.to}`);
    },
  );
}
