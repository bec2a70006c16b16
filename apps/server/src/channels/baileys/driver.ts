/**
 * The Baileys driver (provider 'beta'): one WhatsApp Web
 * multi-device session per connection, auth state in the database (auth-state.ts), inbound
 * messages normalised (normalize.ts), outbound content mapped (outbound.ts).
 *
 * Session states: a QR -> 'qrcode'; connecting -> 'OPENING'; open -> 'CONNECTED' (with the number);
 * close -> loggedOut (401) clears the stored session and stops, restartRequired (515) reconnects
 * at once, connectionReplaced (440) stops (another client holds the session), a QR that ran out
 * (408 before pairing) stops; anything else reports 'DISCONNECTED' ('TIMEOUT' from the 10th
 * consecutive attempt on) and reconnects after an exponential backoff with full jitter (base 1 s,
 * cap 60 s), forever until `stop()`.
 *
 * Events: messages.upsert (notify and append) -> events.message, in arrival order; messages.update
 * -> ack/edit/delete (Baileys derives these from the protocol messages, which normalize ignores);
 * reactions arrive as upserted reactionMessages, so messages.reaction is not used;
 * contacts.upsert/update -> events.contact; presence.update (after `subscribePresence`) ->
 * events.presence ('composing', 'recording', anything else 'paused'). Messages this driver sent itself are not echoed back
 * (`emitOwnEvents: false`, plus a filter on recently sent ids); the content of the last 1,000 sent
 * messages is kept in memory for Baileys' `getMessage` (answering recipients' retry requests).
 */
