import type { ErrorCode } from '@zapdesk/shared';

/**
 * What a driver throws when the provider refuses a send for a reason the outbound sender acts on:
 * `code` is stored as the message's error; `retryAfterMs` asks for another attempt
 * after that delay (rate limits: the sender backs off, doubling); `waitForSession` leaves the
 * message waiting at ack 0 until the session connects again (a revoked access token).
 */
export class ChannelSendError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { retryAfterMs?: number; waitForSession?: boolean } = {},
  ) {
    super(message);
    this.name = 'ChannelSendError';
  }
}
