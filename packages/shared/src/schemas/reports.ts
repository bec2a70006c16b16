import { z } from 'zod';
import { daysInRange, isIsoDate } from './dashboard.js';
import { idList } from './tickets.js';

/**
 * Reports over ticket events (docs/reports.md). Periods are whole local days in REPORTS_TIME_ZONE
 * (the dashboard's zone: companies have no zone of their own); times are seconds.
 */
export { DASHBOARD_TIME_ZONE as REPORTS_TIME_ZONE } from './dashboard.js';
/** Longest period a report answers, in days (two years). */
export const REPORTS_MAX_RANGE_DAYS = 731;
/** Most ids one filter takes. */
export const REPORTS_MAX_FILTER_IDS = 100;
/** The formats a report is answered in: JSON, or a file (CSV, XLSX) streamed as a download. */
export const REPORT_FORMATS = ['json', 'csv', 'xlsx'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A local day yyyy-MM-dd between 2000-01-01 and 2100-12-31 (what the events' timestamps hold). */
const ZReportDay = z
  .string()
  .max(10)
  .refine((v) => isIsoDate(v) && v >= '2000-01-01' && v <= '2100-12-31', { message: 'invalidDate' });
/** Ids as a comma list, a JSON array or repeated parameters, at most REPORTS_MAX_FILTER_IDS. */
const ZReportIds = idList.refine((ids) => !ids || ids.length <= REPORTS_MAX_FILTER_IDS, {
  message: 'tooMany',
});

/**
 * Query of every GET /reports/* route: `from` and `to` (yyyy-MM-dd, local days, both included, at
 * most two years, `to` not before `from`), optional filters by the event's queue, agent and connection
 * and by the ticket's tags, and `format`.
 */
export const ZReportQuery = z
  .object({
    from: ZReportDay,
    to: ZReportDay,
    queueIds: ZReportIds,
    userIds: ZReportIds,
    whatsappIds: ZReportIds,
    tagIds: ZReportIds,
    format: z.enum(REPORT_FORMATS).optional().default('json'),
  })
  .superRefine((q, ctx) => {
    if (!isIsoDate(q.from) || !isIsoDate(q.to)) return;
    if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'beforeStart' });
    else if (daysInRange(q.from, q.to) > REPORTS_MAX_RANGE_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'rangeTooLong' });
  });
export type ReportQuery = z.input<typeof ZReportQuery>;
export type ReportFilters = z.output<typeof ZReportQuery>;

/** Count, average, median and 90th percentile of durations in seconds (null when there are none). */
export const ZDurationStats = z.object({
  count: z.number(),
  avg: z.number().nullable(),
  median: z.number().nullable(),
  p90: z.number().nullable(),
});
export type DurationStats = z.infer<typeof ZDurationStats>;

/** The figures of one period. */
export const ZReportFigures = z.object({
  from: z.string(),
  to: z.string(),
  /** Tickets created plus tickets reopened. */
  opened: z.number(),
  created: z.number(),
  reopened: z.number(),
  resolved: z.number(),
  /** Opening to the first message an agent wrote. */
  firstResponse: ZDurationStats,
  /** Opening to resolution. */
  resolution: ZDurationStats,
  /** Opening to the first assignment (accept or automatic). */
  wait: ZDurationStats,
  /** Ratings (1..3) given in the period. */
  csat: z.object({
    count: z.number(),
    average: z.number().nullable(),
    distribution: z.array(z.object({ rate: z.number(), count: z.number() })),
  }),
});
export type ReportFigures = z.infer<typeof ZReportFigures>;

/**
 * One service-level target over the openings of a period (docs/reports.md "Service levels"):
 * `tracked` openings had the target, `met` of them met it in time, `rate` is met / tracked rounded
 * to 4 decimals (null when none was tracked).
 */
export const ZSlaFigures = z.object({
  tracked: z.number(),
  met: z.number(),
  rate: z.number().nullable(),
});
export type SlaFigures = z.infer<typeof ZSlaFigures>;

/** GET /reports/summary: the period's figures and those of the previous period of the same length. */
export const ZReportSummary = z.object({
  timeZone: z.string(),
  current: ZReportFigures,
  previous: ZReportFigures,
  /** Service levels of the current period's openings (optional for clients). */
  sla: z.object({ firstResponse: ZSlaFigures, resolution: ZSlaFigures }).optional(),
});
export type ReportSummary = z.infer<typeof ZReportSummary>;

/** First response and resolution avg, median and p90 (seconds), as columns of a report row. */
const ZReplyAndResolutionColumns = {
  firstResponseAvg: z.number().nullable(),
  firstResponseMedian: z.number().nullable(),
  firstResponseP90: z.number().nullable(),
  resolutionAvg: z.number().nullable(),
  resolutionMedian: z.number().nullable(),
  resolutionP90: z.number().nullable(),
};

/** A row of GET /reports/agents: one agent of the company. */
export const ZAgentReportRow = z.object({
  userId: z.number(),
  name: z.string(),
  /** Tickets the agent was assigned, answered, transferred to or resolved in the period. */
  handled: z.number(),
  resolved: z.number(),
  /** The agent's open tickets now. */
  openNow: z.number(),
  ...ZReplyAndResolutionColumns,
  ratingCount: z.number(),
  ratingAverage: z.number().nullable(),
});
export type AgentReportRow = z.infer<typeof ZAgentReportRow>;
export const ZAgentReport = z.object({ rows: z.array(ZAgentReportRow) });
export type AgentReport = z.infer<typeof ZAgentReport>;

/** A row of GET /reports/queues: one queue, or the tickets without a queue (`queueId` null). */
export const ZQueueReportRow = z.object({
  queueId: z.number().nullable(),
  name: z.string().nullable(),
  opened: z.number(),
  resolved: z.number(),
  openNow: z.number(),
  pendingNow: z.number(),
  waitAvg: z.number().nullable(),
  waitMedian: z.number().nullable(),
  waitP90: z.number().nullable(),
  ...ZReplyAndResolutionColumns,
});
export type QueueReportRow = z.infer<typeof ZQueueReportRow>;
export const ZQueueReport = z.object({ rows: z.array(ZQueueReportRow) });
export type QueueReport = z.infer<typeof ZQueueReport>;

/** GET /reports/heatmap: tickets opened per local weekday (0 Sunday..6) and hour (0..23), all 168. */
export const ZHeatmapReport = z.object({
  timeZone: z.string(),
  cells: z.array(z.object({ weekday: z.number(), hour: z.number(), opened: z.number() })),
});
export type HeatmapReport = z.infer<typeof ZHeatmapReport>;
