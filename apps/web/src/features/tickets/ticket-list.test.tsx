import { screen, waitFor } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { createTicket } from './test-fixtures';
import { TicketList } from './ticket-list';

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
});
