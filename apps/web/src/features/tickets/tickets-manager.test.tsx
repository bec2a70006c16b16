import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFirstPageForTests, settleFirstPage } from '../../lib/first-page';
import i18n from '../../lib/i18n';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { layOutVirtualListsInEachTest } from '../../test/virtual-layout';
import { createTicket } from './test-fixtures';
import { applyTicketEvent, viewerOf } from './tickets-cache';
import { TicketsManager } from './tickets-manager';

describe('TicketsManager', { timeout: 15_000 }, () => {
  layOutVirtualListsInEachTest({ viewportHeight: 800, rowHeight: 100 });
  let fetchMock: ReturnType<typeof vi.fn>;
  const agent = createSessionUser({ id: 7, queues: [{ id: 1, name: 'Sales', color: '#ff0000' }] });
  const openTickets = [createTicket({ status: 'open', queueId: 1, userId: 7 })];
  const pendingTickets = [
    createTicket({ status: 'pending', queueId: 1 }),
    createTicket({ status: 'pending', queueId: 1 }),
  ];

  beforeEach(() => {
    fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/tickets') {
        const status = url.searchParams.get('status');
        if (status === 'open') return json(200, { tickets: openTickets, hasMore: false, count: 12 });
        if (status === 'pending') return json(200, { tickets: pendingTickets, hasMore: false, count: 2 });
        return json(200, { tickets: [], hasMore: false, count: 0 });
      }
      if (url.pathname === '/api/users/list')
        return json(200, [
          { id: 7, name: 'Admin' },
          { id: 9, name: 'Agente Nove' },
        ]);
      if (url.pathname === '/api/tags/list')
        return json(200, [{ id: 3, name: 'VIP', color: '#111111', kanban: 0 }]);
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    resetFirstPageForTests();
  });

  const ticketCalls = () =>
    fetchMock.mock.calls
      .map(([url]) => new URL(String(url), 'http://localhost'))
      .filter((url) => url.pathname === '/api/tickets');

  const renderManager = (user = agent) =>
    renderWithProviders(<TicketsManager />, { user, route: '/tickets' });

  it('shows the assigned and pending counts and the assigned list, filtered by the user queues', async () => {
    const view = renderManager();
    await waitFor(() => expect(screen.getByTestId('tickets-count-assigned').textContent).toBe('12'));
    expect(screen.getByTestId('tickets-count-pending').textContent).toBe('2');
    expect(await screen.findByTestId(`ticket-item-${openTickets[0]?.id}`)).toBeTruthy();
    expect(ticketCalls().every((url) => url.searchParams.get('queueIds') === '[1]')).toBe(true);
    expect(screen.queryByTestId('show-all-switch')).toBeNull();

    await userEvent.setup().click(screen.getByTestId('tickets-subtab-pending'));
    expect(await screen.findByTestId(`ticket-accept-${pendingTickets[0]?.id}`)).toBeTruthy();

    // A live update moves a pending ticket to 'assigned': both badges follow.
    act(() => {
      applyTicketEvent(
        view.queryClient,
        { action: 'update', ticket: { ...pendingTickets[1], status: 'open', userId: 7 } },
        viewerOf(agent),
      );
    });
    await waitFor(() => expect(screen.getByTestId('tickets-count-assigned').textContent).toBe('13'));
    expect(screen.getByTestId('tickets-count-pending').textContent).toBe('1');
  });

  it('orders the open tab by the nearest due time on request (sortBy=due), in pt', async () => {
    await i18n.changeLanguage('pt');
    try {
      renderManager();
      const sort = (await screen.findByRole('combobox', { name: 'Ordem da lista' })) as HTMLSelectElement;
      expect([...sort.options].map((o) => o.text)).toEqual(['Mais recentes', 'Prazo mais próximo']);
      await waitFor(() => expect(ticketCalls().length).toBeGreaterThan(0));
      expect(ticketCalls().every((url) => url.searchParams.get('sortBy') === null)).toBe(true);
      await userEvent.selectOptions(sort, 'due');
      await waitFor(() =>
        expect(
          ticketCalls()
            .filter((url) => url.searchParams.get('sortBy') === 'due')
            .map((url) => url.searchParams.get('status'))
            .sort(),
        ).toEqual(['open', 'pending']),
      );
      expect(await screen.findByTestId(`ticket-item-${openTickets[0]?.id}`)).toBeTruthy();
      await userEvent.click(screen.getByTestId('tickets-tab-closed'));
      expect(screen.queryByTestId('tickets-sort')).toBeNull();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('shows the show-all switch to admins and sends showAll', async () => {
    const user = userEvent.setup();
    renderManager(createSessionUser({ id: 7, profile: 'admin' }));
    // MUI's switch replaces the plain one once the first page is usable; click after the swap (a
    // click during it can be lost).
    act(() => settleFirstPage());
    await waitFor(() =>
      expect(screen.getByTestId('show-all-switch').closest('.MuiSwitch-root')).not.toBeNull(),
    );
    await user.click(screen.getByTestId('show-all-switch'));
    await waitFor(() =>
      expect(ticketCalls().some((url) => url.searchParams.get('showAll') === 'true')).toBe(true),
    );
  });

  it("searches every ticket for admins, so the users filter finds the chosen users' tickets", async () => {
    const user = userEvent.setup();
    renderManager(createSessionUser({ id: 7, profile: 'admin' }));
    await user.click(screen.getByTestId('tickets-tab-search'));
    await user.click(await screen.findByTestId('tickets-search-users'));
    await user.click(await screen.findByRole('option', { name: 'Agente Nove' }));
    await waitFor(() =>
      expect(ticketCalls().some((url) => url.searchParams.get('users') === '[9]')).toBe(true),
    );
    const filtered = ticketCalls().filter((url) => url.searchParams.get('users') === '[9]');
    expect(filtered.every((url) => url.searchParams.get('showAll') === 'true')).toBe(true);
    // The open tabs keep the switch's choice (off).
    expect(
      ticketCalls().some(
        (url) => url.searchParams.get('status') === 'open' && url.searchParams.get('showAll'),
      ),
    ).toBe(false);
  });

  it('keeps the search of users who may not show all within what they see', async () => {
    const user = userEvent.setup();
    renderManager();
    await user.click(screen.getByTestId('tickets-tab-search'));
    await user.type(await screen.findByTestId('tickets-search'), 'ana');
    await waitFor(
      () => expect(ticketCalls().some((url) => url.searchParams.get('searchParam') === 'ana')).toBe(true),
      {
        timeout: 1500,
      },
    );
    // The filters are a lazy chunk: the tags filter shows, the users filter does not.
    expect(await screen.findByTestId('tickets-search-tags')).toBeTruthy();
    expect(screen.queryByTestId('tickets-search-users')).toBeNull();
    expect(ticketCalls().some((url) => url.searchParams.get('showAll'))).toBe(false);
  });

  it('loads the search box with the search tab and puts the focus in it', async () => {
    const user = userEvent.setup();
    renderManager();
    expect(screen.queryByTestId('tickets-search')).toBeNull();
    await user.click(screen.getByTestId('tickets-tab-search'));
    const box = await screen.findByTestId('tickets-search');
    await waitFor(() => expect(document.activeElement).toBe(box));
  });

  it('applies the lowercased search after 500 ms; clearing it returns to the open tab', async () => {
    const user = userEvent.setup();
    renderManager();
    await user.click(screen.getByTestId('tickets-tab-search'));
    const box = await screen.findByTestId('tickets-search');
    await user.type(box, 'MaRia');
    const searched = () => ticketCalls().filter((url) => url.searchParams.get('searchParam'));
    await new Promise((r) => setTimeout(r, 250));
    expect(searched()).toHaveLength(0);
    await waitFor(() => expect(searched()).toHaveLength(1), { timeout: 1500 });
    expect(searched()[0]?.searchParams.get('searchParam')).toBe('maria');
    expect(searched()[0]?.searchParams.get('status')).toBeNull();

    await user.clear(box);
    await waitFor(() =>
      expect(screen.getByTestId('tickets-tab-open').getAttribute('aria-selected')).toBe('true'),
    );
    expect(screen.queryByTestId('tickets-search')).toBeNull();
    expect(screen.getByTestId('tickets-subtab-assigned')).toBeTruthy();
  });
});
