import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import { AppError } from '../../lib/app-error.js';

/**
 * Login attempts limited per e-mail and per client IP (issue: 10 per 15 minutes each). Every attempt
 * counts; a limit reached answers 429 ERR_TOO_MANY_REQUESTS with `retryAfter` in seconds.
 * In memory on one node; with a Redis client the counters are shared by every node (and an
 * in-memory limiter stands in while Redis is unreachable).
 */
export class LoginLimiter {
  private readonly byEmail: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;

  constructor(max: number, windowMs: number, redis?: RedisClientType) {
    const duration = Math.ceil(windowMs / 1000);
    const limiter = (keyPrefix: string) => {
      const memory = new RateLimiterMemory({ keyPrefix, points: max, duration });
      if (!redis) return memory;
      return new RateLimiterRedis({
        storeClient: redis,
        useRedisPackage: true,
        keyPrefix: `zapdesk:${keyPrefix}`,
        points: max,
        duration,
        insuranceLimiter: memory,
      });
    };
    this.byEmail = limiter('login-email');
    this.byIp = limiter('login-ip');
  }

  /** Counts one attempt. @throws AppError ERR_TOO_MANY_REQUESTS when either limit is exceeded. */
  async consume(email: string, ip: string): Promise<void> {
    const results = await Promise.allSettled([
      this.byEmail.consume(email.trim().toLowerCase()),
      this.byIp.consume(ip),
    ]);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (!refused) return;
    if (refused.reason instanceof RateLimiterRes) {
      throw new AppError('ERR_TOO_MANY_REQUESTS', {
        extra: { retryAfter: Math.ceil(refused.reason.msBeforeNext / 1000) },
      });
    }
    throw refused.reason;
  }
}
