import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  type AnyMessageContent,
  type BaileysEventMap,
  type Contact,
  DisconnectReason,
  type MiscMessageGenerationOptions,
  proto,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { ConnectionState, NormalizedMessage } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { whatsappSessions, whatsapps } from '../../db/schema/index.js';
import { createCompany } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type { DriverEvents } from '../driver.js';
import { type BaileysDriver, createBaileysDriver } from './driver.js';
import type { BaileysSocket } from './socket.js';

const OWN = '5511900000000';
const PHONE = '5511999990001';
const JID = `${PHONE}@s.whatsapp.net`;

/** A fake Baileys socket: an event emitter plus spies; nothing touches the network. */
class FakeSocket implements BaileysSocket {
  readonly emitter = new EventEmitter();
  readonly ev = {
    on: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) => {
      this.emitter.on(event, listener);
    },
  };
  user: Contact | undefined;
  private sequence = 0;
  readonly sendMessage = vi.fn(
    async (jid: string, _content: AnyMessageContent, _options?: MiscMessageGenerationOptions) =>
      ({
        key: { remoteJid: jid, id: `SENT${++this.sequence}`, fromMe: true },
        messageTimestamp: 1_700_000_100,
      }) as WAMessage,
  );
  readonly end = vi.fn();
  readonly logout = vi.fn(async () => {});
  readonly readMessages = vi.fn(async () => {});
  readonly onWhatsApp = vi.fn(async (jid: string) => [{ jid, exists: jid.startsWith('55') }]);
  readonly profilePictureUrl = vi.fn(async (_jid: string) => 'https://pps.whatsapp.net/pic.jpg');

  constructor(readonly config: UserFacingSocketConfig) {}

  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]): void {
    this.emitter.emit(event, arg);
  }
  open(): void {
    this.user = { id: `${OWN}:7@s.whatsapp.net`, name: 'Zapdesk' };
    this.emit('connection.update', { connection: 'open' });
  }
  close(statusCode?: number): void {
    const error = Object.assign(new Error('closed'), statusCode ? { output: { statusCode } } : {});
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  }
}

let testApp: TestApp;
let companyId: number;

interface Harness {
  driver: BaileysDriver;
  sockets: FakeSocket[];
  socket: () => FakeSocket;
  states: { state: ConnectionState; info?: { number?: string; reason?: string } }[];
  qrs: string[];
  messages: NormalizedMessage[];
  events: DriverEvents;
  timers: { fn: () => void; ms: number; handle: number }[];
  cleared: unknown[];
  connectionId: number;
}

async function harness(random = () => 0.5): Promise<Harness> {
  const [row] = await testApp.app.ctx.db
    .insert(whatsapps)
    .values({ companyId, name: `Conn ${crypto.randomUUID()}` })
    .returning({ id: whatsapps.id });
  const sockets: FakeSocket[] = [];
  const states: Harness['states'] = [];
  const qrs: string[] = [];
  const messages: NormalizedMessage[] = [];
  const timers: Harness['timers'] = [];
  const cleared: unknown[] = [];
  const events: DriverEvents = {
    qr: (code) => void qrs.push(code),
    state: (state, info) => void states.push(info ? { state, info } : { state }),
    message: (message) => void messages.push(message),
    ack: vi.fn(),
    edit: vi.fn(),
    delete: vi.fn(),
    contact: vi.fn(),
  };
  const driver = createBaileysDriver({
    connectionId: row!.id,
    companyId,
    events,
    db: testApp.app.ctx.db,
    sessionKey: crypto.randomBytes(32),
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    makeSocket: (config) => {
      const socket = new FakeSocket(config);
      sockets.push(socket);
      return socket;
    },
    random,
    timers: {
      setTimeout: (fn, ms) => {
        timers.push({ fn, ms, handle: timers.length + 1 });
        return timers.length;
      },
      clearTimeout: (handle) => void cleared.push(handle),
    },
    download: async () => Buffer.from('media'),
  });
  return {
    driver,
    sockets,
    socket: () => sockets.at(-1)!,
    states,
    qrs,
    messages,
    events,
    timers,
    cleared,
    connectionId: row!.id,
  };
}

