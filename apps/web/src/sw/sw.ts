/**
 * Zapdesk's service worker (docs/web.md "Installable app and Web Push"), built by vite-plugin-pwa
 * (injectManifest) into /sw.js. It precaches only what the sign-in screen needs (the build lists it
 * in `self.__WB_MANIFEST`), caches the other hashed assets as they are first fetched, and shows the
 * server's Web Push notifications; a click opens the notification's page (/tickets/{uuid}) in an
 * open Zapdesk window, or in a new one. API calls and page loads always go to the network.
 */
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: { url: string; revision: string | null }[] };

/** What a push carries (packages/shared ZPushPayload), as far as the notification needs it. */
interface PushData {
  title?: string;
  body?: string;
  url?: string;
  tag?: string;
}

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Hashed build files never change: the first fetch of each is kept, the least used go after 300.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname.startsWith('/assets/') && request.method === 'GET',
  new CacheFirst({
    cacheName: 'zapdesk-assets',
    plugins: [new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60 })],
  }),
);

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  let data: PushData = {};
  try {
    data = (event.data?.json() as PushData | undefined) ?? {};
  } catch {
    data = { body: event.data?.text() };
  }
  const url = typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/tickets';
  event.waitUntil(
    self.registration.showNotification(data.title || 'Zapdesk', {
      body: data.body ?? '',
      tag: data.tag,
      icon: '/pwa-192.png',
      badge: '/pwa-192.png',
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data as { url?: string } | null)?.url ?? '/tickets';
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((client) => client.url === target);
      if (same) return void (await same.focus());
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        return void (await open.navigate(target));
      }
      await self.clients.openWindow(target);
    })(),
  );
});
