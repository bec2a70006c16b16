import { and, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { tickets, userQueues, users } from '../../db/schema/index.js';
import { type AuthContext, isAdmin } from '../../lib/guards.js';

/** What decides which tickets a user sees (issue: tickets inbox, point 2). */
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
