import {
  ZDashboardChartQuery,
  ZDashboardQuery,
  ZDashboardResponse,
  ZTicketsDayResponse,
  ZTicketsUsersResponse,
} from '@zapdesk/shared';
import type { AppContext, ZodApp } from '../../context.js';
import { adminRoute } from '../../lib/guards.js';
import { getDashboard, ticketsByDay, ticketsByUser } from './dashboard-service.js';

/**
 * Dashboard API (core section 7), admin only. Days are local to America/Sao_Paulo; a `companyId`
 * query parameter of the spec is ignored (the company is the caller's).
 */
export function dashboardRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['dashboard'];
  app.get(
    '/dashboard',
    {
      config: adminRoute,
      schema: { tags, querystring: ZDashboardQuery, response: { 200: ZDashboardResponse } },
    },
    (request) => getDashboard(ctx, request.auth.companyId, request.query),
  );
  app.get(
    '/dashboard/ticketsUsers',
    {
      config: adminRoute,
      schema: { tags, querystring: ZDashboardChartQuery, response: { 200: ZTicketsUsersResponse } },
    },
    (request) => ticketsByUser(ctx, request.auth.companyId, request.query),
  );
  app.get(
    '/dashboard/ticketsDay',
    {
      config: adminRoute,
      schema: { tags, querystring: ZDashboardChartQuery, response: { 200: ZTicketsDayResponse } },
    },
    (request) => ticketsByDay(ctx, request.auth.companyId, request.query),
  );
}
