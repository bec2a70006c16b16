import type { Ticket, UpdateTicketFields } from '@zapdesk/shared';
import { and, desc, eq, gt, gte, ilike, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { AUTOMATIC_MESSAGES } from '../../automation/automatic-messages.js';
import { sendClosingMessages } from '../../automation/ratings.js';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../context.js';
import { settingEnabled as isSettingEnabled } from '../../db/company-rows.js';
import { contacts, messages, queues, tickets, users, whatsapps } from '../../db/schema/index.js';
import { assertMayActOnTicket, loadViewer, type Viewer, visibleWhere } from '../../db/ticket-visibility.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { AuthContext } from '../../lib/guards.js';
import { escapeLike } from '../../lib/search-page.js';
import { assertPromptOfCompany } from '../prompts/prompts-service.js';
import { assertIntegrationOfCompany } from '../queue-integrations/queue-integrations-service.js';
import {
  intArrayParam,
  listStatement,
  localDayRange,
  ROW_COUNT,
  ROW_CURSOR_KEY,
  type TicketsQueryParsed,
  toListTicket,
} from './ticket-list-statement.js';
import { findTicket, ticketQuery, toTicket } from './ticket-repository.js';

export { AUTOMATIC_MESSAGES } from '../../automation/automatic-messages.js';
export { intArrayParam, localDayRange, type TicketsQueryParsed } from './ticket-list-statement.js';

/** Tickets per page of GET /tickets. */
export const TICKETS_PAGE_SIZE = 40;

function dayRange(column: typeof tickets.createdAt | typeof tickets.updatedAt, day: string): SQL {
  const { start, end } = localDayRange(day);
  return and(gte(column, start), lt(column, end))!;
}

/** `column = any($n::int[])`: one parameter whatever the number of ids. */
const anyOf = (column: SQL | typeof tickets.queueId, ids: number[]) =>
  sql`${column} = any(${intArrayParam(ids)}::int[])`;

/** The list filters of GET /tickets (visibility included), without paging. */
export function ticketListWhere(
  viewer: Viewer,
  companyId: number,
  query: TicketsQueryParsed,
): SQL | undefined {
  return and(
    eq(tickets.companyId, companyId),
    visibleWhere(viewer, query.showAll),
    query.status ? eq(tickets.status, query.status) : undefined,
    query.queueIds?.length ? or(anyOf(tickets.queueId, query.queueIds), isNull(tickets.queueId)) : undefined,
    query.users?.length ? anyOf(sql`${tickets.userId}`, query.users) : undefined,
    query.tags?.length
      ? sql`exists (select 1 from ticket_tags tt where tt.ticket_id = ${tickets.id} and tt.tag_id = any(${intArrayParam(query.tags)}::int[]))`
      : undefined,
    query.date ? dayRange(tickets.createdAt, query.date) : undefined,
    query.updatedAt ? dayRange(tickets.updatedAt, query.updatedAt) : undefined,
    query.withUnreadMessages ? gt(tickets.unreadMessages, 0) : undefined,
  );
}

/** `(updated_at, id)` of a cursor ('<microseconds since the epoch>.<id>'). */
function afterCursor(cursor: string): SQL {
  const [micros, id] = cursor.split('.') as [string, string];
  return sql`(${tickets.updatedAt}, ${tickets.id}) < (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${Number(id)}::bigint)`;
}

/**
 * GET /tickets (core section 7): the spec's filters with visibility applied, newest update first,
 * TICKETS_PAGE_SIZE per page. A plain list is ONE statement, prepared by name: the page
 * (tickets joined with contact, user, queue, connection and tags, one row more than a page to know
 * `hasMore`) with the count of matching tickets as an uncorrelated sub-select: exact, summed from
 * ticket_counts, when the filters are visibility, status, queues, users and unread (the tabs' badges;
 * decision 0111), else exact up to TICKETS_COUNT_BOUND (an index-only scan of at most that many
 * entries). The viewer's queues come from
 * the guard (`auth.viewer`). Pages by `pageNumber` (offset; classic clients) or by `cursor` (keyset:
 * the next page seeks to its place in the (company, status, updated_at, id) index); every plain page
 * carries its `nextCursor`. A search (`searchParam`, case-insensitive substring of the contact's name
 * or number or of a message body) runs two index-driven parts — contacts through their trigram
 * indexes, messages through an EXISTS per ticket walked newest first — each limited to the page
 * window, merges them and joins only the kept rows; its `count` is then a lower bound (the rows up to
 * this page), since an exact count of a common word cannot be cheap. One round trip in all.
 */
export async function listTickets(ctx: AppContext, auth: AuthContext, query: TicketsQueryParsed) {
  const viewer = await loadViewer(ctx.db, auth);
  const offset = query.cursor ? 0 : (query.pageNumber - 1) * TICKETS_PAGE_SIZE;
  const term = query.searchParam.trim().toLowerCase();
  if (term) {
    const base = ticketListWhere(viewer, auth.companyId, query);
    const where = query.cursor ? and(base, afterCursor(query.cursor)) : base;
    return searchTickets(ctx, auth.companyId, where, `%${escapeLike(term)}%`, offset);
  }
  // The prepared page runs on the pool whose sessions keep its generic plan (no planning per request);
  // its text is built once per shape (ticket-list-statement.ts).
  const statement = listStatement(viewer, auth.companyId, query, offset, TICKETS_PAGE_SIZE + 1);
  const rows = await ctx.database.preparedRows(statement.name, statement.text, statement.values);
  const hasMore = rows.length > TICKETS_PAGE_SIZE;
  const page = rows.slice(0, TICKETS_PAGE_SIZE);
  let count = rows[0]?.[ROW_COUNT] as number | undefined;
  if (count === undefined) {
    // Past the end: nothing carried the count (none at all on a first page); the first row of the
    // list carries it, if there is one.
    const first =
      offset === 0 && !query.cursor
        ? []
        : await (() => {
            const head = listStatement(viewer, auth.companyId, { ...query, cursor: undefined }, 0, 1);
            return ctx.database.preparedRows(head.name, head.text, head.values);
          })();
    count = (first[0]?.[ROW_COUNT] as number | undefined) ?? 0;
  }
  const last = page.at(-1);
  return {
    tickets: page.map(toListTicket),
    hasMore,
    count,
    ...(last ? { nextCursor: `${last[ROW_CURSOR_KEY] as string}.${last[0] as number}` } : {}),
  };
}

/**
 * One round trip: the contact part and the message part (each an index-driven scan limited to the
 * page window) united, ordered, cut to the page plus one row, then joined with contact, user, queue,
 * connection and tags.
 */
async function searchTickets(
  ctx: AppContext,
  companyId: number,
  base: SQL | undefined,
  like: string,
  offset: number,
) {
  const window = offset + TICKETS_PAGE_SIZE + 1;
  const order = [desc(tickets.updatedAt), desc(tickets.id)] as const;
  const byContact = ctx.db
    .select({ id: tickets.id, updatedAt: tickets.updatedAt })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(base, or(ilike(contacts.name, like), ilike(contacts.number, like))))
    .orderBy(...order)
    .limit(window);
  const byMessage = ctx.db
    .select({ id: tickets.id, updatedAt: tickets.updatedAt })
    .from(tickets)
    .where(
      and(
        base,
        sql`exists (select 1 from messages m where m.ticket_id = ${tickets.id} and m.company_id = ${companyId} and m.body ilike ${like})`,
      ),
    )
    .orderBy(...order)
    .limit(window);
  const pageIds = sql`(select found.id from ((${byContact}) union (${byMessage})) found
    order by found.updated_at desc, found.id desc offset ${offset} limit ${TICKETS_PAGE_SIZE + 1})`;
  const rows = await ticketQuery(ctx.db)
    .where(inArray(tickets.id, pageIds))
    .orderBy(...order);
  const hasMore = rows.length > TICKETS_PAGE_SIZE;
  const page = rows.slice(0, TICKETS_PAGE_SIZE).map(toTicket);
  return { tickets: page, hasMore, count: offset + page.length + (hasMore ? 1 : 0) };
}

