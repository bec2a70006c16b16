/**
 * The set-up steps every journey repeats: the server and the browser, English pages, sessions
 * through the form or the API, an API caller, and closing it all.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { type RunningServer, startServer } from './server.js';

/** A page size in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

/** Demo or test credentials. */
export interface Credentials {
  email: string;
  password: string;
}

/** Starts the built server with `env` (see `startServer`), then launches the browser. */
export async function startJourney(
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; browser: Browser }> {
  const server = await startServer(env);
  const browser = await launchBrowser();
  return { server, browser };
}

/** Closes the browser, stops the server, then runs `more` in order; whatever did not start is skipped. */
export async function closeJourney(
  browser: Browser | undefined,
  server: RunningServer | undefined,
  ...more: (() => unknown)[]
): Promise<void> {
  await browser?.close();
  await server?.stop();
  for (const step of more) await step();
}

/** A page in a fresh English (en-US) browser context, at `viewport` when given. */
export async function openPage(browser: Browser, viewport?: Viewport): Promise<Page> {
  return (await browser.newContext({ locale: 'en-US', ...(viewport ? { viewport } : {}) })).newPage();
}

/** The API session token a signed-in page keeps (localStorage `token`); '' when there is none. */
export async function pageToken(page: Page): Promise<string> {
  return (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
}

/** Signs in through POST /api/auth/login; resolves with the answer's status and token. */
export async function apiLogin(
  baseUrl: string,
  credentials: Credentials,
): Promise<{ status: number; token: string }> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  return { status: login.status, token: ((await login.json()) as { token: string }).token };
}

/**
 * Signs a new company up through POST /api/companies/cadastro (the public signup) with its admin's
 * `email` and `password` and a mobile `phone` (default '11987654321').
 * @throws when the answer is not 201 Created, with its body.
 */
export async function signUpCompany(
  baseUrl: string,
  company: { name: string; email: string; password: string; phone?: string },
): Promise<void> {
  const signup = await fetch(`${baseUrl}/api/companies/cadastro`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone: '11987654321', ...company }),
  });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
}

/** `fetch` of `/api<path>` on a journey's server, as a bearer token (JSON content type with a body). */
export type ApiFetch = (path: string, init?: RequestInit) => Promise<Response>;

/** An `ApiFetch` on the server `baseUrl()` with the token `token()` (both read at each call). */
export function apiFetcher(baseUrl: () => string, token: () => string): ApiFetch {
  return (path, init = {}) =>
    fetch(`${baseUrl()}/api${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token()}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
    });
}

/** The id of the server's simulator connection (the demo data's). */
export async function simulatorConnectionId(api: ApiFetch): Promise<number> {
  const connections = (await (await api('/whatsapp')).json()) as { id: number; provider: string }[];
  return connections.find((c) => c.provider === 'simulator')!.id;
}

/**
 * A JSON request to `/api<path>` as the bearer `token`; resolves with the status and the parsed
 * answer (undefined for 204).
 */
export async function apiJson<T>(
  baseUrl: string,
  token: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, json: (res.status === 204 ? undefined : await res.json()) as T };
}

/** Waits (10 s at most) until the first connection `list()` answers is CONNECTED; no error after. */
export async function waitForConnected(list: () => Promise<{ status: string }[]>): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const [connection] = await list();
    if (connection?.status === 'CONNECTED') break;
    await new Promise((r) => setTimeout(r, 200));
  }
}
