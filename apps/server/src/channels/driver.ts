/**
 * The channel driver interface. A driver runs one WhatsApp
 * session (one connection row) and reports what happens to the session manager through
 * `DriverEvents`; the inbound pipeline and the outbound sender are the same for every driver.
 */
import type {
  ConnectionState,
  NormalizedMessage,
  OutboundContent,
  PresenceState,
  SentMessage,
} from '@zapdesk/shared';

export interface DriverEvents {
  /** A new QR code to show (the raw string to encode), or '' once paired. */
  qr(code: string): void;
  /** Session state changes. `number` is the paired phone number when known. */
  state(state: ConnectionState, info?: { number?: string; reason?: string }): void;
  /** A message arrived (or was sent from another device of the same number). */
  message(message: NormalizedMessage): void | Promise<void>;
  /** Delivery state of a message sent by this connection: 1 server, 2 delivered, 3 read, 4 played. */
  ack(update: { providerId: string; ack: number }): void | Promise<void>;
  /** A message was edited. */
  edit(update: { providerId: string; body: string }): void | Promise<void>;
  /** A message was deleted for everyone. */
  delete(update: { providerId: string }): void | Promise<void>;
  /** A contact's name or picture changed. */
  contact(update: { number: string; name?: string; profilePicUrl?: string | null }): void | Promise<void>;
  /** A contact is typing, recording audio, or stopped (`paused`) in its chat with this connection. */
  presence?(update: { number: string; presence: PresenceState }): void | Promise<void>;
}

export interface SendOptions {
  /** Provider id of the message to quote. */
  quotedProviderId?: string;
  /** Whether the quoted message was sent by this connection (some providers need it). */
  quotedFromMe?: boolean;
  /**
   * The provider id the message must carry, where the provider lets the sender choose it (WhatsApp
   * Web, the simulator): a stored message sent again after a crash carries the same id, so the
   * recipient's phone takes it once (`outboundProviderId`).
   */
  messageId?: string;
}

export interface ChannelDriver {
  /** Provider value stored on the connection (`beta`, `simulator`, `cloud`). */
  readonly provider: string;
  /**
   * Outbound messages wait at ack 0 while this session is down instead of failing (the Cloud API
   * driver after its token was refused: the sends go out once the admin fixes it).
   */
  readonly keepsQueueWhileDown?: boolean;
  /** Starts (or resumes) the session; QR and state arrive through DriverEvents. */
  start(): Promise<void>;
  /** Stops the session; with `logout` the pairing is removed and stored credentials cleared. */
  stop(options?: { logout?: boolean }): Promise<void>;
  /**
   * Sends content to a chat (number digits or group id).
   * @throws Error when the session is not connected or the provider refuses.
   */
  send(chatId: string, content: OutboundContent, options?: SendOptions): Promise<SentMessage>;
  /** Deletes a message sent by this connection, for everyone. */
  deleteMessage(chatId: string, providerId: string): Promise<void>;
  /** Sends read receipts for messages of a chat. */
  markRead(chatId: string, providerIds: string[]): Promise<void>;
  /** Whether a number has WhatsApp; answers the canonical number when it does. */
  checkNumber(number: string): Promise<{ exists: boolean; number?: string }>;
  /** Profile picture URL of a number, or null. */
  profilePicture(number: string): Promise<string | null>;
  /**
   * Asks to be told of a chat's presence (typing, recording), where the provider needs it (WhatsApp
   * Web does); absent where the provider has no presence (the Cloud API).
   */
  subscribePresence?(chatId: string): Promise<void>;
  /** Shows the business typing or recording (`paused`: stopped) in a chat, where the provider can. */
  sendPresence?(chatId: string, presence: PresenceState): Promise<void>;
}

/** What a driver factory receives. */
export interface DriverContext {
  connectionId: number;
  companyId: number;
  events: DriverEvents;
}
