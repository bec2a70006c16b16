import { screen, waitFor } from '@testing-library/react';
import type { UserLoad } from '@zapdesk/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser, createUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { layOutVirtualListsInEachTest } from '../../test/virtual-layout';
import { UsersPage } from './users-page';

afterEach(() => vi.unstubAllGlobals());

const agent = createUser({ name: 'Ana' });
const other = createUser({ name: 'Bruno' });
const loads: UserLoad[] = [
  {
    id: agent.id,
    name: 'Ana',
    profile: 'user',
    openTickets: 2,
    maxOpenTickets: 5,
    availability: 'away',
    online: true,
    queues: [],
  },
  {
    id: other.id,
    name: 'Bruno',
    profile: 'user',
    openTickets: 0,
    maxOpenTickets: 0,
    availability: 'online',
    online: false,
    queues: [],
  },
];

/** The virtualised table laid out (jsdom has no layout). */
layOutVirtualListsInEachTest({ viewportHeight: 2000, rowHeight: 50 });
const page = <UsersPage />;

function stubApi() {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = String(input);
      urls.push(url);
      if (url.includes('/users/load')) return Promise.resolve(json(200, loads));
      if (url.includes('/users'))
        return Promise.resolve(json(200, { users: [agent, other], count: 2, hasMore: false }));
      return new Promise<Response>(() => {});
    }),
  );
  return urls;
}

describe("users page: the agents' load", () => {
  it('shows admins open tickets over capacity and the status of each agent', async () => {
    stubApi();
    renderWithProviders(page, { user: createSessionUser({ profile: 'admin' }), route: '/users' });
    expect(await screen.findByRole('columnheader', { name: 'Load' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId(`user-load-${agent.id}`).textContent).toBe('2/5Away'));
    expect(screen.getByTestId(`user-load-${other.id}`).textContent).toBe('0/∞Offline');
  });

  it('asks nothing of the load for agents', async () => {
    const urls = stubApi();
    renderWithProviders(page, { user: createSessionUser({ profile: 'user' }), route: '/users' });
    expect(await screen.findByText('Ana')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: 'Load' })).toBeNull();
    expect(urls.some((u) => u.includes('/users/load'))).toBe(false);
  });
});
