import { and, eq, gt, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { companies, refreshTokens, users } from '../../db/schema/index.js';
import type { SessionEndReason } from '../../realtime/realtime.js';

/**
 * A session is one sign-in: a refresh-token family (`refresh_tokens.family_id`, the access token's
 * `sid` claim). It is alive while the family holds a refresh token that is neither revoked nor
 * expired; ending it revokes that token, so the family's access tokens stop working on the next
 * request (see `sessionAliveSql`) and its sockets are told to log out and disconnected.
 */
export interface SessionTarget {
  companyId: number;
  userId: number;
  /** Only this session; otherwise every session of the user. */
  sessionId?: string;
  /** Every session of the user except this one (the caller's own). */
  exceptSessionId?: string;
}

/**
 * SQL boolean: the session `sessionId` of the user whose id is `userId` (a column or a value) is
 * alive. Used inside the guard's user query, so the check costs no extra round trip.
 */
export function sessionAliveSql(sessionId: string, userId: SQL | unknown): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${sessionId}
    and ${refreshTokens.userId} = ${userId} and ${refreshTokens.revokedAt} is null
    and ${refreshTokens.expiresAt} > now())`;
}

/**
 * SQL boolean: the user whose id is `userId` (a column or a value) may still use the product: its
 * company's dueDate has not passed (none counts as open), or it is a super user. The login gate's
 * rule (core section 4), applied to every request and socket handshake.
 */
export function subscriptionActiveSql(userId: SQL | unknown): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${users} join ${companies} on ${companies.id} = ${users.companyId}
    where ${users.id} = ${userId} and (${users.super} or ${companies.dueDate} is null
      or ${companies.dueDate} > now()))`;
}

/**
 * True when the session `sessionId` of user `userId` is alive and its company's subscription has not
 * expired (the socket handshake's check).
 */
export async function isSessionAlive(db: Tx, userId: number, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.familyId, sessionId),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
        subscriptionActiveSql(userId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Revokes the refresh tokens of the sessions in `target` (inside the caller's transaction when `db`
 * is one). Returns nothing; the sockets are told separately with `Realtime.endSessions` after commit.
 */
export async function revokeSessions(db: Tx, target: SessionTarget): Promise<void> {
  const conditions = [
    eq(refreshTokens.companyId, target.companyId),
    eq(refreshTokens.userId, target.userId),
    isNull(refreshTokens.revokedAt),
  ];
  if (target.sessionId) conditions.push(eq(refreshTokens.familyId, target.sessionId));
  if (target.exceptSessionId) conditions.push(ne(refreshTokens.familyId, target.exceptSessionId));
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(...conditions));
}

/**
 * Ends the sessions in `target` at once: revokes their refresh tokens, then tells their sockets
 * `company-{id}-auth` `{ action: 'logout', reason, userId }` and disconnects them.
 */
export async function endSessions(
  ctx: AppContext,
  target: SessionTarget,
  reason: SessionEndReason,
): Promise<void> {
  await revokeSessions(ctx.db, target);
  ctx.realtime.endSessions(target, reason);
}
