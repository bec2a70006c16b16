import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../test/fixtures';
import { json } from '../test/http';
import { ApiError, api, fetchWithSession, onSessionExpired } from './api';
import { readSession, writeSession } from './storage';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

const bearer = (init: RequestInit) => (init.headers as Record<string, string>).Authorization;

function mockFetch(handler: Handler) {
  const fn = vi.fn((input: RequestInfo | URL, init?: RequestInit) => handler(String(input), init ?? {}));
  vi.stubGlobal('fetch', fn);
  return fn;
}

const callsTo = (fn: ReturnType<typeof mockFetch>, path: string) =>
  fn.mock.calls.filter(([url]) => String(url).startsWith(`/api${path}`));

/**
 * A fetch whose token refresh (for user 42 of company 7, to 'new-token') waits for
 * `releaseRefresh()`; the old token is refused as expired, and the rest answered by `answer`.
 */
function gatedRefresh(answer: (url: string) => Response) {
  const user = createSessionUser({ id: 42, companyId: 7 });
  let releaseRefresh: () => void = () => {};
  const refreshGate = new Promise<void>((resolve) => {
    releaseRefresh = resolve;
  });
  const fetchMock = mockFetch(async (url, init) => {
    if (url === '/api/auth/refresh_token') {
      await refreshGate;
      return json(200, { token: 'new-token', user, dueDateWarningDays: null });
    }
    if (bearer(init) === 'Bearer old-token') return json(403, { error: 'ERR_SESSION_EXPIRED' });
    return answer(url);
  });
  return { fetchMock, releaseRefresh: () => releaseRefresh() };
}

