import {
  type ChannelPayloads,
  type Chat,
  type ChatBody,
  type ChatMessage,
  type ChatMessagesPage,
  type ChatsPage,
  parsePatch,
  ZChatBody,
  ZChatMessageBody,
} from '@zapdesk/shared';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { chatMessages, chats, chatUsers, users } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { pickColumns } from '../../lib/columns.js';
import type { AuthContext } from '../../lib/guards.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';

/** Chats per page of GET /chats and messages per page of GET /chats/:id/messages. */
export const CHATS_PAGE_SIZE = 20;
export const CHAT_MESSAGES_PAGE_SIZE = 20;

const iso = (value: Date | string) => new Date(value).toISOString();

/** The chats of `ids` (one company) with their participants, in the order of `ids`. */
async function loadChats(ctx: AppContext, companyId: number, ids: number[]): Promise<Chat[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select()
    .from(chats)
    .where(and(eq(chats.companyId, companyId), inArray(chats.id, ids)));
  const members = await ctx.db
    .select({
      chatId: chatUsers.chatId,
      userId: chatUsers.userId,
      unreads: chatUsers.unreads,
      name: users.name,
    })
    .from(chatUsers)
    .innerJoin(users, eq(users.id, chatUsers.userId))
    .where(and(eq(chatUsers.companyId, companyId), inArray(chatUsers.chatId, ids)))
    .orderBy(asc(users.name), asc(users.id));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        id: row.id,
        uuid: row.uuid,
        title: row.title,
        ownerId: row.ownerId,
        lastMessage: row.lastMessage,
        updatedAt: iso(row.updatedAt),
        users: members
          .filter((m) => m.chatId === id)
          .map((m) => ({ userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: m.name } })),
      },
    ];
  });
}

/** Sends `payload` on `company-{id}-chat` to each of `userIds` (participants only, never the company). */
function emitTo(
  ctx: AppContext,
  companyId: number,
  userIds: number[],
  payload: ChannelPayloads['chat'],
): void {
  for (const userId of new Set(userIds)) ctx.realtime.toUser(companyId, userId, 'chat', payload);
}

const participantIds = (chat: Chat) => chat.users.map((u) => u.userId);

/**
 * A chat of the caller's company that the caller takes part in.
 * @throws ERR_NOT_FOUND (no such chat, another company's, or the caller is not a participant).
 */
export async function getParticipantChat(ctx: AppContext, auth: AuthContext, id: number): Promise<Chat> {
  const [member] = await ctx.db
    .select({ chatId: chatUsers.chatId })
    .from(chatUsers)
    .where(
      and(
        eq(chatUsers.companyId, auth.companyId),
        eq(chatUsers.chatId, id),
        eq(chatUsers.userId, auth.userId),
      ),
    );
  const [chat] = member ? await loadChats(ctx, auth.companyId, [id]) : [];
  return orNotFound(chat);
}

/**
 * GET /chats/u/:uuid: the chat of a /chats/{uuid} link, when the caller takes part in it.
 * @throws ERR_NOT_FOUND (no such chat, another company's, or the caller is not a participant).
 */
export async function getParticipantChatByUuid(
  ctx: AppContext,
  auth: AuthContext,
  uuid: string,
): Promise<Chat> {
  const [row] = await ctx.db
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.companyId, auth.companyId), eq(chats.uuid, uuid)));
  if (!row) throw new AppError('ERR_NOT_FOUND');
  return getParticipantChat(ctx, auth, row.id);
}

/** A chat the caller owns. @throws ERR_NOT_FOUND (not a participant), ERR_NO_PERMISSION (not the owner). */
async function getOwnedChat(ctx: AppContext, auth: AuthContext, id: number): Promise<Chat> {
  const chat = await getParticipantChat(ctx, auth, id);
  if (chat.ownerId !== auth.userId) throw new AppError('ERR_NO_PERMISSION');
  return chat;
}

/**
 * The participants a body names, checked to be users of the caller's company, plus the caller.
 * @throws ERR_VALIDATION (field users, message invalid) when an id is not a user of the company.
 */
