/**
 * The seams of the Baileys driver: the part of a Baileys socket it uses (so tests inject a fake),
 * logger and timer shapes, and the reconnect policy (exponential backoff with full jitter).
 */
import type {
  AnyMessageContent,
  BaileysEventMap,
  Contact,
  MiscMessageGenerationOptions,
  UserFacingSocketConfig,
  WABrowserDescription,
  WAMessage,
  WAMessageKey,
} from '@whiskeysockets/baileys';

/** The part of a Baileys socket the driver uses (a real `makeWASocket` result fits it). */
export interface BaileysSocket {
  ev: {
    on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
  };
  user?: Contact | undefined;
  sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: MiscMessageGenerationOptions,
  ): Promise<WAMessage | undefined>;
  end(error: Error | undefined): unknown;
  logout(msg?: string): Promise<void>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  onWhatsApp(...numbers: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  profilePictureUrl(jid: string, type?: 'preview' | 'image'): Promise<string | undefined>;
  updateMediaMessage?(message: WAMessage): Promise<WAMessage>;
  /** Asks WhatsApp for a chat's presence updates (typing, recording). */
  presenceSubscribe?(jid: string): Promise<void>;
  /** Shows this session typing, recording or stopped in a chat. */
  sendPresenceUpdate?(type: 'composing' | 'recording' | 'paused', jid?: string): Promise<void>;
  signalRepository?: { lidMapping: { getPNForLID(lid: string): Promise<string | null> } };
}

/** Creates a socket from a Baileys config; `makeWASocket` by default. */
export type SocketFactory = (config: UserFacingSocketConfig) => BaileysSocket;

/** Pino-like logger the driver reports to. */
export interface DriverLog {
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** Timer functions (injectable for tests); delays in ms. */
export interface DriverTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Browser tuple shown in the phone's linked devices list. */
export const BROWSER: WABrowserDescription = ['Zapdesk', 'Chrome', '1.0.0'];
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 60_000;
/** From this consecutive reconnect attempt on, the state reported is 'TIMEOUT'. */
export const TIMEOUT_AFTER_ATTEMPTS = 10;

/**
 * Exponential backoff with full jitter: a uniform delay in [0, min(cap, base * 2^(attempt-1))) ms.
 * `attempt` counts from 1.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** The status code of a Baileys close error (a Boom carries it in output.statusCode); undefined when none. */
export function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('output' in error)) return undefined;
  const output = (error as { output?: { statusCode?: unknown } }).output;
  return typeof output?.statusCode === 'number' ? output.statusCode : undefined;
}
