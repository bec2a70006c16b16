import type { QueueSchedule } from '@zapdesk/shared';
import { index, integer, jsonb, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';
import { companyTable } from './tenant.js';

/**
 * Queues (departments), document 2 section 3. Colour is unique per company. `schedules` holds the
 * attendance hours per weekday (null until saved: the spec's defaults apply); `integrationId` and
 * `promptId` point at tables built later (no foreign key yet).
 */
export const queues = companyTable(
  'queues',
  {
    name: text().notNull(),
    color: text().notNull(),
    orderQueue: integer(),
    greetingMessage: text(),
    outOfHoursMessage: text(),
    schedules: jsonb().$type<QueueSchedule[]>(),
    integrationId: integer(),
    promptId: integer(),
    /** Automatic assignment of tickets waiting for a human: off, round_robin or least_busy. */
    autoAssignment: text({ enum: ['off', 'round_robin', 'least_busy'] })
      .notNull()
      .default('off'),
    /** Round robin: the user who got this queue's last automatic assignment (no foreign key). */
    lastAssignedUserId: integer(),
    /** Service level: minutes from a ticket's opening to its first agent reply (null: no target). */
    slaFirstResponseMinutes: integer(),
    /** Service level: minutes from a ticket's opening to its closing (null: no target). */
    slaResolutionMinutes: integer(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('queues_company_color_key').on(t.companyId, t.color),
    index('queues_company_order_idx').on(t.companyId, t.orderQueue),
  ],
);
