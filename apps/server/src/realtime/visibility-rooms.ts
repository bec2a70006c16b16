import { and, eq } from 'drizzle-orm';
import type { Database, Tx } from '../db/client.js';
import { queues, userQueues, users } from '../db/schema/index.js';
import { adminsRoom, noQueueRoom, pendingRoom, queueRoom } from './realtime.js';

/**
 * The ticket rooms a user's socket joins: admins (and super users) the admins room; others a room
 * per queue they serve, the no-queue room, and the pending room when allTicket is enabled.
 * Undefined when the user no longer exists.
 */
export async function visibilityRooms(
  db: Database,
  companyId: number,
  userId: number,
): Promise<string[] | undefined> {
  const user = await readUserVisibility(db, companyId, userId);
  if (!user) return undefined;
  if (user.admin) return [adminsRoom(companyId)];
  return [
    noQueueRoom(companyId),
    ...(user.allTicket ? [pendingRoom(companyId)] : []),
    ...user.queueIds.map((queueId) => queueRoom(companyId, queueId)),
  ];
}

/** What decides which tickets a user sees: admin (or super user), allTicket enabled, its queues. */
export interface UserVisibility {
  admin: boolean;
  allTicket: boolean;
  queueIds: number[];
}

/**
 * Reads a user of the company by id with its queues, in one query (`db` may be a transaction).
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

/**
 * Every ticket visibility room of a company (admins, no-queue, pending and one per queue): what a
 * user's sockets leave before joining the rooms of its new queues (`Realtime.moveUserRooms`).
 */
export async function companyVisibilityRooms(db: Database, companyId: number): Promise<string[]> {
  const rows = await db.select({ id: queues.id }).from(queues).where(eq(queues.companyId, companyId));
  return [
    adminsRoom(companyId),
    noQueueRoom(companyId),
    pendingRoom(companyId),
    ...rows.map((r) => queueRoom(companyId, r.id)),
  ];
}