const sessionRows = (connectionId: number) =>
  testApp.app.ctx.db.select().from(whatsappSessions).where(eq(whatsappSessions.whatsappId, connectionId));

async function connected(h: Harness): Promise<FakeSocket> {
  await h.driver.start();
  h.socket().open();
  return h.socket();
}

beforeAll(async () => {
  testApp = await createTestApp();
  companyId = await createCompany(testApp.app);
});
afterAll(async () => {
  await testApp.close();
});

describe('session lifecycle', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });

  it('creates a quiet socket, reports QR then CONNECTED with the number, and saves creds', async () => {
    await h.driver.start();
    const { config } = h.socket();
    expect(config).toMatchObject({
      printQRInTerminal: false,
      markOnlineOnConnect: false,
      syncFullHistory: false,
    });
    expect(config.browser?.[0]).toBe('Zapdesk');
    expect(config.auth?.creds.noiseKey).toBeDefined();

    h.socket().emit('connection.update', { connection: 'connecting' });
    h.socket().emit('connection.update', { qr: 'QR-1' });
    h.socket().emit('connection.update', { qr: 'QR-2' });
    h.socket().open();
    expect(h.qrs).toEqual(['QR-1', 'QR-2', '']);
    expect(h.states).toEqual([
      { state: 'OPENING' },
      { state: 'qrcode' },
      { state: 'CONNECTED', info: { number: OWN } },
    ]);

    h.socket().emit('creds.update', {});
    await vi.waitFor(async () => expect(await sessionRows(h.connectionId)).toHaveLength(1));
  });

  it('reconnects after transport closes with growing, capped, jittered backoff', async () => {
    await connected(h);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      h.socket().close(DisconnectReason.connectionLost);
      const timer = h.timers.at(-1)!;
      delays.push(timer.ms);
      expect(h.sockets).toHaveLength(attempt);
      timer.fn();
      expect(h.sockets).toHaveLength(attempt + 1);
    }
    // random 0.5 of min(60 s, 1 s * 2^(n-1))
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000]);
    const closes = h.states.filter((s) => s.state === 'DISCONNECTED' || s.state === 'TIMEOUT');
    expect(closes.slice(0, 9).every((s) => s.state === 'DISCONNECTED')).toBe(true);
    expect(closes[9]).toEqual({
      state: 'TIMEOUT',
      info: { reason: String(DisconnectReason.connectionLost) },
    });

    h.socket().open();
    h.socket().close();
    expect(h.timers.at(-1)!.ms).toBe(500);
  });

  it('applies full jitter between 0 and the ceiling', async () => {
    const low = await harness(() => 0);
    await connected(low);
    low.socket().close(DisconnectReason.connectionClosed);
    expect(low.timers.at(-1)!.ms).toBe(0);
    const high = await harness(() => 0.9999);
    await connected(high);
    high.socket().close(DisconnectReason.connectionClosed);
    expect(high.timers.at(-1)!.ms).toBe(999);
  });

  it('restarts at once when WhatsApp asks for it', async () => {
    await h.driver.start();
    h.socket().close(DisconnectReason.restartRequired);
    expect(h.sockets).toHaveLength(2);
    expect(h.timers).toHaveLength(0);
  });

  it('clears the stored session and does not reconnect when logged out', async () => {
    const socket = await connected(h);
    socket.emit('creds.update', {});
    await vi.waitFor(async () => expect(await sessionRows(h.connectionId)).toHaveLength(1));
    socket.close(DisconnectReason.loggedOut);
    await vi.waitFor(async () => expect(await sessionRows(h.connectionId)).toHaveLength(0));
    expect(h.states.at(-1)).toEqual({ state: 'DISCONNECTED', info: { reason: 'loggedOut' } });
    expect(h.timers).toHaveLength(0);
    expect(h.sockets).toHaveLength(1);
    await expect(h.driver.send(PHONE, { kind: 'text', body: 'x' })).rejects.toThrow(/not connected/);
  });

  it('stops when the QR codes run out before pairing', async () => {
    await h.driver.start();
    h.socket().emit('connection.update', { qr: 'QR-1' });
    h.socket().close(DisconnectReason.timedOut);
    expect(h.states.at(-1)).toEqual({ state: 'DISCONNECTED', info: { reason: 'qrTimeout' } });
    expect(h.qrs.at(-1)).toBe('');
    expect(h.timers).toHaveLength(0);
  });

  it('stop ends the socket', async () => {
    const socket = await connected(h);
    await h.driver.stop();
    expect(socket.end).toHaveBeenCalled();
    expect(h.states.at(-1)).toEqual({ state: 'DISCONNECTED', info: { reason: 'stopped' } });
    await expect(h.driver.send(PHONE, { kind: 'text', body: 'x' })).rejects.toThrow(/not connected/);
  });

  it('stop cancels a pending reconnect', async () => {
    const socket = await connected(h);
    socket.close(DisconnectReason.connectionLost);
    expect(h.timers).toHaveLength(1);
    await h.driver.stop();
    expect(h.cleared).toEqual([h.timers[0]!.handle]);
    h.timers[0]!.fn();
    expect(h.sockets).toHaveLength(1);
    expect(h.states.at(-1)).toEqual({ state: 'DISCONNECTED', info: { reason: 'stopped' } });
  });

  it('stop with logout logs out and clears the stored session; events of the old socket are ignored', async () => {
    const socket = await connected(h);
    socket.emit('creds.update', {});
    await vi.waitFor(async () => expect(await sessionRows(h.connectionId)).toHaveLength(1));
    await h.driver.stop({ logout: true });
    expect(socket.logout).toHaveBeenCalled();
    expect(h.states.at(-1)).toEqual({ state: 'DISCONNECTED', info: { reason: 'logout' } });
    expect(await sessionRows(h.connectionId)).toHaveLength(0);
    socket.close(DisconnectReason.loggedOut);
    expect(h.timers).toHaveLength(0);
    await expect(h.driver.send(PHONE, { kind: 'text', body: 'x' })).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
  });
});