/**
 * A ticket the caller may open. @throws ERR_NO_TICKET_FOUND (other company or unknown),
 * ERR_NO_PERMISSION (403: outside the caller's queues; the client shows 'Acesso não permitido').
 */
export async function getVisibleTicket(
  ctx: AppContext,
  auth: AuthContext,
  where: { id?: number; uuid?: string },
): Promise<Ticket> {
  const [row] = await ticketQuery(ctx.db).where(
    and(
      eq(tickets.companyId, auth.companyId),
      where.id !== undefined ? eq(tickets.id, where.id) : eq(tickets.uuid, where.uuid!),
    ),
  );
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
  const ticket = toTicket(row);
  assertMayActOnTicket(await loadViewer(ctx.db, auth), ticket);
  return ticket;
}

function settingEnabled(ctx: AppContext, companyId: number, key: string): Promise<boolean> {
  return isSettingEnabled(ctx.db, companyId, key);
}

async function liveTicketOf(
  ctx: AppContext,
  companyId: number,
  contactId: number,
  whatsappId: number | null,
) {
  const [row] = await ticketQuery(ctx.db).where(
    and(
      eq(tickets.companyId, companyId),
      eq(tickets.contactId, contactId),
      whatsappId === null ? isNull(tickets.whatsappId) : eq(tickets.whatsappId, whatsappId),
      sql`${tickets.status} <> 'closed'`,
    ),
  );
  return row ? toTicket(row) : undefined;
}

