/** Queries and mutations of the connections screens (document 2 section 7 "Connections"). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Whatsapp, WhatsappBody } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { connectionsKeys, removeConnection, upsertConnection } from './connections-cache';

/** GET /whatsapp?session=0: the company's connections, ordered by name. */
export function useConnections(options: { enabled?: boolean; silent?: boolean } = {}) {
  return useQuery({
    queryKey: connectionsKeys.list(),
    queryFn: ({ signal }) => api.get<Whatsapp[]>('/whatsapp', { session: 0 }, signal),
    enabled: options.enabled ?? true,
    meta: { silent: options.silent ?? false },
  });
}

/** GET /whatsapp/:id?session=0, when `id` is set; seeded from the list when it is cached. */
export function useConnection(id: number | null | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: connectionsKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<Whatsapp>(`/whatsapp/${id}`, { session: 0 }, signal),
    enabled: typeof id === 'number',
    initialData: () => queryClient.getQueryData<Whatsapp[]>(connectionsKeys.list())?.find((c) => c.id === id),
    initialDataUpdatedAt: () => queryClient.getQueryState(connectionsKeys.list())?.dataUpdatedAt,
  });
}

/** POST /whatsapp (no id) or PUT /whatsapp/:id; the answer goes into the list and detail caches. */
export function useSaveConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: WhatsappBody }) =>
      id ? api.put<Whatsapp>(`/whatsapp/${id}`, body) : api.post<Whatsapp>('/whatsapp', body),
    onSuccess: (whatsapp) => {
      queryClient.setQueryData(connectionsKeys.detail(whatsapp.id), whatsapp);
      queryClient.setQueryData<Whatsapp[]>(connectionsKeys.list(), (d) => upsertConnection(d, whatsapp));
      // Changing the default connection clears the flag on the others.
      void queryClient.invalidateQueries({ queryKey: connectionsKeys.all });
    },
  });
}

/**
 * POST /whatsapp/:id/token (admin): a new external-API token replaces the old one; the answer (the
 * connection with its new token) goes into the list and detail caches.
 */
export function useRegenerateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<Whatsapp>(`/whatsapp/${id}/token`),
    onSuccess: (whatsapp) => {
      queryClient.setQueryData(connectionsKeys.detail(whatsapp.id), whatsapp);
      queryClient.setQueryData<Whatsapp[]>(connectionsKeys.list(), (d) => upsertConnection(d, whatsapp));
    },
  });
}

/** DELETE /whatsapp/:id. */
export function useDeleteConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/whatsapp/${id}`),
    onSuccess: (_v, id) => {
      queryClient.setQueryData<Whatsapp[]>(connectionsKeys.list(), (d) => removeConnection(d, id));
      queryClient.removeQueries({ queryKey: connectionsKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: connectionsKeys.options() });
    },
  });
}

/** What the session buttons ask: start (POST), new QR (PUT) or disconnect (DELETE /whatsappsession/:id). */
export type SessionCommand = 'start' | 'restart' | 'disconnect';

/**
 * The session commands. The server answers 204 and reports the new state through
 * `company-{id}-whatsappSession` (a refetch here could race with those events and bring back an
 * older state, so the cache is left to the events).
 */
export function useSessionCommand() {
  return useMutation({
    mutationFn: ({ id, command }: { id: number; command: SessionCommand }) => {
      const path = `/whatsappsession/${id}`;
      if (command === 'start') return api.post<void>(path);
      if (command === 'restart') return api.put<void>(path);
      return api.delete(path);
    },
  });
}
