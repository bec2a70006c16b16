import { and, eq, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { AppError } from '../lib/app-error.js';
import { type AuthContext, isAdmin } from '../lib/guards.js';
import type { Tx } from './client.js';
import { tickets, userQueues, users } from './schema/index.js';

/** The ticket columns that decide who hears of a ticket (its realtime rooms): id, company, queue, holder, status. */
export const ticketAudienceColumns = {
  id: tickets.id,
  companyId: tickets.companyId,
  queueId: tickets.queueId,
  userId: tickets.userId,
  status: tickets.status,
};

/** What decides which tickets a user sees. */
export interface Viewer {
  userId: number;
  companyId: number;
  admin: boolean;
  allTicket: boolean;
  queueIds: number[];
}

/** The caller's queues and allTicket flag: as the guard read them, or else one query. */
export async function loadViewer(db: Tx, auth: AuthContext): Promise<Viewer> {
  if (auth.viewer) {
    return {
      userId: auth.userId,
      companyId: auth.companyId,
      admin: isAdmin(auth),
      allTicket: auth.viewer.allTicket,
      queueIds: auth.viewer.queueIds,
    };
  }
  const rows = await db
    .select({ allTicket: users.allTicket, queueId: userQueues.queueId })
    .from(users)
    .leftJoin(userQueues, eq(userQueues.userId, users.id))
    .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId)));
  return {
    userId: auth.userId,
    companyId: auth.companyId,
    admin: isAdmin(auth),
    allTicket: rows[0]?.allTicket === 'enabled',
    queueIds: rows.flatMap((r) => (r.queueId === null ? [] : [r.queueId])),
  };
}

/**
 * SQL condition of the tickets a viewer sees in lists: its own, those of its queues, those without
 * a queue that nobody holds yet (another user's ticket without a queue stays that user's), and
 * pending ones of every queue when allTicket is enabled. Admins with `showAll` see all.
 */
export function visibleWhere(viewer: Viewer, showAll: boolean): SQL | undefined {
  if (viewer.admin && showAll) return undefined;
  return or(
    eq(tickets.userId, viewer.userId),
    and(isNull(tickets.queueId), isNull(tickets.userId)),
    // One array parameter, so the statement's text (and its prepared plan) fits every viewer.
    viewer.queueIds.length
      ? sql`${tickets.queueId} = any(${`{${viewer.queueIds.map((id) => Math.trunc(id)).join(',')}}`}::int[])`
      : undefined,
    viewer.allTicket ? eq(tickets.status, 'pending') : undefined,
  );
}

/** Whether the viewer may open a ticket: admins always (core section 6), others as in lists. */
export function canOpen(
  viewer: Viewer,
  ticket: { userId: number | null; queueId: number | null; status: string },
): boolean {
  if (viewer.admin) return true;
  return (
    ticket.userId === viewer.userId ||
    (ticket.queueId === null && ticket.userId === null) ||
    (ticket.queueId !== null && viewer.queueIds.includes(ticket.queueId)) ||
    (viewer.allTicket && ticket.status === 'pending')
  );
}

/** What `canOpen` reads of a ticket. */
type OpenableTicket = { userId: number | null; queueId: number | null; status: string };

/**
 * The one check of every route that writes onto a ticket (a message, a retry, a template, a
 * transfer): the caller may act on a ticket exactly when it may open it (`canOpen`, the rule of
 * GET /messages/:ticketId). @throws ERR_NO_PERMISSION (403).
 */
export function assertMayActOnTicket(viewer: Viewer, ticket: OpenableTicket): void {
  if (!canOpen(viewer, ticket)) throw new AppError('ERR_NO_PERMISSION');
}

/**
 * The same check for a send addressed to a contact (a schedule): the send lands on one of the
 * contact's live (not closed) tickets, so the caller must be able to open every one of them. A
 * contact without a live ticket is open to anyone of the company (the send starts a closed
 * conversation without queue or user). @throws ERR_NO_PERMISSION (403).
 */
export async function assertMayActOnContact(db: Tx, viewer: Viewer, contactId: number): Promise<void> {
  if (viewer.admin) return;
  const live = await db
    .select({ userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, viewer.companyId),
        eq(tickets.contactId, contactId),
        ne(tickets.status, 'closed'),
      ),
    );
  for (const ticket of live) assertMayActOnTicket(viewer, ticket);
}

/**
 * The viewer of a user of the company read by id, for work done later on that user's behalf (a
 * schedule's job). @returns undefined when the user no longer exists in the company.
 */
export async function loadUserViewer(db: Tx, companyId: number, userId: number): Promise<Viewer | undefined> {
  const user = await readUserVisibility(db, companyId, userId);
  return user && { userId, companyId, ...user };
}

/** What decides which tickets a user sees: admin (or super user), allTicket enabled, its queues. */
export interface UserVisibility {
  admin: boolean;
  allTicket: boolean;
  queueIds: number[];
}

/**
 * Reads a user of the company by id with its queues, in one query (`db` may be a transaction);
 * the ticket viewer of the routes and the socket rooms both start from it.
 * @returns undefined when the user no longer exists in the company.
 */
export async function readUserVisibility(
  db: Tx,
  companyId: number,
  userId: number,
): Promise<UserVisibility | undefined> {
  const rows = await db
    .select({
      profile: users.profile,
      super: users.super,
      allTicket: users.allTicket,
      queueId: userQueues.queueId,
    })
    .from(users)
    .leftJoin(userQueues, eq(userQueues.userId, users.id))
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  const first = rows[0];
  if (!first) return undefined;
  return {
    admin: first.profile === 'admin' || first.super === true,
    allTicket: first.allTicket === 'enabled',
    queueIds: rows.flatMap((r) => (r.queueId === null ? [] : [r.queueId])),
  };
}
