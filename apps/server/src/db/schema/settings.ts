import { text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';
import { companyTable } from './tenant.js';

/** Company settings as key/value pairs (document 2 section 9). */
export const settings = companyTable(
  'settings',
  {
    key: text().notNull(),
    value: text().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('settings_company_key_key').on(t.companyId, t.key)],
);
