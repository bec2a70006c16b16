import { index, text } from 'drizzle-orm/pg-core';
import { mediaColumns, optionalRef, parentRef, timestamps, timestamptz } from './columns.js';
import { companyTable } from './tenant.js';
import { contacts, tickets } from './tickets.js';
import { users } from './users.js';

/**
 * Scheduled messages (document 2 section 5). Each pending schedule has one job
 * (`schedule-send`, keyed by the schedule) due at `sendAt`; the job sends once and records
 * `status` ENVIADA with `sentAt` and `ticketId`, or ERRO with `error`.
 */
export const schedules = companyTable(
  'schedules',
  {
    contactId: parentRef(() => contacts.id),
    userId: optionalRef(() => users.id),
    /** The ticket the message was stored on, once sent. */
    ticketId: optionalRef(() => tickets.id),
    body: text().notNull(),
    sendAt: timestamptz().notNull(),
    sentAt: timestamptz(),
    status: text({ enum: ['PENDENTE', 'ENVIADA', 'ERRO'] })
      .notNull()
      .default('PENDENTE'),
    error: text(),
    ...mediaColumns(),
    ...timestamps,
  },
  (t) => [index('schedules_company_send_at_idx').on(t.companyId, t.sendAt)],
);
