import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, mediaColumns, optionalRef, parentRef, timestamps, timestamptz } from './columns.js';
import { companyRef, companyTable } from './tenant.js';
import { tickets } from './tickets.js';
import { users } from './users.js';

/** Tags (document 2 section 3); `kanban` 1 makes the tag a kanban lane. */
export const tags = companyTable(
  'tags',
  {
    name: text().notNull(),
    color: text().notNull().default('#5C59A0'),
    kanban: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tags_company_name_key').on(t.companyId, t.name),
    index('tags_company_kanban_idx').on(t.companyId, t.kanban),
  ],
);

/** Tags on tickets. */
export const ticketTags = pgTable(
  'ticket_tags',
  {
    companyId: companyRef(),
    ticketId: parentRef(() => tickets.id),
    tagId: parentRef(() => tags.id),
  },
  (t) => [
    primaryKey({ columns: [t.ticketId, t.tagId] }),
    // The reports' tag filter: the tagged tickets' ids from the index alone.
    index('ticket_tags_company_tag_idx').on(t.companyId, t.tagId, t.ticketId),
  ],
);

/** Notes staff keep on a ticket (core section 3 Ticket note). */
export const ticketNotes = companyTable(
  'ticket_notes',
  {
    ticketId: parentRef(() => tickets.id),
    contactId: integer().notNull(),
    userId: optionalRef(() => users.id),
    note: text().notNull(),
    ...timestamps,
  },
  (t) => [index('ticket_notes_company_ticket_idx').on(t.companyId, t.ticketId)],
);

/**
 * The users a ticket note mentions (`@Name`, docs/inbox.md "Notes and mentions"): one row per note
 * and user, read (`readAt`) when the user opens it from the notifications.
 */
export const ticketNoteMentions = pgTable(
  'ticket_note_mentions',
  {
    noteId: parentRef(() => ticketNotes.id),
    userId: parentRef(() => users.id),
    companyId: companyRef(),
    ticketId: parentRef(() => tickets.id),
    createdAt: createdAtColumn(),
    readAt: timestamptz(),
  },
  (t) => [
    primaryKey({ columns: [t.noteId, t.userId] }),
    index('ticket_note_mentions_company_user_idx').on(t.companyId, t.userId, t.createdAt),
  ],
);

/** Quick replies: company-wide (`geral`) or a user's own. */
export const quickMessages = companyTable(
  'quick_messages',
  {
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    shortcode: text().notNull(),
    message: text().notNull().default(''),
    ...mediaColumns(),
    geral: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index('quick_messages_company_shortcode_idx').on(t.companyId, t.shortcode),
    uniqueIndex('quick_messages_company_user_shortcode_key').on(t.companyId, t.userId, t.shortcode),
  ],
);
