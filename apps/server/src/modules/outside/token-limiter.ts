import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import { AppError } from '../../lib/app-error.js';
import { sharedLimiter } from '../auth/login-limiter.js';

/** Wrong or missing external-API tokens one address may send per window before it is refused. */
export const API_TOKEN_FAILURES_MAX = 20;
/** That window, and how long an address that reached the limit stays refused, seconds. */
export const API_TOKEN_FAILURES_WINDOW_SECONDS = 3600;

/**
 * Failed external-API token attempts per client address, in the way of the login limits
 * (`LoginLimiter`, shared through Redis in cluster mode): each wrong or missing token counts one;
 * after API_TOKEN_FAILURES_MAX within the window the address is refused for
 * API_TOKEN_FAILURES_WINDOW_SECONDS, before its token is even looked at (so a locked address learns
 * nothing, not even from a right guess). Right tokens cost nothing. A wrong token names no company,
 * so the count is per address only.
 */
export class ApiTokenLimiter {
  private readonly byIp: RateLimiterAbstract;

  constructor(redis?: RedisClientType) {
    this.byIp = sharedLimiter(
      'api-token-fail-ip',
      {
        points: API_TOKEN_FAILURES_MAX,
        duration: API_TOKEN_FAILURES_WINDOW_SECONDS,
        blockDuration: API_TOKEN_FAILURES_WINDOW_SECONDS,
      },
      redis,
    );
  }

  /**
   * Throws when address `ip` reached the limit.
   * @throws AppError ERR_TOO_MANY_REQUESTS (429, `retryAfter` seconds).
   */
  async check(ip: string): Promise<void> {
    const state = await this.byIp.get(ip);
    if (state && state.consumedPoints >= API_TOKEN_FAILURES_MAX) throw tooMany(state.msBeforeNext);
  }

  /**
   * Counts one failed attempt of address `ip`.
   * @throws AppError ERR_TOO_MANY_REQUESTS (429) when this attempt reached the limit.
   */
  async failed(ip: string): Promise<void> {
    try {
      await this.byIp.consume(ip);
    } catch (refused) {
      const ms = (refused as { msBeforeNext?: unknown }).msBeforeNext;
      if (typeof ms === 'number') throw tooMany(ms);
      throw refused;
    }
  }
}

function tooMany(msBeforeNext: number): AppError {
  return new AppError('ERR_TOO_MANY_REQUESTS', { extra: { retryAfter: Math.ceil(msBeforeNext / 1000) } });
}
