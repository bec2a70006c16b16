/**
 * The page's first script (main.tsx) picks the entry: the login entry (login-entry.tsx) at /login
 * without a stored session, else the full app (app.tsx); each is a chunk of its own with React and
 * i18next, so this module stays small and the boot strings download alongside the entry
 * (docs/web.md, "Web delivery").
 */
import { prefetchBootStrings } from '../lib/i18n-boot';
import { getToken } from '../lib/storage';

/**
 * True when the page opens on /login without a stored session: the login entry serves it. With a
 * stored token the full app opens, so its public guard can send the user on.
 */
export function isLoginOnly(pathname: string, token: string | null): boolean {
  return token === null && /^\/login\/?$/.test(pathname);
}

/** Loads the entry the current page needs and starts it in `element` (the page's #root). */
export async function startEntry(element: HTMLElement): Promise<void> {
  prefetchBootStrings();
  const entry = isLoginOnly(window.location.pathname, getToken())
    ? await import('./login-entry')
    : await import('./app');
  await entry.start(element);
}
