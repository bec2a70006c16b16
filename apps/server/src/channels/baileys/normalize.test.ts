import { proto, type WAMessage, type WAMessageKey, type WAMessageUpdate } from '@whiskeysockets/baileys';
import { describe, expect, it, vi } from 'vitest';
import {
  ackFromStatus,
  changeFromProtocolMessage,
  changesFromUpdate,
  jidToNumber,
  jidUser,
  normalizeMessage,
} from './normalize.js';

const PHONE = '5511999990001';
const JID = `${PHONE}@s.whatsapp.net`;
const GROUP = '120363025246125486@g.us';
const TS = 1_700_000_000;

/** A WAMessage built with Baileys' own proto types; alt JIDs are not proto fields, so they are set after. */
function wa(
  message: proto.IMessage | null,
  key: Partial<WAMessageKey> = {},
  extra: Record<string, unknown> = {},
): WAMessage {
  const { remoteJidAlt, participantAlt, ...protoKey } = key;
  const msg = proto.WebMessageInfo.fromObject({
    key: { remoteJid: JID, id: 'MSG1', fromMe: false, ...protoKey },
    messageTimestamp: TS,
    pushName: 'Maria',
    ...(message ? { message: proto.Message.create(message) } : {}),
    ...extra,
  }) as WAMessage;
  if (remoteJidAlt) msg.key.remoteJidAlt = remoteJidAlt;
  if (participantAlt) msg.key.participantAlt = participantAlt;
  return msg;
}

const quoteInfo = { stanzaId: 'QUOTED1', participant: JID, quotedMessage: { conversation: 'earlier' } };

describe('jid helpers', () => {
  it('strip servers and device suffixes', () => {
    expect(jidToNumber('5511999990001:12@s.whatsapp.net')).toBe(PHONE);
    expect(jidToNumber(JID)).toBe(PHONE);
    expect(jidToNumber(undefined)).toBe('');
    expect(jidUser('5511999-1600000000@g.us')).toBe('5511999-1600000000');
  });
});

