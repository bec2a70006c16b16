import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Chat, ChatMessage } from '@zapdesk/shared';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatsMenuBadge } from '../../app/layout/menu-badges';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { withMatchMedia } from '../../test/media-query';
import { renderWithProviders } from '../../test/render';
import { ChatModal } from './chat-modal';
import { applyChatEvent } from './chats-cache';
import { ChatsPage } from './chats-page';
import { ChatsPopover } from './chats-popover';
import { chatsKeys } from './use-chats';

const me = createSessionUser({ profile: 'user' }, { useInternalChat: true });
const OTHER = 77;
/** A chat beyond the loaded pages of the list. */
const OLD_UUID = '99999999-9999-4999-8999-999999999999';

const chat = (overrides: Partial<Chat> = {}): Chat => ({
  id: 1,
  uuid: '11111111-1111-4111-8111-111111111111',
  title: 'Equipe',
  ownerId: me.id,
  lastMessage: 'Olá',
  updatedAt: '2026-01-01T10:00:00.000Z',
  users: [
    { userId: me.id, unreads: 0, user: { id: me.id, name: me.name } },
    { userId: OTHER, unreads: 0, user: { id: OTHER, name: 'Bruno' } },
  ],
  ...overrides,
});

const message = (id: number, overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  chatId: 1,
  senderId: OTHER,
  sender: { id: OTHER, name: 'Bruno' },
  message: `m${id}`,
  createdAt: '2026-01-01T10:00:00.000Z',
  ...overrides,
});

const withUnreads = (c: Chat, unreads: number): Chat => ({
  ...c,
  users: c.users.map((u) => (u.userId === me.id ? { ...u, unreads } : u)),
});

function renderPage(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/chats/:chatId?" element={<ChatsPage />} />
    </Routes>,
    { user: me, route },
  );
}

