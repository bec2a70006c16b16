import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, optionalRef, parentRef, timestamps, timestamptz } from './columns.js';
import { queues } from './queues.js';
import { companyRef, companyTable } from './tenant.js';
import { whatsapps } from './whatsapps.js';

/** Staff users. E-mail is unique across the platform (login is by e-mail alone). */
export const users = companyTable(
  'users',
  {
    name: text().notNull(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    profile: text({ enum: ['admin', 'user'] })
      .notNull()
      .default('user'),
    super: boolean().notNull().default(false),
    online: boolean().notNull().default(false),
    allTicket: text({ enum: ['enabled', 'desabled'] })
      .notNull()
      .default('desabled'),
    whatsappId: optionalRef(() => whatsapps.id),
    language: text(),
    /** Automatic assignment gives the user no more open tickets than this (0: unlimited). */
    maxOpenTickets: integer().notNull().default(0),
    /** Set by the user: 'away' takes them out of automatic assignment while connected. */
    availability: text({ enum: ['online', 'away'] })
      .notNull()
      .default('online'),
    /**
     * The user's billing data (document 3, billing profile of the plans page): what the plans page's
     * dialog starts from. Empty until the user saves it; lengths bounded by ZUserBillingFields.
     */
    phone: text().notNull().default(''),
    cnpjCpf: text().notNull().default(''),
    address: text().notNull().default(''),
    city: text().notNull().default(''),
    state: text().notNull().default(''),
    zipcode: text().notNull().default(''),
    country: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    index('users_company_name_idx').on(t.companyId, t.name),
  ],
);

/** Which queues a user serves. */
export const userQueues = pgTable(
  'user_queues',
  {
    companyId: companyRef(),
    userId: parentRef(() => users.id),
    queueId: parentRef(() => queues.id),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.queueId] }),
    index('user_queues_company_queue_idx').on(t.companyId, t.queueId),
  ],
);

/**
 * Refresh tokens: only a SHA-256 hash is stored. A token belongs to a family (one sign-in); each
 * refresh revokes the presented token and issues the next one in the family; presenting a revoked
 * token revokes the whole family.
 */
export const refreshTokens = companyTable(
  'refresh_tokens',
  {
    userId: parentRef(() => users.id),
    familyId: uuid().notNull(),
    tokenHash: text().notNull(),
    expiresAt: timestamptz().notNull(),
    revokedAt: timestamptz(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_company_user_idx').on(t.companyId, t.userId),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);
