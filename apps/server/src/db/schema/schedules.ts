import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { contacts, tickets } from './tickets.js';
import { timestamps } from './timestamps.js';
import { users } from './users.js';

/**
 * Scheduled messages (document 2 section 5). Each pending schedule has one job
 * (`schedule-send`, keyed by the schedule) due at `sendAt`; the job sends once and records
 * `status` ENVIADA with `sentAt` and `ticketId`, or ERRO with `error`.
 */
export const schedules = pgTable(
  'schedules',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** The ticket the message was stored on, once sent. */
    ticketId: integer().references(() => tickets.id, { onDelete: 'set null' }),
    body: text().notNull(),
    sendAt: timestamp({ withTimezone: true }).notNull(),
    sentAt: timestamp({ withTimezone: true }),
    status: text({ enum: ['PENDENTE', 'ENVIADA', 'ERRO'] })
      .notNull()
      .default('PENDENTE'),
    error: text(),
    mediaPath: text(),
    mediaName: text(),
    ...timestamps,
  },
  (t) => [index('schedules_company_send_at_idx').on(t.companyId, t.sendAt)],
);
