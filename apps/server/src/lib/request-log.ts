import type { FastifyInstance, FastifyReply } from 'fastify';

/** A pino level name. */
type Level = 'error' | 'warn' | 'info' | 'debug';

/**
 * The level of one finished request's log line (docs/operations.md, "Logs"): server errors at
 * error, requests slower than `slowMs` at warn, client errors at info, and every other request at
 * debug — so a client that polls a route many times a second does not fill the log at the default
 * level, while failures and slowness always show.
 */
export function requestLogLevel(statusCode: number, elapsedMs: number, slowMs: number): Level {
  if (statusCode >= 500) return 'error';
  if (elapsedMs > slowMs) return 'warn';
  if (statusCode >= 400) return 'info';
  return 'debug';
}

/**
 * Replaces Fastify's two lines per request ("incoming request", "request completed", both at info)
 * with one line when the request ends, at the level `requestLogLevel` gives. The app must be built
 * with a `LogController` whose `disableRequestLogging` is true. `slowMs` is SLOW_REQUEST_MS.
 */
export function registerRequestLog(app: FastifyInstance, slowMs: number): void {
  app.addHook('onResponse', async (request, reply: FastifyReply) => {
    const ms = reply.elapsedTime;
    const level = requestLogLevel(reply.statusCode, ms, slowMs);
    request.log[level](
      { req: request, res: { statusCode: reply.statusCode }, responseTime: Math.round(ms * 10) / 10 },
      'request completed',
    );
  });
}