import {
  type BaileysEventMap,
  type Contact,
  DisconnectReason,
  downloadMediaMessage,
  isLidUser,
  isPnUser,
  type MiscMessageGenerationOptions,
  makeCacheableSignalKeyStore,
  makeWASocket,
  type proto,
  toNumber,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { ConnectionState, OutboundContent, PresenceState, SentMessage } from '@zapdesk/shared';
import { pino } from 'pino';
import type { Database } from '../../db/client.js';
import type { ChannelDriver, DriverContext, SendOptions } from '../driver.js';
import { clearDatabaseAuthState, type DatabaseAuthState, loadDatabaseAuthState } from './auth-state.js';
import { changesFromUpdate, jidToNumber, type MediaDownloader, normalizeMessage } from './normalize.js';
import { chatJid, quotedStub, toBaileysContent } from './outbound.js';
import {
  type BaileysSocket,
  BROWSER,
  backoffDelay,
  type DriverLog,
  type DriverTimers,
  type SocketFactory,
  statusCodeOf,
  TIMEOUT_AFTER_ATTEMPTS,
} from './socket.js';

export interface BaileysDriverOptions extends DriverContext {
  db: Database;
  /** 32-byte key encrypting the stored session (Secrets.sessionKey). */
  sessionKey: Buffer;
  log: DriverLog;
  makeSocket?: SocketFactory;
  /** Uniform random in [0, 1) for the backoff jitter; Math.random by default. */
  random?: () => number;
  timers?: DriverTimers;
  /** Media downloader; Baileys' downloadMediaMessage (with re-upload requests) by default. */
  download?: MediaDownloader;
}

/** The Baileys driver: a ChannelDriver plus `idle()`, resolving once queued inbound events are handled. */
export interface BaileysDriver extends ChannelDriver {
  idle(): Promise<void>;
}

const SENT_KEPT = 1_000;

const notConnected = () =>
  Object.assign(new Error('WhatsApp session is not connected'), { code: 'ERR_WAPP_NOT_INITIALIZED' });

/**
 * Creates the Baileys driver for one connection. Nothing connects until `start()`. `send` and the
 * other session calls throw an Error with code ERR_WAPP_NOT_INITIALIZED while not connected.
 */
export function createBaileysDriver(options: BaileysDriverOptions): BaileysDriver {
  const { connectionId, companyId, events, db, sessionKey, log } = options;
  const makeSocket: SocketFactory = options.makeSocket ?? ((config) => makeWASocket(config));
  const random = options.random ?? Math.random;
  const timers: DriverTimers = options.timers ?? {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  const baileysLogger = pino({ level: 'silent' }).child({ connectionId });

  let auth: DatabaseAuthState | undefined;
  let keys: ReturnType<typeof makeCacheableSignalKeyStore> | undefined;
  let sock: BaileysSocket | undefined;
  let running = false;
  let connected = false;
  let qrShown = false;
  let attempts = 0;
  let reconnectTimer: unknown;
  let selfNumber: string | undefined;
  let queue: Promise<void> = Promise.resolve();
  let credsWrite: Promise<void> = Promise.resolve();
  /** Content of recently sent messages by provider id: echo filter and Baileys' retry `getMessage`. */
  const sent = new Map<string, proto.IMessage | undefined>();

  let lastState: ConnectionState | undefined;
  /** Reports a state; a repeat of the last state without details is not reported again. */
  const report = (state: ConnectionState, info?: { number?: string; reason?: string }) => {
    if (state === lastState && !info) return;
    lastState = state;
    try {
      events.state(state, info);
    } catch (error) {
      log.error({ err: error, connectionId }, 'baileys state handler failed');
    }
  };
  const showQr = (code: string) => {
    try {
      events.qr(code);
    } catch (error) {
      log.error({ err: error, connectionId }, 'baileys qr handler failed');
    }
  };

  /** Runs inbound handlers one after the other, so the pipeline sees events in arrival order. */
  const enqueue = (what: string, task: () => Promise<void> | void) => {
    queue = queue.then(task).catch((error: unknown) => {
      log.error({ err: error, connectionId }, `baileys ${what} handler failed`);
    });
  };

  const rememberSent = (id: string, message: proto.IMessage | null | undefined) => {
    sent.set(id, message ?? undefined);
    if (sent.size > SENT_KEPT) sent.delete(sent.keys().next().value as string);
  };

  const download =
    options.download ??
    ((message: WAMessage) => {
      const current = sock;
      const ctx = current?.updateMediaMessage
        ? { logger: baileysLogger, reuploadRequest: current.updateMediaMessage.bind(current) }
        : undefined;
      return downloadMediaMessage(message, 'buffer', {}, ctx);
    });

  const onUpsert = (socket: BaileysSocket, { messages, type }: BaileysEventMap['messages.upsert']) => {
    if (type !== 'notify' && type !== 'append') return;
    for (const message of messages) {
      enqueue('message', async () => {
        if (message.key.id && sent.has(message.key.id)) return;
        const lids = [message.key.remoteJid, message.key.participant].filter(
          (jid): jid is string => !!jid && !!isLidUser(jid),
        );
        const resolved = new Map<string, string>();
        for (const lid of lids) {
          const pn = await socket.signalRepository?.lidMapping.getPNForLID(lid).catch(() => null);
          if (pn) resolved.set(lid, pn);
        }
        const normalized = normalizeMessage(message, {
          download,
          selfNumber,
          lidToPn: (lid) => resolved.get(lid),
        });
        if (normalized) await events.message(normalized);
        else log.debug({ connectionId, id: message.key.id }, 'baileys message ignored');
      });
    }
  };

  const onUpdate = (updates: BaileysEventMap['messages.update']) => {
    for (const entry of updates) {
      enqueue('update', async () => {
        for (const change of changesFromUpdate(entry)) {
          if (change.kind === 'ack') await events.ack({ providerId: change.providerId, ack: change.ack });
          else if (change.kind === 'edit')
            await events.edit({ providerId: change.providerId, body: change.body });
          else await events.delete({ providerId: change.providerId });
        }
      });
    }
  };

  const onPresence = (socket: BaileysSocket, update: BaileysEventMap['presence.update']) => {
    const data = update.presences[update.id] ?? Object.values(update.presences)[0];
    if (!data) return;
    const known = data.lastKnownPresence;
    const presence: PresenceState = known === 'composing' || known === 'recording' ? known : 'paused';
    enqueue('presence', async () => {
      let jid: string | null | undefined = update.id;
      if (isLidUser(jid)) jid = await socket.signalRepository?.lidMapping.getPNForLID(jid).catch(() => null);
      if (!jid || !isPnUser(jid)) return;
      const number = jidToNumber(jid);
      if (number) await events.presence?.({ number, presence });
    });
  };

  const onContacts = (socket: BaileysSocket, contacts: Partial<Contact>[]) => {
    for (const contact of contacts) {
      const jid = [contact.phoneNumber, contact.id].find((value) => value && isPnUser(value));
      const number = jidToNumber(jid);
      if (!number) continue;
      const name = contact.name || contact.notify || contact.verifiedName || undefined;
      enqueue('contact', async () => {
        let profilePicUrl: string | null | undefined;
        if (contact.imgUrl === 'changed') {
          profilePicUrl =
            (await socket.profilePictureUrl(`${number}@s.whatsapp.net`).catch(() => null)) ?? null;
        } else if (contact.imgUrl !== undefined) profilePicUrl = contact.imgUrl;
        if (name === undefined && profilePicUrl === undefined) return;
        await events.contact({
          number,
          ...(name !== undefined ? { name } : {}),
          ...(profilePicUrl !== undefined ? { profilePicUrl } : {}),
        });
      });
    }
  };

  const halt = (reason: string) => {
    sock = undefined;
    connected = false;
    running = false;
    showQr('');
    report('DISCONNECTED', { reason });
  };

  const onClose = async (error: unknown) => {
    sock = undefined;
    connected = false;
    const code = statusCodeOf(error);
    if (code === DisconnectReason.loggedOut) {
      log.info({ connectionId }, 'baileys session logged out; clearing stored credentials');
      await clearDatabaseAuthState({ db, companyId, connectionId }).catch((err: unknown) =>
        log.error({ err, connectionId }, 'baileys could not clear the session'),
      );
      auth = undefined;
      keys = undefined;
      return halt('loggedOut');
    }
    if (code === DisconnectReason.connectionReplaced) return halt('connectionReplaced');
    if (code === DisconnectReason.timedOut && qrShown && !auth?.state.creds.registered) {
      return halt('qrTimeout');
    }
    if (code === DisconnectReason.restartRequired) return connect();
    attempts += 1;
    const delay = backoffDelay(attempts, random);
    report(attempts >= TIMEOUT_AFTER_ATTEMPTS ? 'TIMEOUT' : 'DISCONNECTED', {
      reason: String(code ?? 'closed'),
    });
    log.warn({ connectionId, code, attempts, delay }, 'baileys connection closed; reconnecting');
    reconnectTimer = timers.setTimeout(() => {
      reconnectTimer = undefined;
      if (running && !sock) connect();
    }, delay);
  };

  const onConnection = (socket: BaileysSocket, update: BaileysEventMap['connection.update']) => {
    if (update.qr) {
      qrShown = true;
      showQr(update.qr);
      report('qrcode');
    }
    if (update.connection === 'connecting') report('OPENING');
    if (update.connection === 'open') {
      connected = true;
      attempts = 0;
      qrShown = false;
      selfNumber = jidToNumber(socket.user?.id) || undefined;
      showQr('');
      report('CONNECTED', selfNumber ? { number: selfNumber } : undefined);
    }
    if (update.connection === 'close') {
      void onClose(update.lastDisconnect?.error).catch((error: unknown) =>
        log.error({ err: error, connectionId }, 'baileys close handling failed'),
      );
    }
  };

  function connect(): void {
    if (!auth || !keys) return;
    const socket = makeSocket({
      auth: { creds: auth.state.creds, keys },
      logger: baileysLogger,
      printQRInTerminal: false,
      browser: BROWSER,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      emitOwnEvents: false,
      generateHighQualityLinkPreview: false,
      getMessage: async (key) => (key.id ? sent.get(key.id) : undefined),
    });
    sock = socket;
    const current = () => sock === socket;
    socket.ev.on('connection.update', (update) => {
      if (current()) onConnection(socket, update);
    });
    socket.ev.on('creds.update', () => {
      const state = auth;
      if (!state) return;
      credsWrite = credsWrite
        .then(() => state.saveCreds())
        .catch((error: unknown) => log.error({ err: error, connectionId }, 'baileys could not save creds'));
    });
    socket.ev.on('messages.upsert', (upsert) => {
      if (current()) onUpsert(socket, upsert);
    });
    socket.ev.on('messages.update', (updates) => {
      if (current()) onUpdate(updates);
    });
    socket.ev.on('contacts.upsert', (contacts) => {
      if (current()) onContacts(socket, contacts);
    });
    socket.ev.on('presence.update', (update) => {
      if (current()) onPresence(socket, update);
    });
    socket.ev.on('contacts.update', (contacts) => {
      if (current()) onContacts(socket, contacts);
    });
  }

  const connectedSocket = (): BaileysSocket => {
    if (!sock || !connected) throw notConnected();
    return sock;
  };

  return {
    provider: 'beta',

    async start() {
      if (running) return;
      running = true;
      attempts = 0;
      report('OPENING');
      try {
        auth = await loadDatabaseAuthState({ db, companyId, connectionId, sessionKey });
      } catch (error) {
        running = false;
        report('DISCONNECTED', { reason: 'authStateUnreadable' });
        throw error;
      }
      keys = makeCacheableSignalKeyStore(auth.state.keys, baileysLogger);
      if (running) connect();
    },

    async stop(stopOptions) {
      running = false;
      if (reconnectTimer !== undefined) timers.clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      const socket = sock;
      sock = undefined;
      const wasConnected = connected;
      connected = false;
      if (stopOptions?.logout) {
        if (socket && wasConnected) {
          await socket
            .logout()
            .catch((error: unknown) => log.warn({ err: error, connectionId }, 'baileys logout failed'));
        }
        socket?.end(undefined);
        await credsWrite;
        await clearDatabaseAuthState({ db, companyId, connectionId });
        auth = undefined;
        keys = undefined;
      } else {
        socket?.end(undefined);
      }
      showQr('');
      report('DISCONNECTED', { reason: stopOptions?.logout ? 'logout' : 'stopped' });
    },

    async send(chatId: string, content: OutboundContent, sendOptions?: SendOptions): Promise<SentMessage> {
      const socket = connectedSocket();
      const jid = chatJid(chatId);
      const misc: MiscMessageGenerationOptions = {};
      if (sendOptions?.messageId) misc.messageId = sendOptions.messageId;
      if (sendOptions?.quotedProviderId) {
        misc.quoted = quotedStub(jid, sendOptions.quotedProviderId, !!sendOptions.quotedFromMe);
      }
      const result = await socket.sendMessage(jid, toBaileysContent(content), misc);
      const providerId = result?.key.id;
      if (!providerId) throw new Error('WhatsApp did not accept the message');
      rememberSent(providerId, result.message);
      const seconds = result.messageTimestamp == null ? 0 : toNumber(result.messageTimestamp);
      return { providerId, ack: 1, timestamp: seconds > 0 ? seconds * 1000 : Date.now() };
    },

    async deleteMessage(chatId: string, providerId: string) {
      const jid = chatJid(chatId);
      await connectedSocket().sendMessage(jid, { delete: { remoteJid: jid, id: providerId, fromMe: true } });
    },

    async markRead(chatId: string, providerIds: string[]) {
      if (providerIds.length === 0) return;
      const jid = chatJid(chatId);
      await connectedSocket().readMessages(providerIds.map((id) => ({ remoteJid: jid, id, fromMe: false })));
    },

    async subscribePresence(chatId: string) {
      await connectedSocket().presenceSubscribe?.(chatJid(chatId));
    },

    async sendPresence(chatId: string, presence: PresenceState) {
      await connectedSocket().sendPresenceUpdate?.(presence, chatJid(chatId));
    },

    async checkNumber(number: string) {
      const digits = number.replace(/\D/g, '');
      if (!digits) return { exists: false };
      const [result] = (await connectedSocket().onWhatsApp(`${digits}@s.whatsapp.net`)) ?? [];
      if (!result?.exists) return { exists: false };
      return { exists: true, number: jidToNumber(result.jid) || digits };
    },

    async profilePicture(number: string) {
      const socket = connectedSocket();
      try {
        return (await socket.profilePictureUrl(chatJid(number), 'image')) ?? null;
      } catch {
        return null;
      }
    },

    idle: async () => {
      let current: Promise<void>;
      do {
        current = queue;
        await current;
      } while (current !== queue);
    },
  };
}
