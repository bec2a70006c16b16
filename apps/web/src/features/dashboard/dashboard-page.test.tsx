import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DashboardResponse } from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubChartLayout } from '../../test/charts';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { DashboardPage } from './dashboard-page';
import { formatMinutes, shortDay } from './format';

const ANSWER: DashboardResponse = {
  counters: {
    supportHappening: 4,
    supportPending: 2,
    supportFinished: 13,
    leads: 5,
    avgSupportTime: 36.67,
    avgWaitTime: 125,
  },
  attendants: [
    { id: 1, name: 'Ana', rating: 2.5, avgSupportTime: 40, online: true, tickets: 2 },
    { id: 2, name: 'Bruno', rating: 0, avgSupportTime: 0, online: false, tickets: 0 },
  ],
};

describe('formatMinutes', () => {
  it("shows minutes as 'HH h mm m'", () => {
    expect(formatMinutes(0)).toBe('00 h 00 m');
    expect(formatMinutes(36.67)).toBe('00 h 37 m');
    expect(formatMinutes(125)).toBe('02 h 05 m');
    expect(formatMinutes(6000)).toBe('100 h 00 m');
    expect(formatMinutes(null)).toBe('00 h 00 m');
    expect(shortDay('2026-01-09')).toBe('09/01');
  });
});

describe('DashboardPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const admin = createSessionUser({ profile: 'admin' });

  beforeEach(() => {
    stubChartLayout();
    fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.startsWith('/api/dashboard/ticketsUsers'))
        return json(200, { data: [{ nome: 'Ana', quantidade: 3 }], count: 3 });
      if (url.startsWith('/api/dashboard/ticketsDay'))
        return json(200, { data: [{ data: '2026-01-10', total: 2 }], count: 2 });
      if (url.startsWith('/api/dashboard')) return json(200, ANSWER);
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const dashboardCalls = () =>
    fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => /^\/api\/dashboard(\?|$)/.test(u));

  it('loads after 1 s and renders the counters, the attendants and both charts', async () => {
    renderWithProviders(<DashboardPage />, { user: admin });
    expect(screen.getByTestId('dashboard-page')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fetchMock).not.toHaveBeenCalled();

    const happening = await screen.findByText('4', {}, { timeout: 3000 });
    expect(screen.getByTestId('counter-supportHappening').contains(happening)).toBe(true);
    const value = (key: string) => screen.getByTestId(`counter-${key}-value`).textContent;
    expect(value('supportPending')).toBe('2');
    expect(value('supportFinished')).toBe('13');
    expect(value('leads')).toBe('5');
    expect(screen.getByTestId('counter-leads-help').textContent).toBe(
      'Contacts added in the period, imported ones included.',
    );
    expect(value('avgSupportTime')).toBe('00 h 37 m');
    expect(value('avgWaitTime')).toBe('02 h 05 m');
    expect(dashboardCalls()).toEqual(['/api/dashboard']);

    const table = screen.getByTestId('attendants-table');
    const ana = within(table).getByTestId('attendant-row-1');
    expect(ana.textContent).toContain('Ana');
    expect(ana.textContent).toContain('00 h 40 m');
    expect(within(ana).getByRole('img').getAttribute('aria-label')).toMatch(/2\.5 Star/);
    expect(within(table).getByTestId('attendant-online-1').getAttribute('data-online')).toBe('true');
    expect(within(table).getByTestId('attendant-online-2').getAttribute('data-online')).toBe('false');

    expect(
      await within(await screen.findByTestId('chart-users', {}, { timeout: 10_000 })).findByText(/\(3\)/),
    ).toBeTruthy();
    expect(await within(screen.getByTestId('chart-days')).findByText(/\(2\)/)).toBeTruthy();
  });

  it("toasts 'selectFilterError' when no period is chosen, and filters by the chosen one", async () => {
    renderWithProviders(<DashboardPage />, { user: admin });
    await screen.findByText('Ana', {}, { timeout: 3000 });
    await userEvent.click(screen.getByTestId('dashboard-filter'));
    expect(await screen.findByText('Choose a filter')).toBeTruthy();
    expect(dashboardCalls()).toHaveLength(1);

    await userEvent.selectOptions(screen.getByTestId('dashboard-period'), '7');
    await userEvent.click(screen.getByTestId('dashboard-filter'));
    await waitFor(() => expect(dashboardCalls()).toContain('/api/dashboard?days=7'));
  });

  it("asks the server again when 'Filtrar' is pressed with the same filter (page and charts)", async () => {
    renderWithProviders(<DashboardPage />, { user: admin });
    await screen.findByText('Ana', {}, { timeout: 3000 });
    await userEvent.selectOptions(screen.getByTestId('dashboard-period'), '7');
    await userEvent.click(screen.getByTestId('dashboard-filter'));
    await waitFor(() => expect(dashboardCalls().filter((u) => u.endsWith('days=7'))).toHaveLength(1));
    await userEvent.click(screen.getByTestId('dashboard-filter'));
    await waitFor(() => expect(dashboardCalls().filter((u) => u.endsWith('days=7'))).toHaveLength(2));

    const chartCalls = () =>
      fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/dashboard/ticketsUsers'));
    await waitFor(() => expect(chartCalls()).toHaveLength(1));
    await userEvent.click(screen.getByTestId('chart-users-filter'));
    await waitFor(() => expect(chartCalls()).toHaveLength(2));
  });

  it('filters by a date range, and asks for both dates', async () => {
    renderWithProviders(<DashboardPage />, { user: admin });
    await screen.findByText('Ana', {}, { timeout: 3000 });
    await userEvent.selectOptions(screen.getByTestId('dashboard-filter-type'), 'date');
    // The fields follow the UI language (en here: month, day, year).
    // The pickers are a lazy chunk, fetched when the date filter is chosen.
    await userEvent.click(
      within(await screen.findByTestId('dashboard-date-from')).getAllByRole('spinbutton')[0]!,
    );
    await userEvent.keyboard('01102026');
    await userEvent.click(screen.getByTestId('dashboard-filter'));
    expect(await screen.findByText('Choose a filter')).toBeTruthy();
    await userEvent.click(within(screen.getByTestId('dashboard-date-to')).getAllByRole('spinbutton')[0]!);
    await userEvent.keyboard('01112026');
    await userEvent.click(screen.getByTestId('dashboard-filter'));
    await waitFor(() =>
      expect(dashboardCalls()).toContain('/api/dashboard?date_from=2026-01-10&date_to=2026-01-11'),
    );
  });

  it('shows an error state when the dashboard fails', async () => {
    fetchMock.mockImplementation(async () => json(500, { error: 'ERR_INTERNAL_SERVER_ERROR' }));
    renderWithProviders(<DashboardPage />, { user: admin });
    expect(await screen.findByText('Could not load the dashboard.', {}, { timeout: 3000 })).toBeTruthy();
    expect(await screen.findByText('Could not load the users chart.')).toBeTruthy();
  });
});