async function participantsOf(ctx: AppContext, auth: AuthContext, ids: number[]): Promise<number[]> {
  const wanted = [...new Set([...ids, auth.userId])];
  const found = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, auth.companyId), inArray(users.id, wanted)));
  if (found.length !== wanted.length) {
    throw new AppError('ERR_VALIDATION', { extra: { field: 'users', message: 'invalid' } });
  }
  return wanted;
}

/**
 * GET /chats (document 2 section 7, core section 7): the chats the caller takes part in, latest
 * activity first, filtered by `searchParam` on the title, 20 a page (`records`, `hasMore`).
 */
export async function listChats(
  ctx: AppContext,
  auth: AuthContext,
  query: SearchPageQuery,
): Promise<ChatsPage> {
  const { page, hasMore } = await readPage(query.pageNumber, CHATS_PAGE_SIZE, ({ limit, offset }) =>
    ctx.db
      .select({ id: chats.id })
      .from(chats)
      .innerJoin(chatUsers, and(eq(chatUsers.chatId, chats.id), eq(chatUsers.userId, auth.userId)))
      .where(and(eq(chats.companyId, auth.companyId), containsTerm(query.searchParam, chats.title)))
      .orderBy(desc(chats.updatedAt), desc(chats.id))
      .limit(limit)
      .offset(offset),
  );
  return {
    records: await loadChats(
      ctx,
      auth.companyId,
      page.map((r) => r.id),
    ),
    hasMore,
  };
}

/**
 * POST /chats: a chat with `title` and `users` (ids of the company's users); the caller owns it and
 * takes part. Emits `create` to the participants. @throws ERR_VALIDATION (title, users).
 */
export async function createChat(ctx: AppContext, auth: AuthContext, input: ChatBody): Promise<Chat> {
  const body = ZChatBody.parse(input);
  const members = await participantsOf(ctx, auth, body.users);
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(chats)
      .values({ companyId: auth.companyId, title: body.title, ownerId: auth.userId })
      .returning({ id: chats.id });
    await tx
      .insert(chatUsers)
      .values(members.map((userId) => ({ companyId: auth.companyId, chatId: row!.id, userId })));
    return row!.id;
  });
  const [chat] = await loadChats(ctx, auth.companyId, [id]);
  emitTo(ctx, auth.companyId, participantIds(chat!), { action: 'create', record: chat! });
  return chat!;
}

/**
 * PUT /chats/:id (owner only): changes the title and/or the participants the body names (the owner
 * always stays). Participants keep their unread counts; removed ones get `delete`, the others
 * `update`. @throws ERR_NOT_FOUND, ERR_NO_PERMISSION, ERR_VALIDATION.
 */
export async function updateChat(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  input: Partial<ChatBody>,
): Promise<Chat> {
  const body = parsePatch(ZChatBody, input);
  const before = await getOwnedChat(ctx, auth, id);
  const members = body.users ? await participantsOf(ctx, auth, body.users) : undefined;
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(chats)
      .set({ ...(body.title === undefined ? {} : { title: body.title }), updatedAt: sql`now()` })
      .where(and(eq(chats.companyId, auth.companyId), eq(chats.id, id)));
    if (!members) return;
    const current = participantIds(before);
    const removed = current.filter((u) => !members.includes(u));
    const added = members.filter((u) => !current.includes(u));
    if (removed.length > 0) {
      await tx.delete(chatUsers).where(and(eq(chatUsers.chatId, id), inArray(chatUsers.userId, removed)));
    }
    if (added.length > 0) {
      await tx
        .insert(chatUsers)
        .values(added.map((userId) => ({ companyId: auth.companyId, chatId: id, userId })));
    }
  });
  const [chat] = await loadChats(ctx, auth.companyId, [id]);
  const now = participantIds(chat!);
  emitTo(ctx, auth.companyId, now, { action: 'update', record: chat! });
  const gone = participantIds(before).filter((u) => !now.includes(u));
  emitTo(ctx, auth.companyId, gone, { action: 'delete', id });
  return chat!;
}