describe('sending', () => {
  it('throws a clear error before the session is connected', async () => {
    const h = await harness();
    await expect(h.driver.send(PHONE, { kind: 'text', body: 'hi' })).rejects.toThrow(
      'WhatsApp session is not connected',
    );
    await h.driver.start();
    await expect(h.driver.send(PHONE, { kind: 'text', body: 'hi' })).rejects.toThrow(/not connected/);
  });

  it('maps every outbound content to Baileys content, with quotes and group ids', async () => {
    const h = await harness();
    const socket = await connected(h);
    const data = Buffer.from('bytes');
    const sent = await h.driver.send(PHONE, { kind: 'text', body: 'Olá' });
    expect(sent).toEqual({ providerId: 'SENT1', ack: 1, timestamp: 1_700_000_100_000 });
    await h.driver.send(
      '120363025246125486',
      { kind: 'media', mediaType: 'image', data, mimetype: 'image/png', fileName: 'a.png', caption: 'pic' },
      { quotedProviderId: 'Q1', quotedFromMe: true },
    );
    await h.driver.send('5511999-1600000000', {
      kind: 'media',
      mediaType: 'video',
      data,
      mimetype: 'video/mp4',
      fileName: 'v.mp4',
    });
    await h.driver.send(PHONE, {
      kind: 'media',
      mediaType: 'audio',
      data,
      mimetype: 'audio/ogg; codecs=opus',
      fileName: 'voice.ogg',
      ptt: true,
    });
    await h.driver.send(
      PHONE,
      {
        kind: 'media',
        mediaType: 'document',
        data,
        mimetype: 'application/pdf',
        fileName: 'doc.pdf',
        caption: 'c',
      },
      { quotedProviderId: 'Q2' },
    );
    await h.driver.send(PHONE, {
      kind: 'location',
      latitude: -23.5,
      longitude: -46.6,
      description: 'Office',
    });
    await h.driver.send(PHONE, { kind: 'contact', name: 'Ana, Silva', number: '+55 11 98888-7777' });
    await h.driver.send(PHONE, { kind: 'text', body: 'again' }, { messageId: '3EB0ABCDEF0123456789AB' });

    const calls = socket.sendMessage.mock.calls;
    // The chosen id goes to WhatsApp as the message's key id.
    expect(calls[7]).toEqual([JID, { text: 'again' }, { messageId: '3EB0ABCDEF0123456789AB' }]);
    expect(calls[0]).toEqual([JID, { text: 'Olá' }, {}]);
    expect(calls[1]).toEqual([
      '120363025246125486@g.us',
      { image: data, mimetype: 'image/png', caption: 'pic' },
      {
        quoted: {
          key: { remoteJid: '120363025246125486@g.us', id: 'Q1', fromMe: true },
          message: { conversation: '' },
        },
      },
    ]);
    expect(calls[2]).toEqual(['5511999-1600000000@g.us', { video: data, mimetype: 'video/mp4' }, {}]);
    expect(calls[3]![1]).toEqual({ audio: data, mimetype: 'audio/ogg; codecs=opus', ptt: true });
    expect(calls[4]![1]).toEqual({
      document: data,
      mimetype: 'application/pdf',
      fileName: 'doc.pdf',
      caption: 'c',
    });
    expect(calls[4]![2]?.quoted?.key).toEqual({ remoteJid: JID, id: 'Q2', fromMe: false });
    expect(calls[5]![1]).toEqual({
      location: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'Office' },
    });
    const contact = calls[6]![1] as { contacts: { displayName: string; contacts: { vcard: string }[] } };
    expect(contact.contacts.displayName).toBe('Ana, Silva');
    expect(contact.contacts.contacts[0]!.vcard).toContain('FN:Ana\\, Silva');
    expect(contact.contacts.contacts[0]!.vcard).toContain(
      'TEL;type=CELL;type=VOICE;waid=5511988887777:+5511988887777',
    );
  });

  it('answers Baileys retry requests with the content of recently sent messages', async () => {
    const h = await harness();
    const socket = await connected(h);
    const message = proto.Message.create({ conversation: 'retry me' });
    socket.sendMessage.mockResolvedValueOnce({
      key: { remoteJid: JID, id: 'R1', fromMe: true },
      message,
      messageTimestamp: 1_700_000_100,
    } as WAMessage);
    await h.driver.send(PHONE, { kind: 'text', body: 'retry me' });
    const getMessage = socket.config.getMessage!;
    expect(await getMessage({ remoteJid: JID, id: 'R1', fromMe: true })).toBe(message);
    expect(await getMessage({ remoteJid: JID, id: 'unknown' })).toBeUndefined();
  });

  it('deletes, marks read, checks numbers and fetches pictures through the socket', async () => {
    const h = await harness();
    const socket = await connected(h);
    await h.driver.deleteMessage(PHONE, 'SENT9');
    expect(socket.sendMessage).toHaveBeenCalledWith(JID, {
      delete: { remoteJid: JID, id: 'SENT9', fromMe: true },
    });
    await h.driver.markRead(PHONE, ['A', 'B']);
    expect(socket.readMessages).toHaveBeenCalledWith([
      { remoteJid: JID, id: 'A', fromMe: false },
      { remoteJid: JID, id: 'B', fromMe: false },
    ]);
    expect(await h.driver.checkNumber('+55 (11) 99999-0001')).toEqual({ exists: true, number: PHONE });
    expect(await h.driver.checkNumber('1555000')).toEqual({ exists: false });
    expect(await h.driver.profilePicture(PHONE)).toBe('https://pps.whatsapp.net/pic.jpg');
    socket.profilePictureUrl.mockRejectedValueOnce(new Error('item-not-found'));
    expect(await h.driver.profilePicture(PHONE)).toBeNull();
  });
});

