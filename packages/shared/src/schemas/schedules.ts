import { z } from 'zod';
import { mediaFields, pageOf } from './answers.js';
import { V, ZCoercedId, ZId, ZPageQuery } from './common.js';

/**
 * A schedule's status (document 2 section 5): PENDENTE until its job runs, then
 * ENVIADA (the message was stored and sent) or ERRO (`error` says why).
 */
export const SCHEDULE_STATUSES = ['PENDENTE', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Media types a schedule accepts (document 2 section 9: png, jpg, jpeg). */
export const SCHEDULE_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;

/** Largest schedule media upload, bytes (an image within WhatsApp's 16 MB). */
export const SCHEDULE_MEDIA_MAX_BYTES = 16 * 1024 * 1024;

/** A scheduled message (document 2 section 5 "Schedules"). Dates are ISO strings. */
export const ZSchedule = z.object({
  id: z.number(),
  body: z.string(),
  sendAt: z.string(),
  sentAt: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  /** Why sending failed (status ERRO): a catalogue code or the provider's refusal. */
  error: z.string().nullable(),
  contactId: z.number(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string() }),
  userId: z.number().nullable(),
  ticketId: z.number().nullable(),
  ...mediaFields,
  createdAt: z.string(),
});
export type Schedule = z.infer<typeof ZSchedule>;

/** GET /schedules page: 20 schedules by sendAt and whether more follow. */
export const ZSchedulesPage = pageOf('schedules', ZSchedule);
export type SchedulesPage = z.infer<typeof ZSchedulesPage>;

/** GET /schedules query: `searchParam` (body or contact name), `pageNumber`, optional `contactId`. */
export const ZSchedulesQuery = z.object({
  ...ZPageQuery.shape,
  contactId: ZCoercedId.optional(),
});

/** Earliest and latest accepted sendAt (a sane calendar range, inside Postgres timestamptz). */
const SEND_AT_MIN = Date.UTC(2000, 0, 1);
const SEND_AT_MAX = Date.UTC(2100, 0, 1);

/**
 * POST /schedules and PUT /schedules/:id body (document 2 section 9): body of at least 5 characters
 * ('Mensagem muito curta', key `tooShort`), contactId and sendAt (ISO date-time) required.
 */
export const ZScheduleBody = z.object({
  body: z.string({ error: V.required }).trim().min(1, V.required).min(5, V.tooShort).max(10_000, V.tooLong),
  contactId: ZId,
  sendAt: z.iso.datetime({ offset: true, error: V.invalid }).refine((value) => {
    const at = Date.parse(value);
    return at >= SEND_AT_MIN && at < SEND_AT_MAX;
  }, V.invalid),
});
export type ScheduleBody = z.input<typeof ZScheduleBody>;
