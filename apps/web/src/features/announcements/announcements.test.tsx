import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { scrollBoxTo, stubAllBoxHeights } from '../../test/scroll';
import { isAcceptedAnnouncementImage } from './announcement-modal';
import { AnnouncementsPage } from './announcements-page';
import { AnnouncementsPopover } from './announcements-popover';

const record = (overrides = {}) => ({
  id: 1,
  title: 'Manutenção',
  text: 'Hoje às 22h',
  priority: 1,
  status: true,
  mediaPath: null,
  mediaName: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

describe('announcements', () => {
  let records: ReturnType<typeof record>[];
  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/announcements?')) return json(200, { records, hasMore: false });
    if (url === '/api/announcements' && method === 'POST')
      return json(201, record({ id: 3, ...JSON.parse(String(init?.body)) }));
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    localStorage.clear();
    records = [record(), record({ id: 2, title: 'Novidade', priority: 3 })];
  });

  it('the top bar counts unread announcements; opening lists them and clears the count for next time', async () => {
    const user = userEvent.setup();
    const agent = createSessionUser({ profile: 'user' });
    const first = renderWithProviders(<AnnouncementsPopover />, { user: agent });
    await waitFor(() => expect(screen.getByTestId('announcements-count').textContent).toBe('2'));
    await user.click(screen.getByTestId('announcements-button'));
    const popover = await screen.findByTestId('announcements-popover');
    expect(within(popover).getByText('Manutenção')).toBeTruthy();
    expect(within(popover).getByText('High')).toBeTruthy();
    expect(within(popover).getByText('Low')).toBeTruthy();
    first.unmount();

    // Read state is kept in the browser: a new announcement alone counts as unread.
    records = [record({ id: 5, title: 'Outra' }), ...records];
    renderWithProviders(<AnnouncementsPopover />, { user: agent });
    await waitFor(() => expect(screen.getByTestId('announcements-count').textContent).toBe('1'));
  });

  it('the popover loads the next page within 100 px of its bottom, and counts what it loads as read', async () => {
    const all = Array.from({ length: 25 }, (_, i) => record({ id: i + 1, title: `Aviso ${i + 1}` }));
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const page = Number(url.searchParams.get('pageNumber'));
      const rows = all.slice((page - 1) * 20, page * 20);
      return json(200, { records: rows, hasMore: page * 20 < all.length });
    });
    const restore = stubAllBoxHeights(1500, 480);
    try {
      const user = userEvent.setup();
      renderWithProviders(<AnnouncementsPopover />, { user: createSessionUser({ profile: 'user' }) });
      await waitFor(() => expect(screen.getByTestId('announcements-count').textContent).toBe('20'));
      await user.click(screen.getByTestId('announcements-button'));
      const popover = await screen.findByTestId('announcements-popover');
      expect(within(popover).getAllByTestId(/^announcement-item-/)).toHaveLength(20);
      scrollBoxTo(popover, 1500 - 480 - 150);
      await new Promise((r) => setTimeout(r, 50));
      expect(within(popover).getAllByTestId(/^announcement-item-/)).toHaveLength(20);
      scrollBoxTo(popover, 1500 - 480 - 60);
      await waitFor(() => expect(within(popover).getAllByTestId(/^announcement-item-/)).toHaveLength(25));
      expect(within(popover).getByText('Aviso 25')).toBeTruthy();
      // The page loaded while open is read too: no count is left.
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.getByTestId('announcements-count').textContent).toBe('0'));
    } finally {
      restore();
    }
  });

  it('sends a user who is not the super user to / with an info toast', async () => {
    renderWithProviders(
      <Routes>
        <Route path="/" element={<div data-testid="home" />} />
        <Route path="/announcements" element={<AnnouncementsPage />} />
      </Routes>,
      { user: createSessionUser({ profile: 'admin', super: false }), route: '/announcements' },
    );
    expect(await screen.findByText('Only the super user can manage announcements.')).toBeTruthy();
    expect(await screen.findByTestId('home', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('lets the super user list and add announcements with the default priority 3', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AnnouncementsPage />, {
      user: createSessionUser({ profile: 'admin', super: true }),
    });
    expect(await screen.findByText('Novidade')).toBeTruthy();
    await user.click(screen.getByTestId('add-announcement-button'));
    // The modal is a lazy chunk.
    await user.click(await screen.findByTestId('announcement-save'));
    expect(await screen.findAllByText(/required/i)).not.toHaveLength(0);
    await user.type(screen.getByTestId('announcement-title'), 'Aviso');
    await user.type(screen.getByTestId('announcement-text'), 'Texto do aviso');
    await user.click(screen.getByTestId('announcement-save'));
    await waitFor(() => {
      const call = fetchMock.mock.calls.find(([u, i]) => u === '/api/announcements' && i?.method === 'POST');
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({
        title: 'Aviso',
        text: 'Texto do aviso',
        priority: 3,
        status: true,
      });
    });
    await act(async () => {});
  });

  it('accepts only png, jpg and jpeg images within the size limit', () => {
    expect(isAcceptedAnnouncementImage(new File(['x'], 'a.png'))).toBe(true);
    expect(isAcceptedAnnouncementImage(new File(['x'], 'a.JPEG'))).toBe(true);
    expect(isAcceptedAnnouncementImage(new File(['x'], 'a.gif'))).toBe(false);
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.jpg');
    expect(isAcceptedAnnouncementImage(big)).toBe(false);
  });
});
