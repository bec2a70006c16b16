import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { KanbanTicket } from '@zapdesk/shared';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { layOutVirtualListsInEachTest } from '../../test/virtual-layout';
import { applyKanbanTagEvent, applyKanbanTicketEvent, kanbanKeys, OPEN_LANE } from './kanban-cache';
import { KanbanPage } from './kanban-page';
import { useMoveCard } from './use-kanban';

const card = (id: number, tags: KanbanTicket['tags'], name = `Cliente ${id}`): KanbanTicket => ({
  id,
  uuid: `uuid-${id}`,
  status: 'open',
  queueId: null,
  userId: null,
  contact: { id: id + 100, name, number: `5511900000${id}` },
  lastMessage: `_última_ ${id}`,
  tags,
  updatedAt: '2026-11-23T10:00:00.000Z',
});
const DOING = { id: 7, name: 'Em andamento', color: '#123456' };
const PLAIN = { id: 9, name: 'VIP', color: '#654321' };

describe('kanban board', () => {
  layOutVirtualListsInEachTest({ viewportHeight: 1000, rowHeight: 80 });
  let fetchMock: ReturnType<typeof vi.fn>;
  const admin = createSessionUser(
    { profile: 'admin', queues: [{ id: 4, name: 'Vendas', color: '#000' }] },
    {
      useKanban: true,
    },
  );

  beforeEach(() => {
    fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/api/tags/kanban') return json(200, { lista: [{ ...DOING, kanban: 1 }] });
      if (url.startsWith('/api/ticket/kanban'))
        return json(200, { tickets: [card(1, [PLAIN]), card(2, [DOING, PLAIN], 'Bruna')], hasMore: false });
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  const renderBoard = (user = admin) =>
    renderWithProviders(
      <Routes>
        <Route path="/kanban" element={<KanbanPage />} />
        <Route path="/tickets/:uuid" element={<div data-testid="ticket-page" />} />
        <Route path="/" element={<div data-testid="home-page" />} />
      </Routes>,
      { user, route: '/kanban' },
    );

  it("puts untagged cards in 'open' and the others in their kanban tag's lane", async () => {
    renderBoard();
    const open = await screen.findByTestId(`kanban-lane-${OPEN_LANE}`);
    const doing = screen.getByTestId(`kanban-lane-${DOING.id}`);
    // A tag that is not a lane (VIP) leaves the card in 'open'.
    expect(within(open).getByTestId('kanban-card-1')).toBeTruthy();
    expect(within(doing).getByTestId('kanban-card-2')).toBeTruthy();
    expect(within(doing).getByText('Bruna')).toBeTruthy();
    expect(within(doing).getByText('55119000002')).toBeTruthy();
    // The last message with its WhatsApp marks rendered.
    expect(within(doing).getByText('última').tagName).toBe('EM');
    // The spec's call: showAll for admins and the user's queue ids as JSON.
    const url = String(fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/ticket/kanban'))?.[0]);
    const query = new URL(url, 'http://x').searchParams;
    expect(query.get('showAll')).toBe('true');
    expect(query.get('queueIds')).toBe('[4]');
  });

  it('sends no showAll for an agent', async () => {
    renderBoard(createSessionUser({ profile: 'user' }, { useKanban: true }));
    await screen.findByTestId('kanban-card-1');
    const url = String(fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/ticket/kanban'))?.[0]);
    expect(new URL(url, 'http://x').searchParams.get('showAll')).toBeNull();
  });

  it('opens /tickets/{uuid} when a card is clicked', async () => {
    renderBoard();
    await userEvent.click(within(await screen.findByTestId('kanban-card-1')).getByText('Cliente 1'));
    expect(await screen.findByTestId('ticket-page')).toBeTruthy();
  });

  it('moves a card live when a ticket event changes its tags, and drops closed tickets', async () => {
    const { queryClient } = renderBoard();
    await screen.findByTestId('kanban-card-1');
    act(() => applyKanbanTicketEvent(queryClient, { action: 'update', ticket: card(1, [DOING]) }));
    await waitFor(() =>
      expect(within(screen.getByTestId(`kanban-lane-${DOING.id}`)).getByTestId('kanban-card-1')).toBeTruthy(),
    );
    expect(within(screen.getByTestId(`kanban-lane-${OPEN_LANE}`)).queryByTestId('kanban-card-1')).toBeNull();
    act(() =>
      applyKanbanTicketEvent(queryClient, { action: 'update', ticket: { ...card(1, []), status: 'closed' } }),
    );
    await waitFor(() => expect(screen.queryByTestId('kanban-card-1')).toBeNull());
    act(() => applyKanbanTicketEvent(queryClient, { action: 'create', ticket: card(3, []) }));
    expect(await screen.findByTestId('kanban-card-3')).toBeTruthy();
  });

  it('reads the lanes again when a tag changes', async () => {
    const { queryClient } = renderBoard();
    await screen.findByTestId(`kanban-lane-${DOING.id}`);
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/api/tags/kanban')
        return json(200, {
          lista: [
            { ...DOING, kanban: 1 },
            { ...PLAIN, kanban: 1 },
          ],
        });
      return json(200, { tickets: [card(1, [PLAIN])], hasMore: false });
    });
    expect(screen.queryByTestId(`kanban-lane-${PLAIN.id}`)).toBeNull();
    act(() => applyKanbanTagEvent(queryClient));
    const vip = await screen.findByTestId(`kanban-lane-${PLAIN.id}`);
    expect(within(vip).getByTestId('kanban-card-1')).toBeTruthy();
  });

  it('shows no board without the plan flag', async () => {
    renderBoard(createSessionUser({ profile: 'admin' }, { useKanban: false }));
    expect(await screen.findByTestId('no-permission')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('without the plan flag: the plan toast, then / after 1 second', async () => {
    renderBoard(createSessionUser({ profile: 'admin' }, { useKanban: false }));
    expect(await screen.findByText(/no permission to access this page/)).toBeTruthy();
    expect(screen.queryByTestId('home-page')).toBeNull();
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy();
  });
});

describe('moving a card', () => {
  it('to a tag lane is one PUT with replace; to open one DELETE; the card moves at once', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
        return json(200, { ...card(1, [DOING]), tags: [DOING] });
      }),
    );
    const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
    queryClient.setQueryData(kanbanKeys.tickets, {
      pages: [{ tickets: [card(1, [])], hasMore: false }],
      pageParams: [1],
    });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useMoveCard(), { wrapper });
    await act(() => result.current.mutateAsync({ ticketId: 1, to: DOING.id, tags: [DOING] }));
    expect(calls).toEqual(['PUT /api/ticket-tags/1/7?replace=true']);
    const cached = queryClient.getQueryData<{ pages: { tickets: KanbanTicket[] }[] }>(kanbanKeys.tickets);
    expect(cached?.pages[0]?.tickets[0]?.tags).toEqual([DOING]);
    await act(() => result.current.mutateAsync({ ticketId: 1, to: OPEN_LANE, tags: [] }));
    expect(calls).toEqual(['PUT /api/ticket-tags/1/7?replace=true', 'DELETE /api/ticket-tags/1']);
    vi.unstubAllGlobals();
  });
});
