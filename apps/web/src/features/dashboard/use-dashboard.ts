/** Queries of the dashboard (core section 7 "Dashboard"). */
import { useQuery } from '@tanstack/react-query';
import type { DashboardResponse, TicketsDayResponse, TicketsUsersResponse } from '@zapdesk/shared';
import { api } from '../../lib/api';

/** The applied dashboard filter: a period in days, a date range, or nothing (today). */
export type DashboardFilter =
  | { days: number }
  | { date_from: string; date_to: string }
  | Record<string, never>;

/** GET /dashboard with the applied filter; `enabled` holds the first load back (1 s delay). */
export function useDashboard(filter: DashboardFilter, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', filter],
    queryFn: ({ signal }) => api.get<DashboardResponse>('/dashboard', filter, signal),
    enabled,
  });
}

/** A chart's applied range (yyyy-MM-dd, both included). */
export interface ChartRange {
  initialDate: string;
  finalDate: string;
}

/** GET /dashboard/ticketsUsers; failures are toasted by the chart itself. */
export function useTicketsUsers(range: ChartRange, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'ticketsUsers', range],
    queryFn: ({ signal }) => api.get<TicketsUsersResponse>('/dashboard/ticketsUsers', { ...range }, signal),
    enabled,
    meta: { silent: true },
  });
}

/** GET /dashboard/ticketsDay; failures are toasted by the chart itself. */
export function useTicketsDay(range: ChartRange, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'ticketsDay', range],
    queryFn: ({ signal }) => api.get<TicketsDayResponse>('/dashboard/ticketsDay', { ...range }, signal),
    enabled,
    meta: { silent: true },
  });
}

/**
 * The filter button's action (core section 2 Dashboard: 'Filtrar' always asks the server): a new
 * filter becomes the applied one (its own query); the same filter reads the applied query again.
 */
export function applyFilter<T>(
  applied: T,
  next: T,
  setApplied: (value: T) => void,
  refetch: () => unknown,
): void {
  if (JSON.stringify(applied) === JSON.stringify(next)) void refetch();
  else setApplied(next);
}
