/** Queries and the move mutation of the kanban board (document 2 section 7 Tags and kanban). */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { can, type KanbanPage, type SessionUser, type Tag, type Ticket } from '@zapdesk/shared';
import { useEffect } from 'react';
import { api } from '../../lib/api';
import { kanbanKeys, type LaneId, OPEN_LANE, setCardTags } from './kanban-cache';

/** GET /tags/kanban: the lanes after 'open', by name. */
export function useKanbanLanes() {
  return useQuery({
    queryKey: kanbanKeys.lanes,
    queryFn: ({ signal }) => api.get<{ lista: Tag[] }>('/tags/kanban', undefined, signal),
    select: (answer) => answer.lista,
  });
}

/**
 * GET /ticket/kanban with `queueIds` (the user's queues, as JSON) and `showAll` (admins only): every
 * page, fetched one after the other, so each lane holds all its cards (lanes are virtualised).
 */
export function useKanbanTickets(user: SessionUser) {
  const queueIds = user.queues.map((q) => q.id);
  const query = useInfiniteQuery({
    queryKey: kanbanKeys.tickets,
    queryFn: ({ pageParam, signal }) =>
      api.get<KanbanPage>(
        '/ticket/kanban',
        {
          queueIds: queueIds.length ? JSON.stringify(queueIds) : undefined,
          showAll: can(user.profile, 'tickets-manager:showall') ? 'true' : undefined,
          pageNumber: pageParam,
        },
        signal,
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return query;
}

/** A card dropped on a lane: the ticket, its lane tags now, and the lane it goes to. */
export interface CardMove {
  ticketId: number;
  to: LaneId;
  /** The card's tags after the move (for the optimistic update). */
  tags: Ticket['tags'];
}

/**
 * Moves a card in one request: to a tag lane, PUT /ticket-tags/:ticketId/:tagId?replace=true (the
 * old lane tag goes, the new one comes); to 'open', DELETE /ticket-tags/:ticketId. The card moves at
 * once and the server's answer (or the refetch after an error) settles it.
 */
export function useMoveCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (move: CardMove) =>
      move.to === OPEN_LANE
        ? api.delete<Ticket>(`/ticket-tags/${move.ticketId}`)
        : api.put<Ticket>(`/ticket-tags/${move.ticketId}/${move.to}?replace=true`),
    onMutate: (move) => setCardTags(queryClient, move.ticketId, move.tags),
    onSuccess: (ticket, move) => {
      if (ticket?.tags) setCardTags(queryClient, move.ticketId, ticket.tags);
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: kanbanKeys.tickets }),
  });
}
