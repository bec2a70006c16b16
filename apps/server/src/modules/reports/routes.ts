import {
  type ReportFilters,
  ZAgentReport,
  ZHeatmapReport,
  ZQueueReport,
  ZReportQuery,
  ZReportSummary,
} from '@zapdesk/shared';
import type { FastifyReply } from 'fastify';
import type { AppContext, ZodApp } from '../../context.js';
import type { RouteGuard } from '../../lib/guards.js';
import { type ReportTable, sendTable, summaryTable, tableOf } from './report-export.js';
import { reportAgents, reportHeatmap, reportQueues, reportSummary } from './reports-service.js';

/** Reports are for admins of companies whose plan has useReports (docs/reports.md). */
export const reportsRoute = { auth: 'user', role: 'admin', plan: 'useReports' } as const satisfies RouteGuard;

/** The JSON answer, or the table streamed as CSV/XLSX when the query asks for a file. */
function answer<T>(reply: FastifyReply, query: ReportFilters, data: T, table: (data: T) => ReportTable) {
  if (query.format === 'json') return data;
  return sendTable(reply, table(data), query.format, `${query.from}_${query.to}`);
}

/**
 * Reports API (docs/api.md "Reports"), admin only, plan flag useReports: summary, per agent, per
 * queue and the weekday x hour heat map, each as JSON or `?format=csv|xlsx`. The company is the caller's.
 */
export function reportsRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['reports'];
  app.get(
    '/reports/summary',
    { config: reportsRoute, schema: { tags, querystring: ZReportQuery, response: { 200: ZReportSummary } } },
    async (request, reply) =>
      answer(reply, request.query, await reportSummary(ctx, request.auth.companyId, request.query), (data) =>
        summaryTable(data.current, data.previous),
      ),
  );
  app.get(
    '/reports/agents',
    { config: reportsRoute, schema: { tags, querystring: ZReportQuery, response: { 200: ZAgentReport } } },
    async (request, reply) =>
      answer(reply, request.query, await reportAgents(ctx, request.auth.companyId, request.query), (data) =>
        tableOf('agents', Object.keys(ZAgentReport.shape.rows.element.shape) as never[], data.rows),
      ),
  );
  app.get(
    '/reports/queues',
    { config: reportsRoute, schema: { tags, querystring: ZReportQuery, response: { 200: ZQueueReport } } },
    async (request, reply) =>
      answer(reply, request.query, await reportQueues(ctx, request.auth.companyId, request.query), (data) =>
        tableOf('queues', Object.keys(ZQueueReport.shape.rows.element.shape) as never[], data.rows),
      ),
  );
  app.get(
    '/reports/heatmap',
    { config: reportsRoute, schema: { tags, querystring: ZReportQuery, response: { 200: ZHeatmapReport } } },
    async (request, reply) =>
      answer(reply, request.query, await reportHeatmap(ctx, request.auth.companyId, request.query), (data) =>
        tableOf('heatmap', ['weekday', 'hour', 'opened'], data.cells),
      ),
  );
}
