import { QueryClient } from '@tanstack/react-query';
import type { Contact, Ticket } from '@zapdesk/shared';
import { describe, expect, it, vi } from 'vitest';
import {
  applyAppMessageEvent,
  applyContactViewEvent,
  applyTicketViewEvent,
  flattenMessages,
  type MessagesPages,
  onTicketDeleted,
  ticketViewKeys,
  upsertMessage,
} from './messages-cache';
import { makeMessage, makeTicket, page } from './test-helpers';

const pages = (...lists: ReturnType<typeof makeMessage>[][]): MessagesPages => ({
  pages: lists.map((list) => page(list)),
  pageParams: lists.map((_, i) => i + 1),
});

describe('messages cache', () => {
  it('flattens older pages first without duplicates', () => {
    const data = pages(
      [makeMessage({ id: 3 }), makeMessage({ id: 4 })],
      [makeMessage({ id: 1 }), makeMessage({ id: 3 })],
    );
    expect(flattenMessages(data).map((m) => m.id)).toEqual([1, 3, 4]);
  });

  it('upserts: replaces by id or appends to the newest page', () => {
    const data = pages([makeMessage({ id: 3, ack: 1 })], [makeMessage({ id: 1 })]);
    const replaced = upsertMessage(data, makeMessage({ id: 3, ack: 3 }));
    expect(replaced?.pages[0]?.messages.map((m) => m.ack)).toEqual([3]);
    const appended = upsertMessage(data, makeMessage({ id: 5 }));
    expect(appended?.pages[0]?.messages.map((m) => m.id)).toEqual([3, 5]);
  });

  it('appends a create only to the history of its ticket or contact', () => {
    const client = new QueryClient();
    client.setQueryData(ticketViewKeys.messages(1, 50), pages([]));
    client.setQueryData(ticketViewKeys.messages(2, 60), pages([]));
    applyAppMessageEvent(client, {
      action: 'create',
      message: makeMessage({ id: 9, ticketId: 7, contactId: 60 }),
    });
    expect(flattenMessages(client.getQueryData(ticketViewKeys.messages(1, 50)))).toHaveLength(0);
    expect(flattenMessages(client.getQueryData(ticketViewKeys.messages(2, 60))).map((m) => m.id)).toEqual([
      9,
    ]);
  });

  it('merges ticket updates and contact updates into the viewed ticket, and tells about deletes', () => {
    const client = new QueryClient();
    const ticket: Ticket = makeTicket({ id: 4, uuid: 'u4' });
    client.setQueryData(ticketViewKeys.ticket('u4'), ticket);
    client.setQueryData(ticketViewKeys.contact(50), {
      ...ticket.contact,
      extraInfo: [],
    } as unknown as Contact);
    applyTicketViewEvent(client, { action: 'update', ticket: { ...ticket, status: 'closed' } });
    expect(client.getQueryData<Ticket>(ticketViewKeys.ticket('u4'))?.status).toBe('closed');
    applyContactViewEvent(client, { action: 'update', contact: { id: 50, name: 'Renamed' } });
    expect(client.getQueryData<Ticket>(ticketViewKeys.ticket('u4'))?.contact.name).toBe('Renamed');
    expect(client.getQueryData<Contact>(ticketViewKeys.contact(50))?.name).toBe('Renamed');
    const listener = vi.fn();
    const off = onTicketDeleted(listener);
    applyTicketViewEvent(client, { action: 'delete', ticketId: 4 });
    off();
    expect(listener).toHaveBeenCalledWith(4);
    expect(client.getQueryData(ticketViewKeys.ticket('u4'))).toBeUndefined();
  });
});
