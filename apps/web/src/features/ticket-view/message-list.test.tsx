import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Message, Ticket } from '@zapdesk/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { buildHistoryRows, MessageList } from './message-list';
import { applyAppMessageEvent } from './messages-cache';
import { json, makeMessage, makeTicket, mockFetch, page } from './test-helpers';

const me = createSessionUser({ id: 5 });

function renderList(ticket: Ticket, pages: Message[][], routes: Record<string, unknown> = {}) {
  const api = mockFetch({
    'GET /api/messages/\\d+': (url: URL) => {
      const n = Number(url.searchParams.get('pageNumber') ?? 1);
      return json(200, page(pages[n - 1] ?? [], n < pages.length));
    },
    ...routes,
  });
  const onReply = vi.fn();
  const result = renderWithProviders(<MessageList ticket={ticket} onReply={onReply} />, { user: me });
  return { ...result, ...api, onReply };
}

const ids = () =>
  screen
    .getAllByTestId(/^message-\d+$/)
    .map((el) => Number(el.getAttribute('data-testid')?.replace('message-', '')));

describe('MessageList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the greeting when there are no messages', async () => {
    renderList(makeTicket({ id: 1 }), [[]]);
    expect(await screen.findByTestId('message-list-empty')).toBeTruthy();
    expect(screen.getByText(/Say hello to Maria Cliente/)).toBeTruthy();
  });

  it('puts contact messages left and own messages right, with quote, deleted and edited markers', async () => {
    const quoted = makeMessage({ id: 1, body: 'original question' });
    const reply = makeMessage({
      id: 2,
      fromMe: true,
      ack: 2,
      body: 'the answer',
      isEdited: true,
      quotedMsg: {
        id: 1,
        body: 'original question',
        fromMe: false,
        mediaType: 'chat',
        mediaUrl: null,
        contact: { name: 'Maria Cliente' },
      },
    });
    const gone = makeMessage({ id: 3, fromMe: true, ack: 3, body: 'oops', isDeleted: true });
    renderList(makeTicket({ id: 1 }), [[quoted, reply, gone]]);
    const own = await screen.findByTestId('message-2');
    expect(own.getAttribute('data-from-me')).toBe('true');
    expect(screen.getByTestId('message-1').getAttribute('data-from-me')).toBe('false');
    expect(within(own).getByTestId('quoted-message').textContent).toContain('original question');
    expect(within(own).getByTestId('message-edited-2')).toBeTruthy();
    expect(within(screen.getByTestId('message-3')).getByTestId('message-deleted-3').textContent).toBe(
      'This message was deleted',
    );
    // Contact messages carry no ticks.
    expect(screen.queryByTestId('message-ack-1')).toBeNull();
  });

  it('renders WhatsApp formatting in the bubbles and the quote', async () => {
    const signed = makeMessage({
      id: 7,
      fromMe: true,
      body: '*Admin:*\nOlá ~x~',
      quotedMsg: {
        id: 6,
        body: '_pergunta_',
        fromMe: false,
        mediaType: 'chat',
        mediaUrl: null,
        contact: { name: 'Maria Cliente' },
      },
    });
    renderList(makeTicket({ id: 1 }), [[signed]]);
    const body = await screen.findByTestId('message-body-7');
    expect(body.querySelector('strong')?.textContent).toBe('Admin:');
    expect(body.querySelector('s')?.textContent).toBe('x');
    expect(screen.getByTestId('quoted-message').querySelector('em')?.textContent).toBe('pergunta');
  });

  it('renders the delivery ticks by ack, and a failed message retries', async () => {
    const acks = [0, 1, 2, 3, 4, 5, -1];
    const messages = acks.map((ack, i) => makeMessage({ id: 10 + i, fromMe: true, ack }));
    const { calls } = renderList(makeTicket({ id: 1 }), [messages], {
      'POST /api/messages/16/retry': { ...messages[6], ack: 1 },
    });
    await screen.findByTestId('message-10');
    const icon = (id: number) => screen.getByTestId(`message-ack-${id}`).getAttribute('data-icon');
    expect(acks.map((_, i) => icon(10 + i))).toEqual([
      'clock',
      'single',
      'double',
      'read',
      'read',
      'read',
      'failed',
    ]);
    expect(screen.getByTestId('message-13').getAttribute('data-ack')).toBe('3');
    expect(screen.queryByTestId('message-retry-15')).toBeNull();
    await userEvent.click(screen.getByTestId('message-retry-16'));
    await waitFor(() => expect(calls('POST', '/api/messages/16/retry')).toHaveLength(1));
    await waitFor(() => expect(icon(16)).toBe('single'));
    expect(screen.queryByTestId('message-retry-16')).toBeNull();
  });

  it('separates days (dd/MM/yyyy) and conversations of different tickets', async () => {
    const messages = [
      makeMessage({ id: 1, ticketId: 1, createdAt: '2026-03-01T09:00:00' }),
      makeMessage({ id: 2, ticketId: 1, createdAt: '2026-03-01T09:05:00' }),
      makeMessage({ id: 3, ticketId: 2, createdAt: '2026-03-01T15:30:00' }),
      makeMessage({ id: 4, ticketId: 2, createdAt: '2026-03-02T08:00:00' }),
    ];
    renderList(makeTicket({ id: 2 }), [messages]);
    await screen.findByTestId('message-4');
    expect(screen.getAllByTestId('day-separator').map((el) => el.textContent)).toEqual([
      '01/03/2026',
      '02/03/2026',
    ]);
    const markers = screen.getAllByTestId('conversation-marker');
    expect(markers).toHaveLength(1);
    expect(markers[0]?.textContent).toContain('Conversation ended 01/03/2026 09:05');
    expect(markers[0]?.textContent).toContain('Conversation started 01/03/2026 15:30');
    // The marker sits between messages 2 and 3.
    const list = screen.getByTestId('message-list');
    const order = Array.from(list.querySelectorAll('[data-testid]'))
      .map((el) => el.getAttribute('data-testid'))
      .filter((id) => id === 'conversation-marker' || /^message-\d$/.test(id ?? ''));
    expect(order).toEqual(['message-1', 'message-2', 'conversation-marker', 'message-3', 'message-4']);
  });

  it('builds the rows with reactions attached to the reacted message', () => {
    const rows = buildHistoryRows([
      makeMessage({ id: 1 }),
      makeMessage({ id: 2, mediaType: 'reaction', body: '👍', reactionToId: 1 }),
      makeMessage({ id: 3, mediaType: 'reaction', body: '❤️', reactionToId: 999 }),
    ]);
    const messages = rows.filter((r) => r.kind === 'message');
    expect(messages.map((r) => (r.kind === 'message' ? r.message.id : 0))).toEqual([1, 3]);
    expect(messages[0]?.kind === 'message' && messages[0].reactions.map((r) => r.id)).toEqual([2]);
  });

  it('prepends the older page when scrolled within 50 px of the top', async () => {
    const newest = [makeMessage({ id: 21 }), makeMessage({ id: 22 })];
    const older = [makeMessage({ id: 11 }), makeMessage({ id: 12 })];
    const { calls } = renderList(makeTicket({ id: 1 }), [newest, older]);
    await screen.findByTestId('message-22');
    expect(ids()).toEqual([21, 22]);
    const list = screen.getByTestId('message-list');
    Object.defineProperty(list, 'scrollTop', { value: 120, writable: true, configurable: true });
    fireEvent.scroll(list);
    expect(
      calls('GET', '/api/messages/1').filter((c) => c.url.searchParams.get('pageNumber') === '2'),
    ).toHaveLength(0);
    list.scrollTop = 40;
    fireEvent.scroll(list);
    await screen.findByTestId('message-11');
    expect(ids()).toEqual([11, 12, 21, 22]);
    expect(calls('GET', '/api/messages/1').map((c) => c.url.searchParams.get('pageNumber'))).toEqual([
      '1',
      '2',
    ]);
  });

  it('appends live messages of the contact and replaces updated ones', async () => {
    const ticket = makeTicket({ id: 1 });
    const { queryClient } = renderList(ticket, [[makeMessage({ id: 1, fromMe: true, ack: 1 })]]);
    await screen.findByTestId('message-1');
    act(() =>
      applyAppMessageEvent(queryClient, {
        action: 'create',
        message: makeMessage({ id: 2, ticketId: 1, body: 'new one' }),
      }),
    );
    expect(await screen.findByTestId('message-2')).toBeTruthy();
    // Another contact's message does not land here.
    act(() =>
      applyAppMessageEvent(queryClient, {
        action: 'create',
        message: makeMessage({ id: 3, ticketId: 99, contactId: 77 }),
      }),
    );
    // A message of the same contact on another of its tickets does.
    act(() =>
      applyAppMessageEvent(queryClient, {
        action: 'create',
        message: makeMessage({ id: 4, ticketId: 98, contactId: 50 }),
      }),
    );
    await screen.findByTestId('message-4');
    expect(ids()).toEqual([1, 2, 4]);
    act(() =>
      applyAppMessageEvent(queryClient, {
        action: 'update',
        message: makeMessage({ id: 1, fromMe: true, ack: 3 }),
      }),
    );
    await waitFor(() => expect(screen.getByTestId('message-ack-1').getAttribute('data-icon')).toBe('read'));
    // The same create twice is shown once.
    act(() =>
      applyAppMessageEvent(queryClient, { action: 'create', message: makeMessage({ id: 2, ticketId: 1 }) }),
    );
    expect(ids()).toEqual([1, 2, 4]);
  });

  it('offers Delete only on own messages and deletes after the confirmation', async () => {
    const mine = makeMessage({ id: 1, fromMe: true, ack: 2 });
    const theirs = makeMessage({ id: 2 });
    const { calls, onReply } = renderList(makeTicket({ id: 1 }), [[mine, theirs]], {
      'DELETE /api/messages/1': { ...mine, isDeleted: true },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('message-options-2'));
    expect(screen.getByTestId('message-reply')).toBeTruthy();
    expect(screen.queryByTestId('message-delete')).toBeNull();
    await user.click(screen.getByTestId('message-reply'));
    expect(onReply).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));

    await user.click(screen.getByTestId('message-options-1'));
    await user.click(await screen.findByTestId('message-delete'));
    expect(await screen.findByText('Delete message?')).toBeTruthy();
    expect(calls('DELETE', '/api/messages/')).toHaveLength(0);
    await user.click(screen.getByTestId('confirm-button'));
    await waitFor(() => expect(calls('DELETE', '/api/messages/1')).toHaveLength(1));
    expect(await screen.findByTestId('message-deleted-1')).toBeTruthy();
  });
});
