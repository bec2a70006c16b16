/** Queries and mutations of the tickets manager (core section 7 "Tickets and messages"). */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Message, Tag, Ticket, UpdateTicketBody } from '@zapdesk/shared';
import { useMemo } from 'react';
import { api } from '../../lib/api';
import {
  type TicketListParams,
  type TicketsPage,
  type TicketViewer,
  ticketsKeys,
  toApiQuery,
  upsertTicketInLists,
} from './tickets-cache';

export { viewerOf } from './tickets-cache';

/** GET /tickets with `params`, as an infinite list (next page while `hasMore`). */
export function useTicketsList(
  params: TicketListParams,
  options: { enabled?: boolean; silent?: boolean } = {},
) {
  return useInfiniteQuery({
    queryKey: ticketsKeys.list(params),
    queryFn: ({ pageParam, signal }) =>
      api.get<TicketsPage>('/tickets', toApiQuery(params, pageParam), signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: options.enabled ?? true,
    meta: { silent: options.silent ?? false },
  });
}

/** The tickets of an infinite list, flattened (deduplicated by id). */
export function useFlatTickets(data: { pages: TicketsPage[] } | undefined): Ticket[] {
  return useMemo(() => {
    const seen = new Set<number>();
    const out: Ticket[] = [];
    for (const page of data?.pages ?? [])
      for (const ticket of page.tickets) {
        if (seen.has(ticket.id)) continue;
        seen.add(ticket.id);
        out.push(ticket);
      }
    return out;
  }, [data]);
}

/** PUT /tickets/:id; the answer goes into the list caches at once. */
export function useUpdateTicket(viewer: TicketViewer) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateTicketBody }) =>
      api.put<Ticket>(`/tickets/${id}`, body),
    onSuccess: (ticket) => {
      if (ticket && typeof ticket === 'object') upsertTicketInLists(queryClient, ticket, viewer);
    },
  });
}

/** GET /tags/list (search tab tags filter). */
export function useTagOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['tags', 'list'],
    queryFn: ({ signal }) => api.get<Tag[]>('/tags/list', undefined, signal),
    enabled,
    meta: { silent: true },
  });
}

/** GET /users/list (search tab users filter, admins). */
export function useUserOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'options'],
    queryFn: ({ signal }) => api.get<{ id: number; name: string }[]>('/users/list', undefined, signal),
    enabled,
    meta: { silent: true },
  });
}

/** GET /messages/:ticketId (first page) for the read-only peek dialog. */
export function usePeekMessages(ticketId: number | null) {
  return useQuery({
    queryKey: ['tickets', 'peek', ticketId],
    queryFn: ({ signal }) =>
      api.get<{ messages: Message[]; hasMore: boolean }>(`/messages/${ticketId}`, undefined, signal),
    enabled: typeof ticketId === 'number',
    staleTime: 0,
  });
}
