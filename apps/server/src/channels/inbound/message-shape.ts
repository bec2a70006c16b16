/**
 * What the inbound pipeline reads off a received message: its chat key, the name its contact gets,
 * its ticket-list preview, and its names without bidi controls.
 */
import { type NormalizedMessage, withoutBidiControls } from '@zapdesk/shared';
import { canonicalNumber } from '../../lib/phone-number.js';
import type { ConnectionRef } from './types.js';

/** The ticket list's preview of a message body. */
export function previewOf(
  message: Pick<NormalizedMessage, 'body' | 'mediaType'> & { fileName?: string },
): string {
  if (message.mediaType === 'locationMessage') return message.body.split('|')[2] || '📍';
  if (message.mediaType === 'vcard' || message.mediaType === 'contactMessage') return '👤';
  if (message.body) return message.body.slice(0, 255);
  return message.fileName ?? message.mediaType;
}

/** The chat a message belongs to on its connection (one key for both forms of a Brazilian mobile). */
export function chatKey(connection: ConnectionRef, message: NormalizedMessage): string {
  return `${connection.id}:${message.isGroup ? message.chatId : canonicalNumber(message.chatId)}`;
}

/**
 * `message` with bidi embedding, override and isolate controls removed from the names it carries
 * (the sender's push name and the media file name), which are stored and shown as they are.
 */
export function withoutBidiInNames(message: NormalizedMessage): NormalizedMessage {
  const senderName = message.senderName && withoutBidiControls(message.senderName);
  const fileName = message.media?.fileName && withoutBidiControls(message.media.fileName);
  if (senderName === message.senderName && fileName === message.media?.fileName) return message;
  return {
    ...message,
    senderName,
    media: message.media && { ...message.media, fileName: fileName || undefined },
  };
}

/** The name a contact gets from the message that creates it: the sender's, else the chat's id. */
export function contactNameOf(message: NormalizedMessage): string {
  return message.isGroup || message.fromMe ? message.chatId : message.senderName || message.chatId;
}
