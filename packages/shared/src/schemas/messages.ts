import { z } from 'zod';
import { pageOf, timestampFields } from './answers.js';
import { looseBoolean } from './classic.js';
import { ZId } from './common.js';
import { ZTicketNote } from './tickets.js';

/**
 * Message media types (core section 3). 'chat' is plain text; 'application' and 'document' are files;
 * a 'locationMessage' body is 'image|link|description'; 'vcard' and 'contactMessage' carry vCard text.
 */
export const MEDIA_TYPES = [
  'chat',
  'image',
  'audio',
  'video',
  'application',
  'document',
  'sticker',
  'locationMessage',
  'vcard',
  'contactMessage',
  'call_log',
  'reaction',
] as const;
export const ZMediaType = z.enum(MEDIA_TYPES);
export type MediaType = z.infer<typeof ZMediaType>;

/**
 * Delivery state: 0 pending (stored, not yet accepted by the provider), 1 sent to the server,
 * 2 delivered to the phone, 3 read, 4 played/read (blue), 5 played; -1 failed (ERR_SENDING_WAPP_MSG).
 * Acks only move forward.
 */
export const ZAck = z.number().int().min(-1).max(5);

/** A quoted message as the list shows it. */
export const ZQuotedMessage = z.object({
  id: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: ZMediaType,
  mediaUrl: z.string().nullable(),
  contact: z.object({ name: z.string() }).nullable(),
});

/** A stored message as the API answers and socket events carry it (core section 3). */
export const ZMessage = z.object({
  id: z.number(),
  ticketId: z.number(),
  contactId: z.number().nullable(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: ZMediaType,
  /** Path under /api/public/ to fetch with the bearer token, or null. */
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  ack: ZAck,
  read: z.boolean(),
  /** Provider message id (WhatsApp key id). */
  wid: z.string().nullable(),
  quotedMsgId: z.number().nullable(),
  quotedMsg: ZQuotedMessage.nullable(),
  /** For reactions: the message reacted to. */
  reactionToId: z.number().nullable(),
  contact: z.object({ name: z.string() }).nullable(),
  /** Agent who sent it (fromMe messages sent from the app). */
  userId: z.number().nullable(),
  /** Set when sending failed; the message can be retried. */
  error: z.string().nullable(),
  ...timestampFields,
});
export type Message = z.infer<typeof ZMessage>;

/**
 * GET /messages/:ticketId: one page of the contact's history, with the ticket and the ticket's
 * notes from the page's oldest message on (every note on the last page), shown inline at their time.
 */
export const ZMessagesPage = pageOf('messages', ZMessage).extend({
  count: z.number(),
  ticket: z.unknown(),
  notes: z.array(ZTicketNote),
});

/** What a contact is doing in the conversation (WhatsApp presence); `paused`: it stopped. */
export const ZPresenceState = z.enum(['composing', 'recording', 'paused']);
export type PresenceState = z.infer<typeof ZPresenceState>;

/** POST /messages/:ticketId/presence: the agent's typing (or recording) sent to the customer. */
export const ZAgentPresenceBody = z.object({ presence: ZPresenceState });

/** POST /messages/:ticketId JSON body (core section 7). */
export const ZSendMessageBody = z.object({
  body: z.string().max(65_536).optional().default(''),
  /** true, or 1 as the classic client sends it. */
  fromMe: looseBoolean.optional(),
  /** true, or 1 as the classic client sends it. */
  read: looseBoolean.optional(),
  /** Prefix the body with '*Agent name:*' (the composer's sign switch). */
  signMessage: z.boolean().optional(),
  mediaUrl: z.string().max(2000).optional(),
  /** The message replied to: its id (or the whole message object, as the spec's client sends). */
  quotedMsg: z
    .union([z.object({ id: ZId }).passthrough(), ZId])
    .nullable()
    .optional(),
});
export type SendMessageBody = z.input<typeof ZSendMessageBody>;
