/**
 * The open ticket in the TanStack Query cache (core section 4 "Message" and "Live updates"): query
 * keys of the ticket view, and the one place where socket events reach its caches.
 *
 * - `company-{id}-appMessage` `create` appends the message to the history of its ticket's contact
 *   (histories span the contact's tickets), `update` replaces it by id wherever it is cached.
 * - `company-{id}-ticket` `update` replaces the viewed ticket, `delete` drops it and tells the open
 *   ticket view (through `onTicketDeleted`) so it can go back to /tickets.
 * - `company-{id}-contact` `update` merges the contact into the viewed ticket and the drawer's contact.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ChannelPayloads, Contact, Message, Ticket, TicketNote } from '@zapdesk/shared';

/**
 * GET /messages/:ticketId answer (20 per page, page 1 newest, each page oldest first), with the
 * ticket's notes from the page's oldest message on.
 */
export interface MessagesPage {
  messages: Message[];
  hasMore: boolean;
  count: number;
  ticket?: unknown;
  notes?: TicketNote[];
}

export type MessagesPages = InfiniteData<MessagesPage>;

/** Keys under 'ticket-view', apart from the tickets manager's own keys. */
export const ticketViewKeys = {
  all: ['ticket-view'] as const,
  tickets: () => ['ticket-view', 'ticket'] as const,
  ticket: (uuid: string) => ['ticket-view', 'ticket', uuid] as const,
  allMessages: () => ['ticket-view', 'messages'] as const,
  messages: (ticketId: number, contactId: number) =>
    ['ticket-view', 'messages', ticketId, contactId] as const,
  contact: (id: number) => ['ticket-view', 'contact', id] as const,
  notes: (ticketId: number, contactId: number) => ['ticket-view', 'notes', ticketId, contactId] as const,
  tags: () => ['ticket-view', 'tags'] as const,
  quickMessages: () => ['ticket-view', 'quick-messages'] as const,
  queues: () => ['ticket-view', 'queues'] as const,
  users: () => ['ticket-view', 'users'] as const,
  flowRun: (ticketId: number) => ['ticket-view', 'flow-run', ticketId] as const,
  mentionable: (ticketId: number) => ['ticket-view', 'mentionable', ticketId] as const,
};

/** The caller's unread mentions (the notifications list). */
export const mentionsKey = ['note-mentions'] as const;

/** The notes of the cached pages, oldest first, without duplicate ids (pages may repeat a note). */
export function flattenNotes(data: MessagesPages | undefined): TicketNote[] {
  if (!data) return [];
  const byId = new Map<number, TicketNote>();
  for (const page of data.pages) for (const note of page.notes ?? []) byId.set(note.id, note);
  return [...byId.values()].sort((x, y) => x.createdAt.localeCompare(y.createdAt) || x.id - y.id);
}

/** Adds (or replaces) `note` on the newest cached page. */
export function upsertNote(data: MessagesPages | undefined, note: TicketNote): MessagesPages | undefined {
  if (!data) return data;
  const [newest, ...older] = data.pages;
  if (!newest) return data;
  const others = (newest.notes ?? []).filter((n) => n.id !== note.id);
  return { ...data, pages: [{ ...newest, notes: [...others, note] }, ...older] };
}

/** Removes the note `noteId` from every cached page. */
export function removeNote(data: MessagesPages | undefined, noteId: number): MessagesPages | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.notes?.some((n) => n.id === noteId)
        ? { ...page, notes: page.notes.filter((n) => n.id !== noteId) }
        : page,
    ),
  };
}

/**
 * Applies one `company-{id}-ticketNote` event: `create` and `delete` to the histories of the note's
 * ticket and its drawer list; `mention` reloads the caller's mentions (the notifications).
 */
export function applyTicketNoteEvent(queryClient: QueryClient, payload: ChannelPayloads['ticketNote']): void {
  if (payload.action === 'mention') {
    void queryClient.invalidateQueries({ queryKey: mentionsKey });
    return;
  }
  const ticketId = payload.action === 'create' ? payload.note.ticketId : payload.ticketId;
  for (const [key] of queryClient.getQueriesData<MessagesPages>({ queryKey: ticketViewKeys.allMessages() })) {
    if ((key as MessagesKey)[2] !== ticketId) continue;
    queryClient.setQueryData<MessagesPages>(key, (d) =>
      payload.action === 'create' ? upsertNote(d, payload.note) : removeNote(d, payload.noteId),
    );
  }
  void queryClient.invalidateQueries({ queryKey: ['ticket-view', 'notes', ticketId] });
}

/** The cached pages as one chronological list (older pages first), without duplicate ids. */
export function flattenMessages(data: MessagesPages | undefined): Message[] {
  if (!data) return [];
  const seen = new Set<number>();
  const out: Message[] = [];
  for (let i = data.pages.length - 1; i >= 0; i--) {
    for (const message of data.pages[i]?.messages ?? []) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      out.push(message);
    }
  }
  return out;
}

