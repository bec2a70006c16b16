/** The reports page's state in the URL, its queries and its downloads (docs/reports.md "Page"). */
import { useQuery } from '@tanstack/react-query';
import { ApiError, api, fetchWithSession } from '../../lib/api';
import { API_BASE } from '../../lib/config';
import { downloadBlob } from '../contacts/contacts-csv';

/** The reports the page shows, each GET /reports/<name> (ratingComments: /reports/ratings/comments). */
export type ReportName = 'summary' | 'agents' | 'queues' | 'heatmap' | 'ratingComments';
/** The file formats of a download. */
export type ReportFileFormat = 'csv' | 'xlsx';
/** The four id filters, named as the API's query parameters. */
export const REPORT_FILTERS = ['queueIds', 'userIds', 'whatsappIds', 'tagIds'] as const;
export type ReportFilterName = (typeof REPORT_FILTERS)[number];

/** The period (local days yyyy-MM-dd, both included) and the filters of the reports shown. */
export interface ReportParams extends Record<ReportFilterName, number[]> {
  from: string;
  to: string;
}

/*
 * The API's limits and day checks (REPORTS_MAX_RANGE_DAYS, REPORTS_MAX_FILTER_IDS, REPORTS_TIME_ZONE,
 * isIsoDate and daysInRange of @zapdesk/shared), repeated here because their modules also build zod
 * schemas, which the page must not load before its first render (check:forms); a test keeps them
 * equal.
 */
/** Longest period the reports answer, in days. */
export const MAX_RANGE_DAYS = 731;
/** Most ids one filter takes. */
export const MAX_FILTER_IDS = 100;
/** The zone of the reports' local days: the dashboard's. */
export const REPORTS_ZONE = 'America/Sao_Paulo';

/** True for a real calendar day written yyyy-MM-dd. */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Days from `from` to `to` (yyyy-MM-dd), both included. */
export function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** True when from..to is a period the reports answer (real days, in order, at most two years). */
export function isReportPeriod(from: string, to: string): boolean {
  return isDay(from) && isDay(to) && from <= to && dayCount(from, to) <= MAX_RANGE_DAYS;
}

/** The quick periods of the picker, in days ending today (1 = today). */
export const QUICK_PERIODS = [1, 7, 30, 90] as const;
/** The period shown when the URL names none: the last 7 days, today included. */
export const DEFAULT_PERIOD_DAYS = 7;

/** Today as yyyy-MM-dd in the reports' zone (the days the API counts in). */
export function reportsToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: REPORTS_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** `day` (yyyy-MM-dd) moved by `days` calendar days. */
export function shiftDay(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The `days` days ending on `today`, both included. */
export function lastDays(days: number, today: string): { from: string; to: string } {
  return { from: shiftDay(today, 1 - days), to: today };
}

/** Positive integer ids of a comma list (at most MAX_FILTER_IDS; anything else is dropped). */
function parseIds(value: string | null): number[] {
  if (!value) return [];
  const ids = value
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((id) => Number.isSafeInteger(id) && id > 0);
  return [...new Set(ids)].slice(0, MAX_FILTER_IDS);
}

/**
 * The page's parameters from its URL query (`from`, `to`, and the filters as comma lists, the API's
 * names): a period the API would refuse (bad day, `to` before `from`, longer than two years) is
 * replaced by the last 7 days ending `today`.
 */
export function readReportParams(search: URLSearchParams, today: string = reportsToday()): ReportParams {
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  const period = isReportPeriod(from, to) ? { from, to } : lastDays(DEFAULT_PERIOD_DAYS, today);
  return {
    ...period,
    queueIds: parseIds(search.get('queueIds')),
    userIds: parseIds(search.get('userIds')),
    whatsappIds: parseIds(search.get('whatsappIds')),
    tagIds: parseIds(search.get('tagIds')),
  };
}

/** The query string of `params` (empty filters left out): the page's URL and the API's query alike. */
export function reportSearch(params: ReportParams, format?: ReportFileFormat): URLSearchParams {
  const search = new URLSearchParams({ from: params.from, to: params.to });
  for (const name of REPORT_FILTERS) if (params[name].length) search.set(name, params[name].join(','));
  if (format) search.set('format', format);
  return search;
}

/** Query key of a report. */
export const reportsKeys = {
  report: (name: ReportName, params: ReportParams) => ['reports', name, params] as const,
};

/** GET /reports/<name> as JSON for `params`; failures show in the page (no global toast). */
export function useReport<T>(name: ReportName, params: ReportParams) {
  return useQuery({
    queryKey: reportsKeys.report(name, params),
    queryFn: ({ signal }) => api.get<T>(`/reports/${name}`, Object.fromEntries(reportSearch(params)), signal),
    meta: { silent: true },
  });
}

/** The file name the server gives a download: `<report>-<from>_<to>.<ext>`. */
export function reportFileName(name: ReportName, params: ReportParams, format: ReportFileFormat): string {
  return `${name}-${params.from}_${params.to}.${format}`;
}

/** The API URL of a report's file with the page's period and filters. */
export function reportFileUrl(name: ReportName, params: ReportParams, format: ReportFileFormat): string {
  const path = name === 'ratingComments' ? 'ratings/comments' : name;
  return `${API_BASE}/reports/${path}?${reportSearch(params, format)}`;
}

/**
 * Downloads a report as CSV or XLSX (GET /reports/<name>?format=…, with the bearer token and the
 * page's filters) and has the browser save it. @throws ApiError when the answer is not a success.
 */
export async function downloadReport(
  name: ReportName,
  params: ReportParams,
  format: ReportFileFormat,
): Promise<void> {
  const response = await fetchWithSession(reportFileUrl(name, params, format));
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, body as ConstructorParameters<typeof ApiError>[1]);
  }
  downloadBlob(await response.blob(), reportFileName(name, params, format));
}
