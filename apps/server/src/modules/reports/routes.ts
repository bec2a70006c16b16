import {
  type ReportFilters,
  ZAgentReport,
  ZHeatmapReport,
  ZQueueReport,
  ZReportQuery,
  ZReportSummary,
} from '@zapdesk/shared';
import type { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import type { RouteGuard } from '../../lib/guards.js';
import { type ReportTable, sendTable, summaryTable, tableOf } from './report-export.js';
import { reportAgents, reportHeatmap, reportQueues, reportSummary } from './reports-service.js';

/** Reports are for admins of companies whose plan has useReports (docs/reports.md). */
export const reportsRoute = { auth: 'user', role: 'admin', plan: 'useReports' } as const satisfies RouteGuard;

/** One report: its answer's schema, the service computing it and its table for CSV/XLSX. */
interface Report<S extends z.ZodType> {
  schema: S;
  compute: (ctx: AppContext, companyId: number, q: ReportFilters) => Promise<z.infer<S>>;
  table: (data: z.infer<S>) => ReportTable;
}
const report = <S extends z.ZodType>(r: Report<S>) => r as unknown as Report<z.ZodType>;

/** Column names of a report's row schema, in its order (the CSV/XLSX header). */
const columnsOf = (rows: z.ZodArray<z.ZodObject>) => Object.keys(rows.element.shape) as never[];

const REPORTS: Record<string, Report<z.ZodType>> = {
  summary: report({
    schema: ZReportSummary,
    compute: reportSummary,
    table: (data) => summaryTable(data.current, data.previous, data.sla),
  }),
  agents: report({
    schema: ZAgentReport,
    compute: reportAgents,
    table: (data) => tableOf('agents', columnsOf(ZAgentReport.shape.rows), data.rows),
  }),
  queues: report({
    schema: ZQueueReport,
    compute: reportQueues,
    table: (data) => tableOf('queues', columnsOf(ZQueueReport.shape.rows), data.rows),
  }),
  heatmap: report({
    schema: ZHeatmapReport,
    compute: reportHeatmap,
    table: (data) => tableOf('heatmap', ['weekday', 'hour', 'opened'], data.cells),
  }),
};

/**
 * Reports API (docs/api.md "Reports"), admin only, plan flag useReports: GET /reports/summary,
 * /reports/agents, /reports/queues and /reports/heatmap, each as JSON or, with `?format=csv|xlsx`, its
 * table streamed as a download. The company is the caller's.
 */
export function reportsRoutes(app: ZodApp, ctx: AppContext): void {
  for (const [name, { schema, compute, table }] of Object.entries(REPORTS)) {
    app.get(
      `/reports/${name}`,
      {
        config: reportsRoute,
        schema: { tags: ['reports'], querystring: ZReportQuery, response: { 200: schema } },
      },
      async (request, reply) => {
        const q = request.query;
        const data = await compute(ctx, request.auth.companyId, q);
        if (q.format === 'json') return data;
        return sendTable(reply, table(data), q.format, `${q.from}_${q.to}`);
      },
    );
  }
}