/** DELETE /chats/:id (owner only): removes the chat and its messages; participants get `delete`. */
export async function deleteChat(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const chat = await getOwnedChat(ctx, auth, id);
  await ctx.db.delete(chats).where(and(eq(chats.companyId, auth.companyId), eq(chats.id, id)));
  emitTo(ctx, auth.companyId, participantIds(chat), { action: 'delete', id });
}

/**
 * POST /chats/:id/read: sets the caller's unread count of the chat to 0 and sends the caller's
 * sockets `update`. @throws ERR_NOT_FOUND (not a participant).
 */
export async function markChatRead(ctx: AppContext, auth: AuthContext, id: number): Promise<Chat> {
  await getParticipantChat(ctx, auth, id);
  await ctx.db
    .update(chatUsers)
    .set({ unreads: 0 })
    .where(and(eq(chatUsers.chatId, id), eq(chatUsers.userId, auth.userId)));
  const [chat] = await loadChats(ctx, auth.companyId, [id]);
  emitTo(ctx, auth.companyId, [auth.userId], { action: 'update', record: chat! });
  return chat!;
}

const messageColumns = {
  ...pickColumns(chatMessages, ['id', 'chatId', 'senderId', 'message', 'createdAt']),
  senderName: users.name,
};

function toMessage(row: {
  id: number;
  chatId: number;
  senderId: number | null;
  senderName: string | null;
  message: string;
  createdAt: Date | string;
}): ChatMessage {
  return {
    id: row.id,
    chatId: row.chatId,
    senderId: row.senderId,
    sender:
      row.senderId !== null && row.senderName !== null ? { id: row.senderId, name: row.senderName } : null,
    message: row.message,
    createdAt: iso(row.createdAt),
  };
}

/**
 * GET /chats/:id/messages?pageNumber: the chat's messages newest first, 20 a page (`records`,
 * `hasMore`). @throws ERR_NOT_FOUND (not a participant).
 */
export async function listChatMessages(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  pageNumber: number,
): Promise<ChatMessagesPage> {
  await getParticipantChat(ctx, auth, id);
  const rows = await ctx.db
    .select(messageColumns)
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.senderId))
    .where(and(eq(chatMessages.companyId, auth.companyId), eq(chatMessages.chatId, id)))
    .orderBy(desc(chatMessages.id))
    .limit(CHAT_MESSAGES_PAGE_SIZE + 1)
    .offset((pageNumber - 1) * CHAT_MESSAGES_PAGE_SIZE);
  return {
    records: rows.slice(0, CHAT_MESSAGES_PAGE_SIZE).map(toMessage),
    hasMore: rows.length > CHAT_MESSAGES_PAGE_SIZE,
  };
}

/**
 * POST /chats/:id/messages: the caller's message; the chat's last message and time change and every
 * other participant's unread count grows by one. Participants get `new-message` with the chat.
 * @throws ERR_NOT_FOUND (not a participant), ERR_VALIDATION (message required or too long).
 */
export async function sendChatMessage(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  input: { message: string },
): Promise<ChatMessage> {
  const body = ZChatMessageBody.parse(input);
  await getParticipantChat(ctx, auth, id);
  const messageId = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(chatMessages)
      .values({ companyId: auth.companyId, chatId: id, senderId: auth.userId, message: body.message })
      .returning({ id: chatMessages.id });
    await tx
      .update(chats)
      .set({ lastMessage: body.message, updatedAt: sql`now()` })
      .where(and(eq(chats.companyId, auth.companyId), eq(chats.id, id)));
    await tx
      .update(chatUsers)
      .set({ unreads: sql`${chatUsers.unreads} + 1` })
      .where(and(eq(chatUsers.chatId, id), ne(chatUsers.userId, auth.userId)));
    return row!.id;
  });
  const [row] = await ctx.db
    .select(messageColumns)
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.senderId))
    .where(eq(chatMessages.id, messageId));
  const message = toMessage(row!);
  const [chat] = await loadChats(ctx, auth.companyId, [id]);
  if (chat)
    emitTo(ctx, auth.companyId, participantIds(chat), { action: 'new-message', newMessage: message, chat });
  return message;
}
