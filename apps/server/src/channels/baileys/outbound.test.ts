import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { normalizeMessage } from './normalize.js';
import { buildVcard, chatJid, isGroupChatId, toBaileysContent } from './outbound.js';

describe('chat ids', () => {
  it('tells groups from numbers', () => {
    expect(isGroupChatId('5511999990001')).toBe(false);
    expect(isGroupChatId('447911123456')).toBe(false);
    expect(isGroupChatId('120363025246125486')).toBe(true);
    expect(isGroupChatId('5511999990001-1600000000')).toBe(true);
    expect(isGroupChatId('1@g.us')).toBe(true);
    expect(isGroupChatId('1@lid')).toBe(false);
  });

  it('builds JIDs, passing full JIDs through', () => {
    expect(chatJid('+55 (11) 99999-0001')).toBe('5511999990001@s.whatsapp.net');
    expect(chatJid('120363025246125486')).toBe('120363025246125486@g.us');
    expect(chatJid('5511999990001-1600000000')).toBe('5511999990001-1600000000@g.us');
    expect(chatJid('123456@lid')).toBe('123456@lid');
    expect(() => chatJid('abc')).toThrow(/invalid chat id/);
  });

  it('round-trips the group chat id normalize produces', () => {
    const msg = proto.WebMessageInfo.fromObject({
      key: { remoteJid: '120363025246125486@g.us', id: 'G1', participant: '5511999990001@s.whatsapp.net' },
      message: { conversation: 'hi' },
    }) as WAMessage;
    const chatId = normalizeMessage(msg)!.chatId;
    expect(chatJid(chatId)).toBe('120363025246125486@g.us');
  });
});

describe('content', () => {
  it('builds an escaped vCard with waid', () => {
    expect(buildVcard('Ana; Bia\\x', '55 11 98888-7777')).toBe(
      'BEGIN:VCARD\nVERSION:3.0\nN:;Ana\\; Bia\\\\x;;;\nFN:Ana\\; Bia\\\\x\nTEL;type=CELL;type=VOICE;waid=5511988887777:+5511988887777\nEND:VCARD',
    );
  });

  it('sends audio without ptt as a plain audio file and omits empty captions', () => {
    const data = Buffer.from('x');
    expect(
      toBaileysContent({
        kind: 'media',
        mediaType: 'audio',
        data,
        mimetype: 'audio/mpeg',
        fileName: 'a.mp3',
      }),
    ).toEqual({ audio: data, mimetype: 'audio/mpeg', ptt: false });
    expect(
      toBaileysContent({
        kind: 'media',
        mediaType: 'image',
        data,
        mimetype: 'image/png',
        fileName: 'a.png',
        caption: '',
      }),
    ).toEqual({ image: data, mimetype: 'image/png' });
    expect(toBaileysContent({ kind: 'location', latitude: 1, longitude: 2 })).toEqual({
      location: { degreesLatitude: 1, degreesLongitude: 2 },
    });
  });
});
