import type { CompanySchedule } from '@zapdesk/shared';
import { boolean, integer, jsonb, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, optionalRef, timestamps, timestamptz } from './columns.js';

/** Subscription plans (document 3 section 3). Not a tenant table: plans are platform-wide. */
export const plans = pgTable(
  'plans',
  {
    id: idColumn(),
    name: text().notNull(),
    value: numeric({ precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    users: integer().notNull().default(1),
    connections: integer().notNull().default(1),
    queues: integer().notNull().default(1),
    useCampaigns: boolean().notNull().default(false),
    useSchedules: boolean().notNull().default(false),
    useInternalChat: boolean().notNull().default(false),
    useExternalApi: boolean().notNull().default(false),
    useKanban: boolean().notNull().default(false),
    useOpenAi: boolean().notNull().default(false),
    useIntegrations: boolean().notNull().default(false),
    /** Reports of ticket events (docs/reports.md). */
    useReports: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('plans_name_key').on(t.name)],
);

/** Companies: the tenants. `dueDate` null means the subscription never expires. */
export const companies = pgTable('companies', {
  id: idColumn(),
  name: text().notNull(),
  email: text(),
  phone: text(),
  planId: optionalRef(() => plans.id),
  status: boolean().notNull().default(true),
  campaignsEnabled: boolean().notNull().default(false),
  dueDate: timestamptz(),
  recurrence: text(),
  /**
   * Working hours per weekday (document 3 section 3), used when scheduleType is 'company';
   * null means DEFAULT_COMPANY_SCHEDULES of @zapdesk/shared.
   */
  schedules: jsonb().$type<CompanySchedule[]>(),
  ...timestamps,
});
