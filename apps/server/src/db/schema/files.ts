import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { timestamps } from './timestamps.js';
import { users } from './users.js';

/** File lists (document 2 section 6): named sets of files with a message, attached by campaigns. */
export const fileLists = pgTable(
  'file_lists',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    name: text().notNull(),
    message: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [index('file_lists_company_name_idx').on(t.companyId, t.name)],
);

/**
 * The files of a file list: `path` is the media store name (null until uploaded), `mediaType`
 * the MIME type found in the content.
 */
export const fileListOptions = pgTable(
  'file_list_options',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    fileListId: integer()
      .notNull()
      .references(() => fileLists.id, { onDelete: 'cascade' }),
    name: text().notNull().default(''),
    path: text(),
    mediaType: text(),
    ...timestamps,
  },
  (t) => [index('file_list_options_list_idx').on(t.fileListId)],
);
