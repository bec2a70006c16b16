import { sql } from 'drizzle-orm';
import { check, index, smallint, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, optionalRef } from './columns.js';
import { companyTable } from './tenant.js';
import { tickets } from './tickets.js';
import { users } from './users.js';

/**
 * Customer ratings of an attendant for a ticket (core section 9: 1 unsatisfied, 2 satisfied,
 * 3 very satisfied). The dashboard averages them per user over a period.
 */
export const userRatings = companyTable(
  'user_ratings',
  {
    ticketId: optionalRef(() => tickets.id),
    userId: optionalRef(() => users.id),
    rate: smallint().notNull(),
    /** The text the customer wrote after the digit ("1 demorou muito"), trimmed; null without one (decision 0125). */
    comment: text(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    check('user_ratings_rate_check', sql`${t.rate} between 1 and 3`),
    check('user_ratings_comment_check', sql`char_length(${t.comment}) <= 1000`),
    index('user_ratings_company_created_idx').on(t.companyId, t.createdAt),
    index('user_ratings_company_user_idx').on(t.companyId, t.userId),
    index('user_ratings_company_ticket_idx').on(t.companyId, t.ticketId),
    // The reports' list of low ratings' comments, newest first (decision 0125).
    index('user_ratings_low_comments_idx')
      .on(t.companyId, t.createdAt, t.id)
      .where(sql`${t.rate} = 1 and ${t.comment} is not null`),
  ],
);
