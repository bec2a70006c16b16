import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type AgentReport,
  daysInRange,
  type HeatmapReport,
  isIsoDate,
  type QueueReport,
  REPORTS_MAX_FILTER_IDS,
  REPORTS_MAX_RANGE_DAYS,
  REPORTS_TIME_ZONE,
  type ReportFigures,
  type ReportSummary,
} from '@zapdesk/shared';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubChartLayout } from '../../test/charts';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { formatDuration, formatNumber, formatRate, trendOf } from './format';
import { ReportsPage } from './reports-page';
import {
  dayCount,
  isDay,
  lastDays,
  MAX_FILTER_IDS,
  MAX_RANGE_DAYS,
  REPORTS_ZONE,
  readReportParams,
  reportsToday,
} from './use-reports';

const stats = (avg: number | null, median: number | null = avg, p90: number | null = avg) => ({
  count: avg === null ? 0 : 4,
  avg,
  median,
  p90,
});

const figures = (over: Partial<ReportFigures>): ReportFigures => ({
  from: '2026-11-21',
  to: '2026-11-27',
  opened: 0,
  created: 0,
  reopened: 0,
  resolved: 0,
  firstResponse: stats(null),
  resolution: stats(null),
  wait: stats(null),
  csat: { count: 0, average: null, distribution: [] },
  ...over,
});

const SUMMARY: ReportSummary = {
  timeZone: 'America/Sao_Paulo',
  current: figures({
    opened: 10,
    created: 8,
    reopened: 2,
    resolved: 6,
    firstResponse: stats(80, 60, 200),
    resolution: stats(7500),
    wait: stats(30),
    csat: {
      count: 4,
      average: 2.5,
      distribution: [
        { rate: 3, count: 3 },
        { rate: 1, count: 1 },
      ],
    },
  }),
  previous: figures({
    from: '2026-11-14',
    to: '2026-11-20',
    opened: 8,
    resolved: 6,
    firstResponse: stats(100),
    csat: { count: 2, average: 2, distribution: [] },
  }),
};
const EMPTY_SUMMARY: ReportSummary = { ...SUMMARY, current: figures({}), previous: figures({}) };

const AGENTS: AgentReport = {
  rows: [
    {
      userId: 7,
      name: 'Ana',
      handled: 2,
      resolved: 1,
      openNow: 1,
      firstResponseAvg: 80,
      firstResponseMedian: 80,
      firstResponseP90: 95,
      resolutionAvg: null,
      resolutionMedian: null,
      resolutionP90: null,
      ratingCount: 1,
      ratingAverage: 3,
    },
    {
      userId: 8,
      name: 'Bruno',
      handled: 5,
      resolved: 0,
      openNow: 0,
      firstResponseAvg: 20,
      firstResponseMedian: 20,
      firstResponseP90: 20,
      resolutionAvg: null,
      resolutionMedian: null,
      resolutionP90: null,
      ratingCount: 0,
      ratingAverage: null,
    },
  ],
};
const QUEUES: QueueReport = { rows: [] };
const HEATMAP = (opened: number): HeatmapReport => ({
  timeZone: 'America/Sao_Paulo',
  cells: Array.from({ length: 168 }, (_v, i) => ({
    weekday: Math.floor(i / 24),
    hour: i % 24,
    opened: i === 24 + 9 ? opened : 0,
  })),
});

