import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { timestamps } from './timestamps.js';
import { users } from './users.js';

/**
 * Internal chats among a company's staff (document 2 section 3 Chat): a title, the owner (who alone
 * edits and deletes it), the last message for the list and a uuid for /chats/{uuid}.
 */
export const chats = pgTable(
  'chats',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    uuid: uuid().notNull().defaultRandom(),
    title: text().notNull(),
    ownerId: integer().references(() => users.id, { onDelete: 'set null' }),
    lastMessage: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('chats_uuid_key').on(t.uuid),
    index('chats_company_updated_idx').on(t.companyId, t.updatedAt),
  ],
);

/** A chat's participants with their unread counts. */
export const chatUsers = pgTable(
  'chat_users',
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: integer()
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    unreads: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.chatId, t.userId] }),
    index('chat_users_company_user_idx').on(t.companyId, t.userId),
  ],
);

/** Messages of an internal chat, paged newest first. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: integer()
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    senderId: integer().references(() => users.id, { onDelete: 'set null' }),
    message: text().notNull(),
    mediaPath: text(),
    mediaName: text(),
    ...timestamps,
  },
  (t) => [index('chat_messages_company_chat_idx').on(t.companyId, t.chatId, t.id)],
);

/**
 * Platform announcements written by the super user (document 2 section 3 Announcement): every
 * company's users read the active ones. `companyId` is the author's company.
 */
export const announcements = pgTable(
  'announcements',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    text: text().notNull(),
    /** 1 high, 2 medium, 3 low. */
    priority: integer().notNull().default(3),
    status: boolean().notNull().default(true),
    mediaPath: text(),
    mediaName: text(),
    ...timestamps,
  },
  (t) => [index('announcements_status_priority_idx').on(t.status, t.priority, t.createdAt)],
);

/** Video help cards of the platform (document 2 section 3 Help), managed by the super user. */
export const helps = pgTable('helps', {
  id: serial().primaryKey(),
  title: text().notNull(),
  description: text().notNull().default(''),
  /** The video's id on its host (e.g. a YouTube id). */
  video: text().notNull().default(''),
  ...timestamps,
});