/** Replaces `message` (merging its fields) where it is cached; false when absent. */
function replaceIn(data: MessagesPages, message: Partial<Message> & { id: number }): MessagesPages | null {
  let found = false;
  const pages = data.pages.map((page) => {
    if (!page.messages.some((m) => m.id === message.id)) return page;
    found = true;
    return { ...page, messages: page.messages.map((m) => (m.id === message.id ? { ...m, ...message } : m)) };
  });
  return found ? { ...data, pages } : null;
}

/** Replaces `message` by id, or appends it to the newest page when absent. */
export function upsertMessage(data: MessagesPages | undefined, message: Message): MessagesPages | undefined {
  if (!data) return data;
  const replaced = replaceIn(data, message);
  if (replaced) return replaced;
  const [newest, ...older] = data.pages;
  if (!newest) return data;
  return {
    ...data,
    pages: [{ ...newest, messages: [...newest.messages, message], count: newest.count + 1 }, ...older],
  };
}

/** Replaces `message` by id; unchanged when absent. */
export function updateMessage(
  data: MessagesPages | undefined,
  message: Partial<Message> & { id: number },
): MessagesPages | undefined {
  if (!data) return data;
  return replaceIn(data, message) ?? data;
}

type MessagesKey = ReturnType<typeof ticketViewKeys.messages>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Applies one `company-{id}-appMessage` event to the cached histories. */
export function applyAppMessageEvent(queryClient: QueryClient, payload: ChannelPayloads['appMessage']): void {
  const message = payload.message as Message | undefined;
  if (!isRecord(message) || typeof message.id !== 'number') return;
  const entries = queryClient.getQueriesData<MessagesPages>({ queryKey: ticketViewKeys.allMessages() });
  if (payload.action === 'create') {
    const ticket = isRecord(payload.ticket) ? (payload.ticket as Partial<Ticket>) : undefined;
    const contact = isRecord(payload.contact) ? (payload.contact as Partial<Contact>) : undefined;
    const contactId = message.contactId ?? ticket?.contactId ?? contact?.id ?? null;
    for (const [key] of entries) {
      const [, , ticketId, keyContactId] = key as MessagesKey;
      if (message.ticketId !== ticketId && (contactId === null || contactId !== keyContactId)) continue;
      queryClient.setQueryData<MessagesPages>(key, (d) => upsertMessage(d, message));
    }
    return;
  }
  if (payload.action === 'update') {
    for (const [key] of entries)
      queryClient.setQueryData<MessagesPages>(key, (d) => updateMessage(d, message));
  }
}

/** Applies a message answered by the API (send, retry, delete) to the cached histories. */
export function applyMessageAnswer(queryClient: QueryClient, key: MessagesKey, message: Message): void {
  queryClient.setQueryData<MessagesPages>(key, (d) => upsertMessage(d, message));
}

const deletedListeners = new Set<(ticketId: number) => void>();

/** Called when a `delete` event removes a ticket; returns the unsubscribe function. */
export function onTicketDeleted(listener: (ticketId: number) => void): () => void {
  deletedListeners.add(listener);
  return () => deletedListeners.delete(listener);
}

/** Applies one `company-{id}-ticket` event to the viewed ticket. */
export function applyTicketViewEvent(queryClient: QueryClient, payload: ChannelPayloads['ticket']): void {
  if (payload.action === 'update' && isRecord(payload.ticket)) {
    const ticket = payload.ticket as Ticket;
    if (typeof ticket.uuid !== 'string') return;
    queryClient.setQueryData<Ticket>(ticketViewKeys.ticket(ticket.uuid), (old) =>
      old ? { ...old, ...ticket } : old,
    );
    return;
  }
  if (payload.action === 'delete') {
    const ticketId = Number(payload.ticketId);
    if (!Number.isFinite(ticketId)) return;
    for (const [key, ticket] of queryClient.getQueriesData<Ticket>({ queryKey: ticketViewKeys.tickets() })) {
      if (ticket?.id === ticketId) queryClient.removeQueries({ queryKey: key, exact: true });
    }
    for (const listener of [...deletedListeners]) listener(ticketId);
  }
}

/** Applies one `company-{id}-contact` event to the viewed ticket's contact and the drawer's contact. */
export function applyContactViewEvent(queryClient: QueryClient, payload: ChannelPayloads['contact']): void {
  if (payload.action !== 'update' || !isRecord(payload.contact)) return;
  const contact = payload.contact as Partial<Contact> & { id: number };
  if (typeof contact.id !== 'number') return;
  queryClient.setQueryData<Contact>(ticketViewKeys.contact(contact.id), (old) =>
    old ? { ...old, ...contact } : old,
  );
  queryClient.setQueriesData<Ticket>({ queryKey: ticketViewKeys.tickets() }, (old) =>
    old && old.contact.id === contact.id
      ? {
          ...old,
          contact: {
            ...old.contact,
            ...(contact.name !== undefined && { name: contact.name }),
            ...(contact.number !== undefined && { number: contact.number }),
            ...(contact.email !== undefined && { email: contact.email }),
            ...(contact.profilePicUrl !== undefined && { profilePicUrl: contact.profilePicUrl }),
          },
        }
      : old,
  );
}
