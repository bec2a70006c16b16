import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
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

/** The service-level targets a ticket opening can carry (docs/reports.md "Service levels"). */
export const SLA_TARGETS = ['first_response', 'resolution'] as const;
export type SlaTarget = (typeof SLA_TARGETS)[number];

/**
 * One service-level target of one ticket opening (decision 0104): written by the `tickets` trigger
 * of migration `sla` when a ticket opens in, or enters, a queue with that target (`minutes`, the
 * queue's at that moment); `due_at` is computed by the SLA planner job (attendance hours, date-fns)
 * and null until then; `met_at` is the first agent reply (first response) or the closing
 * (resolution); `warned_at` and `breached_at` record the notifications sent. The reports count
 * openings by `opened_at` (the opening's `created` or `reopened` event). `queue_id` is a plain number,
 * like the events'.
 */
export const ticketSlas = pgTable(
  'ticket_slas',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    ticketId: parentRef(() => tickets.id),
    target: text({ enum: SLA_TARGETS }).notNull(),
    openedAt: timestamptz().notNull(),
    queueId: integer(),
    minutes: integer().notNull(),
    dueAt: timestamptz(),
    metAt: timestamptz(),
    warnedAt: timestamptz(),
    breachedAt: timestamptz(),
  },
  (t) => [
    uniqueIndex('ticket_slas_ticket_opening_target_key').on(t.ticketId, t.openedAt, t.target),
    index('ticket_slas_company_opened_idx').on(t.companyId, t.openedAt),
    // The planner's work: targets whose due time is not computed yet.
    index('ticket_slas_unplanned_idx').on(t.companyId).where(sql`${t.dueAt} is null`),
    check('ticket_slas_target_check', sql`${t.target} in ('first_response', 'resolution')`),
  ],
);
