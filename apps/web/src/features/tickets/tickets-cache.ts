/**
 * Ticket lists in the TanStack Query cache (core section 4 "Live updates"): query keys, list
 * parameters, and the realtime merge of `company-{id}-ticket`, `company-{id}-appMessage` and
 * `company-{id}-contact` events into every cached ticket list. Only this module writes socket events
 * into the ticket list caches; the message caches of an open ticket belong to the ticket view.
 *
 * - ticket `update`: the ticket replaces its old copy in each list it still belongs to (by status,
 *   the list's queue filter, unread filter and the viewer's visibility), is inserted at the top of
 *   the lists it newly belongs to, and is removed from the others; each list's `count` follows.
 * - ticket `delete`: removed everywhere. `updateUnread`: unreadMessages becomes 0.
 * - appMessage `create`: the ticket moves to the top with the new lastMessage and updatedAt, and one
 *   more unread message when the message is inbound and the ticket is not the open one.
 * - A list in the due order (`sortBy: 'due'`, GET /tickets `sortBy=due`) never moves a ticket to the
 *   top: a ticket that belongs is put at its place by due time among the loaded tickets (the server's
 *   order: the earlier due time, none last, then id), and left out when that place is past the last
 *   loaded ticket while more pages remain (the next page brings it).
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ChannelPayloads, SessionUser, Ticket, TicketSort, TicketStatus } from '@zapdesk/shared';

/** GET /tickets answer. */
export interface TicketsPage {
  tickets: Ticket[];
  hasMore: boolean;
  count: number;
}

export type TicketsPages = InfiniteData<TicketsPage, number>;

/** The filters of one ticket list (also its query key). */
export interface TicketListParams {
  status?: TicketStatus;
  searchParam?: string;
  queueIds?: number[];
  tags?: number[];
  users?: number[];
  showAll?: boolean;
  withUnreadMessages?: boolean;
  /** The order of a plain list; `updatedAt` (newest first) when absent. */
  sortBy?: TicketSort;
}

export const ticketsKeys = {
  all: ['tickets'] as const,
  lists: () => ['tickets', 'list'] as const,
  list: (params: TicketListParams) => ['tickets', 'list', normalizeParams(params)] as const,
};

/** Drops empty filters so equal lists share one cache entry. */
export function normalizeParams(params: TicketListParams): TicketListParams {
  const out: TicketListParams = {};
  if (params.status) out.status = params.status;
  if (params.searchParam) out.searchParam = params.searchParam;
  if (params.queueIds?.length) out.queueIds = [...params.queueIds].sort((a, b) => a - b);
  if (params.tags?.length) out.tags = [...params.tags].sort((a, b) => a - b);
  if (params.users?.length) out.users = [...params.users].sort((a, b) => a - b);
  if (params.showAll) out.showAll = true;
  if (params.withUnreadMessages) out.withUnreadMessages = true;
  if (params.sortBy === 'due') out.sortBy = 'due';
  return out;
}

/** The signed-in user as far as ticket visibility goes (API contract: the server's rules). */
export interface TicketViewer {
  id: number;
  profile: 'admin' | 'user';
  queueIds: number[];
  allTicket: 'enabled' | 'desabled';
}

/** The visibility facts of the signed-in user used by the merge. */
export function viewerOf(user: SessionUser): TicketViewer {
  return {
    id: user.id,
    profile: user.profile,
    queueIds: user.queues.map((q) => q.id),
    allTicket: user.allTicket,
  };
}

/** The uuid of the ticket open on screen (set by the tickets page), for the unread rule. */
let openTicketUuid: string | null = null;
export function setOpenTicketUuid(uuid: string | null): void {
  openTicketUuid = uuid;
}
export function getOpenTicketUuid(): string | null {
  return openTicketUuid;
}

/** Listeners of inbound messages (the notifications sound). */
export interface InboundMessageEvent {
  ticket: Ticket;
  /** True when the ticket is the one open on screen. */
  isOpen: boolean;
}
const inboundListeners = new Set<(event: InboundMessageEvent) => void>();
export function onInboundMessage(listener: (event: InboundMessageEvent) => void): () => void {
  inboundListeners.add(listener);
  return () => {
    inboundListeners.delete(listener);
  };
}

/** True when `ticket` may be visible to `viewer` without 'show all' (API contract visibility). */
export function visibleTo(ticket: Ticket, viewer: TicketViewer | undefined): boolean {
  if (!viewer) return true;
  if (ticket.userId === viewer.id) return true;
  // Without a queue a ticket is everybody's only while nobody holds it.
  if (ticket.queueId === null) return ticket.userId === null;
  if (viewer.queueIds.includes(ticket.queueId)) return true;
  return ticket.status === 'pending' && viewer.allTicket === 'enabled';
}

/**
 * Whether a live ticket belongs in the list with `params`. Lists with a text search, tags or users
 * filter cannot be judged on the client: there the ticket is only replaced in place (`undefined`).
 */
