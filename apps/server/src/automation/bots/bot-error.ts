import { OutboundError, type OutboundPolicy, outboundRequest } from '../../lib/outbound-url.js';

/**
 * An outside bot service failed (unreachable, refused credentials, timeout, malformed answer). The
 * engine never retries it in a loop: the ticket goes to a human with a note saying `reason`.
 */
export class BotServiceError extends Error {
  constructor(
    readonly service: string,
    readonly reason: string,
    /** HTTP status of the answer, when there was one. */
    readonly status?: number,
    /**
     * The outbound-URL policy refused the URL (a non-public address); `reason` then says
     * 'unreachable', as for a service that does not answer.
     */
    readonly refusedUrl = false,
  ) {
    super(`${service}: ${reason}`);
    this.name = 'BotServiceError';
  }
}

/** Largest answer a bot service may give, bytes. */
export const BOT_ANSWER_MAX_BYTES = 1024 * 1024;
/** Redirects a bot call follows, each hop checked by the outbound-URL policy. */
export const BOT_MAX_REDIRECTS = 3;

/**
 * Maps a failed outbound request to the BotServiceError of `service`: a refused URL reads as
 * 'unreachable' (with `refusedUrl`), so a company learns nothing about a non-public address.
 */
export function botFailure(service: string, error: unknown): BotServiceError {
  if (error instanceof OutboundError) {
    if (error.kind === 'refused') return new BotServiceError(service, 'unreachable', undefined, true);
    if (error.kind === 'timeout') return new BotServiceError(service, 'timeout');
    if (error.kind === 'too-large') return new BotServiceError(service, 'answer too large');
  }
  return new BotServiceError(service, 'unreachable');
}

/**
 * POSTs JSON under the outbound-URL policy (`options.policy`) with a timeout (`timeoutMs`, ms), an
 * answer of at most BOT_ANSWER_MAX_BYTES and up to BOT_MAX_REDIRECTS redirects, and answers the
 * parsed JSON body.
 * @throws BotServiceError on a refused URL, a network error, timeout, non-2xx status, an oversized
 *   answer or a body that is not JSON.
 */
export async function postJson(
  service: string,
  url: string,
  body: unknown,
  options: { timeoutMs: number; policy: OutboundPolicy; headers?: Record<string, string>; raw?: string },
): Promise<unknown> {
  let response: Awaited<ReturnType<typeof outboundRequest>>;
  try {
    response = await outboundRequest(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
        body: options.raw ?? JSON.stringify(body),
        timeoutMs: options.timeoutMs,
        maxBytes: BOT_ANSWER_MAX_BYTES,
        maxRedirects: BOT_MAX_REDIRECTS,
      },
      options.policy,
    );
  } catch (error) {
    throw botFailure(service, error);
  }
  const text = response.text();
  if (!response.ok) throw new BotServiceError(service, `status ${response.status}`, response.status);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BotServiceError(service, 'malformed answer', response.status);
  }
}
