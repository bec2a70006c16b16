import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { queues } from '../db/schema/index.js';
import { readUserVisibility } from '../db/ticket-visibility.js';
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
