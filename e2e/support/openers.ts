/**
 * The openings journeys share, over startJourney: an admin's page signed in through the form with
 * its API caller and the simulator connection, or an inbox whose simulator connection is paired,
 * with the admin's API token.
 */
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN } from './demo.js';
import {
  type ApiFetch,
  apiFetcher,
  apiJson,
  apiLogin,
  openPage,
  pageToken,
  simulatorConnectionId,
  startJourney,
  type Viewport,
  waitForConnected,
} from './journey.js';
import { signInAs } from './pages.js';
import type { RunningServer } from './server.js';

/** A journey opened by startAdminJourney. */
export interface AdminJourney {
  server: RunningServer;
  browser: Browser;
  /** A page signed in as the demo admin. */
  page: Page;
  /** The page's API session token. */
  token: string;
  /** `fetch` of the server's API with that token. */
  api: ApiFetch;
  /** The demo data's simulator connection. */
  whatsappId: number;
}

/**
 * Starts the server (with `env`) and the browser, opens a page at `viewport` and signs the demo
 * admin in through the form; resolves once the simulator connection's id is known.
 */
export async function startAdminJourney(
  viewport?: Viewport,
  env: Record<string, string> = {},
): Promise<AdminJourney> {
  const { server, browser } = await startJourney(env);
  const page = await openPage(browser, viewport);
  await signInAs(page, server.url, DEMO_ADMIN);
  const token = await pageToken(page);
  const api = apiFetcher(
    () => server.url,
    () => token,
  );
  return { server, browser, page, token, api, whatsappId: await simulatorConnectionId(api) };
}

/** A journey opened by startInboxJourney: no page yet, the demo admin's API token. */
export interface InboxJourney {
  server: RunningServer;
  browser: Browser;
  adminToken: string;
}

/**
 * Starts the server with the simulator pairing in 100 ms (plus `env`) and the browser, signs the
 * demo admin in through the API and waits until the simulator connection is CONNECTED. With
 * `quiet`, the connection, queue and accept greetings are turned off so that a conversation holds only what
 * the customer and the agent write; `settings` (key to value, e.g. `{ sendGreetingAccepted: 'enabled' }`)
 * are saved after that. @throws when a setting is not saved.
 */
export async function startInboxJourney(
  options: { quiet?: boolean; env?: Record<string, string>; settings?: Record<string, string> } = {},
): Promise<InboxJourney> {
  const { server, browser } = await startJourney({ SIMULATOR_PAIR_MS: '100', ...options.env });
  const adminToken = (await apiLogin(server.url, DEMO_ADMIN)).token;
  const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
    apiJson<T>(server.url, adminToken, path, init);
  await waitForConnected(async () => (await api<{ status: string }[]>('/whatsapp')).json);
  const quiet = options.quiet
    ? { sendGreetingMessageOneQueues: 'disabled', sendGreetingAccepted: 'disabled' }
    : {};
  for (const [key, value] of Object.entries({ ...quiet, ...options.settings })) {
    const saved = await api(`/settings/${key}`, { method: 'PUT', body: { value } });
    if (saved.status !== 200) throw new Error(`setting ${key}: ${saved.status}`);
  }
  // The connection's greeting reaches every new customer: quiet clears it too.
  if (options.quiet) {
    for (const { id } of (await api<{ id: number }[]>('/whatsapp')).json) {
      const saved = await api(`/whatsapp/${id}`, { method: 'PUT', body: { greetingMessage: '' } });
      if (saved.status !== 200) throw new Error(`connection ${id} greeting: ${saved.status}`);
    }
  }
  return { server, browser, adminToken };
}
