import { z } from 'zod';

/**
 * Dashboard (core sections 2, 3, 7 and 9). Days are company-local days in the time zone
 * DASHBOARD_TIME_ZONE (pt-BR default); counters' times are minutes.
 */
export const DASHBOARD_TIME_ZONE = 'America/Sao_Paulo';
/** Longest date range the dashboard answers, in days. */
export const DASHBOARD_MAX_RANGE_DAYS = 366;

/** True for a real calendar date written yyyy-MM-dd. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A calendar date written yyyy-MM-dd (message `invalidDate` otherwise). */
export const ZIsoDate = z.string().refine(isIsoDate, { message: 'invalidDate' });

/** Days from `from` to `to` (yyyy-MM-dd), both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** GET /dashboard query: `days` (rolling window ending now) or `date_from` and `date_to` together. */
export const ZDashboardQuery = z
  .object({
    days: z.coerce.number().int().min(1).max(DASHBOARD_MAX_RANGE_DAYS).optional(),
    date_from: ZIsoDate.optional(),
    date_to: ZIsoDate.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.date_from && !q.date_to) ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'required' });
    if (q.date_to && !q.date_from) ctx.addIssue({ code: 'custom', path: ['date_from'], message: 'required' });
    if (q.date_from && q.date_to && q.date_to < q.date_from) {
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'beforeStart' });
    } else if (q.date_from && q.date_to && daysInRange(q.date_from, q.date_to) > DASHBOARD_MAX_RANGE_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'rangeTooLong' });
    }
  });
export type DashboardQuery = z.infer<typeof ZDashboardQuery>;

export const ZDashboardCounters = z.object({
  /** Tickets open now. */
  supportHappening: z.number(),
  /** Tickets pending now. */
  supportPending: z.number(),
  /** Tickets closed in the period. */
  supportFinished: z.number(),
  /** Contacts created in the period. */
  leads: z.number(),
  /** Average minutes from acceptedAt to closedAt of the tickets closed in the period. */
  avgSupportTime: z.number(),
  /** Average minutes from createdAt to acceptedAt of the tickets accepted in the period. */
  avgWaitTime: z.number(),
});
export type DashboardCounters = z.infer<typeof ZDashboardCounters>;

export const ZDashboardAttendant = z.object({
  id: z.number(),
  name: z.string(),
  /** Average rating 0..3 of the period (0 when none). */
  rating: z.number(),
  /** Average minutes from acceptedAt to closedAt of the user's tickets closed in the period. */
  avgSupportTime: z.number(),
  online: z.boolean(),
  /** The user's tickets closed in the period. */
  tickets: z.number(),
});
export type DashboardAttendant = z.infer<typeof ZDashboardAttendant>;

export const ZDashboardResponse = z.object({
  counters: ZDashboardCounters,
  attendants: z.array(ZDashboardAttendant),
});
export type DashboardResponse = z.infer<typeof ZDashboardResponse>;

/** Chart query: initialDate and finalDate (yyyy-MM-dd, company-local days); both default to today. */
export const ZDashboardChartQuery = z
  .object({
    initialDate: ZIsoDate.optional(),
    finalDate: ZIsoDate.optional(),
  })
  .superRefine((q, ctx) => {
    const from = q.initialDate;
    const to = q.finalDate;
    if (from && to && to < from) {
      ctx.addIssue({ code: 'custom', path: ['finalDate'], message: 'beforeStart' });
    } else if (from && to && daysInRange(from, to) > DASHBOARD_MAX_RANGE_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['finalDate'], message: 'rangeTooLong' });
    }
  });
export type DashboardChartQuery = z.infer<typeof ZDashboardChartQuery>;

/** GET /dashboard/ticketsUsers: tickets created in the period per assigned user; count is the total. */
export const ZTicketsUsersResponse = z.object({
  data: z.array(z.object({ nome: z.string(), quantidade: z.number() })),
  count: z.number(),
});
export type TicketsUsersResponse = z.infer<typeof ZTicketsUsersResponse>;

/**
 * GET /dashboard/ticketsDay: tickets created per local day (`data`, yyyy-MM-dd), or per local hour
 * (`horario`, 0..23) when initialDate equals finalDate; every day or hour is present; count is the total.
 */
export const ZTicketsDayResponse = z.object({
  data: z.array(z.object({ data: z.string().optional(), horario: z.number().optional(), total: z.number() })),
  count: z.number(),
});
export type TicketsDayResponse = z.infer<typeof ZTicketsDayResponse>;
