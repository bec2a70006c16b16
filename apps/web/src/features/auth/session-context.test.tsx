import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { renderLoginRoutes } from '../../test/login-routes';

describe('SessionProvider hand-over', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts signed in with the login answer: no GET /auth/me, /tickets, the due-date warning once', async () => {
    const user = createSessionUser({ id: 5, companyId: 9 });
    localStorage.setItem('token', 'tok');
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderLoginRoutes({
      login: <p>login page</p>,
      landing: { path: '/tickets', text: 'tickets page' },
      handover: { token: 'tok', user, dueDateWarningDays: 2.4 },
      strict: true,
    });
    expect(await screen.findByText('tickets page')).toBeTruthy();
    expect(await screen.findByText('Your subscription expires in 2 days')).toBeTruthy();
    expect(screen.getAllByText('Your subscription expires in 2 days')).toHaveLength(1);
    expect(screen.queryByText('login page')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('without a hand-over restores the stored session through GET /auth/me', async () => {
    const user = createSessionUser({ id: 6 });
    localStorage.setItem('token', 'tok');
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify(user), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderLoginRoutes({ login: <p>login page</p>, landing: { path: '/', text: 'home page' } });
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe('/api/auth/me');
  });
});
