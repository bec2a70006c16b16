/**
 * A message as the pipeline's statements take it (one row of parameters) and the event payloads
 * they answer (one row back), with the steady state's single-message append built on them.
 */
import type { Message, NormalizedMessage, Ticket } from '@zapdesk/shared';
import type { InboundRecords } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { messages, tickets } from '../../db/schema/index.js';
import { numberVariants } from '../../lib/phone-number.js';
import { type BatchRow, decodeColumns, PAYLOAD_MESSAGE_KEYS, PAYLOAD_TICKET_KEYS } from '../inbound-batch.js';
import { runAppend } from './append-statement.js';
import { previewOf } from './message-shape.js';
import type { ConnectionRef, InboundParts, StoredMedia } from './types.js';

/**
 * APPEND_SQL: when the contact exists and has a live ticket on the connection (one the chatbot
 * has nothing to say on, with `botCheck`), lock the contact, then the ticket (the order the
 * transaction path locks them in), insert the message, update the ticket (and the contact's name,
 * with `rename`) and answer the event payloads. Undefined when there is no such ticket (nothing
 * was written then); 'duplicate' when the provider id is already stored. Outside a transaction
 * it is the steady state's only statement.
 */
export async function appendToLiveTicket(
  p: InboundParts,
  db: Tx,
  connection: ConnectionRef,
  message: NormalizedMessage,
  media: StoredMedia,
  options: { botCheck: boolean; rename: boolean; number?: string },
): Promise<{ message: Message; ticket: Ticket } | 'duplicate' | undefined> {
  const params = batchRow(connection, message, media, options.botCheck, options);
  const [row] = await runAppend(db, p.ctx.database.kind, params);
  if (!row) return undefined;
  if (row.m_id === null || row.m_id === undefined) return 'duplicate';
  return payloadFromRow(p.records, row, message, params.rename);
}

/**
 * The statement parameters of one message (APPEND_SQL's, one row of the batch statement's):
 * `number` forces the contact's stored number; `rename` defaults to a customer's message with a
 * sender name.
 * @throws RangeError when the message's timestamp is not a valid date.
 */
export function batchRow(
  connection: ConnectionRef,
  message: NormalizedMessage,
  media: StoredMedia,
  botCheck: boolean,
  options: { rename?: boolean; number?: string } = {},
): BatchRow {
  const variants = options.number
    ? [options.number]
    : message.isGroup
      ? [message.chatId]
      : numberVariants(message.chatId);
  return {
    companyId: connection.companyId,
    whatsappId: connection.id,
    number: variants[0]!,
    otherNumber: variants[1] ?? variants[0]!,
    botCheck,
    providerId: message.providerId,
    ...storedFields(message, media),
    quotedProviderId: message.quotedProviderId ?? null,
    participant: message.isGroup ? message.senderNumber : null,
    error: media.error,
    at: new Date(Math.min(message.timestamp, Date.now())).toISOString(),
    preview: previewOf({ ...message, fileName: media.fileName ?? undefined }),
    unread: message.fromMe ? 0 : 1,
    rename: options.rename ?? (!message.fromMe && !message.isGroup && !!message.senderName),
    name: message.senderName ?? '',
  };
}

/** The event payloads of a row of APPEND_SQL or of the batch statement that stored a message. */
export function payloadFromRow(
  records: InboundRecords,
  row: Record<string, unknown>,
  message: NormalizedMessage,
  rename: boolean,
): { message: Message; ticket: Ticket } {
  const contact = {
    id: Number(row.k_id),
    name: rename ? message.senderName! : (row.k_name as string),
    number: row.k_number as string,
    email: row.k_email as string,
    profilePicUrl: (row.k_profile_pic_url as string | null) ?? null,
    isGroup: row.k_is_group as boolean,
  };
  const quotedId = row.q_id as number | string | null;
  const full = records.toMessage({
    message: decodeColumns(messages, row, 'm_', PAYLOAD_MESSAGE_KEYS),
    contactName: contact.name,
    quoted:
      quotedId === null
        ? null
        : {
            id: Number(quotedId),
            body: row.q_body as string,
            fromMe: row.q_from_me as boolean,
            mediaType: row.q_media_type as string,
            mediaUrl: (row.q_media_url as string | null) ?? null,
          },
    // The quoted message's contact may be the one this statement renamed.
    quotedContactName:
      row.q_contact_id !== null && Number(row.q_contact_id) === contact.id
        ? contact.name
        : ((row.q_contact_name as string | null) ?? null),
  });
  const ticket = records.toTicket({
    ticket: decodeColumns(tickets, row, 't_', PAYLOAD_TICKET_KEYS),
    contact,
    userName: (row.user_name as string | null) ?? null,
    queueName: (row.queue_name as string | null) ?? null,
    queueColor: (row.queue_color as string | null) ?? null,
    whatsappName: (row.whatsapp_name as string | null) ?? null,
    tags: row.tags as Ticket['tags'],
  });
  return { message: full, ticket };
}

/** What a message stores as received: its body, direction and media, and its first ack. */
export function storedFields(message: NormalizedMessage, media: StoredMedia) {
  return {
    body: message.body,
    fromMe: message.fromMe,
    mediaType: message.mediaType,
    mediaUrl: media.name,
    mediaName: media.fileName,
    ack: message.fromMe ? 1 : 0,
  };
}
