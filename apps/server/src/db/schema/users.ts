import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { queues } from './queues.js';
import { timestamps } from './timestamps.js';
import { whatsapps } from './whatsapps.js';

/** Staff users. E-mail is unique across the platform (login is by e-mail alone). */
export const users = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
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
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    language: text(),
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
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    queueId: integer()
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
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
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid().notNull(),
    tokenHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_company_user_idx').on(t.companyId, t.userId),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);
