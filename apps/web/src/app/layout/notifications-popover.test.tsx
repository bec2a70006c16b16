import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMessage, createTicket } from '../../features/tickets/test-fixtures';
import { applyAppMessageEvent, viewerOf } from '../../features/tickets/tickets-cache';
import { createSessionUser } from '../../test/fixtures';
import { answerFirst, json, stubFetch } from '../../test/http';
import { renderWithLocation } from '../../test/render';
import { scrollBoxTo, stubAllBoxHeights } from '../../test/scroll';
import { NotificationsPopover } from './notifications-popover';

vi.mock('../../features/tickets/notification-sound', () => ({ playNotificationSound: vi.fn() }));
const { playNotificationSound } = await import('../../features/tickets/notification-sound');

describe('NotificationsPopover', () => {
  const unread = createTicket({
    unreadMessages: 2,
    queueId: 1,
    uuid: 'unread-uuid',
    lastMessage: '*Admin:*\nOlá',
  });
  const pending = createTicket({ status: 'pending', queueId: 1 });
  const unreadPending = createTicket({ status: 'pending', queueId: null, userId: null, unreadMessages: 1 });
  const fetchMock = stubFetch(({ url: path }) => {
    const url = new URL(path, 'http://localhost');
    if (url.searchParams.get('withUnreadMessages') === 'true')
      return json(200, { tickets: [unread, unreadPending], hasMore: false, count: 2 });
    if (url.searchParams.get('status') === 'pending')
      return json(200, { tickets: [pending], hasMore: false, count: 1 });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  afterEach(() => {
    vi.mocked(playNotificationSound).mockClear();
  });

  const renderPopover = (user: ReturnType<typeof createSessionUser>) =>
    renderWithLocation(<NotificationsPopover />, { user, route: '/tickets' });

  it('lists unread tickets and opens one on click', async () => {
    const user = userEvent.setup();
    renderPopover(createSessionUser({ id: 7, queues: [{ id: 1, name: 'Sales', color: '#f00' }] }));
    await user.click(screen.getByTestId('notifications-button'));
    const item = await screen.findByTestId(`notifications-item-${unread.id}`);
    // The last message's WhatsApp marks are rendered.
    expect(item.querySelector('strong')?.textContent).toBe('Admin:');
    // allTicket disabled: an unassigned waiting ticket is no notification, even with unread messages.
    expect(screen.queryByTestId(`notifications-item-${unreadPending.id}`)).toBeNull();
    await user.click(item);
    expect(screen.queryByTestId(`notifications-item-${pending.id}`)).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/tickets/unread-uuid');
  });

  it('adds pending tickets for users with allTicket enabled', async () => {
    const user = userEvent.setup();
    renderPopover(createSessionUser({ id: 7, allTicket: 'enabled' }));
    await user.click(screen.getByTestId('notifications-button'));
    expect(await screen.findByTestId(`notifications-item-${pending.id}`)).toBeTruthy();
    expect(screen.getByTestId(`notifications-item-${unread.id}`)).toBeTruthy();
    expect(screen.getByTestId(`notifications-item-${unreadPending.id}`)).toBeTruthy();
  });

  it('plays the sound at the stored volume for inbound messages only', async () => {
    localStorage.setItem('volume', '0.4');
    const me = createSessionUser({ id: 7, queues: [{ id: 1, name: 'Sales', color: '#f00' }] });
    const view = renderPopover(me);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    act(() => {
      applyAppMessageEvent(
        view.queryClient,
        { action: 'create', message: createMessage({ ticketId: unread.id, fromMe: true }), ticket: unread },
        viewerOf(me),
      );
    });
    expect(playNotificationSound).not.toHaveBeenCalled();
    act(() => {
      applyAppMessageEvent(
        view.queryClient,
        { action: 'create', message: createMessage({ ticketId: unread.id, fromMe: false }), ticket: unread },
        viewerOf(me),
      );
    });
    expect(playNotificationSound).toHaveBeenCalledWith(0.4);
  });

  it('pages through every unread ticket: the next page loads within 100 px of the bottom', async () => {
    const unreadPage = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        createTicket({
          unreadMessages: 1,
          queueId: 1,
          updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 1000 - from - i)).toISOString(),
        }),
      );
    const pages = [unreadPage(0, 40), unreadPage(40, 40), unreadPage(80, 5)];
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.searchParams.get('withUnreadMessages') !== 'true') return json(404, { error: 'ERR_NOT_FOUND' });
      const page = Number(url.searchParams.get('pageNumber'));
      return json(200, { tickets: pages[page - 1], hasMore: page < pages.length, count: 85 });
    });
    // Laid out, the list is 2,000 px tall in a 420 px box: nothing loads before it is scrolled.
    const restore = stubAllBoxHeights(2000, 420);
    try {
      const user = userEvent.setup();
      renderPopover(createSessionUser({ id: 7, queues: [{ id: 1, name: 'Sales', color: '#f00' }] }));
      await waitFor(() => expect(screen.getByTestId('notifications-count').textContent).toBe('40+'));
      await user.click(screen.getByTestId('notifications-button'));
      const box = await screen.findByTestId('notifications-scroll');
      expect(screen.getAllByTestId(/^notifications-item-/)).toHaveLength(40);
      // 150 px from the bottom: still too far.
      scrollBoxTo(box, 2000 - 420 - 150);
      await new Promise((r) => setTimeout(r, 50));
      expect(screen.getAllByTestId(/^notifications-item-/)).toHaveLength(40);
      scrollBoxTo(box, 2000 - 420 - 90);
      await waitFor(() => expect(screen.getAllByTestId(/^notifications-item-/)).toHaveLength(80));
      scrollBoxTo(box, 2000 - 420);
      await waitFor(() => expect(screen.getAllByTestId(/^notifications-item-/)).toHaveLength(85));
      expect(screen.getByTestId('notifications-count').textContent).toBe('85');
    } finally {
      restore();
    }
  });

  it('loads on when a page leaves nothing to scroll (its tickets are not notifications)', async () => {
    // A user without allTicket: unassigned waiting tickets with unread messages are no notification.
    const hidden = Array.from({ length: 3 }, () =>
      createTicket({ status: 'pending', queueId: null, userId: null, unreadMessages: 1 }),
    );
    const shown = createTicket({ unreadMessages: 1, queueId: 1 });
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/ticket-notes/mentions') return json(200, []);
      const page = Number(url.searchParams.get('pageNumber'));
      return page === 1
        ? json(200, { tickets: hidden, hasMore: true, count: 4 })
        : json(200, { tickets: [shown], hasMore: false, count: 4 });
    });
    // Laid out, the empty list is shorter than its box.
    const restore = stubAllBoxHeights(40, 420);
    try {
      const user = userEvent.setup();
      renderPopover(createSessionUser({ id: 7, queues: [{ id: 1, name: 'Sales', color: '#f00' }] }));
      await user.click(screen.getByTestId('notifications-button'));
      expect(await screen.findByTestId(`notifications-item-${shown.id}`)).toBeTruthy();
      expect(screen.getByTestId('notifications-count').textContent).toBe('1');
    } finally {
      restore();
    }
  });

  it('lists mentions in notes first; opening one marks it read and opens its ticket', async () => {
    const mention = {
      noteId: 77,
      ticketId: unread.id,
      ticketUuid: 'mentioned-uuid',
      contactName: 'Maria Cliente',
      author: { id: 3, name: 'Ana Supervisora' },
      note: '@Bruno pode ligar?',
      createdAt: '2026-03-01T10:00:00.000Z',
      readAt: null,
    };
    answerFirst(fetchMock, (request) => {
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/ticket-notes/mentions') return json(200, [mention]);
      if (url.pathname === '/api/ticket-notes/mentions/77/read') return new Response(null, { status: 204 });
    });
    const user = userEvent.setup();
    renderPopover(createSessionUser({ id: 7, queues: [{ id: 1, name: 'Sales', color: '#f00' }] }));
    await waitFor(() => expect(screen.getByTestId('notifications-count').textContent).toBe('2'));
    await user.click(screen.getByTestId('notifications-button'));
    const item = await screen.findByTestId('notifications-mention-77');
    expect(item.textContent).toContain('Ana Supervisora mentioned you: Maria Cliente');
    await user.click(item);
    expect(screen.getByTestId('location').textContent).toBe('/tickets/mentioned-uuid');
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([input, init]) =>
            String(input).includes('/api/ticket-notes/mentions/77/read') &&
            (init as RequestInit)?.method === 'POST',
        ),
      ).toBe(true),
    );
  });
});
