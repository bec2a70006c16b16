import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { PushSettingsDialog } from './push-settings-dialog';

const PREFS = {
  newPending: true,
  assigned: true,
  customerMessage: true,
  internalChat: true,
  slaWarning: true,
  slaBreach: true,
  mention: true,
  preview: false,
};
/** A real-looking VAPID public key (65 bytes, base64url). */
const PUBLIC_KEY = `B${'A'.repeat(86)}`;

describe('PushSettingsDialog', () => {
  let prefs: typeof PREFS;

  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url === '/api/push/preferences' && method === 'PUT') {
      prefs = { ...prefs, ...JSON.parse(String(init?.body)) };
      return json(200, prefs);
    }
    if (url === '/api/push/preferences') return json(200, prefs);
    if (url === '/api/push/public-key') return json(200, { publicKey: PUBLIC_KEY });
    if (url === '/api/push/subscriptions') return new Response(null, { status: 201 });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    prefs = { ...PREFS };
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the event choices where the browser cannot push, and saves each change', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PushSettingsDialog onClose={() => {}} />, { user: createSessionUser() });
    expect(await screen.findByText('This browser does not offer push notifications.')).toBeTruthy();
    expect(screen.queryByTestId('push-enable')).toBeNull();
    const preview = screen.getByLabelText('Show the message text in the notification') as HTMLInputElement;
    expect(preview.checked).toBe(false);
    await user.click(preview);
    await waitFor(() => expect(prefs.preview).toBe(true));
    const put = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/push/preferences' && init?.method === 'PUT',
    );
    expect(JSON.parse(String(put![1].body))).toEqual({ preview: true });
    expect(preview.checked).toBe(true);
  });

  it('enables push: asks permission, subscribes with the server key and stores the subscription', async () => {
    const subscribed = {
      endpoint: 'https://push.example.com/send/abc',
      toJSON: () => ({ endpoint: 'https://push.example.com/send/abc', keys: { p256dh: 'p', auth: 'a' } }),
    };
    const subscribe = vi.fn(async () => subscribed);
    const registration = { pushManager: { getSubscription: async () => null, subscribe } };
    vi.stubGlobal('PushManager', class {});
    vi.stubGlobal(
      'Notification',
      Object.assign(class {}, { permission: 'default', requestPermission: async () => 'granted' }),
    );
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        register: vi.fn(async () => registration),
        getRegistration: async () => registration,
        ready: Promise.resolve(registration),
      },
    });
    try {
      const user = userEvent.setup();
      renderWithProviders(<PushSettingsDialog onClose={() => {}} />, { user: createSessionUser() });
      await user.click(await screen.findByTestId('push-enable'));
      expect(await screen.findByText('On in this browser.')).toBeTruthy();
      const [options] = subscribe.mock.calls[0] as unknown as [{ applicationServerKey: Uint8Array }];
      expect(options.applicationServerKey).toHaveLength(65);
      const post = fetchMock.mock.calls.find(([url]) => url === '/api/push/subscriptions');
      expect(JSON.parse(String(post![1].body))).toMatchObject({ endpoint: subscribed.endpoint });
      expect(screen.getByTestId('push-disable')).toBeTruthy();
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });
});
