import { act, screen } from '@testing-library/react';
import type { PublicUser } from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contactsKeys } from '../features/contacts/use-contacts';
import { queuesKeys } from '../features/queues/use-queues';
import { quickMessagesKeys } from '../features/quick-messages/use-quick-messages';
import { tagsKeys } from '../features/tags/use-tags';
import { usersKeys } from '../features/users/users-cache';
import i18n from '../lib/i18n';
import { writeSession } from '../lib/storage';
import { fake } from '../test/fake-socket';
import { createSessionUser, createUser } from '../test/fixtures';
import { renderWithLocation, renderWithProviders } from '../test/render';
import { useRealtime } from './use-realtime';

vi.mock('../lib/browser', () => ({ reloadPage: vi.fn() }));
vi.mock('../lib/socket', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/socket')>()),
  connectSocket: (await import('../test/fake-socket')).connectFakeSocket,
}));

const { reloadPage } = await import('../lib/browser');

function Realtime({ user }: { user: ReturnType<typeof createSessionUser> }) {
  useRealtime(user);
  return null;
}

describe('useRealtime', () => {
  const me = createSessionUser({ id: 5, companyId: 3 });

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    writeSession('tok', 3, 5);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.mocked(reloadPage).mockClear();
  });

  it('reads every list on screen again once the socket reconnects (events sent meanwhile are lost)', async () => {
    const { queryClient } = renderWithProviders(<Realtime user={me} />, { user: me });
    queryClient.setQueryData(queuesKeys.list(), [{ id: 4, name: 'Vendas', color: '#111' }]);
    expect(queryClient.getQueryState(queuesKeys.list())?.isInvalidated).toBe(false);
    act(() => {
      fake.socket?.io.emit('reconnect', 1);
    });
    expect(queryClient.getQueryState(queuesKeys.list())?.isInvalidated).toBe(true);
  });

  it('reads what was fetched before it again at its first connection, and not at a later one', async () => {
    const { queryClient } = renderWithProviders(<Realtime user={me} />, { user: me });
    queryClient.setQueryData(queuesKeys.list(), [{ id: 4, name: 'Vendas', color: '#111' }]);
    act(() => {
      fake.socket?.emit('connect');
    });
    expect(queryClient.getQueryState(queuesKeys.list())?.isInvalidated).toBe(true);
    queryClient.setQueryData(queuesKeys.list(), [{ id: 4, name: 'Vendas', color: '#111' }]);
    act(() => {
      fake.socket?.emit('connect');
    });
    expect(queryClient.getQueryState(queuesKeys.list())?.isInvalidated).toBe(false);
  });

  it('sends the status heartbeat (userStatus) every 300000 ms while connected', async () => {
    renderWithProviders(<Realtime user={me} />, { user: me });
    const beats = vi.fn();
    fake.socket?.on('userStatus', beats);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(299_000);
    });
    expect(beats).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(301_000);
    });
    expect(beats).toHaveBeenCalledTimes(2);
  });

  it('on a duplicate login toasts, then clears the session and reloads after 1 s', async () => {
    renderWithProviders(<Realtime user={me} />, { user: me });
    act(() => {
      fake.socket?.emit('company-3-auth', { action: 'logout', reason: 'duplicate-login', userId: 5 });
    });
    expect(await screen.findByText('Your account was accessed from another computer.')).toBeTruthy();
    expect(reloadPage).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('after a logout of its own session clears the session and reloads without a warning', async () => {
    renderWithProviders(<Realtime user={me} />, { user: me });
    act(() => {
      fake.socket?.emit('company-3-auth', { action: 'logout', reason: 'logout', userId: 5 });
    });
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.queryByText(/session has ended/)).toBeNull();
  });

  it('when the session was ended by others (password changed, revoked) warns before reloading', async () => {
    renderWithProviders(<Realtime user={me} />, { user: me });
    act(() => {
      fake.socket?.emit('company-3-auth', { action: 'logout', reason: 'password-changed', userId: 5 });
    });
    expect(await screen.findByText(/session has ended/)).toBeTruthy();
  });

  it("when the company's subscription expired says so before reloading", async () => {
    renderWithProviders(<Realtime user={me} />, { user: me });
    act(() => {
      fake.socket?.emit('company-3-auth', { action: 'logout', reason: 'subscription-expired', userId: 5 });
    });
    expect(await screen.findByText(/subscription has expired/)).toBeTruthy();
    expect(screen.queryByText(/session has ended/)).toBeNull();
  });

  it('ignores a logout meant for another user', () => {
    renderWithProviders(<Realtime user={me} />, { user: me });
    act(() => {
      fake.socket?.emit('company-3-auth', { action: 'logout', reason: 'duplicate-login', userId: 6 });
      vi.advanceTimersByTime(1500);
    });
    expect(reloadPage).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('tok');
  });

  it('toasts a service-level warning or breach and opens the ticket when the toast is clicked', async () => {
    await i18n.changeLanguage('pt');
    try {
      renderWithLocation(<Realtime user={me} />, { user: me, route: '/tickets' });
      const sla = (action: 'warning' | 'breach', ticketId: number) => ({
        action,
        ticketId,
        ticketUuid: `uuid-${ticketId}`,
        contactName: 'Ana',
        target: 'first_response',
        dueAt: '2026-11-27T14:30:00.000Z',
      });
      act(() => {
        fake.socket?.emit('company-3-sla', sla('warning', 7));
        fake.socket?.emit('company-3-sla', sla('breach', 8));
      });
      expect(await screen.findByRole('button', { name: 'Atendimento de Ana perto do prazo' })).toBeTruthy();
      const breach = await screen.findByRole('button', { name: 'Atendimento de Ana atrasado' });
      await act(async () => {
        breach.click();
      });
      expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-8');
      await i18n.changeLanguage('es');
      act(() => {
        fake.socket?.emit('company-3-sla', sla('warning', 9));
      });
      expect(await screen.findByRole('button', { name: 'Atención de Ana cerca del plazo' })).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('reloads 1 s after connect_error ERR_SESSION_EXPIRED', () => {
    renderWithProviders(<Realtime user={me} />, { user: me });
    act(() => {
      fake.socket?.emit('connect_error', new Error('ERR_SESSION_EXPIRED'));
      vi.advanceTimersByTime(999);
    });
    expect(reloadPage).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('applies company-{id}-user events to the users list cache', () => {
    const { queryClient } = renderWithProviders(<Realtime user={me} />, { user: me });
    const a = createUser({ name: 'A' });
    const b = createUser({ name: 'B' });
    queryClient.setQueryData(usersKeys.list(''), {
      pages: [{ users: [a, b], hasMore: false, count: 2 }],
      pageParams: [1],
    });
    const names = () =>
      (
        queryClient.getQueryData(usersKeys.list('')) as { pages: { users: PublicUser[] }[] }
      ).pages[0]!.users.map((u) => u.name);
    act(() => {
      fake.socket?.emit('company-3-user', { action: 'update', user: { ...a, name: 'A2' } });
    });
    expect(names()).toEqual(['A2', 'B']);
    act(() => {
      fake.socket?.emit('company-3-user', { action: 'create', user: createUser({ name: 'C' }) });
    });
    expect(names()).toEqual(['C', 'A2', 'B']);
    act(() => {
      fake.socket?.emit('company-3-user', { action: 'delete', userId: b.id });
    });
    expect(names()).toEqual(['C', 'A2']);
  });

  it('keeps the tags, queues, quick messages and contacts lists live (create, update, delete)', () => {
    const { queryClient } = renderWithProviders(<Realtime user={me} />, { user: me });
    const pages = <T,>(key: string, rows: T[]) => ({
      pages: [{ [key]: rows, hasMore: false, count: rows.length }],
      pageParams: [1],
    });
    const tag = (id: number, name: string) => ({ id, name, color: '#000', kanban: 0, ticketsCount: 2 });
    queryClient.setQueryData(tagsKeys.list(''), pages('tags', [tag(1, 'Alfa'), tag(2, 'Beta')]));
    queryClient.setQueryData(['tags', 'list'], [tag(1, 'Alfa'), tag(2, 'Beta')]);
    queryClient.setQueryData(queuesKeys.list(), [{ id: 4, name: 'Vendas', color: '#111' }]);
    queryClient.setQueryData(
      quickMessagesKeys.list(''),
      pages('records', [
        { id: 8, shortcode: 'oi', message: 'Olá' },
        { id: 9, shortcode: 'tchau', message: 'Até' },
      ]),
    );
    queryClient.setQueryData(
      contactsKeys.list(''),
      pages('contacts', [
        { id: 11, name: 'Ana' },
        { id: 12, name: 'Bia' },
      ]),
    );
    const rows = (key: readonly unknown[], items: string) =>
      (queryClient.getQueryData(key) as { pages: Record<string, { id: number; name?: string }[]>[] })
        .pages[0]![items]!;
    const invalidated = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;

    act(() => {
      fake.socket?.emit('company-3-tag', {
        action: 'update',
        tag: { id: 1, name: 'Alfa 2', color: '#000', kanban: 0 },
      });
      fake.socket?.emit('company-3-tag', { action: 'delete', tagId: 2 });
    });
    expect(rows(tagsKeys.list(''), 'tags')).toEqual([tag(1, 'Alfa 2')]);
    expect(queryClient.getQueryData(['tags', 'list'])).toEqual([tag(1, 'Alfa 2')]);
    expect(invalidated(tagsKeys.list(''))).toBe(false);
    act(() => {
      fake.socket?.emit('company-3-tag', {
        action: 'create',
        tag: { id: 3, name: 'Gama', color: '#000', kanban: 0 },
      });
    });
    expect(invalidated(tagsKeys.list(''))).toBe(true);

    expect(invalidated(queuesKeys.list())).toBe(false);
    act(() => {
      fake.socket?.emit('company-3-queue', { action: 'delete', queueId: 4 });
    });
    expect(queryClient.getQueryData(queuesKeys.list())).toEqual([]);
    act(() => {
      fake.socket?.emit('company-3-queue', {
        action: 'create',
        queue: { id: 5, name: 'Suporte', color: '#222' },
      });
    });
    expect(invalidated(queuesKeys.list())).toBe(true);

    act(() => {
      fake.socket?.emit('company-3-quickmessage', {
        action: 'update',
        record: { id: 8, shortcode: 'ola', message: 'Oi!' },
      });
      fake.socket?.emit('company-3-quickmessage', { action: 'delete', id: 9 });
    });
    expect(rows(quickMessagesKeys.list(''), 'records')).toEqual([
      { id: 8, shortcode: 'ola', message: 'Oi!' },
    ]);

    act(() => {
      fake.socket?.emit('company-3-contact', { action: 'delete', contactId: 12 });
      fake.socket?.emit('company-3-contact', { action: 'update', contact: { id: 11, name: 'Ana Maria' } });
    });
    expect(rows(contactsKeys.list(''), 'contacts')).toEqual([{ id: 11, name: 'Ana Maria' }]);
    expect(invalidated(contactsKeys.list(''))).toBe(false);
    act(() => {
      fake.socket?.emit('company-3-contact', { action: 'create', contact: { id: 13, name: 'Carla' } });
    });
    expect(invalidated(contactsKeys.list(''))).toBe(true);
  });
});
