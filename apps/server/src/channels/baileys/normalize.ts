/**
 * Pure mapping from Baileys messages to Zapdesk's `NormalizedMessage` (core spec
 * section 3 media types), plus the mapping of message updates (acks, edits,
 * deletions). Nothing here talks to the network: media bytes load lazily through an injected
 * downloader.
 *
 * Choices:
 * - documents: mediaType 'application' when the mimetype is `application/*` (the spec's value),
 *   'document' for any other file type (text/csv, an image sent as a file...);
 * - contacts: a contactMessage and a contactsArrayMessage both become 'vcard'; for an array the body
 *   is every vCard joined with '\n' (BEGIN/END delimit them, so the body is a valid multi-vCard file);
 * - locations: body 'image|link|description' where image is the JPEG thumbnail as a data URL (or
 *   empty), link a Google Maps URL and description the name and address (or caption, or the
 *   coordinates); '|' inside the description becomes '/';
 * - calls: callLogMesssage and missed-call stubs become 'call_log' with a short English body
 *   ('missed voice call', 'video call, 42 s') for the client to show or translate;
 * - reactions: mediaType 'reaction', body the emoji ('' when the reaction was removed);
 * - numbers: digits only; for `@lid` addressing the phone-number JID Baileys 7 gives
 *   (`remoteJidAlt`, `participantAlt`) wins, then the optional `lidToPn` lookup, and only as a last
 *   resort the LID's own digits (stable per contact, but not a phone number);
 * - ignored (null): protocol messages (edits and revokes arrive as updates), status broadcasts,
 *   newsletters, broadcast lists, stubs other than missed calls, and content types not mapped here.
 */

