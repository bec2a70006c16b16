/** HTTP helpers for the web tests' fetch stubs. */
import { afterEach, beforeEach, vi } from 'vitest';

/** A fetch Response with `body` as JSON and the given status. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** One request seen by a stubbed fetch: its URL as given, its method (GET when unset) and its init. */
export interface StubRequest {
  url: string;
  method: string;
  init: RequestInit | undefined;
}

/**
 * Stubs the global fetch around every test of the calling `describe` (or file) with one mock that
 * answers through `answer`; unstubs it after each. The mock is the same object in every test, and
 * its calls and any implementation a test sets are cleared before the next.
 */
export function stubFetch(
  answer: (request: StubRequest) => Response | Promise<Response>,
): ReturnType<typeof vi.fn> {
  const route = async (input: RequestInfo | URL, init?: RequestInit) =>
    answer({ url: String(input), method: init?.method ?? 'GET', init });
  const fetchMock = vi.fn(route);
  beforeEach(() => {
    fetchMock.mockReset();
    fetchMock.mockImplementation(route);
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());
  return fetchMock;
}

/** A fetch mock whose answer can be read and replaced (vi.fn's). */
export interface FetchMock {
  getMockImplementation(): unknown;
  mockImplementation(implementation: typeof fetch): unknown;
}

/**
 * For the rest of a test, asks `answer` first: what it answers undefined goes on to what `fetchMock`
 * answered until now.
 */
export function answerFirst(
  fetchMock: FetchMock,
  answer: (request: StubRequest) => Response | Promise<Response> | undefined,
): void {
  const previous = fetchMock.getMockImplementation() as typeof fetch;
  fetchMock.mockImplementation(
    async (input: RequestInfo | URL, init?: RequestInit) =>
      answer({ url: String(input), method: init?.method ?? 'GET', init }) ?? previous(input, init),
  );
}

/**
 * Makes the global fetch, from now until `vi.unstubAllGlobals()`, a mock that answers through `answer`;
 * returns the mock (its calls are the raw `(input, init)` pairs).
 */
export function stubFetchNow(
  answer: (request: StubRequest) => Response | Promise<Response>,
): ReturnType<typeof vi.fn> {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    answer({ url: String(input), method: init?.method ?? 'GET', init }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
