import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { parentRef, timestamptz } from './columns.js';
import { companyRef } from './tenant.js';
import { tickets } from './tickets.js';

/** What happened to a ticket (docs/reports.md "Events"). */
export const TICKET_EVENT_KINDS = [
  'created',
  'assigned',
  'first_reply',
  'resolved',
  'reopened',
  'transferred',
] as const;

/**
 * Ticket events, the reports' only source (docs/reports.md). Written in the transaction of the change
 * that causes them: `created`, `assigned`, `resolved`, `reopened` and `transferred` by triggers on
 * `tickets` (migration `ticket-events`), `first_reply` by the store of an agent's message. `seconds`
 * is the time since the ticket's opening (its `created` or last `reopened` event) for `first_reply`,
 * `resolved` and the first `assigned` of an opening (the wait), null otherwise. `user_id`, `queue_id`
 * and `whatsapp_id` are the ticket's at the event, kept as plain numbers (no foreign key: a deleted
 * queue or user keeps its history, and deleting one scans nothing here).
 */
export const ticketEvents = pgTable(
  'ticket_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    ticketId: parentRef(() => tickets.id),
    kind: text({ enum: TICKET_EVENT_KINDS }).notNull(),
    at: timestamptz().notNull().defaultNow(),
    userId: integer(),
    queueId: integer(),
    whatsappId: integer(),
    seconds: integer(),
  },
  (t) => [
    // The migration adds INCLUDE (seconds, user_id, queue_id, whatsapp_id, ticket_id): index-only reports.
    index('ticket_events_company_kind_at_idx').on(t.companyId, t.kind, t.at),
    // Led by the ticket so that deleting a ticket (cascade) finds its events; every per-ticket
    // lookup also names the company.
    index('ticket_events_ticket_company_idx').on(t.ticketId, t.companyId),
    check(
      'ticket_events_kind_check',
      sql`${t.kind} in ('created', 'assigned', 'first_reply', 'resolved', 'reopened', 'transferred')`,
    ),
  ],
);
