import { index, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { users } from './users.js';

/**
 * Password-reset codes (document 3 sections 2 and 7): only an HMAC of the code is stored; a code is
 * valid for 30 minutes, once, and dies after a few wrong tries. A new request replaces the user's
 * earlier codes.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    /** Wrong codes tried against this reset. */
    failures: smallint().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_resets_company_user_idx').on(t.companyId, t.userId)],
);

/**
 * Password-reset calls counted for the hourly limits per e-mail and per client address (both
 * requests for a code and tries of a code). Not a tenant table: the caller is anonymous.
 */
export const passwordResetAttempts = pgTable(
  'password_reset_attempts',
  {
    id: serial().primaryKey(),
    /** 'request' (a code was asked for) or 'reset' (a code was tried). */
    kind: text({ enum: ['request', 'reset'] }).notNull(),
    /** The e-mail, lowercased. */
    email: text().notNull(),
    ip: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('password_reset_attempts_email_idx').on(t.kind, t.email, t.createdAt),
    index('password_reset_attempts_ip_idx').on(t.ip, t.createdAt),
  ],
);
