/**
 * Outbound mapping for the Baileys driver: chat ids to JIDs and Zapdesk's `OutboundContent` to
 * Baileys message content.
 *
 * Group chats are signalled by the chat id itself, as `normalizeMessage` produces it: an id of the
 * form 'digits-digits' (old-style 'creator-timestamp' group ids) or with more than 15 digits
 * (E.164 numbers have at most 15; current group ids have 18) is a group and goes to `${id}@g.us`;
 * anything else is a number and goes to `${digits}@s.whatsapp.net`. A chat id that already is a JID (contains '@') is used
 * as given, so a caller can address an `@lid` chat explicitly.
 */
import type { AnyMessageContent, WAMessage } from '@whiskeysockets/baileys';
import type { OutboundContent } from '@zapdesk/shared';

const MAX_PHONE_DIGITS = 15;
/** Old-style group id: the creator's number, '-', the creation time in epoch seconds. */
const OLD_GROUP_ID = /^\d{5,}-\d{9,}$/;

/** Whether a chat id names a group (see the module comment). */
export function isGroupChatId(chatId: string): boolean {
  if (chatId.includes('@')) return chatId.endsWith('@g.us');
  return OLD_GROUP_ID.test(chatId) || chatId.replace(/\D/g, '').length > MAX_PHONE_DIGITS;
}

/**
 * The JID of a chat id: '5511999990001' -> '5511999990001@s.whatsapp.net',
 * '120363025246125486' -> '120363025246125486@g.us'.
 * @throws Error when the chat id has no digits.
 */
export function chatJid(chatId: string): string {
  const id = chatId.trim();
  if (id.includes('@')) return id;
  if (isGroupChatId(id)) return `${id.replace(/[^\d-]/g, '')}@g.us`;
  const digits = id.replace(/\D/g, '');
  if (!digits) throw new Error(`invalid chat id '${chatId}'`);
  return `${digits}@s.whatsapp.net`;
}

/** Escapes a vCard 3.0 text value (backslash, comma, semicolon, newline). */
function vcardText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/;/g, '\\;').replace(/\r?\n/g, '\\n');
}

/**
 * A vCard 3.0 for a WhatsApp contact card: name and the number as a cell phone with the `waid`
 * parameter WhatsApp uses to link the card to the account ('5511999990001' -> '+5511999990001').
 */
export function buildVcard(name: string, number: string): string {
  const digits = number.replace(/\D/g, '');
  const escaped = vcardText(name);
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:;${escaped};;;`,
    `FN:${escaped}`,
    `TEL;type=CELL;type=VOICE;waid=${digits}:+${digits}`,
    'END:VCARD',
  ].join('\n');
}

/** Baileys content for outbound content: text, media (with caption, file name, voice note), location, contact. */
export function toBaileysContent(content: OutboundContent): AnyMessageContent {
  switch (content.kind) {
    case 'text':
      return { text: content.body };
    case 'media': {
      const { data, mimetype, caption, fileName } = content;
      switch (content.mediaType) {
        case 'image':
          return { image: data, mimetype, ...(caption ? { caption } : {}) };
        case 'video':
          return { video: data, mimetype, ...(caption ? { caption } : {}) };
        case 'audio':
          return { audio: data, mimetype, ptt: !!content.ptt };
        case 'document':
          return { document: data, mimetype, fileName, ...(caption ? { caption } : {}) };
      }
      throw new Error('unsupported media type');
    }
    case 'location':
      return {
        location: {
          degreesLatitude: content.latitude,
          degreesLongitude: content.longitude,
          ...(content.description ? { name: content.description } : {}),
        },
      };
    case 'contact':
      return {
        contacts: {
          displayName: content.name,
          contacts: [{ displayName: content.name, vcard: buildVcard(content.name, content.number) }],
        },
      };
  }
}

/**
 * A minimal WAMessage to quote: the key is what WhatsApp links the reply to; the quoted content
 * itself is not known here, so it is an empty text.
 */
export function quotedStub(jid: string, providerId: string, fromMe: boolean): WAMessage {
  return { key: { remoteJid: jid, id: providerId, fromMe }, message: { conversation: '' } };
}
