import { QueryClient } from '@tanstack/react-query';
import type { Ticket } from '@zapdesk/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMessage, createTicket } from './test-fixtures';
import {
  applyAppMessageEvent,
  applyContactEvent,
  applyTicketEvent,
  onInboundMessage,
  setOpenTicketUuid,
  type TicketListParams,
  type TicketsPages,
  type TicketViewer,
  ticketsKeys,
  toApiQuery,
  visibleTo,
} from './tickets-cache';

const viewer: TicketViewer = { id: 7, profile: 'user', queueIds: [1, 2], allTicket: 'desabled' };

function seed(client: QueryClient, params: TicketListParams, pages: Ticket[][], count?: number) {
  const data: TicketsPages = {
    pageParams: pages.map((_p, i) => i + 1),
    pages: pages.map((tickets, i) => ({
      tickets,
      hasMore: i < pages.length - 1,
      count: count ?? pages.flat().length,
    })),
  };
  client.setQueryData(ticketsKeys.list(params), data);
}

const read = (client: QueryClient, params: TicketListParams) =>
  client.getQueryData<TicketsPages>(ticketsKeys.list(params));
const ids = (client: QueryClient, params: TicketListParams) =>
  read(client, params)?.pages.flatMap((p) => p.tickets.map((t) => t.id)) ?? [];
const count = (client: QueryClient, params: TicketListParams) => read(client, params)?.pages[0]?.count;

const OPEN: TicketListParams = { status: 'open', queueIds: [1, 2] };
const PENDING: TicketListParams = { status: 'pending', queueIds: [1, 2] };
const CLOSED: TicketListParams = { status: 'closed', queueIds: [1, 2] };