export function belongsTo(
  ticket: Ticket,
  params: TicketListParams,
  viewer?: TicketViewer,
): boolean | undefined {
  if (params.status && ticket.status !== params.status) return false;
  if (params.withUnreadMessages && ticket.unreadMessages <= 0) return false;
  if (params.queueIds?.length && ticket.queueId !== null && !params.queueIds.includes(ticket.queueId))
    return false;
  if (params.tags?.length && !params.tags.some((id) => ticket.tags.some((tag) => tag.id === id)))
    return false;
  if (params.users?.length && (ticket.userId === null || !params.users.includes(ticket.userId))) return false;
  if (!params.showAll && !visibleTo(ticket, viewer)) return false;
  if (params.searchParam) return undefined;
  return true;
}

const paramsOfKey = (key: readonly unknown[]): TicketListParams =>
  (key[2] && typeof key[2] === 'object' ? key[2] : {}) as TicketListParams;

/** Removes the ticket `ticketId` from every page (count follows). */
export function removeTicket(data: TicketsPages | undefined, ticketId: number): TicketsPages | undefined {
  if (!data) return data;
  if (!data.pages.some((p) => p.tickets.some((t) => t.id === ticketId))) return data;
  const pages = data.pages.map((page) => ({
    ...page,
    tickets: page.tickets.filter((t) => t.id !== ticketId),
  }));
  const [first, ...rest] = pages;
  if (!first) return data;
  // The badge reads the first page's count: it drops by one wherever the ticket was listed.
  return { ...data, pages: [{ ...first, count: Math.max(0, first.count - 1) }, ...rest] };
}

/** Replaces the ticket where it is listed (keeping its place). */
export function replaceTicket(data: TicketsPages | undefined, ticket: Ticket): TicketsPages | undefined {
  if (!data) return data;
  if (!data.pages.some((p) => p.tickets.some((t) => t.id === ticket.id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      tickets: page.tickets.map((t) => (t.id === ticket.id ? ticket : t)),
    })),
  };
}

/** Puts the ticket at the top of the first page (removing an older copy; count +1 when new). */
export function moveToTop(data: TicketsPages | undefined, ticket: Ticket): TicketsPages | undefined {
  if (!data) return data;
  const found = data.pages.some((p) => p.tickets.some((t) => t.id === ticket.id));
  const pages = data.pages.map((page) => ({
    ...page,
    tickets: page.tickets.filter((t) => t.id !== ticket.id),
  }));
  const [first, ...rest] = pages;
  if (!first) return data;
  const count = found ? first.count : first.count + 1;
  return { ...data, pages: [{ ...first, tickets: [ticket, ...first.tickets], count }, ...rest] };
}

/** A ticket's place in the due order: its earlier due time (ms; Infinity without one). */
function dueKeyOf(ticket: Ticket): number {
  const times = [ticket.firstResponseDueAt, ticket.resolutionDueAt]
    .map((value) => (value ? Date.parse(value) : Number.NaN))
    .filter((time) => !Number.isNaN(time));
  return times.length ? Math.min(...times) : Number.POSITIVE_INFINITY;
}

/** True when `a` comes before `b` in the due order (earlier due time, none last, then id). */
function dueBefore(a: Ticket, b: Ticket): boolean {
  const ka = dueKeyOf(a);
  const kb = dueKeyOf(b);
  return ka !== kb ? ka < kb : a.id < b.id;
}

/**
 * Puts the ticket at its place in a list in the due order (removing an older copy; count +1 when
 * new). A place past the last loaded ticket while more pages remain is left to the next page.
 */
export function placeByDue(data: TicketsPages | undefined, ticket: Ticket): TicketsPages | undefined {
  if (!data?.pages.length) return data;
  const found = data.pages.some((p) => p.tickets.some((t) => t.id === ticket.id));
  const pages = data.pages.map((page) => ({
    ...page,
    tickets: page.tickets.filter((t) => t.id !== ticket.id),
  }));
  let placed = false;
  for (const page of pages) {
    const at = page.tickets.findIndex((t) => dueBefore(ticket, t));
    if (at >= 0) {
      page.tickets.splice(at, 0, ticket);
      placed = true;
      break;
    }
  }
  const last = pages[pages.length - 1]!;
  if (!placed && !last.hasMore) last.tickets.push(ticket);
  const first = pages[0]!;
  pages[0] = { ...first, count: found ? first.count : first.count + 1 };
  return { ...data, pages };
}

/** The cached copy of a ticket, from any list. */
export function findCachedTicket(queryClient: QueryClient, ticketId: number): Ticket | undefined {
  for (const [, data] of queryClient.getQueriesData<TicketsPages>({ queryKey: ticketsKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      const found = page.tickets.find((t) => t.id === ticketId);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Writes one ticket into every cached list: replaced where it stays, inserted at the top where it
 * newly belongs (or always moved to the top with `toTop`), removed where it no longer belongs.
 */
export function upsertTicketInLists(
  queryClient: QueryClient,
  ticket: Ticket,
  viewer?: TicketViewer,
  options: { toTop?: boolean } = {},
): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ticketsKeys.lists() })) {
    const params = paramsOfKey(query.queryKey);
    const data = query.state.data as TicketsPages | undefined;
    if (!data) continue;
    const listed = data.pages.some((p) => p.tickets.some((t) => t.id === ticket.id));
    const belongs = belongsTo(ticket, params, viewer);
    let next: TicketsPages | undefined;
    if (belongs === false) next = removeTicket(data, ticket.id);
    else if (belongs === true && params.sortBy === 'due') next = placeByDue(data, ticket);
    else if (belongs === undefined)
      next = options.toTop && listed ? moveToTop(data, ticket) : replaceTicket(data, ticket);
    else if (!listed || options.toTop) next = moveToTop(data, ticket);
    else next = replaceTicket(data, ticket);
    if (next !== data) queryClient.setQueryData(query.queryKey, next);
  }
}

