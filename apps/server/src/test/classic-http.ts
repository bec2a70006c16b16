import type { FastifyInstance } from 'fastify';

/** Where the classic client is hosted: another origin than the API's. */
export const CLIENT_ORIGIN = 'http://classic-client.example.test';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';

/**
 * The classic client's HTTP layer: axios on `baseURL` = the backend URL, JSON bodies, its default
 * Accept header, the bearer token from localStorage and credentials (the refresh cookie).
 */
export function classicClient(app: FastifyInstance, prefix: string) {
  let token: string | undefined;
  let cookie: string | undefined;
  return {
    setToken: (value: string) => {
      token = value;
    },
    async call(method: Method, url: string, body?: unknown, query?: Record<string, string>) {
      const qs = query ? `?${new URLSearchParams(query).toString()}` : '';
      const headers: Record<string, string> = {
        accept: 'application/json, text/plain, */*',
        origin: CLIENT_ORIGIN,
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      if (cookie) headers.cookie = cookie;
      const res = await app.inject({
        method,
        url: `${prefix}${url}${qs}`,
        headers,
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      const refresh = res.cookies.find((c) => c.name === 'jrt');
      if (refresh?.value) cookie = `jrt=${refresh.value}`;
      return res;
    },
  };
}
