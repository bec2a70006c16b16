import { index, text } from 'drizzle-orm/pg-core';
import { optionalRef, parentRef, timestamps } from './columns.js';
import { companyTable } from './tenant.js';
import { users } from './users.js';

/** File lists (document 2 section 6): named sets of files with a message, attached by campaigns. */
export const fileLists = companyTable(
  'file_lists',
  {
    userId: optionalRef(() => users.id),
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
export const fileListOptions = companyTable(
  'file_list_options',
  {
    fileListId: parentRef(() => fileLists.id),
    name: text().notNull().default(''),
    path: text(),
    mediaType: text(),
    ...timestamps,
  },
  (t) => [index('file_list_options_list_idx').on(t.fileListId)],
);
