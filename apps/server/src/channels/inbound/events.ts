/**
 * The events of a stored inbound message, emitted after its commit: `contact` create to the company
 * when the message created the contact, then `appMessage` create and `ticket` update to the rooms
 * allowed to see the ticket.
 */
import type { Message, Ticket } from '@zapdesk/shared';
import type { AppContext } from '../../context.js';
import { toContact } from '../../modules/contacts/contacts-service.js';
import { findMessage } from '../../modules/messages/message-repository.js';
import { findTicket } from '../../modules/tickets/ticket-repository.js';
import type { ConnectionRef, IngestResult, Written } from './types.js';

/**
 * After the commit of the transaction path: the payloads (read back if needed) and the events.
 * Undefined when the message or its ticket can no longer be read.
 */
export async function finish(
  ctx: AppContext,
  connection: ConnectionRef,
  result: Written,
): Promise<IngestResult | undefined> {
  const [full, ticket] = result.payload
    ? [result.payload.message, result.payload.ticket]
    : await Promise.all([
        findMessage(ctx.db, connection.companyId, result.messageId),
        findTicket(ctx.db, connection.companyId, result.ticketId),
      ]);
  if (!full || !ticket) return undefined;
  if (result.newContact) {
    ctx.realtime.toCompany(connection.companyId, 'contact', {
      action: 'create',
      contact: toContact(result.newContact, [], ticket.whatsapp),
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
