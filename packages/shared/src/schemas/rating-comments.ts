import { z } from 'zod';
import { pageOf } from './answers.js';
import { ZReportQuery } from './reports.js';

/** Comments of low ratings one page of GET /reports/ratings/comments holds. */
export const RATING_COMMENTS_PAGE_SIZE = 20;
/** Most comments a CSV/XLSX download of GET /reports/ratings/comments holds (newest first). */
export const RATING_COMMENTS_EXPORT_MAX = 10_000;
/** Longest comment kept with a rating, in characters (the `user_ratings.comment` check). */
export const RATING_COMMENT_MAX = 1000;

/**
 * Query of GET /reports/ratings/comments: the reports' period, filters and format (ZReportQuery),
 * and `pageNumber` (1-based, RATING_COMMENTS_PAGE_SIZE a page; a download ignores it).
 */
export const ZRatingCommentsQuery = ZReportQuery.and(
  z.object({ pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1) }),
);
export type RatingCommentsQuery = z.input<typeof ZRatingCommentsQuery>;

/** A low rating (1 of 1..3) with the comment the customer wrote after the digit (decision 0125). */
export const ZRatingComment = z.object({
  id: z.number(),
  rate: z.number(),
  comment: z.string().max(RATING_COMMENT_MAX),
  /** When the customer rated (ISO 8601). */
  createdAt: z.string(),
  ticketId: z.number().nullable(),
  ticketUuid: z.string().nullable(),
  contactName: z.string().nullable(),
  userId: z.number().nullable(),
  userName: z.string().nullable(),
});
export type RatingComment = z.infer<typeof ZRatingComment>;

/** GET /reports/ratings/comments: a page of the period's low ratings with a comment, newest first. */
export const ZRatingCommentsPage = pageOf('records', ZRatingComment);
export type RatingCommentsPage = z.infer<typeof ZRatingCommentsPage>;

/** The low end of the 1..3 rating scale: the rate whose comments the reports list. */
export const LOW_RATING_RATE = 1;
