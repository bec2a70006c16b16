import { index, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, parentRef, timestamptz } from './columns.js';
import { companyTable } from './tenant.js';
import { users } from './users.js';

/**
 * Password-reset codes (document 3 sections 2 and 7): only an HMAC of the code is stored; a code is
 * valid for 30 minutes, once, and dies after a few wrong tries. A new request replaces the user's
 * earlier codes.
 */
export const passwordResets = companyTable(
  'password_resets',
  {
    userId: parentRef(() => users.id),
    codeHash: text().notNull(),
    /** Wrong codes tried against this reset. */
    failures: smallint().notNull().default(0),
    expiresAt: timestamptz().notNull(),
    usedAt: timestamptz(),
    createdAt: createdAtColumn(),
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
    id: idColumn(),
    /** 'request' (a code was asked for) or 'reset' (a code was tried). */
    kind: text({ enum: ['request', 'reset'] }).notNull(),
    /** The e-mail, lowercased. */
    email: text().notNull(),
    ip: text().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    index('password_reset_attempts_email_idx').on(t.kind, t.email, t.createdAt),
    index('password_reset_attempts_ip_idx').on(t.ip, t.createdAt),
  ],
);
