import type { EventEmitter } from 'node:events';
import { act, screen } from '@testing-library/react';
import type { PublicUser } from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usersKeys } from '../features/users/users-cache';
import { writeSession } from '../lib/storage';
import { createSessionUser, createUser } from '../test/fixtures';
import { renderWithProviders } from '../test/render';
import { useRealtime } from './use-realtime';

const fake = vi.hoisted(() => ({ socket: null as null | (EventEmitter & { disconnect: () => void }) }));

vi.mock('../lib/browser', () => ({ reloadPage: vi.fn() }));
vi.mock('../lib/socket', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../lib/socket')>();
  const { EventEmitter: Emitter } = await import('node:events');
  return {
    ...actual,
    connectSocket: () => {
      const socket = Object.assign(new Emitter(), { disconnect: vi.fn(), io: { opts: {} } });
      fake.socket = socket;
      return socket;
    },
  };
});

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

  it('ignores a logout meant for another user', () => {
    renderWithProviders(<Realtime user={me} />, { user: me });
    act(() => {
      fake.socket?.emit('company-3-auth', { action: 'logout', reason: 'duplicate-login', userId: 6 });
      vi.advanceTimersByTime(1500);
    });
    expect(reloadPage).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('tok');
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
});