describe('normalizeMessage: content types', () => {
  it('maps a conversation to chat with sender, time in ms and push name', () => {
    expect(normalizeMessage(wa({ conversation: 'Olá' }))).toEqual({
      providerId: 'MSG1',
      chatId: PHONE,
      isGroup: false,
      fromMe: false,
      senderNumber: PHONE,
      senderName: 'Maria',
      body: 'Olá',
      mediaType: 'chat',
      timestamp: TS * 1000,
    });
  });

  it('maps extended text with a quoted reply', () => {
    const n = normalizeMessage(wa({ extendedTextMessage: { text: 'answer', contextInfo: quoteInfo } }));
    expect(n).toMatchObject({ mediaType: 'chat', body: 'answer', quotedProviderId: 'QUOTED1' });
  });

  it('maps an image with caption and downloads lazily through the injected downloader', async () => {
    const download = vi.fn(async () => Buffer.from('jpeg-bytes'));
    const msg = wa({
      imageMessage: { caption: 'look', mimetype: 'image/jpeg', fileLength: 2048, contextInfo: quoteInfo },
    });
    const n = normalizeMessage(msg, { download });
    expect(n).toMatchObject({ mediaType: 'image', body: 'look', quotedProviderId: 'QUOTED1' });
    expect(n?.media).toMatchObject({ mimetype: 'image/jpeg', size: 2048 });
    expect(download).not.toHaveBeenCalled();
    expect(await n?.media?.download()).toEqual(Buffer.from('jpeg-bytes'));
    expect(download).toHaveBeenCalledWith(msg);
  });

  it('propagates a failing download', async () => {
    const download = vi.fn(async () => {
      throw new Error('gone');
    });
    const n = normalizeMessage(wa({ videoMessage: { mimetype: 'video/mp4' } }), { download });
    await expect(n?.media?.download()).rejects.toThrow('gone');
  });

  it('maps video, audio and voice notes', () => {
    expect(normalizeMessage(wa({ videoMessage: { caption: 'clip', mimetype: 'video/mp4' } }))).toMatchObject({
      mediaType: 'video',
      body: 'clip',
      media: { mimetype: 'video/mp4' },
    });
    expect(normalizeMessage(wa({ audioMessage: { mimetype: 'audio/mpeg', seconds: 3 } }))).toMatchObject({
      mediaType: 'audio',
      body: '',
      media: { mimetype: 'audio/mpeg' },
    });
    expect(
      normalizeMessage(wa({ audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true } })),
    ).toMatchObject({ mediaType: 'audio', media: { mimetype: 'audio/ogg; codecs=opus' } });
  });

  it('maps documents to application or document with mimetype and file name', () => {
    const pdf = normalizeMessage(
      wa({ documentMessage: { mimetype: 'application/pdf', fileName: 'invoice.pdf', fileLength: 99 } }),
    );
    expect(pdf).toMatchObject({
      mediaType: 'application',
      body: 'invoice.pdf',
      media: { mimetype: 'application/pdf', fileName: 'invoice.pdf', size: 99 },
    });
    const csv = normalizeMessage(
      wa({ documentMessage: { mimetype: 'text/csv', fileName: 'a.csv', caption: 'data' } }),
    );
    expect(csv).toMatchObject({ mediaType: 'document', body: 'data', media: { fileName: 'a.csv' } });
  });

  it('unwraps documentWithCaption, ephemeral and view-once wrappers', () => {
    const doc = normalizeMessage(
      wa({
        documentWithCaptionMessage: {
          message: { documentMessage: { mimetype: 'application/pdf', fileName: 'x.pdf', caption: 'see' } },
        },
      }),
    );
    expect(doc).toMatchObject({ mediaType: 'application', body: 'see', media: { fileName: 'x.pdf' } });
    expect(
      normalizeMessage(wa({ ephemeralMessage: { message: { conversation: 'vanishing' } } })),
    ).toMatchObject({
      mediaType: 'chat',
      body: 'vanishing',
    });
    expect(
      normalizeMessage(wa({ viewOnceMessage: { message: { imageMessage: { mimetype: 'image/png' } } } })),
    ).toMatchObject({ mediaType: 'image', media: { mimetype: 'image/png' } });
    expect(
      normalizeMessage(
        wa({ viewOnceMessageV2: { message: { videoMessage: { mimetype: 'video/mp4', caption: 'once' } } } }),
      ),
    ).toMatchObject({ mediaType: 'video', body: 'once' });
  });

  it('maps stickers', () => {
    expect(normalizeMessage(wa({ stickerMessage: { mimetype: 'image/webp' } }))).toMatchObject({
      mediaType: 'sticker',
      body: '',
      media: { mimetype: 'image/webp' },
    });
  });

  it('maps a location to image|link|description', () => {
    const thumb = Buffer.from([0xff, 0xd8, 0xff]);
    const n = normalizeMessage(
      wa({
        locationMessage: {
          degreesLatitude: -23.5505,
          degreesLongitude: -46.6333,
          name: 'Praça | Sé',
          address: 'São Paulo',
          jpegThumbnail: thumb,
        },
      }),
    );
    expect(n?.mediaType).toBe('locationMessage');
    expect(n?.body).toBe(
      `data:image/jpeg;base64,${thumb.toString('base64')}|https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17|Praça / Sé, São Paulo`,
    );
    const bare = normalizeMessage(wa({ locationMessage: { degreesLatitude: 1.5, degreesLongitude: 2 } }));
    expect(bare?.body).toBe('|https://maps.google.com/maps?q=1.5%2C2&z=17|1.5, 2');
  });

  it('maps a live location', () => {
    const n = normalizeMessage(
      wa({ liveLocationMessage: { degreesLatitude: 10, degreesLongitude: 20, caption: 'on my way' } }),
    );
    expect(n).toMatchObject({
      mediaType: 'locationMessage',
      body: '|https://maps.google.com/maps?q=10%2C20&z=17|on my way',
    });
  });

  it('maps a contact card and a contacts array (every vCard, joined)', () => {
    const card = (name: string) => `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nEND:VCARD`;
    expect(
      normalizeMessage(wa({ contactMessage: { displayName: 'Ana', vcard: card('Ana') } })),
    ).toMatchObject({
      mediaType: 'vcard',
      body: card('Ana'),
    });
    const n = normalizeMessage(
      wa({
        contactsArrayMessage: {
          displayName: '2 contacts',
          contacts: [
            { displayName: 'Ana', vcard: card('Ana') },
            { displayName: 'Bia', vcard: card('Bia') },
          ],
        },
      }),
    );
    expect(n).toMatchObject({ mediaType: 'vcard', body: `${card('Ana')}\n${card('Bia')}` });
  });

  it('maps a reaction to the reacted message', () => {
    const n = normalizeMessage(
      wa({ reactionMessage: { key: { remoteJid: JID, id: 'TARGET', fromMe: true }, text: '👍' } }),
    );
    expect(n).toMatchObject({ mediaType: 'reaction', body: '👍', reactionToProviderId: 'TARGET' });
    const removed = normalizeMessage(wa({ reactionMessage: { key: { id: 'TARGET' }, text: '' } }));
    expect(removed).toMatchObject({ mediaType: 'reaction', body: '' });
  });

  it('maps call logs and missed-call stubs to call_log', () => {
    const log = normalizeMessage(
      wa({
        callLogMesssage: {
          isVideo: true,
          callOutcome: proto.Message.CallLogMessage.CallOutcome.CONNECTED,
          durationSecs: 42,
        },
      }),
    );
    expect(log).toMatchObject({ mediaType: 'call_log', body: 'video call, 42 s' });
    const missed = normalizeMessage(
      wa({ callLogMesssage: { callOutcome: proto.Message.CallLogMessage.CallOutcome.MISSED } }),
    );
    expect(missed?.body).toBe('missed voice call');
    const stub = normalizeMessage(
      wa(null, {}, { messageStubType: proto.WebMessageInfo.StubType.CALL_MISSED_VIDEO }),
    );
    expect(stub).toMatchObject({ mediaType: 'call_log', body: 'missed video call' });
  });

  it('maps button and list answers to chat text', () => {
    expect(
      normalizeMessage(
        wa({ buttonsResponseMessage: { selectedButtonId: 'b1', selectedDisplayText: 'Yes' } }),
      ),
    ).toMatchObject({ mediaType: 'chat', body: 'Yes' });
    expect(normalizeMessage(wa({ listResponseMessage: { title: 'Option 2' } }))).toMatchObject({
      body: 'Option 2',
    });
  });
});

