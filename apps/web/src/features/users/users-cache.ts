/**
 * Users in the TanStack Query cache: query keys and the realtime update of
 * `company-{id}-user` events (`update` and `create` replace or prepend, `delete` removes).
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ChannelPayloads, PublicUser, SessionUser, UsersPage } from '@zapdesk/shared';

export const usersKeys = {
  all: ['users'] as const,
  lists: () => ['users', 'list'] as const,
  list: (search: string) => ['users', 'list', search] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
  /** GET /users/load (admins). */
  load: () => ['users', 'load'] as const,
};

export type UsersPages = InfiniteData<UsersPage, number>;

/** Replaces `user` where it is listed, or prepends it to the first page. */
export function upsertUser(data: UsersPages | undefined, user: PublicUser): UsersPages | undefined {
  if (!data) return data;
  const found = data.pages.some((page) => page.users.some((u) => u.id === user.id));
  if (found) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        users: page.users.map((u) => (u.id === user.id ? user : u)),
      })),
    };
  }
  const [first, ...rest] = data.pages;
  if (!first) return data;
  return { ...data, pages: [{ ...first, users: [user, ...first.users], count: first.count + 1 }, ...rest] };
}

/** Removes the user `userId` from every page. */
export function removeUser(data: UsersPages | undefined, userId: number): UsersPages | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => {
      const users = page.users.filter((u) => u.id !== userId);
      return { ...page, users, count: page.count - (page.users.length - users.length) };
    }),
  };
}

/** Applies one `company-{id}-user` event to the cached user lists and details. */
export function applyUserEvent(queryClient: QueryClient, payload: ChannelPayloads['user']): void {
  if (payload.action === 'delete') {
    queryClient.setQueriesData<UsersPages>({ queryKey: usersKeys.lists() }, (d) =>
      removeUser(d, payload.userId),
    );
    queryClient.removeQueries({ queryKey: usersKeys.detail(payload.userId) });
    return;
  }
  const { user } = payload;
  queryClient.setQueriesData<UsersPages>({ queryKey: usersKeys.lists() }, (d) => upsertUser(d, user));
  queryClient.setQueryData(usersKeys.detail(user.id), user);
  // Capacity, availability or queues may have changed: the load column reads them again.
  void queryClient.invalidateQueries({ queryKey: usersKeys.load() });
}

/**
 * The signed-in user's own `user` update (another tab switched the availability): the session
 * follows, so the top bar's switch shows it. Other users' events and deletions change nothing here.
 */
export function applySessionUserEvent(
  session: { user: SessionUser | null; setUser: (user: SessionUser) => void } | null,
  payload: ChannelPayloads['user'],
): void {
  const current = session?.user;
  if (!current || payload.action !== 'update' || payload.user.id !== current.id) return;
  if (payload.user.availability !== current.availability) {
    session.setUser({ ...current, availability: payload.user.availability });
  }
}