describe('internal chat page', () => {
  const mine = withUnreads(chat(), 2);
  const theirs = chat({
    id: 2,
    uuid: '22222222-2222-4222-8222-222222222222',
    title: 'Deles',
    ownerId: OTHER,
  });
  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/chats?')) return json(200, { records: [mine, theirs], hasMore: false });
    if (url.startsWith('/api/chats/1/messages?pageNumber=1'))
      return json(200, {
        records: [message(2), message(1, { senderId: me.id, sender: { id: me.id, name: me.name } })],
        hasMore: true,
      });
    if (url.startsWith('/api/chats/1/messages?pageNumber=2'))
      return json(200, { records: [message(0)], hasMore: false });
    if (url === '/api/chats/1/read' && method === 'POST') return json(200, withUnreads(mine, 0));
    if (url === `/api/chats/u/${OLD_UUID}`)
      return json(200, chat({ id: 9, uuid: OLD_UUID, title: 'Antigo' }));
    if (url.startsWith('/api/chats/9/messages?pageNumber=1'))
      return json(200, { records: [], hasMore: false });
    if (url === '/api/chats/1/messages' && method === 'POST')
      return json(201, message(3, { senderId: me.id, message: JSON.parse(String(init?.body)).message }));
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  const calls = () =>
    fetchMock.mock.calls.map(
      ([input, init]) => `${(init as RequestInit | undefined)?.method ?? 'GET'} ${String(input)}`,
    );

  it('shows edit and delete only on the chats the user owns', async () => {
    renderPage('/chats');
    expect(await screen.findByTestId('chat-item-1')).toBeTruthy();
    expect(screen.getByTestId('chat-unreads-1').textContent).toBe('2');
    expect(screen.getByTestId('chat-edit-1')).toBeTruthy();
    expect(screen.getByTestId('chat-delete-1')).toBeTruthy();
    expect(screen.getByTestId('chat-item-2')).toBeTruthy();
    expect(screen.queryByTestId('chat-edit-2')).toBeNull();
    expect(screen.queryByTestId('chat-delete-2')).toBeNull();
  });

  it('opens /chats/{uuid} on the messages tab, oldest first, and marks the chat read', async () => {
    renderPage(`/chats/${chat().uuid}`);
    const box = await screen.findByTestId('chat-messages');
    await waitFor(() =>
      expect(
        within(box)
          .getAllByText(/^m\d$/)
          .map((e) => e.textContent),
      ).toEqual(['m1', 'm2']),
    );
    await waitFor(() => expect(calls()).toContain('POST /api/chats/1/read'));
    expect(screen.getByTestId('chats-tabs')).toBeTruthy();
    await userEvent.setup().click(screen.getByTestId('chats-tab-chats'));
    await waitFor(() => expect(screen.queryByTestId('chat-unreads-1')).toBeNull());
  });

  it('opens a /chats/{uuid} link to a chat beyond the loaded pages by fetching it', async () => {
    renderPage(`/chats/${OLD_UUID}`);
    await waitFor(() => expect(calls()).toContain(`GET /api/chats/u/${OLD_UUID}`));
    await waitFor(() => expect(calls().some((c) => c.startsWith('GET /api/chats/9/messages'))).toBe(true));
    // Fetched once, not again on every render.
    expect(calls().filter((c) => c.includes('/api/chats/u/'))).toHaveLength(1);
  });

  it('does not fetch a listed chat by its uuid', async () => {
    renderPage(`/chats/${chat().uuid}`);
    await screen.findByTestId('chat-messages');
    await waitFor(() => expect(calls()).toContain('POST /api/chats/1/read'));
    expect(calls().some((c) => c.includes('/api/chats/u/'))).toBe(false);
  });

  it('does not send an empty message; sends a typed one with Enter', async () => {
    const user = userEvent.setup();
    renderPage(`/chats/${chat().uuid}`);
    const input = await screen.findByTestId('chat-input');
    await user.type(input, '   ');
    await user.click(screen.getByTestId('chat-send'));
    await user.type(input, '{Enter}');
    expect(calls()).not.toContain('POST /api/chats/1/messages');
    await user.clear(input);
    await user.type(input, 'Bom dia{Enter}');
    await waitFor(() => expect(calls()).toContain('POST /api/chats/1/messages'));
    expect(await screen.findByText('Bom dia')).toBeTruthy();
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it('loads older messages when scrolled within 600 px of the top, not farther', async () => {
    renderPage(`/chats/${chat().uuid}`);
    const box = await screen.findByTestId('chat-messages');
    await waitFor(() => expect(within(box).getByText('m2')).toBeTruthy());
    let top = 700;
    Object.defineProperty(box, 'scrollTop', { configurable: true, get: () => top, set: () => {} });
    fireEvent.scroll(box);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls().some((c) => c.includes('pageNumber=2'))).toBe(false);
    top = 599;
    fireEvent.scroll(box);
    await waitFor(() => expect(within(box).getByText('m0')).toBeTruthy());
  });

  it('shows the split view on wide screens', () =>
    withMatchMedia(
      () => true,
      async () => {
        renderPage(`/chats/${chat().uuid}`);
        expect(await screen.findByTestId('chats-split')).toBeTruthy();
        expect(await screen.findByTestId('chat-item-1')).toBeTruthy();
        expect(screen.getByTestId('chat-messages')).toBeTruthy();
      },
    ));
});

describe('chat modal', () => {
  const fetchMock = stubFetch(({ url, method }) => {
    if (url === '/api/users/list')
      return json(200, [
        { id: me.id, name: me.name },
        { id: OTHER, name: 'Bruno' },
      ]);
    if (url === '/api/chats' && method === 'POST') return json(201, chat());
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  it('asks for a title, then for a user, before it saves', async () => {
    const user = userEvent.setup();
    const onSaved = vi.fn();
    renderWithProviders(<ChatModal chat={null} onClose={() => {}} onSaved={onSaved} />, { user: me });
    await user.click(screen.getByTestId('chat-save'));
    expect(await screen.findByText('Please fill in the chat title.')).toBeTruthy();
    await user.type(screen.getByTestId('chat-title-input'), 'Plantão');
    await user.click(screen.getByTestId('chat-save'));
    expect(await screen.findByText('Please select at least one user.')).toBeTruthy();
    expect(
      fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
    ).toBe(false);
    await user.click(screen.getByTestId('chat-users-input'));
    await user.click(await screen.findByRole('option', { name: 'Bruno' }));
    await user.click(screen.getByTestId('chat-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(
      ([, init]) => (init as RequestInit | undefined)?.method === 'POST',
    );
    expect(JSON.parse(String((post![1] as RequestInit).body))).toEqual({ title: 'Plantão', users: [OTHER] });
  });
});

describe('chat events', () => {
  it('a new message moves its chat to the top and joins the open history once', () => {
    const queryClient = new QueryClient();
    const a = chat();
    const b = chat({ id: 2, uuid: 'b' });
    queryClient.setQueryData(chatsKeys.list(), {
      pages: [{ records: [b, a], hasMore: false }],
      pageParams: [1],
    });
    queryClient.setQueryData(chatsKeys.messages(1), {
      pages: [{ records: [message(1)], hasMore: false }],
      pageParams: [1],
    });
    const event = { action: 'new-message' as const, newMessage: message(5), chat: withUnreads(a, 1) };
    applyChatEvent(queryClient, event);
    applyChatEvent(queryClient, event);
    const list = queryClient.getQueryData<{ pages: { records: Chat[] }[] }>(chatsKeys.list())!;
    expect(list.pages[0]!.records.map((c) => c.id)).toEqual([1, 2]);
    const history = queryClient.getQueryData<{ pages: { records: ChatMessage[] }[] }>(chatsKeys.messages(1))!;
    expect(history.pages[0]!.records.map((m) => m.id)).toEqual([5, 1]);
    applyChatEvent(queryClient, { action: 'delete', id: 1 });
    expect(
      queryClient
        .getQueryData<{ pages: { records: Chat[] }[] }>(chatsKeys.list())!
        .pages[0]!.records.map((c) => c.id),
    ).toEqual([2]);
  });
});

describe('side menu chats dot', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows while a chat has unread messages for the user and clears when read', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { records: [withUnreads(chat(), 1)], hasMore: false })),
    );
    const { queryClient } = renderWithProviders(<ChatsMenuBadge>icon</ChatsMenuBadge>, { user: me });
    expect(await screen.findByTestId('chats-unread')).toBeTruthy();
    applyChatEvent(queryClient, { action: 'update', record: withUnreads(chat(), 0) });
    await waitFor(() => expect(screen.queryByTestId('chats-unread')).toBeNull());
  });

  it('stays hidden when nothing is unread', async () => {
    const fetchMock = vi.fn(async () => json(200, { records: [chat()], hasMore: false }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ChatsMenuBadge>icon</ChatsMenuBadge>, { user: me });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByTestId('chats-unread')).toBeNull();
  });
});

describe('top bar chats popover', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('counts the chats with unread messages and lists them', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(200, {
          records: [withUnreads(chat(), 3), chat({ id: 2, uuid: 'b', title: 'Lido' })],
          hasMore: false,
        }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<ChatsPopover />, { user: me });
    await waitFor(() => expect(screen.getByTestId('chats-popover-count').textContent).toBe('1'));
    await user.click(screen.getByTestId('chats-popover-button'));
    const list = await screen.findByTestId('chats-popover-list');
    expect(within(list).getByText('Equipe')).toBeTruthy();
    expect(within(list).getByText('Lido')).toBeTruthy();
  });

  it('is not shown, and asks nothing, when the plan has no internal chat', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ChatsPopover />, {
      user: createSessionUser({ profile: 'user' }, { useInternalChat: false }),
    });
    expect(screen.queryByTestId('chats-popover-button')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
