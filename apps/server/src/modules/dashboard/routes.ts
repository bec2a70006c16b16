import {
  ZDashboardChartQuery,
  ZDashboardQuery,
  ZDashboardResponse,
  ZTicketsDayResponse,
  ZTicketsUsersResponse,
} from '@zapdesk/shared';
import type { AppContext, ZodApp } from '../../context.js';
import { adminRoute } from '../../lib/guards.js';
import { routeTable } from '../common/route-table.js';
import { getDashboard, ticketsByDay, ticketsByUser } from './dashboard-service.js';

/**
 * Dashboard API (core section 7), admin only. Days are local to America/Sao_Paulo; a `companyId`
 * query parameter of the spec is ignored (the company is the caller's).
 */
export function dashboardRoutes(app: ZodApp, ctx: AppContext): void {
  const route = routeTable(app, ['dashboard'], adminRoute);
  route.get('/dashboard', { querystring: ZDashboardQuery, reply: ZDashboardResponse }, (request) =>
    getDashboard(ctx, request.auth.companyId, request.query),
  );
  route.get(
    '/dashboard/ticketsUsers',
    { querystring: ZDashboardChartQuery, reply: ZTicketsUsersResponse },
    (request) => ticketsByUser(ctx, request.auth.companyId, request.query),
  );
  route.get(
    '/dashboard/ticketsDay',
    { querystring: ZDashboardChartQuery, reply: ZTicketsDayResponse },
    (request) => ticketsByDay(ctx, request.auth.companyId, request.query),
  );
}