import {
  downloadMediaMessage,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidDecode,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import type { MediaType, NormalizedMedia, NormalizedMessage } from '@zapdesk/shared';

/** Loads the bytes of a media message (Baileys' `downloadMediaMessage` by default). */
export type MediaDownloader = (message: WAMessage) => Promise<Buffer>;

export interface NormalizeOptions {
  /** Downloads media lazily; defaults to `downloadMediaMessage(message, 'buffer', {})`. */
  download?: MediaDownloader;
  /** This connection's own number (digits), used as senderNumber of fromMe messages. */
  selfNumber?: string;
  /** Resolves a `@lid` JID to a phone-number JID when the message carries none. */
  lidToPn?: (lidJid: string) => string | undefined;
}

/** What a messages.update entry means for the pipeline. */
export type MessageChange =
  | { kind: 'ack'; providerId: string; ack: number }
  | { kind: 'edit'; providerId: string; body: string }
  | { kind: 'delete'; providerId: string };

const Status = proto.WebMessageInfo.Status;
const StubType = proto.WebMessageInfo.StubType;
const ProtocolType = proto.Message.ProtocolMessage.Type;

const defaultDownload: MediaDownloader = (message) => downloadMediaMessage(message, 'buffer', {});

/**
 * The user part of a JID without device (`:12`) or agent suffixes, e.g. '5511999990001' for
 * '5511999990001:12@s.whatsapp.net'; group ids keep their '-' ('5511999-1600000000'). '' when empty.
 */
export function jidUser(jid: string | null | undefined): string {
  if (!jid) return '';
  return jidDecode(jid)?.user ?? jid.split('@')[0]!.split(':')[0]!;
}

/** Digits of a user JID ('5511999990001@s.whatsapp.net' -> '5511999990001'); '' when empty. */
export function jidToNumber(jid: string | null | undefined): string {
  return jidUser(jid).replace(/\D/g, '');
}

/** The best phone number for a user JID and its alternative (see the module comment on `@lid`). */
function resolveNumber(
  jid: string | null | undefined,
  alt: string | null | undefined,
  lidToPn: NormalizeOptions['lidToPn'],
): string {
  if (jid && isPnUser(jid)) return jidToNumber(jid);
  if (alt && isPnUser(alt)) return jidToNumber(alt);
  const lid = [jid, alt].find((value) => value && isLidUser(value));
  const pn = lid ? lidToPn?.(lid) : undefined;
  if (pn) return jidToNumber(pn);
  return jidToNumber(jid || alt);
}

/**
 * Baileys delivery status to Zapdesk ack: SERVER_ACK 1, DELIVERY_ACK 2, READ 3, PLAYED 4; null for
 * ERROR, PENDING and unknown values (acks only move forward; failures are the sender's business).
 */
export function ackFromStatus(status: number | null | undefined): number | null {
  switch (status) {
    case Status.SERVER_ACK:
      return 1;
    case Status.DELIVERY_ACK:
      return 2;
    case Status.READ:
      return 3;
    case Status.PLAYED:
      return 4;
    default:
      return null;
  }
}

/** Google Maps link for coordinates (decimal degrees). */
export function mapsLink(latitude: number, longitude: number): string {
  return `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17`;
}

function locationBody(
  location: proto.Message.ILocationMessage & proto.Message.ILiveLocationMessage,
  label: string,
): string {
  const lat = location.degreesLatitude ?? 0;
  const lng = location.degreesLongitude ?? 0;
  const image = location.jpegThumbnail?.length
    ? `data:image/jpeg;base64,${Buffer.from(location.jpegThumbnail).toString('base64')}`
    : '';
  const description = (label || `${lat}, ${lng}`).replace(/\|/g, '/');
  return `${image}|${mapsLink(lat, lng)}|${description}`;
}

/** The text of content (text, caption, selected option); '' when none. */
export function textOf(content: proto.IMessage | null | undefined): string {
  const inner = normalizeMessageContent(content);
  if (!inner) return '';
  return (
    inner.conversation ||
    inner.extendedTextMessage?.text ||
    inner.imageMessage?.caption ||
    inner.videoMessage?.caption ||
    inner.documentMessage?.caption ||
    inner.buttonsResponseMessage?.selectedDisplayText ||
    inner.listResponseMessage?.title ||
    inner.templateButtonReplyMessage?.selectedDisplayText ||
    ''
  );
}

interface MappedContent {
  mediaType: MediaType;
  body: string;
  media?: { mimetype: string; fileName?: string; size?: number };
  contextInfo?: proto.IContextInfo | null;
  reactionTo?: string;
}

/** A protobuf integer (number or Long) as a number; undefined when absent. */
function size(length: Parameters<typeof toNumber>[0]): number | undefined {
  return length === null || length === undefined ? undefined : toNumber(length);
}

/** 'missed voice call', 'rejected video call', 'voice call, 42 s'... */
function callBody(isVideo: boolean, outcome: string, seconds: number): string {
  const kind = isVideo ? 'video call' : 'voice call';
  if (outcome.startsWith('silenced')) return `missed ${kind}`;
  if (outcome === 'missed' || outcome === 'rejected' || outcome === 'failed') return `${outcome} ${kind}`;
  return seconds > 0 ? `${kind}, ${seconds} s` : kind;
}

/** Maps unwrapped content to a media type and body; null for content types not mapped. */
function mapContent(c: proto.IMessage): MappedContent | null {
  if (c.conversation) return { mediaType: 'chat', body: c.conversation };
  if (c.extendedTextMessage) {
    const m = c.extendedTextMessage;
    return { mediaType: 'chat', body: m.text ?? '', contextInfo: m.contextInfo };
  }
  if (c.imageMessage) {
    const m = c.imageMessage;
    const media = { mimetype: m.mimetype || 'image/jpeg', size: size(m.fileLength) };
    return { mediaType: 'image', body: m.caption ?? '', media, contextInfo: m.contextInfo };
  }
  if (c.videoMessage) {
    const m = c.videoMessage;
    const media = { mimetype: m.mimetype || 'video/mp4', size: size(m.fileLength) };
    return { mediaType: 'video', body: m.caption ?? '', media, contextInfo: m.contextInfo };
  }
  if (c.audioMessage) {
    const m = c.audioMessage;
    const media = { mimetype: m.mimetype || 'audio/ogg; codecs=opus', size: size(m.fileLength) };
    return { mediaType: 'audio', body: '', media, contextInfo: m.contextInfo };
  }
  if (c.documentMessage) {
    const m = c.documentMessage;
    const mimetype = m.mimetype || 'application/octet-stream';
    const fileName = m.fileName || m.title || undefined;
    return {
      mediaType: mimetype.startsWith('application/') ? 'application' : 'document',
      body: m.caption || fileName || '',
      media: { mimetype, fileName, size: size(m.fileLength) },
      contextInfo: m.contextInfo,
    };
  }
  if (c.stickerMessage) {
    const m = c.stickerMessage;
    const media = { mimetype: m.mimetype || 'image/webp', size: size(m.fileLength) };
    return { mediaType: 'sticker', body: '', media, contextInfo: m.contextInfo };
  }
  if (c.locationMessage) {
    const m = c.locationMessage;
    const label = [m.name, m.address].filter(Boolean).join(', ') || m.comment || '';
    return { mediaType: 'locationMessage', body: locationBody(m, label), contextInfo: m.contextInfo };
  }
  if (c.liveLocationMessage) {
    const m = c.liveLocationMessage;
    return {
      mediaType: 'locationMessage',
      body: locationBody(m, m.caption ?? ''),
      contextInfo: m.contextInfo,
    };
  }
  if (c.contactMessage) {
    const m = c.contactMessage;
    return { mediaType: 'vcard', body: m.vcard ?? '', contextInfo: m.contextInfo };
  }
  if (c.contactsArrayMessage) {
    const m = c.contactsArrayMessage;
    const cards = (m.contacts ?? []).map((contact) => contact.vcard ?? '').filter(Boolean);
    return { mediaType: 'vcard', body: cards.join('\n'), contextInfo: m.contextInfo };
  }
  if (c.reactionMessage) {
    const m = c.reactionMessage;
    return { mediaType: 'reaction', body: m.text ?? '', reactionTo: m.key?.id ?? undefined };
  }
  if (c.callLogMesssage) {
    const m = c.callLogMesssage;
    const outcome = proto.Message.CallLogMessage.CallOutcome[m.callOutcome ?? 0] ?? 'CONNECTED';
    const seconds = size(m.durationSecs) ?? 0;
    return { mediaType: 'call_log', body: callBody(!!m.isVideo, outcome.toLowerCase(), seconds) };
  }
  if (c.buttonsResponseMessage || c.listResponseMessage || c.templateButtonReplyMessage) {
    const contextInfo =
      c.buttonsResponseMessage?.contextInfo ??
      c.listResponseMessage?.contextInfo ??
      c.templateButtonReplyMessage?.contextInfo;
    return { mediaType: 'chat', body: textOf(c), contextInfo };
  }
  return null;
}

const MISSED_CALL_STUBS = new Map<number, boolean>([
  [StubType.CALL_MISSED_VOICE, false],
  [StubType.CALL_MISSED_VIDEO, true],
  [StubType.CALL_MISSED_GROUP_VOICE, false],
  [StubType.CALL_MISSED_GROUP_VIDEO, true],
]);

/**
 * Maps a Baileys message (`messages.upsert`) to a NormalizedMessage; null for messages to ignore
 * (see the module comment). Timestamps are epoch ms (now when the message has none). Media is
 * described (mimetype, fileName, size in bytes) and downloaded only when `media.download()` is
 * called; that call rejects when the media is gone.
 */
export function normalizeMessage(msg: WAMessage, options: NormalizeOptions = {}): NormalizedMessage | null {
  const { key } = msg;
  const remoteJid = key.remoteJid;
  if (!remoteJid || !key.id) return null;
  if (isJidBroadcast(remoteJid) || isJidNewsletter(remoteJid)) return null;
  if (msg.message?.editedMessage || msg.message?.protocolMessage) return null;

  let mapped: MappedContent | null;
  const content = normalizeMessageContent(msg.message);
  if (content) {
    if (content.protocolMessage) return null;
    mapped = mapContent(content);
  } else {
    const isVideo = msg.messageStubType == null ? undefined : MISSED_CALL_STUBS.get(msg.messageStubType);
    mapped = isVideo === undefined ? null : { mediaType: 'call_log', body: callBody(isVideo, 'missed', 0) };
  }
  if (!mapped) return null;

  const isGroup = !!isJidGroup(remoteJid);
  const fromMe = !!key.fromMe;
  const chatId = isGroup ? jidUser(remoteJid) : resolveNumber(remoteJid, key.remoteJidAlt, options.lidToPn);
  let senderNumber: string;
  if (fromMe) senderNumber = options.selfNumber ?? '';
  else if (isGroup)
    senderNumber = resolveNumber(key.participant ?? msg.participant, key.participantAlt, options.lidToPn);
  else senderNumber = chatId;
  if (!chatId) return null;

  const seconds = msg.messageTimestamp == null ? 0 : toNumber(msg.messageTimestamp);
  const normalized: NormalizedMessage = {
    providerId: key.id,
    chatId,
    isGroup,
    fromMe,
    senderNumber,
    body: mapped.body,
    mediaType: mapped.mediaType,
    timestamp: seconds > 0 ? seconds * 1000 : Date.now(),
  };
  if (msg.pushName) normalized.senderName = msg.pushName;
  if (mapped.media) {
    const download = options.download ?? defaultDownload;
    const media: NormalizedMedia = { mimetype: mapped.media.mimetype, download: () => download(msg) };
    if (mapped.media.fileName) media.fileName = mapped.media.fileName;
    if (mapped.media.size !== undefined) media.size = mapped.media.size;
    normalized.media = media;
  }
  const quoted = mapped.contextInfo?.stanzaId;
  if (quoted) normalized.quotedProviderId = quoted;
  if (mapped.reactionTo) normalized.reactionToProviderId = mapped.reactionTo;
  return normalized;
}

/**
 * The edit or deletion carried by an upserted protocol message (type MESSAGE_EDIT or REVOKE), with
 * the provider id of the message it targets; null for anything else.
 */
export function changeFromProtocolMessage(content: proto.IMessage | null | undefined): MessageChange | null {
  const protocol = normalizeMessageContent(content)?.protocolMessage;
  const target = protocol?.key?.id;
  if (!protocol || !target) return null;
  if (protocol.type === ProtocolType.REVOKE) return { kind: 'delete', providerId: target };
  if (protocol.type === ProtocolType.MESSAGE_EDIT) {
    return { kind: 'edit', providerId: target, body: textOf(protocol.editedMessage) };
  }
  return null;
}

/**
 * Maps one `messages.update` entry (the key is the target message's) to changes: an ack for a
 * status change of a message sent by this connection (`key.fromMe`), an edit when the update
 * carries `editedMessage` (Baileys' form for MESSAGE_EDIT) or a protocol message, a delete when
 * it is a REVOKE stub. Answers [] when nothing applies.
 */
export function changesFromUpdate(entry: WAMessageUpdate): MessageChange[] {
  const providerId = entry.key.id;
  if (!providerId) return [];
  const { update } = entry;
  const changes: MessageChange[] = [];
  const ack = entry.key.fromMe ? ackFromStatus(update.status) : null;
  if (ack !== null) changes.push({ kind: 'ack', providerId, ack });
  if (update.messageStubType === StubType.REVOKE) {
    changes.push({ kind: 'delete', providerId });
  } else if (update.message?.editedMessage) {
    const inner = update.message.editedMessage.message;
    const fromProtocol = changeFromProtocolMessage(inner);
    changes.push(fromProtocol ?? { kind: 'edit', providerId, body: textOf(inner) });
  } else if (update.message?.protocolMessage) {
    const change = changeFromProtocolMessage(update.message);
    if (change) changes.push(change);
  }
  return changes;
}