async function assertOwned(
  ctx: AppContext,
  companyId: number,
  ids: { queueId?: number | null; userId?: number | null; whatsappId?: number | null },
) {
  const checks: [number | null | undefined, typeof queues | typeof users | typeof whatsapps, string][] = [
    [ids.queueId, queues, 'queueId'],
    [ids.userId, users, 'userId'],
    [ids.whatsappId, whatsapps, 'whatsappId'],
  ];
  for (const [id, table, field] of checks) {
    if (id === undefined || id === null) continue;
    const [row] = await ctx.db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.companyId, companyId), eq(table.id, id)));
    if (!row) throw new AppError('ERR_VALIDATION', { extra: { field, message: 'invalid' } });
  }
}

/**
 * POST /tickets: a ticket started by staff, open and assigned to the caller (or `userId` for
 * admins), on `whatsappId` or the default connection.
 * @throws ERR_NO_CONTACT_FOUND, ERR_NO_DEF_WAPP_FOUND, ERR_OTHER_OPEN_TICKET (409, with `ticket`).
 */
export async function createTicket(
  ctx: AppContext,
  auth: AuthContext,
  body: {
    contactId: number;
    queueId?: number | null;
    whatsappId?: number | null;
    userId?: number | null;
    status?: string;
  },
): Promise<Ticket> {
  const [contact] = await ctx.db
    .select({ id: contacts.id, isGroup: contacts.isGroup })
    .from(contacts)
    .where(and(eq(contacts.companyId, auth.companyId), eq(contacts.id, body.contactId)));
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  let whatsappId = body.whatsappId ?? null;
  if (whatsappId === null) {
    const [fallback] = await ctx.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, auth.companyId), eq(whatsapps.isDefault, true)));
    if (!fallback) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    whatsappId = fallback.id;
  }
  const userId = auth.profile === 'admin' || auth.super ? (body.userId ?? auth.userId) : auth.userId;
  await assertOwned(ctx, auth.companyId, { queueId: body.queueId, userId, whatsappId });
  let id: number;
  try {
    const [row] = await ctx.db
      .insert(tickets)
      .values({
        companyId: auth.companyId,
        contactId: contact.id,
        whatsappId,
        queueId: body.queueId ?? null,
        userId,
        status: 'open',
        isGroup: contact.isGroup,
        acceptedAt: new Date(),
      })
      .returning({ id: tickets.id });
    id = row!.id;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await liveTicketOf(ctx, auth.companyId, contact.id, whatsappId);
    throw new AppError('ERR_OTHER_OPEN_TICKET', { extra: { ticket: existing } });
  }
  return emitTicketUpdate(ctx, auth.companyId, id);
}

