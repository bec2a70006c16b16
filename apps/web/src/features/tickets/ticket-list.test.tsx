import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { scrollBoxTo } from '../../test/scroll';
import { layOutVirtualListsInEachTest } from '../../test/virtual-layout';
import { createTicket } from './test-fixtures';
import { TicketList } from './ticket-list';
import { steppedTicket } from './use-ticket-step-keys';

const renderList = () =>
  renderWithProviders(<TicketList params={{ status: 'open' }} />, {
    user: createSessionUser(),
    route: '/tickets',
  });

describe('TicketList', () => {
  layOutVirtualListsInEachTest({ viewportHeight: 800, rowHeight: 100 });
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

  it('loads the next page only once the list is scrolled to within 100 px of its end', async () => {
    const first = Array.from({ length: 20 }, () => createTicket());
    const second = [createTicket(), createTicket()];
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const page = Number(new URL(String(input), 'http://localhost').searchParams.get('pageNumber'));
      return json(200, { tickets: page === 1 ? first : second, hasMore: page < 2, count: 22 });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderList();
    await screen.findByTestId(`ticket-item-${first[0]?.id}`);
    // 20 rows of 100 px in an 800 px box: the end is 1,200 px below the box's bottom.
    const box = screen.getByTestId('tickets-list').firstElementChild as HTMLElement;
    await new Promise((r) => setTimeout(r, 100));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    scrollBoxTo(box, 1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId(`ticket-item-${first[0]?.id}`)).toBeNull();
    expect(screen.getByTestId(`ticket-item-${first[17]?.id}`)).toBeTruthy();
    // 50 px from the end: the second page.
    scrollBoxTo(box, 1150);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(
      new URL(String(fetchMock.mock.calls[1]?.[0]), 'http://localhost').searchParams.get('pageNumber'),
    ).toBe('2');
    expect(await screen.findByTestId(`ticket-item-${second[0]?.id}`)).toBeTruthy();
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
      <Routes>
        <Route path="/tickets/:uuid" element={<Page />} />
      </Routes>,
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
