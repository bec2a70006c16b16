/** Test data and a fetch router for the ticket view tests (not used by the app). */
import type { Message, Ticket } from '@zapdesk/shared';
import { vi } from 'vitest';
import { createMessage, createTicket } from '../tickets/test-fixtures';

let seq = 1000;

/** An open ticket of company 1 in queue 7, of the contact 50 (Maria Cliente); `overrides` win. */
export function makeTicket(overrides: Partial<Ticket> = {}): Ticket {
  const id = overrides.id ?? ++seq;
  return createTicket({
    id,
    uuid: `uuid-${id}`,
    code: `20250101${id}`,
    queueId: 7,
    queue: { id: 7, name: 'Suporte', color: '#123456' },
    whatsapp: { id: 1, name: 'Main' },
    contactId: 50,
    contact: {
      id: 50,
      name: 'Maria Cliente',
      number: '5511999990000',
      email: 'maria@example.com',
      profilePicUrl: null,
      isGroup: false,
    },
    lastMessage: '',
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  });
}

/** A read, received text message of ticket 1 from Maria Cliente; `overrides` win. */
export function makeMessage(overrides: Partial<Message> = {}): Message {
  const id = overrides.id ?? ++seq;
  return createMessage({
    id,
    contactId: 50,
    body: `message ${id}`,
    ack: 0,
    read: true,
    contact: { name: 'Maria Cliente' },
    createdAt: '2026-03-01T10:00:00',
    updatedAt: '2026-03-01T10:00:00',
    ...overrides,
  });
}

export const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

/**
 * Stubs fetch with `routes` ('METHOD /path-regex' -> handler or JSON body); unknown calls answer 404.
 * Returns the mock and `calls(method, pathPrefix)`.
 */
export function mockFetch(routes: Record<string, Handler | unknown>) {
  const compiled = Object.entries(routes).map(([key, value]) => {
    const [method, pattern] = key.split(' ');
    return { method, regex: new RegExp(`^${pattern}$`), value };
  });
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const route = compiled.find((r) => r.method === method && r.regex.test(url.pathname));
    if (!route) return json(404, { error: 'ERR_NOT_FOUND' });
    if (typeof route.value === 'function') return (route.value as Handler)(url, init);
    return json(200, route.value);
  });
  vi.stubGlobal('fetch', fetchMock);
  const calls = (method: string, pathPrefix: string) =>
    fetchMock.mock.calls
      .filter(([input, init]) => {
        const url = new URL(String(input), 'http://localhost');
        return (init?.method ?? 'GET') === method && url.pathname.startsWith(pathPrefix);
      })
      .map(([input, init]) => ({
        url: new URL(String(input), 'http://localhost'),
        init,
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : init?.body,
      }));
  return { fetchMock, calls };
}

/** One page of GET /messages/:ticketId. */
export const page = (messages: Message[], hasMore = false) => ({
  messages,
  hasMore,
  count: messages.length,
  ticket: null,
});
