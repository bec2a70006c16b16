import { z } from 'zod';
import { boundedString, INT4_MAX, V, ZCoercedId, ZId } from './common.js';
import { DEFAULT_WEEK, WEEKDAYS_EN } from './week.js';

/** Queue (department), document 2 section 3; the list form used by the users and tickets screens. */
export const ZQueue = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  orderQueue: z.number().nullable(),
  greetingMessage: z.string().nullable(),
  outOfHoursMessage: z.string().nullable(),
});
export type Queue = z.infer<typeof ZQueue>;

/** How a queue hands its waiting tickets to agents: 'off' (they press Accept), round robin, least busy. */
export const ZAutoAssignment = z.enum(['off', 'round_robin', 'least_busy']);
export type AutoAssignment = z.infer<typeof ZAutoAssignment>;

export const ZQueueRef = z.object({ id: z.number(), name: z.string(), color: z.string() });
export type QueueRef = z.infer<typeof ZQueueRef>;

/** Weekday keys of queue and company schedules, Monday first. */
export { WEEKDAYS_EN } from './week.js';

/** 'HH:mm' (00:00..23:59). */
const ZTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'invalid');

/** One weekday's attendance hours (document 2 section 3); `weekday` is the display name. */
export const ZQueueSchedule = z.object({
  weekday: z.string().max(40),
  weekdayEn: z.enum(WEEKDAYS_EN),
  startTime: ZTime,
  endTime: ZTime,
});
export type QueueSchedule = z.infer<typeof ZQueueSchedule>;

/** The spec's default attendance hours: the default week (`DEFAULT_WEEK`, schemas/week.ts). */
export const DEFAULT_QUEUE_SCHEDULES: QueueSchedule[] = DEFAULT_WEEK.map((day) => ({ ...day }));

/** Queue option (chatbot tree node), document 2 section 3. `children` only in tree answers. */
export interface QueueOption {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  children?: QueueOption[];
}
export const ZQueueOption: z.ZodType<QueueOption> = z
  .object({
    id: z.number(),
    queueId: z.number(),
    parentId: z.number().nullable(),
    title: z.string(),
    message: z.string(),
    option: z.string(),
    get children() {
      return z.array(ZQueueOption).optional();
    },
  })
  // A registered id lets the OpenAPI document reference the recursive schema as a component.
  .meta({ id: 'QueueOption' });

/** GET /queue/:id: the queue with its schedules (defaults when never saved) and its options tree. */
export const ZQueueDetail = ZQueue.extend({
  schedules: z.array(ZQueueSchedule),
  integrationId: z.number().nullable(),
  promptId: z.number().nullable(),
  autoAssignment: ZAutoAssignment,
  /** Service-level targets in minutes (docs/reports.md "Service levels"); null: no target. */
  slaFirstResponseMinutes: z.number().nullable(),
  slaResolutionMinutes: z.number().nullable(),
  options: z.array(ZQueueOption),
});
export type QueueDetail = z.infer<typeof ZQueueDetail>;

const optionalText = (max: number) =>
  z
    .string()
    .max(max, 'tooLong')
    .nullish()
    .transform((v) => (v ? v : null));
const optionalId = ZId.nullish().transform((v) => v ?? null);

/** Longest service-level target: a year of minutes. */
export const SLA_MAX_MINUTES = 525_600;

/** A service-level target in minutes, 1..SLA_MAX_MINUTES; null (or absent on create) for none. */
const ZSlaMinutes = z
  .number({ error: V.invalid })
  .int(V.invalid)
  .min(1, V.outOfRange)
  .max(SLA_MAX_MINUTES, V.outOfRange)
  .nullish()
  .transform((v) => v ?? null);

/**
 * POST /queue and PUT /queue/:id body (document 2 sections 5 and 7): name 2..50, colour 3..9;
 * schedules replace the stored ones when given (one entry per weekday at most).
 */
export const ZQueueBody = z.object({
  name: boundedString(2, 50),
  color: boundedString(3, 9),
  orderQueue: z
    .number()
    .int()
    .min(0)
    .max(100_000)
    .nullish()
    .transform((v) => v ?? null),
  greetingMessage: optionalText(5000),
  outOfHoursMessage: optionalText(5000),
  schedules: z
    .array(ZQueueSchedule)
    .max(7)
    .refine((list) => new Set(list.map((s) => s.weekdayEn)).size === list.length, 'invalid')
    .optional(),
  integrationId: optionalId,
  promptId: optionalId,
  /** Absent: 'off' on create, unchanged on update. */
  autoAssignment: ZAutoAssignment.optional(),
  /** Minutes from a ticket's opening to its first agent reply (null: no target). */
  slaFirstResponseMinutes: ZSlaMinutes,
  /** Minutes from a ticket's opening to its closing (null: no target). */
  slaResolutionMinutes: ZSlaMinutes,
});
export type QueueBody = z.input<typeof ZQueueBody>;

/** GET /queue-options query: the children of `parentId` in `queueId` (-1 or absent: top level). */
export const ZQueueOptionsQuery = z.object({
  queueId: ZCoercedId,
  parentId: z.coerce.number().int().min(-1).max(INT4_MAX).optional().default(-1),
});

/** POST /queue-options body; `option` defaults to the next number among the siblings. */
export const ZCreateQueueOptionBody = z.object({
  queueId: ZCoercedId,
  parentId: z.coerce
    .number()
    .int()
    .min(-1)
    .max(INT4_MAX)
    .nullish()
    .transform((v) => (v == null || v === -1 ? null : v)),
  title: boundedString(1, 200),
  message: z.string().max(5000, 'tooLong').optional().default(''),
  option: z.union([z.string().trim().max(20, 'tooLong'), z.number().int().min(0).max(999_999)]).optional(),
});
export type CreateQueueOptionBody = z.input<typeof ZCreateQueueOptionBody>;

/** PUT /queue-options/:id body. */
export const ZUpdateQueueOptionBody = z.object({
  title: boundedString(1, 200),
  message: z.string().max(5000, 'tooLong').optional().default(''),
  option: z
    .union([z.string().trim().min(1, 'required').max(20, 'tooLong'), z.number().int().min(0).max(999_999)])
    .optional(),
});
export type UpdateQueueOptionBody = z.input<typeof ZUpdateQueueOptionBody>;