describe('report formats', () => {
  it('shows durations by their two largest units and trends against the previous period', () => {
    expect(formatDuration(null)).toBe('–');
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45.4)).toBe('45 s');
    expect(formatDuration(80)).toBe('1 min 20 s');
    expect(formatDuration(120)).toBe('2 min');
    expect(formatDuration(7500)).toBe('2 h 5 min');
    expect(formatDuration(3 * 86_400 + 4 * 3600 + 59)).toBe('3 d 4 h');
    expect(trendOf(10, 8)).toEqual({ direction: 'up', change: 0.25 });
    expect(trendOf(0, 0)).toEqual({ direction: 'flat', change: 0 });
    expect(trendOf(3, 0)).toEqual({ direction: 'up', change: null });
    expect(trendOf(null, 5)).toEqual({ direction: 'flat', change: null });
    // pt-BR: decimal comma.
    expect(formatNumber(2.5, 'pt', 2)).toBe('2,5');
    expect(formatRate(0.255, 'pt')).toBe('25,5%');
    expect(formatNumber(1234, 'pt')).toBe('1.234');
  });

  it('defaults to the last 7 days, today included, and drops a period the API would refuse', () => {
    expect(lastDays(7, '2026-11-27')).toEqual({ from: '2026-11-21', to: '2026-11-27' });
    expect(lastDays(1, '2026-03-01')).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    const read = (query: string) => readReportParams(new URLSearchParams(query), '2026-11-27');
    expect(read('')).toMatchObject({ from: '2026-11-21', to: '2026-11-27', queueIds: [] });
    expect(read('from=2026-11-10&to=2026-11-01')).toMatchObject({ from: '2026-11-21' });
    expect(read('from=2020-01-01&to=2026-11-01')).toMatchObject({ from: '2026-11-21' });
    expect(read('from=2026-10-01&to=2026-10-31&queueIds=3,x,3,-1,4&tagIds=9')).toMatchObject({
      from: '2026-10-01',
      to: '2026-10-31',
      queueIds: [3, 4],
      tagIds: [9],
      userIds: [],
    });
    expect(reportsToday(new Date('2026-11-28T02:00:00Z'))).toBe('2026-11-27');
    // The page's copies of the API's limits.
    expect([MAX_RANGE_DAYS, MAX_FILTER_IDS, REPORTS_ZONE]).toEqual([
      REPORTS_MAX_RANGE_DAYS,
      REPORTS_MAX_FILTER_IDS,
      REPORTS_TIME_ZONE,
    ]);
    for (const day of ['2026-02-29', '2028-02-29', '2026-13-01', '2026-1-01', '2026-11-27', ''])
      expect(isDay(day)).toBe(isIsoDate(day));
    expect(dayCount('2026-01-01', '2027-12-31')).toBe(daysInRange('2026-01-01', '2027-12-31'));
  });
});

/** The router's current query string. */
function Search() {
  return <div data-testid="search">{useLocation().search}</div>;
}

