import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { type AuthResponse, DUE_DATE_WARNING_DAYS, type LoginBody, type SessionUser } from '@zapdesk/shared';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { companies, refreshTokens, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { loadSessionUser } from './session-user.js';
import { hashRefreshToken, newRefreshToken, signAccessToken } from './tokens.js';

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

async function issue(ctx: AppContext, user: SessionUser, familyId: string): Promise<IssuedSession> {
  const refreshToken = newRefreshToken();
  const refreshExpiresAt = new Date(Date.now() + ctx.config.REFRESH_TOKEN_TTL * 1000);
  await ctx.db.insert(refreshTokens).values({
    companyId: user.companyId,
    userId: user.id,
    familyId,
    tokenHash: hashRefreshToken(refreshToken),
    expiresAt: refreshExpiresAt,
  });
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

/**
 * POST /auth/login. Verifies e-mail and password (argon2id), refuses an expired company, starts a
 * new session (refresh-token family), revokes the user's other sessions and tells their sockets.
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
  await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.userId, row.id),
        isNull(refreshTokens.revokedAt),
        ne(refreshTokens.familyId, familyId),
      ),
    );
  await ctx.db.update(users).set({ online: true }).where(eq(users.id, row.id));
  const user = await loadSessionUser(ctx.db, row.companyId, row.id);
  const session = await issue(ctx, user, familyId);
  ctx.realtime.toUser(
    row.companyId,
    row.id,
    'auth',
    { action: 'logout', reason: 'duplicate-login', userId: row.id },
    familyId,
  );
  return session;
}

/**
 * POST /auth/refresh_token. Rotates the presented refresh token: it is revoked and a new one in the
 * same family is issued. Presenting a token already revoked revokes the whole family (theft).
 * @throws ERR_SESSION_EXPIRED (401) for a missing, unknown, revoked or expired token, or an expired
 *   company.
 */
export async function refresh(ctx: AppContext, presented: string | undefined): Promise<IssuedSession> {
  if (!presented) throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
  const tokenHash = hashRefreshToken(presented);
  const outcome = await ctx.db.transaction(async (tx) => {
    const [stored] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .for('update');
    if (!stored) return { ok: false as const };
    if (stored.revokedAt) {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(refreshTokens.familyId, stored.familyId), isNull(refreshTokens.revokedAt)));
      return { ok: false as const, reused: true };
    }
    if (stored.expiresAt.getTime() <= Date.now()) return { ok: false as const };
    await tx.update(refreshTokens).set({ revokedAt: sql`now()` }).where(eq(refreshTokens.id, stored.id));
    return { ok: true as const, stored };
  });
  if (!outcome.ok) {
    if (outcome.reused) ctx.log.warn('refresh token reuse: session family revoked');
    throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
  }
  const user = await loadSessionUser(ctx.db, outcome.stored.companyId, outcome.stored.userId);
  if (user.company.dueDate && new Date(user.company.dueDate).getTime() < Date.now() && !user.super) {
    throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
  }
  return issue(ctx, user, outcome.stored.familyId);
}

/** DELETE /auth/logout: revokes the presented refresh token's family and marks the user offline. */
export async function logout(ctx: AppContext, presented: string | undefined, userId?: number): Promise<void> {
  if (presented) {
    const [stored] = await ctx.db
      .select({ familyId: refreshTokens.familyId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(presented)));
    if (stored) {
      await ctx.db
        .update(refreshTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(refreshTokens.familyId, stored.familyId), isNull(refreshTokens.revokedAt)));
    }
  }
  if (userId) await ctx.db.update(users).set({ online: false }).where(eq(users.id, userId));
}

/** Removes expired refresh tokens older than a day; returns how many. */
export async function pruneRefreshTokens(ctx: AppContext): Promise<number> {
  const rows = await ctx.db
    .delete(refreshTokens)
    .where(gt(sql`now() - interval '1 day'`, refreshTokens.expiresAt))
    .returning({ id: refreshTokens.id });
  return rows.length;
}
