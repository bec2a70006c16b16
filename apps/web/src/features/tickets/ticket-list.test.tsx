import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { VirtuosoMockContext } from 'react-virtuoso';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { createTicket } from './test-fixtures';
import { TicketList } from './ticket-list';
import { steppedTicket } from './use-ticket-step-keys';

const renderList = () =>
  renderWithProviders(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 100 }}>
      <TicketList params={{ status: 'open' }} />
    </VirtuosoMockContext.Provider>,
    { user: createSessionUser(), route: '/tickets' },
  );

describe('TicketList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('renders only the visible rows of 5,000 tickets', async () => {
    const tickets = Array.from({ length: 5000 }, () => createTicket());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { tickets, hasMore: false, count: 5000 })),
    );
    renderList();
    expect(await screen.findByTestId(`ticket-item-${tickets[0]?.id}`)).toBeTruthy();
    const rendered = document.querySelectorAll('[data-testid^="ticket-item-"]').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(30);
  });

  it('loads the next page when the end of the list comes into view while hasMore', async () => {
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const page = Number(new URL(String(input), 'http://localhost').searchParams.get('pageNumber'));
      return json(200, { tickets: [createTicket(), createTicket()], hasMore: page < 2, count: 4 });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderList();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const pages = fetchMock.mock.calls.map(([url]) =>
      new URL(String(url), 'http://localhost').searchParams.get('pageNumber'),
    );
    expect(pages).toEqual(['1', '2']);
    await waitFor(() => expect(document.querySelectorAll('[data-testid^="ticket-item-"]')).toHaveLength(4));
    await new Promise((r) => setTimeout(r, 100));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('shows the empty state', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { tickets: [], hasMore: false, count: 0 })),
    );
    renderList();
    expect(await screen.findByTestId('tickets-empty')).toBeTruthy();
  });

  it('opens the next and the previous ticket on Alt+ArrowDown and Alt+ArrowUp', async () => {
    const [a, b, c] = [createTicket(), createTicket(), createTicket()];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { tickets: [a, b, c], hasMore: false, count: 3 })),
    );
    function Page() {
      const uuid = useLocation().pathname.split('/')[2];
      return (
        <>
          <div data-testid="location">{uuid}</div>
          <TicketList params={{ status: 'open' }} selectedUuid={uuid} />
        </>
      );
    }
    const user = userEvent.setup();
    renderWithProviders(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 100 }}>
        <Routes>
          <Route path="/tickets/:uuid" element={<Page />} />
        </Routes>
      </VirtuosoMockContext.Provider>,
      { user: createSessionUser(), route: `/tickets/${b?.uuid}` },
    );
    await screen.findByTestId(`ticket-item-${a?.id}`);
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(screen.getByTestId('location').textContent).toBe(c?.uuid);
    // At the end of the list nothing moves.
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(screen.getByTestId('location').textContent).toBe(c?.uuid);
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}{Alt>}{ArrowUp}{/Alt}');
    expect(screen.getByTestId('location').textContent).toBe(a?.uuid);
    // Without Alt the arrows are left alone.
    await user.keyboard('{ArrowDown}');
    expect(screen.getByTestId('location').textContent).toBe(a?.uuid);
  });

  it('steps over waiting tickets, which open only through Accept', () => {
    const open1 = createTicket();
    const waiting = createTicket({ status: 'pending' });
    const open2 = createTicket();
    const list = [open1, waiting, open2];
    expect(steppedTicket(list, open1.uuid, 1)).toBe(open2);
    expect(steppedTicket(list, open2.uuid, -1)).toBe(open1);
    expect(steppedTicket(list, open2.uuid, 1)).toBeNull();
    expect(steppedTicket(list, 'elsewhere', 1)).toBeNull();
  });
});
