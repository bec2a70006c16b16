import type { AuthResponse } from '@zapdesk/shared';
import type { ReactNode } from 'react';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { BrowserRouter, useNavigate } from 'react-router';
import { AuthNavigationContext } from '../features/auth/auth-navigation';
import { SessionProvider } from '../features/auth/session-context';
import { i18nReady } from '../lib/i18n';
import { PreferencesProvider } from '../lib/preferences';
import { LazyToasts } from './lazy-toasts';
import { AppRoutes } from './router';

/** The login form's links (features/auth/auth-navigation.tsx) go through the router. */
export function RouterNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  return <AuthNavigationContext.Provider value={navigate}>{children}</AuthNavigationContext.Provider>;
}

export interface AppProps {
  /** A login just made by the login entry: the session starts with it (SessionProvider). */
  handover?: AuthResponse;
}

/**
 * The whole application: preferences, session, toasts (loaded after the first page) and routes. The query client and the MUI
 * theme are a lazy layout route (app-providers.tsx), not needed by the login form.
 */
export function App({ handover }: AppProps) {
  return (
    <PreferencesProvider>
      <BrowserRouter>
        <SessionProvider handover={handover}>
          <RouterNavigation>
            <AppRoutes />
          </RouterNavigation>
        </SessionProvider>
      </BrowserRouter>
      <LazyToasts />
    </PreferencesProvider>
  );
}

/**
 * Renders the full app into `root` at the current location (replacing the login entry after a
 * sign-in, with its answer as `handover`).
 */
export function renderApp(root: Root, handover?: AuthResponse): void {
  root.render(
    <StrictMode>
      <App handover={handover} />
    </StrictMode>,
  );
}

/**
 * Starts the full app in `element` (app/entry.ts): the first render waits for the UI language's
 * boot strings (rendering without them should they fail to load, lib/i18n.ts).
 */
export async function start(element: HTMLElement): Promise<void> {
  const root = createRoot(element);
  await i18nReady.catch(() => undefined);
  renderApp(root);
}
