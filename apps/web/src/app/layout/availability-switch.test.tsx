import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionUser } from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applySessionUserEvent } from '../../features/users/users-cache';
import i18n from '../../lib/i18n';
import { createSessionUser, createUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { TopBar } from './top-bar';

beforeEach(async () => {
  await i18n.changeLanguage('pt');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

/** Answers PUT /users/:id with the body's availability; everything else stays loading. */
function stubApi(user: SessionUser) {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (init?.method === 'PUT' && url.endsWith(`/users/${user.id}`)) {
        const body = JSON.parse(String(init.body));
        calls.push({ url, body });
        return Promise.resolve(json(200, { ...user, ...body }));
      }
      return new Promise<Response>(() => {});
    }),
  );
  return calls;
}

describe('availability switch', () => {
  it('shows Disponível on wide screens and saves Ausente for oneself', async () => {
    const user = createSessionUser({ profile: 'user' });
    const calls = stubApi(user);
    const setUser = vi.fn();
    renderWithProviders(<TopBar onToggleMenu={() => {}} zIndex={1} />, { user, session: { setUser } });
    const button = await screen.findByTestId('availability-switch');
    expect(button.textContent).toBe('Disponível');
    expect(button.getAttribute('aria-label')).toBe('Disponível – mudar disponibilidade');
    await userEvent.setup().click(button);
    await waitFor(() => expect(setUser).toHaveBeenCalled());
    expect(calls).toEqual([
      { url: expect.stringContaining(`/users/${user.id}`), body: { availability: 'away' } },
    ]);
    expect(setUser.mock.calls[0]![0]).toMatchObject({ id: user.id, availability: 'away' });
  });

  it('sits in the phone more menu, showing Ausente and switching back to online', async () => {
    const user = createSessionUser({ profile: 'user', availability: 'away' });
    const calls = stubApi(user);
    const setUser = vi.fn();
    const actor = userEvent.setup();
    renderWithProviders(<TopBar onToggleMenu={() => {}} zIndex={1} compact />, {
      user,
      session: { setUser },
    });
    await actor.click(await screen.findByTestId('top-bar-more'));
    const item = await screen.findByTestId('more-availability');
    expect(item.textContent).toBe('Ausente');
    await actor.click(item);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toEqual({ availability: 'online' });
  });

  it("follows the user's own update from another tab, and only that", () => {
    const me = createSessionUser();
    const setUser = vi.fn();
    const session = { user: me, setUser };
    applySessionUserEvent(session, { action: 'update', user: createUser({ availability: 'away' }) });
    applySessionUserEvent(session, { action: 'delete', userId: me.id });
    expect(setUser).not.toHaveBeenCalled();
    applySessionUserEvent(session, {
      action: 'update',
      user: createUser({ id: me.id, availability: 'away' }),
    });
    expect(setUser).toHaveBeenCalledWith({ ...me, availability: 'away' });
  });
});
