/**
 * The login entry (core section 2, docs/web.md "Web delivery"): what a visitor without a
 * stored session needs at /login, and nothing of the full app. Preferences, the login form, a
 * session whose `login` signs in through `requestLogin`, and a toast container loaded with the
 * first message. After a sign-in it loads the full app and hands it the answer (the app starts
 * signed in, without GET /auth/me, shows the due-date warning and goes where the public guard
 * sends a new session: /tickets). The links to /forgetpsw and /signup load the full app at their
 * path (history API), so browser back returns to /login inside the app.
 */
import type { AuthResponse, LoginBody } from '@zapdesk/shared';
import { StrictMode, useMemo } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { AuthNavigationContext } from '../features/auth/auth-navigation';
import { LoginPage } from '../features/auth/login-page';
import { requestLogin, SessionContext, type SessionValue } from '../features/auth/session-context';
import { i18nReady } from '../lib/i18n';
import { PreferencesProvider } from '../lib/preferences';
import { LazyToasts } from './lazy-toasts';

/** The full app: never a static import of this module (its router and toasts would join /login). */
const loadApp = () => import('./app');

/**
 * Renders the full app into `root` in place of the login entry: with `handover` after a sign-in,
 * at `to` (pushed onto the history) after a link. Should its code fail to download, the page is
 * loaded at the destination instead (the stored session then opens the full app).
 */
async function openApp(root: Root, options: { handover?: AuthResponse; to?: string }): Promise<void> {
  let app: Awaited<ReturnType<typeof loadApp>>;
  try {
    app = await loadApp();
  } catch {
    window.location.assign(options.to ?? '/tickets');
    return;
  }
  if (options.to) window.history.pushState(null, '', options.to);
  app.renderApp(root, options.handover);
}

/** The login form with the entry's session and navigation; `root` is where the full app goes. */
export function LoginEntry({ root }: { root: Root }) {
  const session = useMemo<SessionValue>(
    () => ({
      user: null,
      loading: false,
      justLoggedIn: false,
      login: async (body: LoginBody) => {
        // The app's code downloads while the server checks the password.
        void loadApp().catch(() => undefined);
        const answer = await requestLogin(body);
        await openApp(root, { handover: answer });
        return answer;
      },
      logout: async () => {},
      setUser: () => {},
    }),
    [root],
  );
  const navigate = useMemo(() => (to: string) => void openApp(root, { to }), [root]);
  return (
    <PreferencesProvider>
      <SessionContext.Provider value={session}>
        <AuthNavigationContext.Provider value={navigate}>
          <LoginPage />
        </AuthNavigationContext.Provider>
      </SessionContext.Provider>
      <LazyToasts />
    </PreferencesProvider>
  );
}

/**
 * Starts the login entry in `element` (app/entry.ts) and returns its React root (the full app
 * later renders into it). The first render waits for the UI language's boot strings (rendering
 * without them should they fail to load, lib/i18n.ts).
 */
export async function start(element: HTMLElement): Promise<Root> {
  const root = createRoot(element);
  await i18nReady.catch(() => undefined);
  root.render(
    <StrictMode>
      <LoginEntry root={root} />
    </StrictMode>,
  );
  return root;
}
