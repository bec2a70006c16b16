/**
 * The events of a stored inbound message, emitted after its commit: `contact` create to the company
 * when the message created the contact, then `appMessage` create and `ticket` update to the rooms
 * allowed to see the ticket.
 */
import type { Message, Ticket } from '@zapdesk/shared';
import type { AppContext } from '../../context.js';
import type { ConnectionRef, InboundParts, IngestResult, Written } from './types.js';

/**
 * After the commit of the transaction path: the payloads (read back if needed) and the events.
 * Undefined when the message or its ticket can no longer be read.
 */
export async function finish(
  p: InboundParts,
  connection: ConnectionRef,
  result: Written,
): Promise<IngestResult | undefined> {
  const { ctx, records } = p;
  const [full, ticket] = result.payload
    ? [result.payload.message, result.payload.ticket]
    : await Promise.all([
        records.findMessage(ctx.db, connection.companyId, result.messageId),
        records.findTicket(ctx.db, connection.companyId, result.ticketId),
      ]);
  if (!full || !ticket) return undefined;
  if (result.newContact) {
    ctx.realtime.toCompany(connection.companyId, 'contact', {
      action: 'create',
      contact: records.toContact(result.newContact, [], ticket.whatsapp),
    });
  }
  emitCreated(ctx, full, ticket);
  return { message: full, ticket, ticketCreated: result.ticketCreated };
}

/** Emits `appMessage` create and `ticket` update to the rooms allowed to see the ticket. */
export function emitCreated(ctx: AppContext, message: Message, ticket: Ticket): void {
  ctx.realtime.toTicket(ticket, 'appMessage', {
    action: 'create',
    message,
    ticket,
    contact: ticket.contact,
  });
  ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
}
