import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  pgTable,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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

/**
 * Report rollups (decision 0121, docs/reports.md "Rollups"): one row per span (a local calendar
 * `month` or `week`, Monday first, starting at `start`), event kind, dimension and log bucket of
 * `seconds`, with the count `n` and the sum `total` of the seconds. `dim` is `all` (no grouping,
 * `dimId` null), `user` or `queue` (`dimId` the event's user or queue, null for none) or `heat`
 * (`dimId` = local weekday * 24 + hour, created and reopened events only). `bucket` is -1 for events
 * without seconds, the seconds themselves under 64, then 64 + floor(log base 1.04 of seconds/64).
 * Written by the rollup job (`modules/reports/rollups.ts`) for spans that ended on or before the
 * company's `report_rollup_marks.rolled_through`; never updated, deleted and rewritten.
 */
export const reportRollups = pgTable(
  'report_rollups',
  {
    companyId: companyRef(),
    span: text({ enum: ['month', 'week'] }).notNull(),
    start: date({ mode: 'string' }).notNull(),
    kind: text({ enum: TICKET_EVENT_KINDS }).notNull(),
    dim: text({ enum: ['all', 'user', 'queue', 'whatsapp', 'heat'] }).notNull(),
    dimId: integer(),
    bucket: smallint().notNull(),
    n: integer().notNull(),
    total: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [index('report_rollups_company_span_idx').on(t.companyId, t.dim, t.span, t.start)],
);

/**
 * The agents' "handled" per local day (decision 0122): how many (ticket, agent) pairs had an
 * assigned, first_reply, transferred or resolved event of that agent on `day` whose previous such
 * day was `prevDay` (null: none before). The pairs with an event in a..b are the rows of days a..b
 * whose `prevDay` is null or before a. Written with the rollups.
 */
export const reportHandled = pgTable(
  'report_handled',
  {
    companyId: companyRef(),
    day: date({ mode: 'string' }).notNull(),
    userId: integer().notNull(),
    prevDay: date({ mode: 'string' }),
    n: integer().notNull(),
  },
  (t) => [index('report_handled_company_day_idx').on(t.companyId, t.day)],
);

/**
 * How far a company's rollups go: every local day up to `rolled_through` is in `report_handled` and
 * every span ending by then in `report_rollups`. A trigger on `ticket_events` moves it back when an
 * event of a rolled day is inserted or deleted (a late event, a ticket deleted), so the reports read
 * those days' events until the job rolls them again.
 */
export const reportRollupMarks = pgTable('report_rollup_marks', {
  companyId: companyRef().primaryKey(),
  rolledThrough: date({ mode: 'string' }).notNull(),
});
