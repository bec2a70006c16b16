/**
 * The one message shape every channel driver produces for the inbound pipeline.
 * Numbers are digits only (country code first, no '+'); group chats are
 * identified by their group id.
 */
import type { MediaType } from './schemas/messages.js';

/** Media attached to a normalised message. `download` fetches the bytes lazily (drivers may stream). */
export interface NormalizedMedia {
  mimetype: string;
  fileName?: string;
  /** Bytes, when known. */
  size?: number;
  /** Loads the content; throws when the media is gone (ERR_WAPP_DOWNLOAD_MEDIA). */
  download: () => Promise<Buffer>;
}

export interface NormalizedMessage {
  /** Provider message id (WhatsApp key id); unique per connection. */
  providerId: string;
  /** The chat: the contact's number, or the group id for group chats. */
  chatId: string;
  isGroup: boolean;
  /** Sent by this connection (from another device of the same number, or echoed). */
  fromMe: boolean;
  /** Sender number (digits); in groups the participant. */
  senderNumber: string;
  /** Push name of the sender as WhatsApp reports it. */
  senderName?: string;
  /** Text, caption, 'image|link|description' for locations, vCard text for contacts. */
  body: string;
  mediaType: MediaType;
  media?: NormalizedMedia;
  /** Provider id of the quoted message, when this is a reply. */
  quotedProviderId?: string;
  /** For mediaType 'reaction': the provider id of the message reacted to; body is the emoji. */
  reactionToProviderId?: string;
  /** Sent time, epoch milliseconds. */
  timestamp: number;
}

/** Outbound content a driver can send. */
export type OutboundContent =
  | { kind: 'text'; body: string }
  | {
      kind: 'media';
      mediaType: 'image' | 'audio' | 'video' | 'document';
      data: Buffer;
      mimetype: string;
      fileName: string;
      caption?: string;
      /** Voice note (push-to-talk) for audio. */
      ptt?: boolean;
    }
  | { kind: 'location'; latitude: number; longitude: number; description?: string }
  | { kind: 'contact'; name: string; number: string };

/** What a driver answers after sending: the provider id and the first ack. */
export interface SentMessage {
  providerId: string;
  ack: number;
  timestamp: number;
}
