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
  ) {
    super(`${service}: ${reason}`);
    this.name = 'BotServiceError';
  }
}

/**
 * POSTs JSON with a timeout and answers the parsed JSON body.
 * @throws BotServiceError on a network error, timeout, non-2xx status or a body that is not JSON.
 */
export async function postJson(
  service: string,
  url: string,
  body: unknown,
  options: { timeoutMs: number; headers?: Record<string, string>; raw?: string },
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: options.raw ?? JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    throw new BotServiceError(service, timedOut ? 'timeout' : 'unreachable');
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new BotServiceError(service, `status ${response.status}`, response.status);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BotServiceError(service, 'malformed answer', response.status);
  }
}