describe('api client', () => {
  let expired: ReturnType<typeof vi.fn<() => void>>;
  let off: () => void;

  beforeEach(() => {
    writeSession('old-token', 7, 42);
    expired = vi.fn<() => void>();
    off = onSessionExpired(expired);
  });
  afterEach(() => {
    off();
    vi.unstubAllGlobals();
  });

  it('sends the bearer token with cookies under /api', async () => {
    const fetchMock = mockFetch(() => json(200, { ok: true }));
    await api.get('/settings', { a: 1, empty: undefined });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/settings?a=1');
    expect(init?.credentials).toBe('include');
    expect(bearer(init!)).toBe('Bearer old-token');
  });

  it('refreshes once for concurrent 403 ERR_SESSION_EXPIRED answers and replays every request', async () => {
    const { fetchMock, releaseRefresh } = gatedRefresh((url) => json(200, { path: url }));

    const pending = Promise.all([api.get('/users/'), api.get('/queue'), api.get('/settings')]);
    await vi.waitFor(() => expect(callsTo(fetchMock, '/auth/refresh_token')).toHaveLength(1));
    releaseRefresh();
    const answers = await pending;

    expect(answers).toEqual([{ path: '/api/users/' }, { path: '/api/queue' }, { path: '/api/settings' }]);
    expect(callsTo(fetchMock, '/auth/refresh_token')).toHaveLength(1);
    expect(callsTo(fetchMock, '/users/')).toHaveLength(2);
    expect(bearer(callsTo(fetchMock, '/queue')[1]![1]!)).toBe('Bearer new-token');
    expect(readSession()).toEqual({ token: 'new-token', companyId: 7, userId: 42 });
    expect(expired).not.toHaveBeenCalled();
  });

  it('shares one refresh among media fetches and API calls waiting at once', async () => {
    const { fetchMock, releaseRefresh } = gatedRefresh((url) => new Response(`file ${url}`, { status: 200 }));
    const images = ['/api/public/a.jpg', '/api/public/b.jpg', '/api/public/c.jpg'];
    const pending = Promise.all([...images.map((url) => fetchWithSession(url)), api.get('/queue')]);
    await vi.waitFor(() => expect(callsTo(fetchMock, '/auth/refresh_token')).toHaveLength(1));
    releaseRefresh();
    const [a, b, c, queue] = await pending;
    expect(await Promise.all([a, b, c].map((r) => (r as Response).text()))).toEqual(
      images.map((url) => `file ${url}`),
    );
    expect(queue).toBe('file /api/queue');
    expect(callsTo(fetchMock, '/auth/refresh_token')).toHaveLength(1);
    expect(bearer(callsTo(fetchMock, '/public/a.jpg')[1]![1]!)).toBe('Bearer new-token');
    expect(callsTo(fetchMock, '/public/a.jpg')[1]![1]!.credentials).toBe('include');
    expect(expired).not.toHaveBeenCalled();
  });

  it('a media fetch refused with 401 clears the session without refreshing', async () => {
    const fetchMock = mockFetch(() => json(401, { error: 'ERR_SESSION_EXPIRED' }));
    const res = await fetchWithSession('/api/public/a.jpg');
    expect(res.status).toBe(401);
    expect(callsTo(fetchMock, '/auth/refresh_token')).toHaveLength(0);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('replays without a second refresh when the token changed while the request was in flight', async () => {
    const user = createSessionUser({ id: 42, companyId: 7 });
    let releaseSlow: () => void = () => {};
    const slowGate = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    const fetchMock = mockFetch(async (url, init) => {
      if (url === '/api/auth/refresh_token')
        return json(200, { token: 'new-token', user, dueDateWarningDays: null });
      if (bearer(init) === 'Bearer old-token') {
        if (url === '/api/slow') await slowGate;
        return json(403, { error: 'ERR_SESSION_EXPIRED' });
      }
      return json(200, { path: url });
    });
    const slow = api.get('/slow');
    await expect(api.get('/fast')).resolves.toEqual({ path: '/api/fast' });
    releaseSlow();
    await expect(slow).resolves.toEqual({ path: '/api/slow' });
    expect(callsTo(fetchMock, '/auth/refresh_token')).toHaveLength(1);
  });

  it('clears the session once the refresh fails, for every waiting request', async () => {
    const fetchMock = mockFetch((url) => {
      if (url === '/api/auth/refresh_token') return json(401, { error: 'ERR_SESSION_EXPIRED' });
      return json(403, { error: 'ERR_SESSION_EXPIRED' });
    });
    const results = await Promise.allSettled([api.get('/users/'), api.get('/queue')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(callsTo(fetchMock, '/auth/refresh_token')).toHaveLength(1);
    expect(readSession()).toEqual({ token: null, companyId: null, userId: null });
    expect(expired).toHaveBeenCalled();
  });

  it('clears the session on any 401', async () => {
    mockFetch(() => json(401, { error: 'ERR_SESSION_EXPIRED' }));
    await expect(api.get('/users/')).rejects.toBeInstanceOf(ApiError);
    expect(readSession().token).toBeNull();
    expect(localStorage.getItem('companyId')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('clears the session when the replay is refused again', async () => {
    const user = createSessionUser();
    mockFetch((url) =>
      url === '/api/auth/refresh_token'
        ? json(200, { token: 'new-token', user, dueDateWarningDays: null })
        : json(403, { error: 'ERR_SESSION_EXPIRED' }),
    );
    await expect(api.get('/users/')).rejects.toMatchObject({ status: 403, code: 'ERR_SESSION_EXPIRED' });
    expect(readSession().token).toBeNull();
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('does not refresh on 403 ERR_NO_PERMISSION and keeps the session', async () => {
    const fetchMock = mockFetch(() => json(403, { error: 'ERR_NO_PERMISSION' }));
    await expect(api.delete('/users/3')).rejects.toMatchObject({ status: 403, code: 'ERR_NO_PERMISSION' });
    expect(callsTo(fetchMock, '/auth/refresh_token')).toHaveLength(0);
    expect(readSession().token).toBe('old-token');
    expect(expired).not.toHaveBeenCalled();
  });

  it('leaves the session alone for a refused public call such as login', async () => {
    mockFetch(() => json(401, { error: 'ERR_INVALID_CREDENTIALS' }));
    await expect(
      api.post('/auth/login', { email: 'a@b.c', password: 'x' }, { public: true }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_CREDENTIALS' });
    expect(readSession().token).toBe('old-token');
    expect(expired).not.toHaveBeenCalled();
  });

  it('returns undefined for 204 and sends JSON bodies', async () => {
    const fetchMock = mockFetch(() => new Response(null, { status: 204 }));
    await expect(api.put('/users/1', { name: 'Ana' })).resolves.toBeUndefined();
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.method).toBe('PUT');
    expect(init.body).toBe('{"name":"Ana"}');
  });
});
