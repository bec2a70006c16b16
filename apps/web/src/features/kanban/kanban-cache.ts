/**
 * The board's cache (document 2 section 2 Kanban): the pages of GET /ticket/kanban under
 * `kanbanKeys.tickets`, the lanes of GET /tags/kanban, the lane of a card, and the live merge of
 * `company-{id}-ticket` events (a card changes lane when its tags change, leaves when closed or
 * deleted, arrives when a new ticket shows up).
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ChannelPayloads, KanbanPage, KanbanTicket } from '@zapdesk/shared';

export const kanbanKeys = {
  all: ['kanban'] as const,
  tickets: ['kanban', 'tickets'] as const,
  lanes: ['kanban', 'lanes'] as const,
};

/** The id of the first lane: tickets with none of the kanban tags. */
export const OPEN_LANE = 'open';
export type LaneId = typeof OPEN_LANE | number;

/** The lane of a card: its first tag that is a lane (in lane order), or the open lane. */
export function laneOf(ticket: Pick<KanbanTicket, 'tags'>, laneIds: number[]): LaneId {
  const own = new Set(ticket.tags.map((tag) => tag.id));
  return laneIds.find((id) => own.has(id)) ?? OPEN_LANE;
}

/** Groups cards by lane, keeping the server's order (newest update first) inside each lane. */
export function groupByLane(tickets: KanbanTicket[], laneIds: number[]): Map<LaneId, KanbanTicket[]> {
  const lanes = new Map<LaneId, KanbanTicket[]>([[OPEN_LANE, []]]);
  for (const id of laneIds) lanes.set(id, []);
  for (const ticket of tickets) lanes.get(laneOf(ticket, laneIds))!.push(ticket);
  return lanes;
}

type Pages = InfiniteData<KanbanPage, number>;

function toCard(value: unknown): KanbanTicket | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown> & { contact?: Record<string, unknown> };
  if (typeof v.id !== 'number' || typeof v.uuid !== 'string' || typeof v.status !== 'string')
    return undefined;
  return {
    id: v.id,
    uuid: v.uuid,
    status: v.status as KanbanTicket['status'],
    queueId: (v.queueId as number | null) ?? null,
    userId: (v.userId as number | null) ?? null,
    contact: {
      id: Number(v.contact?.id ?? 0),
      name: String(v.contact?.name ?? ''),
      number: String(v.contact?.number ?? ''),
    },
    lastMessage: String(v.lastMessage ?? ''),
    tags: Array.isArray(v.tags) ? (v.tags as KanbanTicket['tags']) : [],
    updatedAt: String(v.updatedAt ?? new Date().toISOString()),
  };
}

/** Replaces (or drops, with `card` undefined) the card `id` in every page; true when it was there. */
function replaceCard(
  data: Pages,
  id: number,
  card: KanbanTicket | undefined,
): { data: Pages; found: boolean } {
  let found = false;
  const pages = data.pages.map((page) => {
    if (!page.tickets.some((t) => t.id === id)) return page;
    found = true;
    const tickets = card
      ? page.tickets.map((t) => (t.id === id ? card : t))
      : page.tickets.filter((t) => t.id !== id);
    return { ...page, tickets };
  });
  return { data: { ...data, pages }, found };
}

/** Sets the tags of a cached card (the optimistic move of a drag). */
export function setCardTags(queryClient: QueryClient, id: number, tags: KanbanTicket['tags']): void {
  queryClient.setQueryData<Pages>(kanbanKeys.tickets, (data) => {
    if (!data) return data;
    const card = data.pages.flatMap((p) => p.tickets).find((t) => t.id === id);
    return card ? replaceCard(data, id, { ...card, tags }).data : data;
  });
}

/**
 * Applies one `company-{id}-ticket` event to the board: `update`/`create` replace the card (its lane
 * follows its tags) or add it on top; a closed ticket and `delete` remove it.
 */
export function applyKanbanTicketEvent(queryClient: QueryClient, payload: ChannelPayloads['ticket']): void {
  queryClient.setQueryData<Pages>(kanbanKeys.tickets, (data) => {
    if (!data) return data;
    if (payload.action === 'delete') return replaceCard(data, Number(payload.ticketId), undefined).data;
    if (payload.action !== 'update' && payload.action !== 'create') return data;
    const card = toCard(payload.ticket);
    if (!card) return data;
    if (card.status === 'closed') return replaceCard(data, card.id, undefined).data;
    const replaced = replaceCard(data, card.id, card);
    if (replaced.found) return replaced.data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, tickets: [card, ...first.tickets] }, ...rest] };
  });
}

/**
 * Applies one `company-{id}-tag` event to the board: a tag created, renamed, recoloured, flagged or
 * unflagged kanban, or deleted changes the lanes, so they are read again.
 */
export function applyKanbanTagEvent(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: kanbanKeys.lanes });
}
