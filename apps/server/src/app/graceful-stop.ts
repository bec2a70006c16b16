import type { FastifyInstance } from 'fastify';

/** How a graceful stop ended: everything closed, or the bound was reached first. */
export type StopResult = 'closed' | 'timeout';

/**
 * Stops a node gracefully (SIGTERM, docs/operations.md "Rolling deploys"), in this order:
 * readiness fails at once (GET /ready answers 503, so proxies and orchestrators stop sending work);
 * this node's WhatsApp sessions stop and their leases are given back with a NOTIFY, so another node
 * takes them over within about a second; the node keeps answering for `drainMs`, each answer closing
 * its connection (health plugin), so the proxy moves its traffic to the other nodes while this one
 * still listens; then the app closes: sockets are disconnected (clients
 * reconnect to another node), the job queue stops claiming jobs and waits for the running ones, the
 * server stops accepting connections and lets in-flight requests finish.
 * @param timeoutMs the bound on all of it (SHUTDOWN_TIMEOUT_MS); past it the promise resolves
 *   'timeout' and the caller exits anyway.
 * @param drainMs how long to keep answering before closing (SHUTDOWN_DRAIN_MS; 0 closes at once).
 * @throws what closing the app threw.
 */
export async function gracefulStop(
  app: FastifyInstance,
  timeoutMs: number,
  drainMs = 0,
): Promise<StopResult> {
  app.readiness.draining = true;
  const work = (async (): Promise<StopResult> => {
    await app.sessions.closeAll();
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    await app.close();
    return 'closed';
  })();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<StopResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}