describe('normalizeMessage: addressing', () => {
  it('reads group messages: group id as chat, participant as sender', () => {
    const n = normalizeMessage(
      wa({ conversation: 'hi all' }, { remoteJid: GROUP, participant: `${PHONE}:7@s.whatsapp.net` }),
    );
    expect(n).toMatchObject({ isGroup: true, chatId: '120363025246125486', senderNumber: PHONE });
    const old = normalizeMessage(
      wa({ conversation: 'x' }, { remoteJid: '5511999-1600000000@g.us', participant: JID }),
    );
    expect(old?.chatId).toBe('5511999-1600000000');
  });

  it('prefers the phone-number JIDs over @lid', () => {
    const direct = normalizeMessage(
      wa(
        { conversation: 'hi' },
        { remoteJid: '123456789012345@lid', remoteJidAlt: `${PHONE}@s.whatsapp.net` },
      ),
    );
    expect(direct).toMatchObject({ chatId: PHONE, senderNumber: PHONE });
    const group = normalizeMessage(
      wa({ conversation: 'hi' }, { remoteJid: GROUP, participant: '99887766@lid', participantAlt: JID }),
    );
    expect(group?.senderNumber).toBe(PHONE);
    const looked = normalizeMessage(wa({ conversation: 'hi' }, { remoteJid: '123@lid' }), {
      lidToPn: (lid) => (lid === '123@lid' ? '5511988880000@s.whatsapp.net' : undefined),
    });
    expect(looked?.chatId).toBe('5511988880000');
    expect(normalizeMessage(wa({ conversation: 'hi' }, { remoteJid: '123:4@lid' }))?.chatId).toBe('123');
  });

  it('marks own messages and uses the own number as sender', () => {
    const n = normalizeMessage(wa({ conversation: 'from my phone' }, { fromMe: true }), {
      selfNumber: '5511900000000',
    });
    expect(n).toMatchObject({ fromMe: true, chatId: PHONE, senderNumber: '5511900000000' });
  });
});