/** Removes the ticket from every cached list. */
export function removeTicketFromLists(queryClient: QueryClient, ticketId: number): void {
  queryClient.setQueriesData<TicketsPages>({ queryKey: ticketsKeys.lists() }, (d) =>
    removeTicket(d, ticketId),
  );
}

function isTicket(value: unknown): value is Ticket {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'number' && typeof v.uuid === 'string' && typeof v.status === 'string';
}

/** Applies one `company-{id}-ticket` event (`update`, `delete`, `updateUnread`). */
export function applyTicketEvent(
  queryClient: QueryClient,
  payload: ChannelPayloads['ticket'],
  viewer?: TicketViewer,
): void {
  if (payload.action === 'delete') {
    const id = Number(payload.ticketId);
    if (Number.isFinite(id)) removeTicketFromLists(queryClient, id);
    return;
  }
  if (payload.action === 'updateUnread') {
    const id = Number(payload.ticketId);
    const cached = Number.isFinite(id) ? findCachedTicket(queryClient, id) : undefined;
    if (cached) upsertTicketInLists(queryClient, { ...cached, unreadMessages: 0 }, viewer);
    return;
  }
  if ((payload.action === 'update' || payload.action === 'create') && isTicket(payload.ticket))
    upsertTicketInLists(queryClient, payload.ticket, viewer);
}

interface MessageLike {
  ticketId?: number;
  body?: string;
  fromMe?: boolean;
  createdAt?: string;
}

/** Applies one `company-{id}-appMessage` event to the ticket lists (`create` only). */
export function applyAppMessageEvent(
  queryClient: QueryClient,
  payload: ChannelPayloads['appMessage'],
  viewer?: TicketViewer,
): void {
  if (payload.action !== 'create') return;
  const message = (payload.message ?? {}) as MessageLike;
  const sent = isTicket(payload.ticket) ? payload.ticket : undefined;
  const ticketId = sent?.id ?? message.ticketId;
  if (typeof ticketId !== 'number') return;
  const cached = findCachedTicket(queryClient, ticketId);
  const base = cached ? { ...cached, ...(sent ?? {}) } : sent;
  if (!base) return;
  const isOpen = openTicketUuid !== null && base.uuid === openTicketUuid;
  const inbound = message.fromMe === false;
  let unreadMessages = base.unreadMessages;
  if (isOpen) unreadMessages = 0;
  else if (inbound && cached) unreadMessages = Math.max(sent?.unreadMessages ?? 0, cached.unreadMessages + 1);
  const ticket: Ticket = {
    ...base,
    lastMessage: typeof message.body === 'string' ? message.body : base.lastMessage,
    updatedAt: sent?.updatedAt ?? message.createdAt ?? new Date().toISOString(),
    unreadMessages,
  };
  upsertTicketInLists(queryClient, ticket, viewer, { toTop: true });
  if (inbound) for (const listener of [...inboundListeners]) listener({ ticket, isOpen });
}

/** Applies one `company-{id}-contact` `update`: the contact's fields in every listed ticket. */
export function applyContactEvent(queryClient: QueryClient, payload: ChannelPayloads['contact']): void {
  if (payload.action !== 'update') return;
  const contact = payload.contact as Partial<Ticket['contact']> | undefined;
  if (!contact || typeof contact.id !== 'number') return;
  queryClient.setQueriesData<TicketsPages>({ queryKey: ticketsKeys.lists() }, (data) => {
    if (!data?.pages.some((p) => p.tickets.some((t) => t.contactId === contact.id))) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tickets: page.tickets.map((t) =>
          t.contactId === contact.id ? { ...t, contact: { ...t.contact, ...contact } } : t,
        ),
      })),
    };
  });
}

/** The list parameters as the API query string wants them. */
export function toApiQuery(params: TicketListParams, pageNumber: number) {
  return {
    pageNumber,
    status: params.status,
    searchParam: params.searchParam,
    queueIds: params.queueIds?.length ? JSON.stringify(params.queueIds) : undefined,
    tags: params.tags?.length ? JSON.stringify(params.tags) : undefined,
    users: params.users?.length ? JSON.stringify(params.users) : undefined,
    showAll: params.showAll ? 'true' : undefined,
    withUnreadMessages: params.withUnreadMessages ? 'true' : undefined,
    sortBy: params.sortBy === 'due' ? 'due' : undefined,
  };
}
