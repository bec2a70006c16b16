import { and, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { companies, refreshTokens, users } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';

/** The every-minute job that ends the sessions of companies whose subscription expired. */
export const SUBSCRIPTION_EXPIRY_JOB = 'subscription-expiry';

/**
 * Ends the live sessions of the users (not super users) of every company whose dueDate has passed
 * (core section 4: access needs a dueDate in the future): revokes their refresh tokens, tells their
 * sockets `company-{id}-auth { action: 'logout', reason: 'subscription-expired' }` and disconnects
 * them. The HTTP guard and the socket handshake already refuse such users at once; this reaches the
 * sockets that were connected before the date. Idempotent: a revoked session is not found again.
 * @returns how many users had sessions ended.
 */
export async function endExpiredSessions(ctx: AppContext): Promise<number> {
  const expiredUsers = ctx.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(companies, sql`${companies.id} = ${users.companyId}`)
    .where(and(sql`not ${users.super}`, sql`${companies.dueDate} <= now()`));
  const revoked = await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
        inArray(refreshTokens.userId, expiredUsers),
      ),
    )
    .returning({ companyId: refreshTokens.companyId, userId: refreshTokens.userId });
  const ended = new Map(revoked.map((r) => [`${r.companyId}:${r.userId}`, r]));
  for (const target of ended.values()) ctx.realtime.endSessions(target, 'subscription-expired');
  return ended.size;
}

/** Registers the every-minute expiry job (one run at a time across nodes). */
export function registerSubscriptionExpiry(ctx: AppContext, jobs: JobQueue): void {
  jobs.define(SUBSCRIPTION_EXPIRY_JOB, () => endExpiredSessions(ctx).then(() => undefined), {
    cron: '* * * * *',
    retryLimit: 0,
    key: () => SUBSCRIPTION_EXPIRY_JOB,
    concurrency: 1,
  });
}
