/** Renders a component with the app's providers and a given session (no server needed). */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { SessionUser } from '@zapdesk/shared';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { SessionContext, type SessionValue } from '../features/auth/session-context';
import { AppThemeProvider } from '../lib/app-theme';
import { PreferencesProvider } from '../lib/preferences';

export interface RenderOptions {
  user?: SessionUser | null;
  loading?: boolean;
  justLoggedIn?: boolean;
  route?: string;
  session?: Partial<SessionValue>;
}

/** A session value for tests; login/logout are no-ops unless overridden. */
export function fakeSession(options: RenderOptions = {}): SessionValue {
  return {
    user: options.user ?? null,
    loading: options.loading ?? false,
    justLoggedIn: options.justLoggedIn ?? false,
    login: async () => {
      throw new Error('not in this test');
    },
    logout: async () => {},
    setUser: () => {},
    ...options.session,
  };
}

/** Renders `ui` under query client, preferences (theme), a fake session and a memory router. */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <AppThemeProvider>
          <SessionContext.Provider value={fakeSession(options)}>
            <MemoryRouter initialEntries={[options.route ?? '/']}>{ui}</MemoryRouter>
          </SessionContext.Provider>
        </AppThemeProvider>
        <ToastContainer />
      </PreferencesProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

/**
 * renderWithProviders of `ui` on every path, next to an element with the test id `location` that
 * holds the router's current pathname (to see where a click navigated).
 */
export function renderWithLocation(ui: ReactElement, options: RenderOptions = {}) {
  return renderWithProviders(
    <Routes>
      <Route
        path="*"
        element={
          <>
            <Location />
            {ui}
          </>
        }
      />
    </Routes>,
    options,
  );
}
