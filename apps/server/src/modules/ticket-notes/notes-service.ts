import type { NoteMention, Ticket, TicketNote } from '@zapdesk/shared';
import { and, asc, desc, eq, gte, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import {
  contacts,
  ticketNoteMentions,
  ticketNotes,
  tickets,
  userQueues,
  users,
} from '../../db/schema/index.js';
import { canOpen, type Viewer } from '../../db/ticket-visibility.js';
import { AppError } from '../../lib/app-error.js';

/** The ids of the users a note mentions, as one array column of the note's row. */
const mentionedIds = sql<
  number[]
>`coalesce((select array_agg(m.user_id order by m.user_id) from ${ticketNoteMentions} m where m.note_id = ${ticketNotes.id}), '{}')`;

/** Notes matching `where` with their author's name and mentions, oldest first. */
export async function selectNotes(db: Tx, where: SQL | undefined): Promise<TicketNote[]> {
  const rows = await db
    .select({ note: ticketNotes, userName: users.name, mentioned: mentionedIds })
    .from(ticketNotes)
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(where)
    .orderBy(asc(ticketNotes.createdAt), asc(ticketNotes.id));
  return rows.map(({ note, userName, mentioned }) => ({
    id: note.id,
    note: note.note,
    ticketId: note.ticketId,
    contactId: note.contactId,
    userId: note.userId,
    user: note.userId !== null && userName !== null ? { id: note.userId, name: userName } : null,
    mentionedUserIds: (mentioned ?? []).map(Number),
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
  }));
}

/**
 * The notes of a ticket shown inline with a page of its messages: those created at or after
 * `since` (the page's oldest message), or all of them when `since` is undefined (the last page).
 * One query per page.
 */
export function notesForPage(
  db: Tx,
  companyId: number,
  ticketId: number,
  since?: Date,
): Promise<TicketNote[]> {
  return selectNotes(
    db,
    and(
      eq(ticketNotes.companyId, companyId),
      eq(ticketNotes.ticketId, ticketId),
      since ? gte(ticketNotes.createdAt, since) : undefined,
    ),
  );
}

/**
 * The users of the company who can open `ticket` (`canOpen`, the rule of the ticket page), by name:
 * the users a note on it may mention. Inactive users are left out.
 */
export async function mentionableUsers(
  db: Tx,
  companyId: number,
  ticket: Pick<Ticket, 'userId' | 'queueId' | 'status'>,
): Promise<{ id: number; name: string }[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      profile: users.profile,
      super: users.super,
      allTicket: users.allTicket,
      queueId: userQueues.queueId,
    })
    .from(users)
    .leftJoin(userQueues, eq(userQueues.userId, users.id))
    .where(eq(users.companyId, companyId))
    .orderBy(asc(users.name), asc(users.id));
  const byId = new Map<number, Viewer & { name: string }>();
  for (const row of rows) {
    let viewer = byId.get(row.id);
    if (!viewer) {
      viewer = {
        userId: row.id,
        companyId,
        name: row.name,
        admin: row.profile === 'admin' || row.super === true,
        allTicket: row.allTicket === 'enabled',
        queueIds: [],
      };
      byId.set(row.id, viewer);
    }
    if (row.queueId !== null) viewer.queueIds.push(row.queueId);
  }
  return [...byId.values()].filter((v) => canOpen(v, ticket)).map((v) => ({ id: v.userId, name: v.name }));
}

/**
 * Checks the users a new note mentions: each must be a user of the company (@throws ERR_NOT_FOUND,
 * as another company's rows are answered) who can open the ticket (@throws ERR_VALIDATION on
 * `mentionedUserIds`, 'cannotSeeTicket'). @returns the ids without repeats, the author left out.
 */
export async function checkMentions(
  db: Tx,
  companyId: number,
  authorId: number,
  ticket: Pick<Ticket, 'userId' | 'queueId' | 'status'>,
  ids: number[],
): Promise<number[]> {
  const wanted = [...new Set(ids)].filter((id) => id !== authorId);
  if (wanted.length === 0) return [];
  const known = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, wanted)));
  if (known.length !== wanted.length) throw new AppError('ERR_NOT_FOUND');
  const allowed = new Set((await mentionableUsers(db, companyId, ticket)).map((u) => u.id));
  if (wanted.some((id) => !allowed.has(id))) {
    throw new AppError('ERR_VALIDATION', {
      extra: { field: 'mentionedUserIds', message: 'cannotSeeTicket' },
    });
  }
  return wanted;
}

/** Mentions of one user joined with what the notifications list shows, newest first. */
function mentionQuery(db: Tx) {
  return db
    .select({
      noteId: ticketNoteMentions.noteId,
      ticketId: ticketNoteMentions.ticketId,
      ticketUuid: tickets.uuid,
      contactName: contacts.name,
      authorId: ticketNotes.userId,
      authorName: users.name,
      note: ticketNotes.note,
      createdAt: ticketNoteMentions.createdAt,
      readAt: ticketNoteMentions.readAt,
    })
    .from(ticketNoteMentions)
    .innerJoin(ticketNotes, eq(ticketNotes.id, ticketNoteMentions.noteId))
    .innerJoin(tickets, eq(tickets.id, ticketNoteMentions.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, ticketNotes.userId));
}

type MentionRow = Awaited<ReturnType<ReturnType<typeof mentionQuery>['where']>>[number];

function toMention(row: MentionRow): NoteMention {
  return {
    noteId: row.noteId,
    ticketId: row.ticketId,
    ticketUuid: row.ticketUuid,
    contactName: row.contactName,
    author:
      row.authorId !== null && row.authorName !== null ? { id: row.authorId, name: row.authorName } : null,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
  };
}

/** Unread mentions of a user, newest first (at most `limit`). */
export async function unreadMentions(
  db: Tx,
  companyId: number,
  userId: number,
  limit = 50,
): Promise<NoteMention[]> {
  const rows = await mentionQuery(db)
    .where(
      and(
        eq(ticketNoteMentions.companyId, companyId),
        eq(ticketNoteMentions.userId, userId),
        isNull(ticketNoteMentions.readAt),
      ),
    )
    .orderBy(desc(ticketNoteMentions.createdAt), desc(ticketNoteMentions.noteId))
    .limit(limit);
  return rows.map(toMention);
}

/**
 * Stores the mentions of a new note and tells each mentioned user: a `ticketNote` `mention` event to
 * that user's sockets only (the push notifier turns it into a `mention` push).
 */
export async function recordMentions(
  ctx: AppContext,
  companyId: number,
  note: { id: number; ticketId: number },
  userIds: number[],
): Promise<void> {
  if (userIds.length === 0) return;
  await ctx.db
    .insert(ticketNoteMentions)
    .values(userIds.map((userId) => ({ noteId: note.id, userId, companyId, ticketId: note.ticketId })));
  const rows = await mentionQuery(ctx.db).where(
    and(eq(ticketNoteMentions.companyId, companyId), eq(ticketNoteMentions.noteId, note.id)),
  );
  const [first] = rows;
  if (!first) return;
  const mention = toMention(first);
  for (const userId of userIds)
    ctx.realtime.toUser(companyId, userId, 'ticketNote', { action: 'mention', mention });
}