describe('inbound events', () => {
  const inbound = (id: string, text: string, fromMe = false) =>
    proto.WebMessageInfo.fromObject({
      key: { remoteJid: JID, id, fromMe },
      messageTimestamp: 1_700_000_000,
      pushName: 'Maria',
      message: { conversation: text },
    }) as WAMessage;

  it('normalises notify and append upserts in order and skips ignored and echoed messages', async () => {
    const h = await harness();
    const socket = await connected(h);
    await h.driver.send(PHONE, { kind: 'text', body: 'mine' });
    socket.emit('messages.upsert', {
      type: 'notify',
      messages: [inbound('IN1', 'first'), inbound('IN2', 'second')],
    });
    socket.emit('messages.upsert', { type: 'append', messages: [inbound('IN3', 'offline')] });
    socket.emit('messages.upsert', { type: 'notify', messages: [inbound('SENT1', 'mine', true)] });
    const revoke = proto.WebMessageInfo.fromObject({
      key: { remoteJid: JID, id: 'P1' },
      message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'IN1' } } },
    }) as WAMessage;
    socket.emit('messages.upsert', {
      type: 'notify',
      messages: [revoke, inbound('OWN1', 'from phone', true)],
    });
    await h.driver.idle();
    expect(h.messages.map((m) => [m.providerId, m.body])).toEqual([
      ['IN1', 'first'],
      ['IN2', 'second'],
      ['IN3', 'offline'],
      ['OWN1', 'from phone'],
    ]);
    expect(h.messages[0]).toMatchObject({
      chatId: PHONE,
      senderNumber: PHONE,
      senderName: 'Maria',
      mediaType: 'chat',
    });
    expect(h.messages[3]).toMatchObject({ fromMe: true, senderNumber: OWN });
  });

  it('gives media messages a lazy download', async () => {
    const h = await harness();
    const socket = await connected(h);
    const image = proto.WebMessageInfo.fromObject({
      key: { remoteJid: JID, id: 'IMG1' },
      messageTimestamp: 1_700_000_000,
      message: { imageMessage: { mimetype: 'image/jpeg', caption: 'photo' } },
    }) as WAMessage;
    socket.emit('messages.upsert', { type: 'notify', messages: [image] });
    await h.driver.idle();
    expect(h.messages[0]).toMatchObject({ mediaType: 'image', body: 'photo' });
    expect(await h.messages[0]!.media!.download()).toEqual(Buffer.from('media'));
  });

  it('turns status updates into acks, and reports edits and deletions', async () => {
    const h = await harness();
    const socket = await connected(h);
    const { Status, StubType } = proto.WebMessageInfo;
    socket.emit('messages.update', [
      { key: { remoteJid: JID, id: 'SENT1', fromMe: true }, update: { status: Status.DELIVERY_ACK } },
      { key: { remoteJid: JID, id: 'SENT1', fromMe: true }, update: { status: Status.READ } },
      {
        key: { remoteJid: JID, id: 'IN1', fromMe: false },
        update: { message: proto.Message.create({ editedMessage: { message: { conversation: 'fixed' } } }) },
      },
      {
        key: { remoteJid: JID, id: 'IN2', fromMe: false },
        update: { message: null, messageStubType: StubType.REVOKE },
      },
    ]);
    await h.driver.idle();
    expect(vi.mocked(h.events.ack).mock.calls).toEqual([
      [{ providerId: 'SENT1', ack: 2 }],
      [{ providerId: 'SENT1', ack: 3 }],
    ]);
    expect(h.events.edit).toHaveBeenCalledWith({ providerId: 'IN1', body: 'fixed' });
    expect(h.events.delete).toHaveBeenCalledWith({ providerId: 'IN2' });
  });

  it('reports contact names and pictures', async () => {
    const h = await harness();
    const socket = await connected(h);
    socket.emit('contacts.upsert', [{ id: JID, name: 'Maria Souza' }]);
    socket.emit('contacts.update', [
      { id: '123@lid', phoneNumber: '5511977776666@s.whatsapp.net', notify: 'Zé' },
      { id: JID, imgUrl: 'changed' },
      { id: '120363025246125486@g.us', name: 'A group' },
      { id: '555@lid' },
    ]);
    await h.driver.idle();
    expect(vi.mocked(h.events.contact).mock.calls).toEqual([
      [{ number: PHONE, name: 'Maria Souza' }],
      [{ number: '5511977776666', name: 'Zé' }],
      [{ number: PHONE, profilePicUrl: 'https://pps.whatsapp.net/pic.jpg' }],
    ]);
  });
});
