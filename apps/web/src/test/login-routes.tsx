/** Renders the real session provider around the public /login route, as the app's router has it. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { AuthResponse } from '@zapdesk/shared';
import { type ReactNode, StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { PublicRoute } from '../app/guards';
import { SessionProvider } from '../features/auth/session-context';
import { PreferencesProvider } from '../lib/preferences';

export interface LoginRoutesOptions {
  /** What /login shows. */
  login: ReactNode;
  /** The signed-in page a session is sent to: its path and the text it shows (in a `<p>`). */
  landing: { path: string; text: string };
  /** The login answer handed to the session provider, if any. */
  handover?: AuthResponse;
  /** Render under React's StrictMode (effects run twice). */
  strict?: boolean;
}

/**
 * Renders at /login: a query client, the preferences and a toast container around the session
 * provider, whose routes are the public /login route and the landing page.
 */
export function renderLoginRoutes({ login, landing, handover, strict = false }: LoginRoutesOptions) {
  const tree = (
    <QueryClientProvider client={new QueryClient()}>
      <PreferencesProvider>
        <MemoryRouter initialEntries={['/login']}>
          <SessionProvider handover={handover}>
            <Routes>
              <Route element={<PublicRoute />}>
                <Route path="/login" element={login} />
              </Route>
              <Route path={landing.path} element={<p>{landing.text}</p>} />
            </Routes>
          </SessionProvider>
        </MemoryRouter>
        <ToastContainer />
      </PreferencesProvider>
    </QueryClientProvider>
  );
  return render(strict ? <StrictMode>{tree}</StrictMode> : tree);
}
