/**
 * Internal chat events (`company-{id}-chat`, sent only to the chat's participants) applied to the
 * TanStack Query caches: the chats list (a chat with news moves to the top) and the open chat's
 * message history (a new message joins the newest page once).
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ChannelPayloads, Chat, ChatMessage, ChatMessagesPage, ChatsPage } from '@zapdesk/shared';
import { chatsKeys } from './use-chats';

/** `chat` first in the list (replacing its older copy); the list is left alone until it loads. */
export function putChatFirst(queryClient: QueryClient, chat: Chat): void {
  queryClient.setQueryData<InfiniteData<ChatsPage>>(chatsKeys.list(), (data) => {
    if (!data) return data;
    const pages = data.pages.map((page) => ({
      ...page,
      records: page.records.filter((c) => c.id !== chat.id),
    }));
    if (pages[0]) pages[0] = { ...pages[0], records: [chat, ...pages[0].records] };
    return { ...data, pages };
  });
}

/** Replaces `chat` where the list shows it (an update keeps its place). */
export function replaceChat(queryClient: QueryClient, chat: Chat): void {
  queryClient.setQueryData<InfiniteData<ChatsPage>>(chatsKeys.list(), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            records: page.records.map((c) => (c.id === chat.id ? chat : c)),
          })),
        }
      : data,
  );
}

/** Adds `message` to the newest page of its chat's history unless it is there already. */
export function addChatMessage(queryClient: QueryClient, message: ChatMessage): void {
  queryClient.setQueryData<InfiniteData<ChatMessagesPage>>(chatsKeys.messages(message.chatId), (data) => {
    if (!data || data.pages.some((p) => p.records.some((m) => m.id === message.id))) return data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, records: [message, ...first.records] }, ...rest] };
  });
}

/** Applies one `company-{id}-chat` event. */
export function applyChatEvent(queryClient: QueryClient, payload: ChannelPayloads['chat']): void {
  switch (payload.action) {
    case 'create':
      putChatFirst(queryClient, payload.record);
      break;
    case 'update': {
      const known = queryClient
        .getQueryData<InfiniteData<ChatsPage>>(chatsKeys.list())
        ?.pages.some((p) => p.records.some((c) => c.id === payload.record.id));
      if (known) replaceChat(queryClient, payload.record);
      else putChatFirst(queryClient, payload.record);
      break;
    }
    case 'delete':
      queryClient.setQueryData<InfiniteData<ChatsPage>>(chatsKeys.list(), (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((p) => ({ ...p, records: p.records.filter((c) => c.id !== payload.id) })),
            }
          : data,
      );
      queryClient.removeQueries({ queryKey: chatsKeys.messages(payload.id) });
      break;
    case 'new-message':
      putChatFirst(queryClient, payload.chat);
      addChatMessage(queryClient, payload.newMessage);
      break;
  }
}
