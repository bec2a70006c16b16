import crypto from 'node:crypto';
import type {
  MediaType,
  NormalizedMessage,
  OutboundContent,
  PresenceState,
  SentMessage,
} from '@zapdesk/shared';
import type { ChannelDriver, DriverContext } from '../driver.js';
import type { SimulatorNetwork } from './simulator-network.js';

export interface SimulatorDriverOptions extends DriverContext {
  network: SimulatorNetwork;
  /** Delay before the QR step completes by itself, ms (0 in tests). */
  pairDelayMs: number;
}

/** A customer message injected into the simulator. */
export interface SimulatedInbound {
  from: string;
  name?: string;
  body?: string;
  mediaType?: MediaType;
  media?: { data: Buffer; mimetype: string; fileName?: string };
  quotedId?: string;
  providerId?: string;
}

/**
 * The simulator driver (provider 'simulator'): pairs through a QR step that completes by itself,
 * sends into the in-process network (acks 1, 2, 3, and 4 when the phone reads), and receives
 * customer messages injected through `receive`.
 */
export class SimulatorDriver implements ChannelDriver {
  readonly provider = 'simulator';
  private connected = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SimulatorDriverOptions) {}

  /** The simulated business number of a connection. */
  static numberOf(connectionId: number): string {
    return `55000${String(connectionId).padStart(8, '0')}`;
  }

  async start(): Promise<void> {
    const { events, network, connectionId, pairDelayMs } = this.options;
    network.attach(connectionId, (providerId, ack) => void events.ack({ providerId, ack }));
    events.state('OPENING');
    const pair = () => {
      this.connected = true;
      events.qr('');
      events.state('CONNECTED', { number: SimulatorDriver.numberOf(connectionId) });
    };
    if (pairDelayMs <= 0) return pair();
    events.qr(`zapdesk-simulator:${connectionId}:${crypto.randomBytes(8).toString('hex')}`);
    events.state('qrcode');
    this.timer = setTimeout(pair, pairDelayMs);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.connected = false;
    this.options.network.detach(this.options.connectionId);
    this.options.events.state('DISCONNECTED');
  }

  async send(
    chatId: string,
    content: OutboundContent,
    options?: { quotedProviderId?: string; messageId?: string },
  ): Promise<SentMessage> {
    if (!this.connected) throw new Error('simulator session not connected');
    const body =
      content.kind === 'text'
        ? content.body
        : content.kind === 'media'
          ? `[${content.mediaType}] ${content.fileName}${content.caption ? ` ${content.caption}` : ''}`
          : content.kind === 'location'
            ? `[location] ${content.latitude},${content.longitude}`
            : `[contact] ${content.name} ${content.number}`;
    const item = this.options.network.deliver(
      this.options.connectionId,
      chatId,
      content.kind === 'media' ? content.mediaType : content.kind,
      body,
      options?.quotedProviderId ?? null,
      options?.messageId,
    );
    return { providerId: item.id, ack: 1, timestamp: item.timestamp };
  }

  async deleteMessage(chatId: string, providerId: string): Promise<void> {
    if (!this.options.network.remove(this.options.connectionId, chatId, providerId))
      throw new Error('message not found');
  }

  async markRead(): Promise<void> {}

  async checkNumber(number: string): Promise<{ exists: boolean; number?: string }> {
    const digits = number.replace(/\D/g, '');
    return digits.length >= 8 ? { exists: true, number: digits } : { exists: false };
  }

  async profilePicture(): Promise<string | null> {
    return null;
  }

  /** The phone sees the business subscribe to its presence. */
  async subscribePresence(chatId: string): Promise<void> {
    if (!this.connected) throw new Error('simulator session not connected');
    this.options.network.notePresence(this.options.connectionId, chatId, { subscribed: true });
  }

  /** The phone sees the business typing, recording or stopped. */
  async sendPresence(chatId: string, presence: PresenceState): Promise<void> {
    if (!this.connected) throw new Error('simulator session not connected');
    this.options.network.notePresence(this.options.connectionId, chatId, { shown: presence });
  }

  /** The phone `from` types, records audio or stops (`paused`), as WhatsApp reports it; resolves once told. */
  async presence(from: string, presence: PresenceState): Promise<void> {
    if (!this.connected) throw new Error('simulator session not connected');
    await this.options.events.presence?.({ number: from, presence });
  }

  /** Injects a customer message as if the phone `from` sent it; resolves once the pipeline stored it. */
  async receive(input: SimulatedInbound): Promise<string> {
    if (!this.connected) throw new Error('simulator session not connected');
    const providerId = input.providerId ?? `SIMIN${crypto.randomBytes(10).toString('hex').toUpperCase()}`;
    const media = input.media;
    const message: NormalizedMessage = {
      providerId,
      chatId: input.from,
      isGroup: false,
      fromMe: false,
      senderNumber: input.from,
      senderName: input.name,
      body: input.body ?? '',
      mediaType: input.mediaType ?? (media ? 'document' : 'chat'),
      media: media && {
        mimetype: media.mimetype,
        fileName: media.fileName,
        size: media.data.length,
        download: async () => media.data,
      },
      quotedProviderId: input.quotedId,
      timestamp: Date.now(),
    };
    await this.options.events.message(message);
    return providerId;
  }
}
