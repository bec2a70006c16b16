/** Queries and mutations of the users screens (core section 7 "Users, settings, companies"). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateUserBody, PublicUser, UpdateUserBody, UserLoad, UsersPage } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { usePagedList, useRecordQuery } from '../../lib/record-queries';
import { usersKeys } from './users-cache';

/** A WhatsApp connection as the user modal needs it. */
export interface ConnectionOption {
  id: number;
  name: string;
}

/** GET /users/?searchParam=&pageNumber= as an infinite list (`hasMore` drives the next page). */
export function useUsersList(search: string, options: { silent?: boolean } = {}) {
  return usePagedList<UsersPage>(
    usersKeys.list(search),
    '/users/',
    (pageNumber) => ({ searchParam: search, pageNumber }),
    { meta: { silent: options.silent ?? false } },
  );
}

/**
 * GET /users/load (admins only, `enabled`): each agent's open tickets, capacity, availability and
 * live socket, read again on user events and when the window regains focus.
 */
export function useUserLoads(enabled: boolean) {
  return useQuery({
    queryKey: usersKeys.load(),
    queryFn: ({ signal }) => api.get<UserLoad[]>('/users/load', undefined, signal),
    enabled,
    meta: { silent: true },
  });
}

/** GET /users/:id, when `id` is set. */
export function useUser(id: number | null | undefined) {
  return useRecordQuery<PublicUser>(usersKeys.detail(id ?? 0), '/users', id);
}

/**
 * GET /whatsapp?session=0 (default connection select). Connections may not exist on the server yet:
 * a failure yields no options and no toast.
 */
export function useConnectionOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['whatsapp', 'options'],
    queryFn: async ({ signal }) => {
      const answer = await api.get<unknown>('/whatsapp', { session: 0 }, signal);
      return Array.isArray(answer) ? (answer as ConnectionOption[]) : [];
    },
    enabled,
    retry: false,
    meta: { silent: true },
  });
}

/** POST /users (no id) or PUT /users/:id. */
export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: CreateUserBody | UpdateUserBody }) =>
      id ? api.put<PublicUser>(`/users/${id}`, body) : api.post<PublicUser>('/users', body),
    onSuccess: (user) => {
      queryClient.setQueryData(usersKeys.detail(user.id), user);
      void queryClient.invalidateQueries({ queryKey: usersKeys.lists() });
    },
  });
}

/** DELETE /users/:id. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/users/${id}`),
    onSuccess: (_v, id) => {
      queryClient.removeQueries({ queryKey: usersKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: usersKeys.lists() });
    },
  });
}
