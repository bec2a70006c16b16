/**
 * Queries and mutations of the internal chat (document 2 section 7 "Internal chat"). Chat errors are
 * swallowed silently (document 2 section 8): every call here is `meta.silent`.
 */
import { type InfiniteData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Chat, ChatBody, ChatMessage, ChatMessagesPage, ChatsPage } from '@zapdesk/shared';
import { useMemo } from 'react';
import { api } from '../../lib/api';
import { saveRecord, usePagedList } from '../../lib/record-queries';

export const chatsKeys = {
  all: ['chats'] as const,
  list: () => ['chats', 'list'] as const,
  messages: (chatId: number) => ['chats', 'messages', chatId] as const,
  byUuid: (uuid: string) => ['chats', 'uuid', uuid] as const,
};

/** GET /chats?pageNumber= as an infinite list (the caller's chats, latest activity first). */
export function useChatsList(enabled = true) {
  return usePagedList<ChatsPage>(chatsKeys.list(), '/chats', (pageNumber) => ({ pageNumber }), {
    enabled,
    meta: { silent: true },
  });
}

/**
 * GET /chats/u/{uuid}: the chat of a /chats/{uuid} link that is not among the loaded pages of the
 * list (an older chat). Runs only when `enabled`.
 */
export function useChatByUuid(uuid: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: chatsKeys.byUuid(uuid ?? ''),
    queryFn: ({ signal }) => api.get<Chat>(`/chats/u/${uuid}`, undefined, signal),
    enabled: enabled && !!uuid,
    retry: false,
    meta: { silent: true },
  });
}

/** The loaded chats of `data`, once each. */
export function useFlatChats(data: InfiniteData<ChatsPage> | undefined): Chat[] {
  return useMemo(() => {
    const seen = new Set<number>();
    return (data?.pages ?? []).flatMap((p) => p.records).filter((c) => !seen.has(c.id) && !!seen.add(c.id));
  }, [data]);
}

/** The unread count of `userId` in `chat` (0 when not a participant). */
export function unreadsOf(chat: Chat, userId: number): number {
  return chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
}

/** GET /chats/:id/messages?pageNumber= (newest first) as an infinite list, while `chatId` is set. */
export function useChatMessages(chatId: number | null) {
  return usePagedList<ChatMessagesPage>(
    chatsKeys.messages(chatId ?? 0),
    `/chats/${chatId}/messages`,
    (pageNumber) => ({ pageNumber }),
    { enabled: chatId !== null, meta: { silent: true } },
  );
}

/** POST /chats or PUT /chats/:id (title and participants). */
export function useSaveChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: ChatBody }) =>
      saveRecord<Chat>('/chats', id, body),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: chatsKeys.list() }),
    meta: { silent: true },
  });
}

/** DELETE /chats/:id (owner only). */
export function useDeleteChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/chats/${id}`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: chatsKeys.list() }),
    meta: { silent: true },
  });
}

/** POST /chats/:id/messages with `message`. */
export function useSendChatMessage() {
  return useMutation({
    mutationFn: ({ chatId, message }: { chatId: number; message: string }) =>
      api.post<ChatMessage>(`/chats/${chatId}/messages`, { message }),
    meta: { silent: true },
  });
}

/** POST /chats/:id/read with the caller's userId: clears the caller's unread count. */
export function useMarkChatRead() {
  return useMutation({
    mutationFn: ({ chatId, userId }: { chatId: number; userId: number }) =>
      api.post<Chat>(`/chats/${chatId}/read`, { userId }),
    meta: { silent: true },
  });
}
