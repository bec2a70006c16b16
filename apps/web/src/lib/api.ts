/**
 * The API client (core sections 4 "Session" and 7): base `/api`, bearer token from local storage,
 * cookies included (the refresh token is an httpOnly cookie).
 *
 * - 403 `ERR_SESSION_EXPIRED`: refreshes the token once through `POST /auth/refresh_token`; requests
 *   failing while that refresh runs wait for it and are replayed with the new token.
 * - A failed refresh, a 403 `ERR_SESSION_EXPIRED` after the replay, or any 401 clears the session
 *   (token, companyId, userId) and sends the user to /login (through `onSessionExpired` listeners).
 * - Every other failure throws an `ApiError` carrying the `{ error, field?, message? }` body.
 * - Media and other non-JSON files go through `fetchWithSession`, which shares the same single
 *   refresh, so a page of images whose token expired refreshes once, not once per image.
 */
import type { ApiErrorBody, AuthResponse } from '@zapdesk/shared';
import { API_BASE } from './config';
import { clearSession, getToken, writeSession } from './storage';

/** An error answer of the API (or a network failure, status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody | null;
  /** The answer's own text (a plain-text body or the body's `message`), when it has one. */
  readonly text: string | undefined;

  constructor(status: number, body: ApiErrorBody | null, message?: string) {
    super(message ?? body?.message ?? body?.error ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.text = message ?? (typeof body?.message === 'string' ? body.message : undefined);
  }

  /** The error code (`ERR_...`) of the answer, when it carries one. */
  get code(): string | undefined {
    return typeof this.body?.error === 'string' ? this.body.error : undefined;
  }
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-serialised unless it is a FormData. */
  body?: unknown;
  query?: Record<string, QueryValue | QueryValue[]>;
  signal?: AbortSignal;
  /** The browser cache mode (`no-store` for answers that must never come from its cache). */
  cache?: RequestCache;
  /** Public call (login, signup, refresh, plans list): no refresh, no session clearing. */
  public?: boolean;
}

interface RawAnswer {
  status: number;
  data: unknown;
}

const expiredListeners = new Set<() => void>();
const refreshedListeners = new Set<(answer: AuthResponse) => void>();
let refreshing: Promise<void> | null = null;

/** Registers a listener called when the session is cleared; returns the unsubscribe function. */
export function onSessionExpired(listener: () => void): () => void {
  expiredListeners.add(listener);
  return () => expiredListeners.delete(listener);
}

/** Registers a listener called after each successful token refresh. */
export function onSessionRefreshed(listener: (answer: AuthResponse) => void): () => void {
  refreshedListeners.add(listener);
  return () => refreshedListeners.delete(listener);
}

/** Clears the stored session and notifies listeners; without listeners it goes to /login itself. */
export function expireSession(): void {
  clearSession();
  if (expiredListeners.size === 0) {
    if (window.location.pathname !== '/login') window.location.assign('/login');
    return;
  }
  for (const listener of [...expiredListeners]) listener();
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== undefined && v !== null) params.append(key, String(v));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<RawAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
      cache: options.cache,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, null, err instanceof Error ? err.message : 'Network error');
  }
  if (response.status === 204) return { status: 204, data: undefined };
  const text = await response.text();
  let data: unknown = text;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  } else data = undefined;
  return { status: response.status, data };
}

const errorCodeOf = (answer: RawAnswer): string | undefined => {
  const data = answer.data as { error?: unknown } | undefined;
  return data && typeof data === 'object' && typeof data.error === 'string' ? data.error : undefined;
};

const isExpiredAnswer = (answer: RawAnswer) =>
  answer.status === 403 && errorCodeOf(answer) === 'ERR_SESSION_EXPIRED';

function toError(answer: RawAnswer): ApiError {
  const { data } = answer;
  if (data && typeof data === 'object' && ('error' in data || 'message' in data))
    return new ApiError(answer.status, data as ApiErrorBody);
  return new ApiError(answer.status, null, typeof data === 'string' && data ? data : undefined);
}

/** Calls `POST /auth/refresh_token` (cookie only), stores the new session and returns the answer. */
export async function refreshToken(): Promise<AuthResponse> {
  const answer = await send('/auth/refresh_token', { method: 'POST', public: true }, null);
  if (answer.status !== 200) throw toError(answer);
  const auth = answer.data as AuthResponse;
  writeSession(auth.token, auth.user.companyId, auth.user.id);
  for (const listener of [...refreshedListeners]) listener(auth);
  return auth;
}

/**
 * One refresh for every request that failed with the token `usedToken`. When the stored token has
 * already changed (another request refreshed meanwhile), the caller just replays.
 */
function ensureRefreshed(usedToken: string | null): Promise<void> {
  if (refreshing) return refreshing;
  const current = getToken();
  if (current && current !== usedToken) return Promise.resolve();
  refreshing = refreshToken()
    .then(() => undefined)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

const fetchAuthorized = (url: string, init: RequestInit, token: string | null) =>
  fetch(url, {
    ...init,
    headers: {
      ...(init.headers as Record<string, string>),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    credentials: 'include',
  });

/** True when a raw answer is 403 `ERR_SESSION_EXPIRED` (reads a clone, so the body stays unread). */
async function isExpiredResponse(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const text = await response
    .clone()
    .text()
    .catch(() => '');
  return text.includes('ERR_SESSION_EXPIRED');
}

/**
 * `fetch` of an API URL whose answer is not JSON (media files) under the same session rules as
 * `apiRequest`: bearer token and cookies; a 403 `ERR_SESSION_EXPIRED` waits for the one refresh
 * shared with every other waiting call (never a refresh of its own) and replays once; a failed
 * refresh or a 401 clears the session. Resolves with the last Response; rejects only on network
 * failure.
 */
export async function fetchWithSession(url: string, init: RequestInit = {}): Promise<Response> {
  const usedToken = getToken();
  let response = await fetchAuthorized(url, init, usedToken);
  if (await isExpiredResponse(response)) {
    try {
      await ensureRefreshed(usedToken);
    } catch {
      expireSession();
      return response;
    }
    response = await fetchAuthorized(url, init, getToken());
    if (await isExpiredResponse(response)) expireSession();
  }
  if (response.status === 401) expireSession();
  return response;
}

/** Sends one API request and returns its parsed JSON answer (undefined for 204). */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const usedToken = getToken();
  let answer = await send(path, options, usedToken);
  if (!options.public) {
    if (isExpiredAnswer(answer)) {
      try {
        await ensureRefreshed(usedToken);
      } catch {
        expireSession();
        throw toError(answer);
      }
      answer = await send(path, options, getToken());
      if (isExpiredAnswer(answer)) expireSession();
    }
    if (answer.status === 401) expireSession();
  }
  if (answer.status < 200 || answer.status >= 300) throw toError(answer);
  return answer.data as T;
}

/** Shorthands over `apiRequest`. */
export const api = {
  get: <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) =>
    apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  delete: <T = void>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};
