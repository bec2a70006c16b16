import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import { AppError } from '../../lib/app-error.js';

const DAY_SECONDS = 86_400;
/**
 * How long an address where an account signed in is remembered as that account's, seconds (under
 * 24.8 days: the in-memory store expires keys with a timer, which holds at most 2^31 ms).
 */
const KNOWN_ADDRESS_SECONDS = 20 * DAY_SECONDS;

/**
 * A rate-limiter-flexible counter of `points` per `duration` seconds (then blocked `blockDuration`
 * seconds): in memory on one node, or in Redis under `zapdesk:{keyPrefix}` when a client is given
 * (shared by every node; an in-memory limiter stands in while Redis is unreachable).
 */
export function sharedLimiter(
  keyPrefix: string,
  options: { points: number; duration: number; blockDuration?: number },
  redis?: RedisClientType,
): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, ...options });
  if (!redis) return memory;
  return new RateLimiterRedis({
    storeClient: redis,
    useRedisPackage: true,
    keyPrefix: `zapdesk:${keyPrefix}`,
    ...options,
    insuranceLimiter: memory,
  });
}

/** The limits of `LoginLimiter` (config LOGIN_RATE_MAX, LOGIN_RATE_WINDOW_MS, LOGIN_*_DAILY_MAX). */
export interface LoginLimits {
  /** Consecutive failures allowed per e-mail from one address before a lock. */
  consecutiveMax: number;
  /** How long that lock lasts, ms. */
  lockMs: number;
  /** Failures allowed per address per day, over every e-mail. */
  ipDailyMax: number;
  /** Failures allowed per e-mail per day from addresses where it never signed in. */
  accountDailyMax: number;
}

/** One counted sign-in attempt: call `succeeded()` when the password was right. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
}

/**
 * Sign-in limits that count failures only, in the shape of rate-limiter-flexible's
 * "login endpoint protection":
 * - consecutive failures per e-mail + address: LOGIN_RATE_MAX, then that pair is locked for
 *   LOGIN_RATE_WINDOW_MS; a success clears the count. Failing on an e-mail from one address never
 *   locks it out elsewhere.
 * - failures per address per day (slow brute force over many e-mails): LOGIN_IP_DAILY_MAX.
 * - failures per e-mail per day from addresses where that account never signed in (a distributed
 *   guess at one account): LOGIN_ACCOUNT_DAILY_MAX; past it only such unknown addresses are
 *   refused, so the user's usual addresses keep working.
 * Each attempt takes its points before the password is checked (parallel guesses cannot slip
 * through) and a success gives them back. A refused attempt answers 429 ERR_TOO_MANY_REQUESTS with
 * `retryAfter` in seconds. In memory on one node; with a Redis client the counters are shared by
 * every node (an in-memory limiter stands in while Redis is unreachable).
 */
export class LoginLimiter {
  private readonly byEmailIp: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;
  private readonly byAccount: RateLimiterAbstract;
  private readonly known: RateLimiterAbstract;

  constructor(limits: LoginLimits, redis?: RedisClientType) {
    const limiter = (keyPrefix: string, points: number, duration: number, blockDuration = 0) =>
      sharedLimiter(keyPrefix, { points, duration, blockDuration }, redis);
    this.byEmailIp = limiter(
      'login-fail-email-ip',
      limits.consecutiveMax,
      DAY_SECONDS,
      Math.ceil(limits.lockMs / 1000),
    );
    this.byIp = limiter('login-fail-ip', limits.ipDailyMax, DAY_SECONDS);
    this.byAccount = limiter('login-fail-account', limits.accountDailyMax, DAY_SECONDS);
    this.known = limiter('login-known', 1, KNOWN_ADDRESS_SECONDS);
  }

  /**
   * Counts one attempt of `email` from address `ip` as failed until `succeeded()` is called.
   * @throws AppError ERR_TOO_MANY_REQUESTS (429, `retryAfter` seconds) when a limit is reached.
   */
  async attempt(email: string, ip: string): Promise<LoginAttempt> {
    const account = email.trim().toLowerCase();
    const pair = `${ip} ${account}`;
    const known = (await this.known.get(pair)) !== null;
    const counters: [RateLimiterAbstract, string][] = [
      [this.byEmailIp, pair],
      [this.byIp, ip],
    ];
    if (!known) counters.push([this.byAccount, account]);
    const results = await Promise.allSettled(counters.map(([limiter, key]) => limiter.consume(key)));
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (refused) {
      // A refused attempt costs nothing more: give back what it took from the other counters.
      await Promise.all(
        counters.map(([limiter, key], i) =>
          results[i]?.status === 'fulfilled' ? limiter.reward(key, 1) : undefined,
        ),
      );
      if (refused.reason instanceof RateLimiterRes) {
        throw new AppError('ERR_TOO_MANY_REQUESTS', {
          extra: { retryAfter: Math.ceil(refused.reason.msBeforeNext / 1000) },
        });
      }
      throw refused.reason;
    }
    return {
      succeeded: async () => {
        await Promise.all([
          this.byEmailIp.delete(pair),
          this.byIp.reward(ip, 1),
          known ? undefined : this.byAccount.reward(account, 1),
          this.known.set(pair, 1, KNOWN_ADDRESS_SECONDS),
        ]);
      },
    };
  }
}
