import { z } from 'zod';
import { RECURRENCES } from '../constants.js';
import { ZPlan } from './plans.js';
import { DEFAULT_WEEK, WEEKDAYS_EN } from './week.js';

/**
 * Working hours of one weekday (document 3 section 3): times are 'HH:mm'. Alike ZQueueSchedule but
 * its own record: a company's rows refuse an empty name and answer 'invalidTime'.
 */
export const ZCompanySchedule = z.object({
  weekday: z.string().min(1).max(30),
  weekdayEn: z.enum(WEEKDAYS_EN),
  startTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'invalidTime'),
  endTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'invalidTime'),
});
export type CompanySchedule = z.infer<typeof ZCompanySchedule>;

/** PUT /companies/:id/schedules body: at most one row per weekday. */
export const ZUpdateCompanySchedulesBody = z.object({
  schedules: z
    .array(ZCompanySchedule)
    .max(7)
    .refine((rows) => new Set(rows.map((r) => r.weekdayEn)).size === rows.length, 'duplicateWeekday'),
});
export type UpdateCompanySchedulesBody = z.infer<typeof ZUpdateCompanySchedulesBody>;

/**
 * Default company working hours (document 2 section 3): the default week (schemas/week.ts),
 * Mon-Fri 08-18, Sat 08-12, Sun closed.
 */
export const DEFAULT_COMPANY_SCHEDULES: CompanySchedule[] = DEFAULT_WEEK.map((day) => ({ ...day }));

/** Company (document 3 section 3). */
export const ZCompany = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  planId: z.number().nullable(),
  plan: ZPlan.nullable(),
  status: z.boolean(),
  campaignsEnabled: z.boolean(),
  dueDate: z.string().nullable(),
  recurrence: z.enum(RECURRENCES).nullable(),
  createdAt: z.string(),
  /** Company working hours (used when the setting scheduleType is 'company'). */
  schedules: z.array(ZCompanySchedule).optional(),
});
export type Company = z.infer<typeof ZCompany>;
