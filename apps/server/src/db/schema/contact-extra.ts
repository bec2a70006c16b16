import { index, text } from 'drizzle-orm/pg-core';
import { parentRef, timestamps } from './columns.js';
import { companyTable } from './tenant.js';
import { contacts } from './tickets.js';

/**
 * A contact's extra info rows (core section 3: extraInfo[{id, name, value}]). Replaced as a whole on
 * PUT /contacts/:id; deleted with the contact.
 */
export const contactCustomFields = companyTable(
  'contact_custom_fields',
  {
    contactId: parentRef(() => contacts.id),
    name: text().notNull(),
    value: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [index('contact_custom_fields_company_contact_idx').on(t.companyId, t.contactId)],
);