describe('normalizeMessage: ignored messages', () => {
  it('ignores protocol, edit, status, newsletter, broadcast, stub and unknown messages', () => {
    const revoke = { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'X' } } };
    expect(normalizeMessage(wa(revoke))).toBeNull();
    expect(normalizeMessage(wa({ ephemeralMessage: { message: revoke } }))).toBeNull();
    expect(normalizeMessage(wa({ editedMessage: { message: { conversation: 'x' } } }))).toBeNull();
    expect(normalizeMessage(wa({ conversation: 'story' }, { remoteJid: 'status@broadcast' }))).toBeNull();
    expect(normalizeMessage(wa({ conversation: 'news' }, { remoteJid: '1203630@newsletter' }))).toBeNull();
    expect(
      normalizeMessage(
        wa(null, {}, { messageStubType: proto.WebMessageInfo.StubType.GROUP_PARTICIPANT_ADD }),
      ),
    ).toBeNull();
    expect(normalizeMessage(wa({ senderKeyDistributionMessage: { groupId: GROUP } }))).toBeNull();
    expect(normalizeMessage(wa({ pollCreationMessage: { name: 'poll' } }))).toBeNull();
    expect(normalizeMessage(wa({ conversation: 'x' }, { id: '' }))).toBeNull();
  });
});

describe('acks, edits and deletions', () => {
  const { Status } = proto.WebMessageInfo;
  it('maps statuses to acks', () => {
    expect(ackFromStatus(Status.SERVER_ACK)).toBe(1);
    expect(ackFromStatus(Status.DELIVERY_ACK)).toBe(2);
    expect(ackFromStatus(Status.READ)).toBe(3);
    expect(ackFromStatus(Status.PLAYED)).toBe(4);
    expect(ackFromStatus(Status.PENDING)).toBeNull();
    expect(ackFromStatus(Status.ERROR)).toBeNull();
    expect(ackFromStatus(undefined)).toBeNull();
  });

  const update = (key: Partial<WAMessageKey>, change: WAMessageUpdate['update']): WAMessageUpdate => ({
    key: { remoteJid: JID, id: 'SENT1', fromMe: true, ...key },
    update: change,
  });

  it('reports acks only for own messages', () => {
    expect(changesFromUpdate(update({}, { status: Status.READ }))).toEqual([
      { kind: 'ack', providerId: 'SENT1', ack: 3 },
    ]);
    expect(changesFromUpdate(update({ fromMe: false }, { status: Status.READ }))).toEqual([]);
  });

  it('reads edits as Baileys emits them and as protocol messages', () => {
    const edited = proto.Message.create({ editedMessage: { message: { conversation: 'fixed text' } } });
    expect(changesFromUpdate(update({ fromMe: false }, { message: edited }))).toEqual([
      { kind: 'edit', providerId: 'SENT1', body: 'fixed text' },
    ]);
    const protocol = proto.Message.create({
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
        key: { id: 'ORIG' },
        editedMessage: { extendedTextMessage: { text: 'new' } },
      },
    });
    expect(changeFromProtocolMessage(protocol)).toEqual({ kind: 'edit', providerId: 'ORIG', body: 'new' });
    expect(changesFromUpdate(update({}, { message: protocol }))).toEqual([
      { kind: 'edit', providerId: 'ORIG', body: 'new' },
    ]);
  });

  it('reads revokes as deletions', () => {
    expect(
      changesFromUpdate(update({}, { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE })),
    ).toEqual([{ kind: 'delete', providerId: 'SENT1' }]);
    const revoke = proto.Message.create({
      protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'GONE' } },
    });
    expect(changeFromProtocolMessage(revoke)).toEqual({ kind: 'delete', providerId: 'GONE' });
    expect(changeFromProtocolMessage(proto.Message.create({ conversation: 'x' }))).toBeNull();
  });
});
