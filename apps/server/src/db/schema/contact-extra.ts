import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { contacts } from './tickets.js';
import { timestamps } from './timestamps.js';

/**
 * A contact's extra info rows (core section 3: extraInfo[{id, name, value}]). Replaced as a whole on
 * PUT /contacts/:id; deleted with the contact.
 */
export const contactCustomFields = pgTable(
  'contact_custom_fields',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    value: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [index('contact_custom_fields_company_contact_idx').on(t.companyId, t.contactId)],
);
