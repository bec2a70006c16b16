import { z } from 'zod';
import { pageOf, ZNamedRef } from './answers.js';
import { idOrRecord } from './classic.js';
import { boundedString, V, ZId } from './common.js';

/** Longest chat title and chat message accepted (characters). */
export const CHAT_TITLE_MAX = 200;
export const CHAT_MESSAGE_MAX = 10_000;
/** Most participants of one chat. */
export const CHAT_USERS_MAX = 500;

/** A chat participant with its unread count (document 2 section 3 Chat: users). */
export const ZChatUser = z.object({
  userId: z.number(),
  unreads: z.number(),
  user: ZNamedRef,
});
export type ChatUser = z.infer<typeof ZChatUser>;

/** Internal chat (document 2 section 3 Chat). `updatedAt` is an ISO date-time. */
export const ZChat = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number().nullable(),
  users: z.array(ZChatUser),
  lastMessage: z.string(),
  updatedAt: z.string(),
});
export type Chat = z.infer<typeof ZChat>;

/** GET /chats: the caller's chats, latest activity first. */
export const ZChatsPage = pageOf('records', ZChat);
export type ChatsPage = z.infer<typeof ZChatsPage>;

/**
 * POST /chats and PUT /chats/:id body: a title and at least one participant (user ids of the
 * caller's company; the caller joins anyway), each an id or a user object (`{ id, name }`, as the
 * classic client sends them). Messages `required`, `tooLong`.
 */
export const ZChatBody = z.object({
  title: boundedString(1, CHAT_TITLE_MAX),
  users: z.array(idOrRecord(ZId), { error: V.required }).min(1, V.required).max(CHAT_USERS_MAX, V.tooLong),
});
export type ChatBody = z.infer<typeof ZChatBody>;

/** A chat message (document 2 section 3 Chat message). `createdAt` is an ISO date-time. */
export const ZChatMessage = z.object({
  id: z.number(),
  chatId: z.number(),
  senderId: z.number().nullable(),
  sender: ZNamedRef.nullable(),
  message: z.string(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof ZChatMessage>;

/** GET /chats/:id/messages: 20 a page, newest first. */
export const ZChatMessagesPage = pageOf('records', ZChatMessage);
export type ChatMessagesPage = z.infer<typeof ZChatMessagesPage>;

/** POST /chats/:id/messages body: a non-empty message. */
export const ZChatMessageBody = z.object({ message: boundedString(1, CHAT_MESSAGE_MAX) });
export type ChatMessageBody = z.infer<typeof ZChatMessageBody>;

/** Chat history loads the next (older) page when scrolled within this many px of the top (document 2 section 9). */
export const CHAT_HISTORY_LOAD_THRESHOLD_PX = 600;
