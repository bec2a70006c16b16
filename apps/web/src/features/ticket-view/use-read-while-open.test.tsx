import { QueryClient } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyAppMessageEvent, setOpenTicketUuid } from '../tickets/tickets-cache';
import { makeMessage, makeTicket, mockFetch } from './test-helpers';
import { useReadWhileOpen } from './use-read-while-open';

const ticket = makeTicket({ id: 77, status: 'open', unreadMessages: 1 });
const other = makeTicket({ id: 78, status: 'open', unreadMessages: 1 });

/** A customer message on `t` as the socket brings it. */
const arrives = (t = ticket, fromMe = false) =>
  applyAppMessageEvent(new QueryClient(), {
    action: 'create',
    message: makeMessage({ ticketId: t.id, fromMe }),
    ticket: t,
  });

let visibility: DocumentVisibilityState = 'visible';

describe('useReadWhileOpen', () => {
  beforeEach(() => {
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    setOpenTicketUuid(ticket.uuid);
  });
  afterEach(() => {
    setOpenTicketUuid(null);
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('reads the open ticket when a customer message arrives, and only that one', async () => {
    const { calls } = mockFetch({
      'POST /api/messages/\\d+/read': () => new Response(null, { status: 204 }),
    });
    renderHook(() => useReadWhileOpen(ticket.id));
    arrives(other);
    arrives(ticket, true);
    expect(calls('POST', '/api/messages/')).toHaveLength(0);
    arrives();
    await waitFor(() => expect(calls('POST', '/api/messages/')).toHaveLength(1));
    expect(calls('POST', '/api/messages/')[0]?.url.pathname).toBe('/api/messages/77/read');
  });

  it('waits for the tab to show before reading', async () => {
    const { calls } = mockFetch({
      'POST /api/messages/\\d+/read': () => new Response(null, { status: 204 }),
    });
    renderHook(() => useReadWhileOpen(ticket.id));
    visibility = 'hidden';
    arrives();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(calls('POST', '/api/messages/')).toHaveLength(0);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => expect(calls('POST', '/api/messages/')).toHaveLength(1));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(calls('POST', '/api/messages/')).toHaveLength(1);
  });

  it('sends one more request for messages that arrive while one runs, and stops when unmounted', async () => {
    const answers: (() => void)[] = [];
    const { calls } = mockFetch({
      'POST /api/messages/\\d+/read': () =>
        new Promise<Response>((resolve) => answers.push(() => resolve(new Response(null, { status: 204 })))),
    });
    const view = renderHook(() => useReadWhileOpen(ticket.id));
    arrives();
    arrives();
    arrives();
    await waitFor(() => expect(calls('POST', '/api/messages/')).toHaveLength(1));
    answers.shift()?.();
    await waitFor(() => expect(calls('POST', '/api/messages/')).toHaveLength(2));
    answers.shift()?.();
    view.unmount();
    arrives();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls('POST', '/api/messages/')).toHaveLength(2);
  });
});