/**
 * Reads ticket `ticketId` of `companyId` (it exists) after a change and emits `company-{id}-ticket`
 * update to the sockets that may see it; answers the ticket.
 */
export async function emitTicketUpdate(
  ctx: AppContext,
  companyId: number,
  ticketId: number,
): Promise<Ticket> {
  const ticket = (await findTicket(ctx.db, companyId, ticketId))!;
  ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
  return ticket;
}

/**
 * PUT /tickets/:id (core section 4): accept, close/resolve, reopen, return, transfer to a queue or
 * user. Sends the greeting on accept when `sendGreetingAccepted` is enabled (not for groups) and the
 * transfer message when `sendMsgTransfTicket` is. Sockets that may no longer see the ticket get a
 * delete event. @throws ERR_NO_TICKET_FOUND, ERR_NO_PERMISSION, ERR_OTHER_OPEN_TICKET (reopen while
 * another live ticket exists), ERR_VALIDATION (ids of other companies).
 */
export async function updateTicket(
  ctx: AppContext,
  sender: OutboundSender,
  auth: AuthContext,
  id: number,
  body: UpdateTicketFields,
  /** Told of the change once it is stored and announced (automatic assignment's trigger). */
  changed?: (before: Ticket, after: Ticket) => Promise<void>,
): Promise<Ticket> {
  const before = await getVisibleTicket(ctx, auth, { id });
  await assertOwned(ctx, auth.companyId, {
    queueId: body.queueId,
    userId: body.userId,
    whatsappId: body.whatsappId,
  });
  await assertPromptOfCompany(ctx.db, auth.companyId, body.promptId);
  await assertIntegrationOfCompany(ctx.db, auth.companyId, body.integrationId);
  const status = body.status ?? before.status;
  const set: Partial<typeof tickets.$inferInsert> = { updatedAt: new Date() };
  if (body.status !== undefined) set.status = body.status;
  if (body.userId !== undefined) set.userId = body.userId;
  if (body.queueId !== undefined) set.queueId = body.queueId;
  if (body.whatsappId !== undefined && body.whatsappId !== null) set.whatsappId = body.whatsappId;
  if (body.useIntegration !== undefined) set.useIntegration = body.useIntegration;
  if (body.promptId !== undefined) set.promptId = body.promptId;
  if (body.integrationId !== undefined) set.integrationId = body.integrationId;
  if (status === 'open' && before.status !== 'open') {
    set.acceptedAt = new Date();
    set.userId = body.userId ?? auth.userId;
    // An agent who accepts the ticket stops its bot.
    if (body.useIntegration === undefined) set.useIntegration = false;
  }
  if (status === 'pending' && body.userId === undefined && before.status === 'open') set.userId = null;
  if (status === 'closed' && before.status !== 'closed') {
    set.closedAt = new Date();
    set.chatbot = false;
  }
  if (status !== 'closed' && before.status === 'closed') set.closedAt = null;
  if (status === 'closed') set.unreadMessages = 0;
  try {
    await ctx.db
      .update(tickets)
      .set(set)
      .where(and(eq(tickets.companyId, auth.companyId), eq(tickets.id, id)));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await liveTicketOf(ctx, auth.companyId, before.contactId, before.whatsappId);
    throw new AppError('ERR_OTHER_OPEN_TICKET', { extra: { ticket: existing } });
  }
  let after = (await findTicket(ctx.db, auth.companyId, id))!;
  ctx.realtime.ticketMoved(before, after, { action: 'update', ticket: after });
  await changed?.(before, after);

  const accepted = before.status === 'pending' && after.status === 'open';
  const queueChanged = body.queueId !== undefined && body.queueId !== before.queueId && after.queue;
  const userChanged =
    body.userId != null && body.userId !== before.userId && body.userId !== auth.userId && after.user;
  const messagesToSend: string[] = [];
  if (accepted && !after.isGroup && (await settingEnabled(ctx, auth.companyId, 'sendGreetingAccepted'))) {
    messagesToSend.push(AUTOMATIC_MESSAGES.greeting(after.contact.name, after.user?.name ?? ''));
  }
  if (
    (queueChanged || userChanged) &&
    !after.isGroup &&
    (await settingEnabled(ctx, auth.companyId, 'sendMsgTransfTicket'))
  ) {
    messagesToSend.push(
      userChanged
        ? AUTOMATIC_MESSAGES.transferUser(after.user!.name)
        : AUTOMATIC_MESSAGES.transferQueue(after.queue!.name),
    );
  }
  for (const text of messagesToSend) {
    await sender
      .send(auth, id, { body: text, automatic: true })
      .catch((error) => ctx.log.warn({ err: error, ticketId: id }, 'automatic message failed'));
  }
  const closed = before.status !== 'closed' && after.status === 'closed';
  if (closed) await sendClosingMessages(ctx, sender, auth.companyId, id);
  if (messagesToSend.length || closed) after = (await findTicket(ctx.db, auth.companyId, id))!;
  return after;
}

