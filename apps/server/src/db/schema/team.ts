import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, mediaColumns, optionalRef, parentRef, timestamps } from './columns.js';
import { companyRef, companyTable } from './tenant.js';
import { users } from './users.js';

/**
 * Internal chats among a company's staff (document 2 section 3 Chat): a title, the owner (who alone
 * edits and deletes it), the last message for the list and a uuid for /chats/{uuid}.
 */
export const chats = companyTable(
  'chats',
  {
    uuid: uuid().notNull().defaultRandom(),
    title: text().notNull(),
    ownerId: optionalRef(() => users.id),
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
    companyId: companyRef(),
    chatId: parentRef(() => chats.id),
    userId: parentRef(() => users.id),
    unreads: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.chatId, t.userId] }),
    index('chat_users_company_user_idx').on(t.companyId, t.userId),
  ],
);

/** Messages of an internal chat, paged newest first. */
export const chatMessages = companyTable(
  'chat_messages',
  {
    chatId: parentRef(() => chats.id),
    senderId: optionalRef(() => users.id),
    message: text().notNull(),
    ...mediaColumns(),
    ...timestamps,
  },
  (t) => [index('chat_messages_company_chat_idx').on(t.companyId, t.chatId, t.id)],
);

/**
 * Platform announcements written by the super user (document 2 section 3 Announcement): every
 * company's users read the active ones. `companyId` is the author's company.
 */
export const announcements = companyTable(
  'announcements',
  {
    title: text().notNull(),
    text: text().notNull(),
    /** 1 high, 2 medium, 3 low. */
    priority: integer().notNull().default(3),
    status: boolean().notNull().default(true),
    ...mediaColumns(),
    ...timestamps,
  },
  (t) => [index('announcements_status_priority_idx').on(t.status, t.priority, t.createdAt)],
);

/** Video help cards of the platform (document 2 section 3 Help), managed by the super user. */
export const helps = pgTable('helps', {
  id: idColumn(),
  title: text().notNull(),
  description: text().notNull().default(''),
  /** The video's id on its host (e.g. a YouTube id). */
  video: text().notNull().default(''),
  ...timestamps,
});
