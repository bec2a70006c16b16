import type { MediaType } from '@zapdesk/shared';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/client.js';
import { findMessages } from '../db/message-repository.js';
import { messages, tickets } from '../db/schema/index.js';
import { findTicket, findTickets } from '../db/ticket-repository.js';
import { previewOf } from './inbound-pipeline.js';

/** One outbound message to store (a text, or a stored file with its caption). */
export interface OutboundRow {
  body: string;
  mediaType: MediaType;
  mediaUrl: string | null;
  mediaName: string | null;
}

/** The ticket fields storing an outbound message needs. */
export interface OutboundTicket {
  id: number;
  companyId: number;
  contactId: number;
  whatsappId: number | null;
  queueId: number | null;
  userId: number | null;
  status: string;
}

/**
 * Inserts outbound messages of one ticket at ack 0 (sent by `userId`, or by the company when null,
 * quoting `quotedMsgId`) inside `tx`, and sets the ticket's preview to the last. A message an agent
 * writes (`userId` set, not `automatic`) records the ticket's `first_reply` event when it is the first
 * of the ticket's opening (docs/reports.md). No socket event, no driver call.
 * @returns the message ids, in the order of `rows`.
 */
export async function insertOutbound(
  tx: Tx,
  companyId: number,
  ticket: OutboundTicket,
  userId: number | null,
  rows: OutboundRow[],
  quotedMsgId: number | null,
  automatic = false,
): Promise<number[]> {
  const ticketId = ticket.id;
  const inserted = await tx
    .insert(messages)
    .values(
      rows.map((row) => ({
        ...row,
        companyId: companyId,
        ticketId,
        contactId: ticket.contactId,
        whatsappId: ticket.whatsappId,
        userId,
        fromMe: true,
        read: true,
        ack: 0,
        quotedMsgId,
      })),
    )
    .returning({ id: messages.id });
  const last = rows.at(-1)!;
  await tx
    .update(tickets)
    .set({
      lastMessage: previewOf({
        body: last.body,
        mediaType: last.mediaType,
        fileName: last.mediaName ?? undefined,
      }),
      updatedAt: sql`now()`,
    })
    .where(eq(tickets.id, ticketId));
  if (userId !== null && !automatic) await recordFirstReply(tx, companyId, ticketId, userId);
  return inserted.map((r) => r.id);
}

/**
 * Adds the ticket's `first_reply` event (by `userId`, `seconds` since the opening) unless its current
 * opening (last `created` or `reopened` event) already has one. Runs after the ticket's row is locked by
 * the preview update of the same transaction, so two agents' concurrent first messages add one event.
 */
async function recordFirstReply(tx: Tx, companyId: number, ticketId: number, userId: number): Promise<void> {
  await tx.execute(sql`
    insert into ticket_events (company_id, ticket_id, kind, at, user_id, queue_id, whatsapp_id, seconds)
    select t.company_id, t.id, 'first_reply', now(), ${userId}::int, t.queue_id, t.whatsapp_id,
      greatest(0, extract(epoch from now() - coalesce(o.at, t.created_at)))::int
    from tickets t
    left join lateral (
      select e.id, e.at from ticket_events e
      where e.ticket_id = t.id and e.company_id = t.company_id and e.kind in ('created', 'reopened')
      order by e.id desc limit 1
    ) o on true
    where t.id = ${ticketId} and t.company_id = ${companyId}
      and not exists (
        select 1 from ticket_events f
        where f.ticket_id = t.id and f.company_id = t.company_id and f.kind = 'first_reply'
          and f.id > coalesce(o.id, 0)
      )`);
}

/**
 * `insertOutbound` for several tickets at once, by the company: one INSERT of every message and one
 * UPDATE of the tickets' previews, inside `tx`. Items may share a ticket (its preview is the last
 * item's). @returns the message ids of each item, in the items' order.
 */
export async function insertOutboundMany(
  tx: Tx,
  companyId: number,
  items: { ticket: OutboundTicket; rows: OutboundRow[] }[],
): Promise<number[][]> {
  const values = items.flatMap(({ ticket, rows }) =>
    rows.map((row) => ({
      ...row,
      companyId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      whatsappId: ticket.whatsappId,
      userId: null,
      fromMe: true,
      read: true,
      ack: 0,
      quotedMsgId: null,
    })),
  );
  if (values.length === 0) return items.map(() => []);
  const inserted = await tx.insert(messages).values(values).returning({ id: messages.id });
  // One statement numbers its rows from the sequence in the order of its VALUES.
  const ids = inserted.map((r) => r.id).sort((x, y) => x - y);
  const previews = new Map<number, string>();
  for (const { ticket, rows } of items) {
    const last = rows.at(-1);
    if (last)
      previews.set(
        ticket.id,
        previewOf({ body: last.body, mediaType: last.mediaType, fileName: last.mediaName ?? undefined }),
      );
  }
  if (previews.size)
    await tx.execute(sql`
      update tickets t set last_message = v.preview, updated_at = now()
      from (values ${sql.join(
        [...previews].map(([id, preview]) => sql`(${id}::int, ${preview}::text)`),
        sql`, `,
      )}) as v(id, preview)
      where t.id = v.id`);
  let next = 0;
  return items.map(({ rows }) => rows.map(() => ids[next++]!));
}

/**
 * Emits stored outbound messages of one ticket (`appMessage` create, then the ticket's update).
 * `ticket` is the ticket or its id; it is read again for the events.
 */
export async function emitStored(
  ctx: AppContext,
  companyId: number,
  ticket: OutboundTicket | number,
  ids: number[],
): Promise<void> {
  const created = await findMessages(ctx.db, companyId, ids);
  const fresh = await findTicket(ctx.db, companyId, typeof ticket === 'number' ? ticket : ticket.id);
  const target = typeof ticket === 'number' ? fresh : ticket;
  if (target)
    for (const message of created)
      ctx.realtime.toTicket(target, 'appMessage', { action: 'create', message, ticket: fresh });
  if (fresh) ctx.realtime.toTicket(fresh, 'ticket', { action: 'update', ticket: fresh });
}

/** Emits stored outbound messages of a company on any tickets (each ticket's messages, then its update). */
export async function emitStoredMany(ctx: AppContext, companyId: number, ids: number[]): Promise<void> {
  const created = await findMessages(ctx.db, companyId, ids);
  const owners = await findTickets(ctx.db, companyId, [...new Set(created.map((m) => m.ticketId))]);
  for (const ticket of owners) {
    for (const message of created)
      if (message.ticketId === ticket.id)
        ctx.realtime.toTicket(ticket, 'appMessage', { action: 'create', message, ticket });
    ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
  }
}