/** DELETE /tickets/:id (admin): deletes the ticket and its messages; emits `ticket` delete. */
export async function deleteTicket(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const [removed] = await ctx.db
    .delete(tickets)
    .where(and(eq(tickets.companyId, auth.companyId), eq(tickets.id, id)))
    .returning({
      companyId: tickets.companyId,
      queueId: tickets.queueId,
      userId: tickets.userId,
      status: tickets.status,
    });
  if (!removed) throw new AppError('ERR_NO_TICKET_FOUND');
  ctx.realtime.toTicket(removed, 'ticket', { action: 'delete', ticketId: id });
}

/**
 * Reads the ticket as opening it does (`markTicketRead`), the read receipts going through the
 * connection's session when this node runs it. Used by GET /messages/:ticketId (first page), POST
 * /messages/:ticketId/read and the classic client's PUT /notifications/:id/read.
 */
export function readTicket(ctx: AppContext, sessions: SessionManager, ticket: Ticket): Promise<void> {
  return markTicketRead(ctx, ticket, async (whatsappId, number, wids) => {
    await sessions.get(whatsappId)?.markRead(number, wids);
  });
}

/**
 * Marks the ticket's inbound messages read (read receipts through the driver) and zeroes
 * unreadMessages; emits `ticket` updateUnread. Called when a user opens the ticket.
 */
export async function markTicketRead(
  ctx: AppContext,
  ticket: Ticket,
  sendReceipts: (whatsappId: number, number: string, wids: string[]) => Promise<void>,
): Promise<void> {
  const read = await ctx.db
    .update(messages)
    .set({ read: true })
    .where(and(eq(messages.ticketId, ticket.id), eq(messages.read, false), eq(messages.fromMe, false)))
    .returning({ wid: messages.wid });
  if (ticket.unreadMessages === 0 && read.length === 0) return;
  await ctx.db.update(tickets).set({ unreadMessages: 0 }).where(eq(tickets.id, ticket.id));
  ctx.realtime.toTicket(ticket, 'ticket', { action: 'updateUnread', ticketId: ticket.id });
  const wids = read.flatMap((r) => (r.wid ? [r.wid] : []));
  if (wids.length && ticket.whatsappId) {
    await sendReceipts(ticket.whatsappId, ticket.contact.number, wids).catch((error) =>
      ctx.log.warn({ err: error, ticketId: ticket.id }, 'read receipts failed'),
    );
  }
}
