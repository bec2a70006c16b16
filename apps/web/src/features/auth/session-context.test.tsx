import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublicRoute } from '../../app/guards';
import { PreferencesProvider } from '../../lib/preferences';
import { createSessionUser } from '../../test/fixtures';
import { SessionProvider } from './session-context';

describe('SessionProvider hand-over', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts signed in with the login answer: no GET /auth/me, /tickets, the due-date warning once', async () => {
    const user = createSessionUser({ id: 5, companyId: 9 });
    localStorage.setItem('token', 'tok');
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(
      <StrictMode>
        <PreferencesProvider>
          <MemoryRouter initialEntries={['/login']}>
            <SessionProvider handover={{ token: 'tok', user, dueDateWarningDays: 2.4 }}>
              <Routes>
                <Route element={<PublicRoute />}>
                  <Route path="/login" element={<p>login page</p>} />
                </Route>
                <Route path="/tickets" element={<p>tickets page</p>} />
              </Routes>
            </SessionProvider>
          </MemoryRouter>
          <ToastContainer />
        </PreferencesProvider>
      </StrictMode>,
    );
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
    render(
      <PreferencesProvider>
        <MemoryRouter initialEntries={['/login']}>
          <SessionProvider>
            <Routes>
              <Route element={<PublicRoute />}>
                <Route path="/login" element={<p>login page</p>} />
              </Route>
              <Route path="/" element={<p>home page</p>} />
            </Routes>
          </SessionProvider>
        </MemoryRouter>
      </PreferencesProvider>,
    );
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe('/api/auth/me');
  });
});
