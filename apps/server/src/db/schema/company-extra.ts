import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, smallint, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { tickets } from './tickets.js';
import { users } from './users.js';

/**
 * Customer ratings of an attendant for a ticket (core section 9: 1 unsatisfied, 2 satisfied,
 * 3 very satisfied). The dashboard averages them per user over a period.
 */
export const userRatings = pgTable(
  'user_ratings',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer().references(() => tickets.id, { onDelete: 'set null' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    rate: smallint().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('user_ratings_rate_check', sql`${t.rate} between 1 and 3`),
    index('user_ratings_company_created_idx').on(t.companyId, t.createdAt),
    index('user_ratings_company_user_idx').on(t.companyId, t.userId),
    index('user_ratings_company_ticket_idx').on(t.companyId, t.ticketId),
  ],
);
