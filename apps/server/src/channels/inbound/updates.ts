/**
 * What a connection reports about messages and contacts already stored: delivery acks (queued per
 * connection, stored in order), edits, deletions for everyone, and contact name or picture
 * changes; each emits its update after the write.
 */
import type { PresenceState } from '@zapdesk/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { contacts, messages, tickets } from '../../db/schema/index.js';
import { emitMessageUpdates } from '../message-events.js';
import type { ConnectionRef } from './types.js';

/** The delivery acks of each connection, stored and emitted one batch after the other. */
export class AckQueues {
  /** Per connection: the acks waiting for the next batch, the batch queued, the one being stored. */
  private readonly queues = new Map<
    number,
    { pending: Map<string, number>; next?: Promise<void>; running: Promise<void> }
  >();

  /** @param ctx the app whose database stores the acks and whose realtime emits them. */
  constructor(private readonly ctx: AppContext) {}

  /**
   * Applies a delivery ack to a message sent by the connection; acks only move forward. Emits
   * `appMessage` update when it changed. Acks of one connection are stored and emitted one batch
   * after the other, so clients see them in order (1→2→3→4) even when the driver reports them
   * faster than a round trip; the acks reported while a batch is being stored form the next batch
   * (one UPDATE; a message's highest ack wins, so an intermediate one may be skipped, never
   * reordered). Resolves once this ack's batch is stored and emitted.
   */
  async ack(connection: ConnectionRef, providerId: string, ack: number): Promise<void> {
    let queue = this.queues.get(connection.id);
    if (!queue) {
      queue = { pending: new Map(), running: Promise.resolve() };
      this.queues.set(connection.id, queue);
    }
    queue.pending.set(providerId, Math.max(queue.pending.get(providerId) ?? ack, ack));
    if (queue.next) return queue.next;
    const q = queue;
    const next = q.running.then(async () => {
      const batch = q.pending;
      q.pending = new Map();
      q.next = undefined;
      await applyAcks(this.ctx, connection, batch);
    });
    q.next = next;
    q.running = next.catch(() => undefined);
    const tail = q.running;
    void tail.then(() => {
      if (q.running === tail && !q.next && this.queues.get(connection.id) === q)
        this.queues.delete(connection.id);
    });
    return next;
  }
}

/** Stores one batch of a connection's acks (one UPDATE, forward only) and emits the changed messages. */
async function applyAcks(
  ctx: AppContext,
  connection: ConnectionRef,
  acks: Map<string, number>,
): Promise<void> {
  if (!acks.size) return;
  const result = await ctx.db.execute(sql`
      update messages m set ack = v.ack, updated_at = now()
      from (values ${sql.join(
        [...acks].map(([wid, ack]) => sql`(${wid}::text, ${ack}::int)`),
        sql`, `,
      )}) as v(wid, ack)
      where m.whatsapp_id = ${connection.id} and m.wid = v.wid and m.ack < v.ack
      returning m.id`);
  // node-postgres and PGlite both answer { rows }.
  const rows = (result as unknown as { rows: { id: number }[] }).rows;
  await emitChanged(ctx, connection, rows);
}

/** Marks a message edited with its new body. */
export async function editMessage(
  ctx: AppContext,
  connection: ConnectionRef,
  providerId: string,
  body: string,
): Promise<void> {
  await markMessage(ctx, connection, providerId, { body: body.replaceAll('\u0000', ''), isEdited: true });
}

/** Marks a message deleted for everyone. */
export async function removeMessage(
  ctx: AppContext,
  connection: ConnectionRef,
  providerId: string,
): Promise<void> {
  await markMessage(ctx, connection, providerId, { isDeleted: true });
}

/** Sets `set` (and updatedAt) on the connection's message of that provider id and emits its update. */
async function markMessage(
  ctx: AppContext,
  connection: ConnectionRef,
  providerId: string,
  set: { body?: string; isEdited?: boolean; isDeleted?: boolean },
): Promise<void> {
  const rows = await ctx.db
    .update(messages)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, providerId)))
    .returning({ id: messages.id });
  await emitChanged(ctx, connection, rows);
}

/** Updates a contact's name or picture and emits `contact` update. */
export async function updateContact(
  ctx: AppContext,
  connection: ConnectionRef,
  update: { number: string; name?: string; profilePicUrl?: string | null },
): Promise<void> {
  const set: Partial<typeof contacts.$inferInsert> = {};
  if (update.name) set.name = update.name.replaceAll('\u0000', '');
  if (update.profilePicUrl !== undefined) set.profilePicUrl = update.profilePicUrl;
  if (Object.keys(set).length === 0) return;
  const [row] = await ctx.db
    .update(contacts)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(contacts.companyId, connection.companyId), eq(contacts.number, update.number)))
    .returning();
  if (row) {
    ctx.realtime.toCompany(connection.companyId, 'contact', {
      action: 'update',
      contact: { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() },
    });
  }
}

/**
 * A contact's presence on a connection (typing, recording, stopped): a `presence` update to those
 * who can see each of the contact's live (not closed) tickets on that connection. Nothing is stored;
 * the web app fades it after a few seconds without news (docs/inbox.md "Presence").
 */
export async function emitContactPresence(
  ctx: AppContext,
  connection: ConnectionRef,
  update: { number: string; presence: PresenceState },
): Promise<void> {
  const live = await ctx.db
    .select({
      id: tickets.id,
      contactId: tickets.contactId,
      queueId: tickets.queueId,
      userId: tickets.userId,
      status: tickets.status,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(
      and(
        eq(tickets.companyId, connection.companyId),
        eq(tickets.whatsappId, connection.id),
        eq(contacts.number, update.number),
        ne(tickets.status, 'closed'),
      ),
    );
  for (const ticket of live) {
    ctx.realtime.toTicket({ ...ticket, companyId: connection.companyId }, 'presence', {
      action: 'update',
      ticketId: ticket.id,
      contactId: ticket.contactId,
      presence: update.presence,
    });
  }
}

/** Emits `appMessage` update for the connection's messages a write returned (`rows`: their ids). */
async function emitChanged(
  ctx: AppContext,
  connection: ConnectionRef,
  rows: { id: number }[],
): Promise<void> {
  await emitMessageUpdates(
    ctx,
    connection.companyId,
    rows.map((r) => r.id),
  );
}