describe('tickets cache merge', () => {
  afterEach(() => setOpenTicketUuid(null));

  it("keeps another user's ticket without a queue out of the lists; an unheld one stays in", () => {
    const held = createTicket({ status: 'open', queueId: null, userId: 99 });
    const free = createTicket({ status: 'pending', queueId: null, userId: null });
    expect(visibleTo(held, viewer)).toBe(false);
    expect(visibleTo(free, viewer)).toBe(true);
    expect(visibleTo({ ...held, userId: viewer.id }, viewer)).toBe(true);
    const client = new QueryClient();
    seed(client, { status: 'open' }, [[]]);
    applyTicketEvent(client, { action: 'update', ticket: held }, viewer);
    expect(ids(client, { status: 'open' })).toEqual([]);
  });

  it('moves an accepted ticket from pending to the top of open, with the counts', () => {
    const client = new QueryClient();
    const waiting = createTicket({ status: 'pending', queueId: 1 });
    const other = createTicket({ status: 'pending', queueId: 1 });
    const mine = createTicket({ status: 'open', queueId: 2, userId: 7 });
    seed(client, PENDING, [[waiting, other]]);
    seed(client, OPEN, [[mine]]);
    seed(client, CLOSED, [[]]);

    applyTicketEvent(client, { action: 'update', ticket: { ...waiting, status: 'open', userId: 7 } }, viewer);

    expect(ids(client, PENDING)).toEqual([other.id]);
    expect(count(client, PENDING)).toBe(1);
    expect(ids(client, OPEN)).toEqual([waiting.id, mine.id]);
    expect(count(client, OPEN)).toBe(2);
    expect(ids(client, CLOSED)).toEqual([]);
  });

  it('keeps a list in the due order: places by due time, never to the top, past the loaded pages left out', () => {
    const client = new QueryClient();
    const DUE: TicketListParams = { ...OPEN, sortBy: 'due' };
    const due = (iso: string | null, extra: Partial<Ticket> = {}) =>
      createTicket({ queueId: 1, firstResponseDueAt: iso, resolutionDueAt: null, ...extra });
    const a = due('2026-11-27T13:00:00.000Z');
    const b = due('2026-11-27T14:00:00.000Z');
    const c = due('2026-11-27T15:00:00.000Z');
    const none = due(null);
    seed(
      client,
      DUE,
      [
        [a, b],
        [c, none],
      ],
      4,
    );

    // A new ticket due between a and b goes there, not to the top; the count grows.
    const d = due(null, { resolutionDueAt: '2026-11-27T13:30:00.000Z' });
    applyTicketEvent(client, { action: 'update', ticket: d }, viewer);
    expect(ids(client, DUE)).toEqual([a.id, d.id, b.id, c.id, none.id]);
    expect(count(client, DUE)).toBe(5);

    // A message does not move it to the top; a new due time moves it to its place.
    applyAppMessageEvent(client, { action: 'create', message: createMessage({ ticketId: none.id }) }, viewer);
    expect(ids(client, DUE)).toEqual([a.id, d.id, b.id, c.id, none.id]);
    applyTicketEvent(
      client,
      { action: 'update', ticket: { ...a, firstResponseDueAt: '2026-11-27T14:30:00.000Z' } },
      viewer,
    );
    expect(ids(client, DUE)).toEqual([d.id, b.id, a.id, c.id, none.id]);
    expect(count(client, DUE)).toBe(5);
    // The default order shares the plain list's cache entry; the due order asks the API for it.
    expect(ticketsKeys.list({ ...OPEN, sortBy: 'updatedAt' })).toEqual(ticketsKeys.list(OPEN));
    expect(toApiQuery(DUE, 1).sortBy).toBe('due');
    expect(toApiQuery(OPEN, 1).sortBy).toBeUndefined();
  });

  it('in the due order leaves a ticket whose place is past the loaded tickets to the next page', () => {
    const client = new QueryClient();
    const DUE: TicketListParams = { ...OPEN, sortBy: 'due' };
    const a = createTicket({ queueId: 1, firstResponseDueAt: '2026-11-27T13:00:00.000Z' });
    seed(client, DUE, [[a], []], 3);
    const later = createTicket({ queueId: 1, firstResponseDueAt: '2026-11-28T13:00:00.000Z' });
    const read1 = read(client, DUE)!;
    client.setQueryData(ticketsKeys.list(DUE), {
      ...read1,
      pages: [read1.pages[0]!, { ...read1.pages[1]!, hasMore: true }],
    });
    applyTicketEvent(client, { action: 'update', ticket: later }, viewer);
    expect(ids(client, DUE)).toEqual([a.id]);
    expect(count(client, DUE)).toBe(4);
  });

  it('replaces a ticket in place when it stays in its list', () => {
    const client = new QueryClient();
    const a = createTicket({ queueId: 1 });
    const b = createTicket({ queueId: 1 });
    seed(client, OPEN, [[a], [b]]);
    applyTicketEvent(client, { action: 'update', ticket: { ...b, lastMessage: 'changed' } }, viewer);
    expect(ids(client, OPEN)).toEqual([a.id, b.id]);
    expect(read(client, OPEN)?.pages[1]?.tickets[0]?.lastMessage).toBe('changed');
    expect(count(client, OPEN)).toBe(2);
  });

  it("respects the list's queue filter and the viewer's queues", () => {
    const client = new QueryClient();
    const onlyQueue1: TicketListParams = { status: 'open', queueIds: [1] };
    seed(client, onlyQueue1, [[]]);
    seed(client, OPEN, [[]]);
    const inQueue2 = createTicket({ queueId: 2 });
    applyTicketEvent(client, { action: 'update', ticket: inQueue2 }, viewer);
    expect(ids(client, onlyQueue1)).toEqual([]);
    expect(ids(client, OPEN)).toEqual([inQueue2.id]);

    const foreign = createTicket({ queueId: 9, userId: 3 });
    applyTicketEvent(client, { action: 'update', ticket: foreign }, viewer);
    expect(ids(client, OPEN)).toEqual([inQueue2.id]);
    seed(client, { status: 'open', showAll: true }, [[]]);
    applyTicketEvent(client, { action: 'update', ticket: foreign }, viewer);
    expect(ids(client, { status: 'open', showAll: true })).toEqual([foreign.id]);
  });

  it('only replaces tickets in text search lists (never inserts)', () => {
    const client = new QueryClient();
    const search: TicketListParams = { searchParam: 'maria' };
    const listed = createTicket({ queueId: 1 });
    seed(client, search, [[listed]]);
    applyTicketEvent(client, { action: 'update', ticket: createTicket({ queueId: 1 }) }, viewer);
    applyTicketEvent(client, { action: 'update', ticket: { ...listed, status: 'closed' } }, viewer);
    expect(ids(client, search)).toEqual([listed.id]);
    expect(read(client, search)?.pages[0]?.tickets[0]?.status).toBe('closed');
  });

  it('removes a deleted ticket from every list', () => {
    const client = new QueryClient();
    const gone = createTicket({ status: 'pending', queueId: 1, unreadMessages: 2 });
    const stays = createTicket({ status: 'pending', queueId: 1 });
    seed(client, PENDING, [[stays], [gone]], 2);
    seed(client, { withUnreadMessages: true }, [[gone]]);
    applyTicketEvent(client, { action: 'delete', ticketId: gone.id }, viewer);
    expect(ids(client, PENDING)).toEqual([stays.id]);
    expect(count(client, PENDING)).toBe(1);
    expect(ids(client, { withUnreadMessages: true })).toEqual([]);
  });

  it('updateUnread zeroes the unread count and drops it from the unread list', () => {
    const client = new QueryClient();
    const ticket = createTicket({ queueId: 1, unreadMessages: 4 });
    seed(client, OPEN, [[ticket]]);
    seed(client, { withUnreadMessages: true }, [[ticket]]);
    applyTicketEvent(client, { action: 'updateUnread', ticketId: ticket.id }, viewer);
    expect(read(client, OPEN)?.pages[0]?.tickets[0]?.unreadMessages).toBe(0);
    expect(ids(client, { withUnreadMessages: true })).toEqual([]);
  });

  it('appMessage create bumps the ticket to the top with the new last message and +1 unread', () => {
    const client = new QueryClient();
    const first = createTicket({ queueId: 1 });
    const second = createTicket({ queueId: 1, unreadMessages: 2, updatedAt: '2026-01-01T00:00:00.000Z' });
    seed(client, OPEN, [[first], [second]]);
    seed(client, { withUnreadMessages: true }, [[]]);
    const heard = vi.fn();
    const off = onInboundMessage(heard);
    const message = createMessage({ ticketId: second.id, body: 'New question', fromMe: false });

    applyAppMessageEvent(
      client,
      { action: 'create', message, ticket: { ...second, updatedAt: '2026-05-20T10:00:00.000Z' } },
      viewer,
    );
    off();

    expect(ids(client, OPEN)).toEqual([second.id, first.id]);
    const bumped = read(client, OPEN)?.pages[0]?.tickets[0];
    expect(bumped?.lastMessage).toBe('New question');
    expect(bumped?.unreadMessages).toBe(3);
    expect(bumped?.updatedAt).toBe('2026-05-20T10:00:00.000Z');
    expect(count(client, OPEN)).toBe(2);
    expect(ids(client, { withUnreadMessages: true })).toEqual([second.id]);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('appMessage create adds no unread for own messages or the open ticket', () => {
    const client = new QueryClient();
    const ticket = createTicket({ queueId: 1, unreadMessages: 1 });
    seed(client, OPEN, [[createTicket({ queueId: 1 }), ticket]]);
    applyAppMessageEvent(
      client,
      {
        action: 'create',
        message: createMessage({ ticketId: ticket.id, fromMe: true, body: 'mine' }),
        ticket,
      },
      viewer,
    );
    expect(read(client, OPEN)?.pages[0]?.tickets[0]?.unreadMessages).toBe(1);
    expect(read(client, OPEN)?.pages[0]?.tickets[0]?.lastMessage).toBe('mine');

    setOpenTicketUuid(ticket.uuid);
    applyAppMessageEvent(
      client,
      { action: 'create', message: createMessage({ ticketId: ticket.id, fromMe: false }), ticket },
      viewer,
    );
    expect(read(client, OPEN)?.pages[0]?.tickets[0]?.unreadMessages).toBe(0);
  });

  it('merges a contact update into the listed tickets', () => {
    const client = new QueryClient();
    const ticket = createTicket({ queueId: 1 });
    seed(client, OPEN, [[ticket]]);
    applyContactEvent(client, { action: 'update', contact: { ...ticket.contact, name: 'Renamed' } });
    expect(read(client, OPEN)?.pages[0]?.tickets[0]?.contact.name).toBe('Renamed');
  });
});
