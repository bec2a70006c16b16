import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { timestamps } from './timestamps.js';

/** Company settings as key/value pairs (document 2 section 9). */
export const settings = pgTable(
  'settings',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    value: text().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('settings_company_key_key').on(t.companyId, t.key)],
);
