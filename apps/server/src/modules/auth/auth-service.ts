import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { type AuthResponse, DUE_DATE_WARNING_DAYS, type LoginBody, type SessionUser } from '@zapdesk/shared';
import { eq, gt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { companies, refreshTokens, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { loadSessionUser } from './session-user.js';
import { endSessions, revokeSessions } from './sessions.js';
import {
  type AccessClaims,
  hashRefreshToken,
  newRefreshToken,
  nextRefreshToken,
  signAccessToken,
} from './tokens.js';

const DAY_MS = 86_400_000;

/** A completed sign-in or refresh: the JSON answer plus the new refresh token for the cookie. */
export interface IssuedSession {
  response: AuthResponse;
  refreshToken: string;
  refreshExpiresAt: Date;
}

// Verified against when the e-mail is unknown, so both failures take the same time.
let dummyHash: Promise<string> | undefined;

/**
 * Days left until `dueDate` when fewer than DUE_DATE_WARNING_DAYS remain (rounded), else null.
 * (core section 4 Session)
 */
export function dueDateWarningDays(dueDate: Date | string | null, now = Date.now()): number | null {
  if (!dueDate) return null;
  const days = Math.round((new Date(dueDate).getTime() - now) / DAY_MS);
  return days < DUE_DATE_WARNING_DAYS ? Math.max(days, 0) : null;
}

/**
 * How long a rotated refresh token may be presented again and still get its successor, seconds:
 * two refreshes racing with one cookie (several tabs or requests at once) both succeed. After this
 * window a rotated token presented again is taken as stolen and its family is revoked.
 */
export const REFRESH_GRACE_SECONDS = 20;
/** How many rotations a racing refresh may follow to reach the family's live token. */
const MAX_GRACE_HOPS = 5;

/** Signs the access token of `user` in session `familyId` and builds the answer. */
async function respond(
  ctx: AppContext,
  user: SessionUser,
  familyId: string,
  refreshToken: string,
  refreshExpiresAt: Date,
): Promise<IssuedSession> {
  const token = await signAccessToken(
    {
      userId: user.id,
      companyId: user.companyId,
      profile: user.profile,
      super: user.super,
      sessionId: familyId,
    },
    ctx.secrets.jwtSecret,
    ctx.config.ACCESS_TOKEN_TTL,
  );
  return {
    response: { token, user, dueDateWarningDays: dueDateWarningDays(user.company.dueDate) },
    refreshToken,
    refreshExpiresAt,
  };
}

/** Stores a refresh token of session `familyId`; returns its expiry. */
async function storeRefreshToken(
  db: Tx,
  ctx: AppContext,
  owner: { companyId: number; userId: number },
  familyId: string,
  refreshToken: string,
): Promise<Date> {
  const expiresAt = new Date(Date.now() + ctx.config.REFRESH_TOKEN_TTL * 1000);
  await db.insert(refreshTokens).values({
    companyId: owner.companyId,
    userId: owner.userId,
    familyId,
    tokenHash: hashRefreshToken(refreshToken),
    expiresAt,
  });
  return expiresAt;
}

/**
 * POST /auth/login. Verifies e-mail and password (argon2id), refuses an expired company, starts a
 * new session (refresh-token family), ends the user's other sessions (their access tokens stop
 * working and their sockets get `auth` logout 'duplicate-login' and are disconnected).
 * @throws ERR_INVALID_CREDENTIALS (401, same answer for unknown e-mail and wrong password),
 *   ERR_SUBSCRIPTION_EXPIRED (402, with dueDate).
 */
export async function login(ctx: AppContext, body: LoginBody): Promise<IssuedSession> {
  const [row] = await ctx.db
    .select({
      id: users.id,
      companyId: users.companyId,
      passwordHash: users.passwordHash,
      dueDate: companies.dueDate,
      super: users.super,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(sql`lower(${users.email})`, body.email.toLowerCase()))
    .limit(1);
  dummyHash ??= hash(crypto.randomBytes(16).toString('hex'));
  const valid = await verify(row?.passwordHash ?? (await dummyHash), body.password).catch(() => false);
  if (!row || !valid) throw new AppError('ERR_INVALID_CREDENTIALS');
  if (row.dueDate && row.dueDate.getTime() < Date.now() && !row.super) {
    throw new AppError('ERR_SUBSCRIPTION_EXPIRED', { extra: { dueDate: row.dueDate.toISOString() } });
  }
  const familyId = crypto.randomUUID();
  const owner = { companyId: row.companyId, userId: row.id };
  const refreshToken = newRefreshToken();
  const refreshExpiresAt = await ctx.db.transaction(async (tx) => {
    await revokeSessions(tx, { ...owner, exceptSessionId: familyId });
    await tx.update(users).set({ online: true }).where(eq(users.id, row.id));
    return storeRefreshToken(tx, ctx, owner, familyId, refreshToken);
  });
  const user = await loadSessionUser(ctx.db, row.companyId, row.id);
  ctx.realtime.endSessions({ ...owner, exceptSessionId: familyId }, 'duplicate-login');
  return respond(ctx, user, familyId, refreshToken, refreshExpiresAt);
}

type RefreshOutcome =
  | { ok: true; owner: StoredOwner; refreshToken: string; expiresAt: Date }
  | { ok: false; reused?: StoredOwner };
type StoredOwner = { companyId: number; userId: number; familyId: string };

/**
 * POST /auth/refresh_token. Rotates the presented refresh token: it is revoked and its successor
 * (see `nextRefreshToken`) is stored in the same family. A rotated token presented again within
 * REFRESH_GRACE_SECONDS (a refresh racing with itself) gets the same successor while the family is
 * alive; presented later, or after the family ended, it revokes the whole family (theft) and ends
 * that session's sockets.
 * @throws ERR_SESSION_EXPIRED (401) for a missing, unknown, revoked or expired token, or an expired
 *   company.
 */
export async function refresh(ctx: AppContext, presented: string | undefined): Promise<IssuedSession> {
  if (!presented) throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
  const secret = ctx.secrets.jwtSecret;
  const outcome = await ctx.db.transaction(async (tx): Promise<RefreshOutcome> => {
    const find = async (token: string) => {
      const [row] = await tx
        .select({
          id: refreshTokens.id,
          companyId: refreshTokens.companyId,
          userId: refreshTokens.userId,
          familyId: refreshTokens.familyId,
          expiresAt: refreshTokens.expiresAt,
          revoked: sql<boolean>`${refreshTokens.revokedAt} is not null`,
          inGrace: sql<boolean>`coalesce(${refreshTokens.revokedAt} > now() - ${sql.raw(`interval '${REFRESH_GRACE_SECONDS} seconds'`)}, false)`,
          expired: sql<boolean>`${refreshTokens.expiresAt} <= now()`,
        })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(token)))
        .for('update');
      return row;
    };
    const stored = await find(presented);
    if (!stored) return { ok: false };
    const owner = { companyId: stored.companyId, userId: stored.userId, familyId: stored.familyId };
    if (stored.revoked) {
      // A race: follow the rotations made within the grace window to the family's live token.
      let token = presented;
      let row: typeof stored | undefined = stored;
      for (let hop = 0; row?.revoked && row.inGrace && hop < MAX_GRACE_HOPS; hop++) {
        token = nextRefreshToken(token, secret);
        row = await find(token);
      }
      if (row && !row.revoked && row.familyId === stored.familyId) {
        if (row.expired) return { ok: false };
        return { ok: true, owner, refreshToken: token, expiresAt: row.expiresAt };
      }
      await revokeSessions(tx, { ...owner, sessionId: owner.familyId });
      return { ok: false, reused: owner };
    }
    if (stored.expired) return { ok: false };
    await tx.update(refreshTokens).set({ revokedAt: sql`now()` }).where(eq(refreshTokens.id, stored.id));
    const next = nextRefreshToken(presented, secret);
    const expiresAt = await storeRefreshToken(tx, ctx, stored, stored.familyId, next);
    return { ok: true, owner, refreshToken: next, expiresAt };
  });
  if (!outcome.ok) {
    if (outcome.reused) {
      ctx.log.warn('refresh token reuse: session family revoked');
      ctx.realtime.endSessions({ ...outcome.reused, sessionId: outcome.reused.familyId }, 'revoked');
    }
    throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
  }
  const user = await loadSessionUser(ctx.db, outcome.owner.companyId, outcome.owner.userId);
  if (user.company.dueDate && new Date(user.company.dueDate).getTime() < Date.now() && !user.super) {
    throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
  }
  return respond(ctx, user, outcome.owner.familyId, outcome.refreshToken, outcome.expiresAt);
}

/**
 * DELETE /auth/logout: ends the session of the presented refresh token and that of the verified
 * access token `claims` (when given): their refresh tokens are revoked, their access tokens stop
 * working and their sockets get `auth` logout 'logout' and are disconnected. Marks the user offline.
 */
export async function logout(
  ctx: AppContext,
  presented: string | undefined,
  claims?: AccessClaims,
): Promise<void> {
  const ended: StoredOwner[] = [];
  if (presented) {
    const [stored] = await ctx.db
      .select({
        companyId: refreshTokens.companyId,
        userId: refreshTokens.userId,
        familyId: refreshTokens.familyId,
      })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(presented)));
    if (stored) ended.push(stored);
  }
  if (claims && !ended.some((s) => s.familyId === claims.sessionId)) {
    ended.push({ companyId: claims.companyId, userId: claims.userId, familyId: claims.sessionId });
  }
  for (const session of ended) {
    await endSessions(ctx, { ...session, sessionId: session.familyId }, 'logout');
  }
  if (claims) await ctx.db.update(users).set({ online: false }).where(eq(users.id, claims.userId));
}

/** Removes expired refresh tokens older than a day; returns how many. */
export async function pruneRefreshTokens(ctx: AppContext): Promise<number> {
  const rows = await ctx.db
    .delete(refreshTokens)
    .where(gt(sql`now() - interval '1 day'`, refreshTokens.expiresAt))
    .returning({ id: refreshTokens.id });
  return rows.length;
}
