import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.js';
import { AppError } from './app-error.js';

/**
 * Prometheus metrics at GET /metrics (always at the root, whatever API_PREFIX is): process defaults
 * plus `http_request_duration_seconds` by method, route pattern and status. When METRICS_TOKEN is
 * set the scrape needs it as bearer (401 ERR_SESSION_EXPIRED otherwise). In production without
 * METRICS_TOKEN the endpoint is closed: 404 ERR_NOT_FOUND, as if it did not exist.
 */
export function createMetrics(app: FastifyInstance, config: Config): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  if (config.production && !config.METRICS_TOKEN) {
    app.log.warn('METRICS_TOKEN is unset: /metrics is closed in production');
  }
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (config.production && !config.METRICS_TOKEN) throw new AppError('ERR_NOT_FOUND');
    if (config.METRICS_TOKEN && request.headers.authorization !== `Bearer ${config.METRICS_TOKEN}`) {
      throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
    }
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return registry;
}
