import type { Message } from '@zapdesk/shared';
import { inArray } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { tickets } from '../db/schema/index.js';
import { findMessages } from '../modules/messages/message-repository.js';

/**
 * Emits `appMessage` update for changed messages to the rooms of their tickets (two queries for
 * any number of messages). Returns the messages in the API shape.
 */
export async function emitMessageUpdates(
  ctx: AppContext,
  companyId: number,
  ids: number[],
): Promise<Message[]> {
  if (ids.length === 0) return [];
  const changed = await findMessages(ctx.db, companyId, ids);
  const owners = await ctx.db
    .select({
      id: tickets.id,
      companyId: tickets.companyId,
      queueId: tickets.queueId,
      userId: tickets.userId,
      status: tickets.status,
    })
    .from(tickets)
    .where(inArray(tickets.id, [...new Set(changed.map((m) => m.ticketId))]));
  for (const message of changed) {
    const ticket = owners.find((t) => t.id === message.ticketId);
    if (ticket) ctx.realtime.toTicket(ticket, 'appMessage', { action: 'update', message });
  }
  return changed;
}
