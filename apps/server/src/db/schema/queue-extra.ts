import { type AnyPgColumn, index, integer, text } from 'drizzle-orm/pg-core';
import { parentRef, timestamps } from './columns.js';
import { queues } from './queues.js';
import { companyTable } from './tenant.js';

/**
 * Queue options: the chatbot tree of a queue (document 2 section 3). `parentId` null is the top
 * level; deleting an option deletes its subtree (foreign key cascade). `option` is the number the
 * customer answers, kept as text ('1', '2', …) and used for ordering.
 */
export const queueOptions = companyTable(
  'queue_options',
  {
    queueId: parentRef(() => queues.id),
    parentId: integer().references((): AnyPgColumn => queueOptions.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    message: text().notNull().default(''),
    option: text().notNull(),
    ...timestamps,
  },
  (t) => [index('queue_options_company_queue_parent_idx').on(t.companyId, t.queueId, t.parentId)],
);
