/**
 * The service worker's registration (docs/web.md "Installable app and Web Push"): imported lazily by
 * the signed-in layout, never by the login entry, so signing in costs nothing for it.
 */

/** Where the build writes the service worker (vite-plugin-pwa, src/sw/sw.ts). */
export const SERVICE_WORKER_URL = '/sw.js';

/**
 * Registers /sw.js for the whole origin when the browser has service workers; a failure (private
 * window, blocked by policy) is let go. @returns the registration, or undefined without one.
 */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator)) return undefined;
  try {
    return await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  } catch {
    return undefined;
  }
}
