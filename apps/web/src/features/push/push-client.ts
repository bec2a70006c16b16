import type { PushPreferences } from '@zapdesk/shared';
import { api, apiRequest } from '../../lib/api';
import { registerServiceWorker } from '../../lib/service-worker';

/** Whether this browser can receive Web Push (service worker, Push API, notifications). */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The subscription this browser holds for Zapdesk's service worker, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The server's VAPID public key (base64url) as the bytes `subscribe` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Turns push on in this browser: asks for the notification permission, subscribes the service
 * worker with the server's public key (GET /push/public-key) and stores the subscription (POST
 * /push/subscriptions). @returns 'enabled', or 'denied' when the user refused the permission.
 * @throws when the browser or the server fails.
 */
export async function enablePush(): Promise<'enabled' | 'denied'> {
  if ((await Notification.requestPermission()) !== 'granted') return 'denied';
  const registration = (await registerServiceWorker()) ?? (await navigator.serviceWorker.ready);
  await navigator.serviceWorker.ready;
  const { publicKey } = await api.get<{ publicKey: string }>('/push/public-key');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    }));
  await api.post('/push/subscriptions', subscription.toJSON());
  return 'enabled';
}

/** Turns push off in this browser: the server forgets the subscription, the browser drops it. */
export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await apiRequest('/push/subscriptions', {
    method: 'DELETE',
    body: { endpoint: subscription.endpoint },
  }).catch(() => {});
  await subscription.unsubscribe();
}

/** The caller's choice of events (GET /push/preferences). */
export const getPushPreferences = () => api.get<PushPreferences>('/push/preferences');

/** Changes some of the caller's choices (PUT /push/preferences). @returns all of them. */
export const savePushPreferences = (changes: Partial<PushPreferences>) =>
  api.put<PushPreferences>('/push/preferences', changes);