describe('ReportsPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let summary: ReportSummary;
  let heatmapOpened: number;
  const admin = createSessionUser({ profile: 'admin' }, { useReports: true });

  beforeEach(() => {
    summary = SUMMARY;
    heatmapOpened = 3;
    stubChartLayout();
    fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.includes('format=')) return new Response('userId,name\n', { status: 200 });
      if (url.startsWith('/api/reports/summary')) return json(200, summary);
      if (url.startsWith('/api/reports/agents')) return json(200, AGENTS);
      if (url.startsWith('/api/reports/queues')) return json(200, QUEUES);
      if (url.startsWith('/api/reports/heatmap')) return json(200, HEATMAP(heatmapOpened));
      if (url.startsWith('/api/reports/ratings/comments')) return json(200, { records: [], hasMore: false });
      if (url.startsWith('/api/queue')) return json(200, [{ id: 3, name: 'Suporte', color: '#000' }]);
      if (url.startsWith('/api/users/list')) return json(200, [{ id: 7, name: 'Ana' }]);
      if (url.startsWith('/api/whatsapp')) return json(200, []);
      if (url.startsWith('/api/tags/list')) return json(200, []);
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const calls = () => fetchMock.mock.calls.map(([u]) => String(u));

  it('renders the summary cards with their trends, the agents sorted by a column and the heat map', async () => {
    renderWithProviders(<ReportsPage />, { user: admin, route: '/reports?from=2026-11-21&to=2026-11-27' });
    const value = async (id: string) => (await screen.findByTestId(`report-card-${id}-value`)).textContent;
    expect(await value('opened')).toBe('10');
    expect(await value('resolved')).toBe('6');
    expect(await value('firstResponse')).toBe('1 min 20 s');
    expect(await value('resolution')).toBe('2 h 5 min');
    expect(await value('csat')).toBe('2.5 / 3');
    expect(screen.getByTestId('report-card-firstResponse-detail').textContent).toContain('p90 3 min 20 s');
    expect(screen.getByTestId('report-card-csat-rate-3').textContent).toBe('3★: 3');
    expect(screen.getByTestId('report-card-csat-rate-2').textContent).toBe('2★: 0');

    const opened = screen.getByTestId('report-card-opened-trend');
    expect(opened.getAttribute('data-direction')).toBe('up');
    expect(opened.textContent).toContain('+25%');
    expect(opened.textContent).toContain('Up +25% versus the previous period');
    const firstResponse = screen.getByTestId('report-card-firstResponse-trend');
    expect(firstResponse.getAttribute('data-direction')).toBe('down');
    expect(firstResponse.textContent).toContain('-20%');
    expect(firstResponse.textContent).toContain('previous period: 1 min 40 s');
    expect(screen.getByTestId('report-card-resolved-trend').getAttribute('data-direction')).toBe('flat');
    // No SLA figures in this summary: no SLA card.
    expect(screen.queryByTestId('report-card-sla')).toBeNull();

    const table = await screen.findByTestId('report-agents');
    const names = () =>
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent);
    expect(names()).toEqual(['Ana', 'Bruno']);
    expect(screen.getByTestId('report-agents-7-firstResponseAvg').textContent).toBe('1 min 20 s');
    expect(screen.getByTestId('report-agents-7-resolutionAvg').textContent).toBe('–');
    await userEvent.click(screen.getByTestId('report-agents-sort-handled'));
    expect(names()).toEqual(['Bruno', 'Ana']);
    await userEvent.click(screen.getByTestId('report-agents-sort-handled'));
    expect(names()).toEqual(['Ana', 'Bruno']);

    expect(
      within(await screen.findByTestId('report-section-queues')).getByText('No data in the period.'),
    ).toBeTruthy();
    const cell = await screen.findByTestId('report-heatmap-1-9');
    expect(cell.textContent).toBe('3');
    expect(cell.getAttribute('title')).toBe('Monday, 09h: 3');
    expect(calls()).toContain('/api/reports/summary?from=2026-11-21&to=2026-11-27');
  });

  it('shows the SLA card when the summary carries SLA figures', async () => {
    summary = {
      ...SUMMARY,
      current: {
        ...SUMMARY.current,
        sla: {
          firstResponse: { tracked: 8, met: 6, rate: 0.75 },
          resolution: { tracked: 4, met: 1, rate: 0.25 },
        },
      } as ReportFigures,
      previous: {
        ...SUMMARY.previous,
        sla: {
          firstResponse: { tracked: 2, met: 1, rate: 0.5 },
          resolution: { tracked: 0, met: 0, rate: null },
        },
      } as ReportFigures,
    };
    renderWithProviders(<ReportsPage />, { user: admin, route: '/reports' });
    expect((await screen.findByTestId('report-card-sla-value')).textContent).toBe('75%');
    expect(screen.getByTestId('report-card-sla-resolution').textContent).toContain(
      'Resolution: 25% (1 of 4)',
    );
    expect(screen.getByTestId('report-card-sla-firstResponse-trend').getAttribute('data-direction')).toBe(
      'up',
    );
  });

  it('shows the SLA card from the service levels the server sends beside the figures', async () => {
    summary = {
      ...SUMMARY,
      sla: {
        firstResponse: { tracked: 5, met: 4, rate: 0.8 },
        resolution: { tracked: 5, met: 2, rate: 0.4 },
      },
    };
    renderWithProviders(<ReportsPage />, { user: admin, route: '/reports' });
    expect((await screen.findByTestId('report-card-sla-value')).textContent).toBe('80%');
    expect(screen.getByTestId('report-card-sla-resolution').textContent).toContain(
      'Resolution: 40% (2 of 5)',
    );
  });

  it("says 'No data in the period.' when the period has nothing", async () => {
    summary = EMPTY_SUMMARY;
    heatmapOpened = 0;
    renderWithProviders(
      <>
        <Search />
        <ReportsPage />
      </>,
      { user: admin, route: '/reports' },
    );
    expect((await screen.findByTestId('report-empty')).textContent).toBe('No data in the period.');
    expect(screen.queryByTestId('report-cards')).toBeNull();
    expect(
      await within(await screen.findByTestId('report-section-heatmap')).findByText('No data in the period.'),
    ).toBeTruthy();
    const today = reportsToday();
    expect(calls()).toContain(`/api/reports/summary?from=${lastDays(7, today).from}&to=${today}`);
    // The default period is written into the address, so it can be linked.
    await waitFor(() =>
      expect(screen.getByTestId('search').textContent).toBe(`?from=${lastDays(7, today).from}&to=${today}`),
    );
  });

  it('shows an error state with a retry when a report fails', async () => {
    fetchMock.mockImplementation(async (input: RequestInfo | URL) =>
      String(input).startsWith('/api/reports/summary')
        ? json(500, { error: 'ERR_INTERNAL_SERVER_ERROR' })
        : json(200, []),
    );
    renderWithProviders(<ReportsPage />, { user: admin, route: '/reports' });
    expect((await screen.findByTestId('report-error-summary')).textContent).toContain(
      'Could not load the report.',
    );
  });

  it('downloads CSV and XLSX with the period and filters of the URL, as a chosen filter changes them', async () => {
    const saved: string[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:report', revokeObjectURL: () => {} }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderWithProviders(<ReportsPage />, {
      user: admin,
      route: '/reports?from=2026-10-01&to=2026-10-31&queueIds=3&tagIds=9,10',
    });
    await userEvent.click(await screen.findByTestId('report-download-agents-csv'));
    await waitFor(() =>
      expect(calls()).toContain(
        '/api/reports/agents?from=2026-10-01&to=2026-10-31&queueIds=3&tagIds=9%2C10&format=csv',
      ),
    );
    await waitFor(() => expect(saved).toEqual(['agents-2026-10-01_2026-10-31.csv']));
    await userEvent.click(screen.getByTestId('report-download-heatmap-xlsx'));
    await waitFor(() =>
      expect(calls()).toContain(
        '/api/reports/heatmap?from=2026-10-01&to=2026-10-31&queueIds=3&tagIds=9%2C10&format=xlsx',
      ),
    );

    // A period button and an agent filter change the reports and the downloads alike.
    await userEvent.click(screen.getByTestId('report-period-30'));
    await userEvent.click(
      within(screen.getByTestId('report-filters')).getByRole('combobox', { name: 'Agents' }),
    );
    await userEvent.click(await screen.findByTestId('report-filter-userIds-7'));
    await userEvent.keyboard('{Escape}');
    const { from, to } = lastDays(30, reportsToday());
    const query = `from=${from}&to=${to}&queueIds=3&userIds=7&tagIds=9%2C10`;
    await waitFor(() => expect(calls()).toContain(`/api/reports/summary?${query}`));
    await userEvent.click(screen.getByTestId('report-download-queues-csv'));
    await waitFor(() => expect(calls()).toContain(`/api/reports/queues?${query}&format=csv`));
  });

  it('shows no reports to an agent', async () => {
    renderWithProviders(<ReportsPage />, {
      user: createSessionUser({ profile: 'user' }, { useReports: true }),
    });
    expect(screen.getByTestId('no-permission')).toBeTruthy();
    expect(screen.queryByTestId('report-filters')).toBeNull();
  });

  it('shows none to an admin whose plan lacks them, with the plan toast', async () => {
    renderWithProviders(<ReportsPage />, {
      user: createSessionUser({ profile: 'admin' }, { useReports: false }),
    });
    expect(screen.getByTestId('no-permission')).toBeTruthy();
    expect(
      await screen.findByText('This company has no permission to access this page! Redirecting…'),
    ).toBeTruthy();
    expect(calls().filter((u) => u.startsWith('/api/reports'))).toEqual([]);
  });
});
