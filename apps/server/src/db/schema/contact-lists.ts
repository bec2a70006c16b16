import { boolean, index, integer, jsonb, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { parentRef, timestamps } from './columns.js';
import { companyTable } from './tenant.js';

/** Contact lists (document 2 section 3 "Contact list"): named recipient lists for campaigns. */
export const contactLists = companyTable(
  'contact_lists',
  {
    name: text().notNull(),
    ...timestamps,
  },
  (t) => [index('contact_lists_company_name_idx').on(t.companyId, t.name)],
);

/**
 * Items of a contact list (document 2 section 3 "Contact list item"). `number` holds digits only and
 * is unique per list; `isWhatsappValid` is null until the background check ran.
 */
export const contactListItems = companyTable(
  'contact_list_items',
  {
    contactListId: parentRef(() => contactLists.id),
    name: text().notNull(),
    number: text().notNull(),
    email: text().notNull().default(''),
    isWhatsappValid: boolean(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contact_list_items_list_number_key').on(t.contactListId, t.number),
    index('contact_list_items_company_list_idx').on(t.companyId, t.contactListId, t.id),
  ],
);

/** One row error of a sheet import: 1-based sheet row, field and message key. */
export interface ContactListImportError {
  row: number;
  field: string;
  message: string;
}

/**
 * Sheet imports into a contact list, run as jobs: the uploaded sheet (base64) waits here until the
 * job reads it (then it is cleared); counts and the per-row error bag are kept for the page.
 */
export const contactListImports = companyTable(
  'contact_list_imports',
  {
    contactListId: parentRef(() => contactLists.id),
    /** pending, running, done, failed */
    status: text().notNull().default('pending'),
    sheet: text(),
    total: integer().notNull().default(0),
    processed: integer().notNull().default(0),
    imported: integer().notNull().default(0),
    duplicates: integer().notNull().default(0),
    errors: jsonb().$type<ContactListImportError[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [index('contact_list_imports_list_idx').on(t.contactListId, t.id)],
);
