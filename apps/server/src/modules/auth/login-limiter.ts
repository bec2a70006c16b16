import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../lib/app-error.js';

/**
 * Login attempts limited per e-mail and per client IP (issue: 10 per 15 minutes each). Every attempt
 * counts; a limit reached answers 429 ERR_TOO_MANY_REQUESTS with `retryAfter` in seconds.
 * In-memory per node; a Redis store replaces it when the app runs on several nodes.
 */
export class LoginLimiter {
  private readonly byEmail: RateLimiterMemory;
  private readonly byIp: RateLimiterMemory;

  constructor(max: number, windowMs: number) {
    const duration = Math.ceil(windowMs / 1000);
    this.byEmail = new RateLimiterMemory({ keyPrefix: 'login-email', points: max, duration });
    this.byIp = new RateLimiterMemory({ keyPrefix: 'login-ip', points: max, duration });
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
