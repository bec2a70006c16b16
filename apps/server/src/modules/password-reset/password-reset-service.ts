import crypto from 'node:crypto';
import {
  LANGUAGES,
  type Language,
  type ResetPasswordBody,
  ZForgotPasswordBody,
  ZResetPasswordBody,
} from '@zapdesk/shared';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { passwordResetAttempts, passwordResets, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import type { Mailer } from '../../lib/mailer.js';
import { revokeSessions } from '../auth/sessions.js';
import { hashPassword } from '../users/users-service.js';
import { resetMail } from './mail-text.js';

/** Lifetime of a reset code (30 minutes). */
export const RESET_CODE_MINUTES = 30;
/** Wrong codes a reset survives; the next wrong one kills it. */
export const RESET_CODE_MAX_FAILURES = 5;
/** Digits of a reset code. */
export const RESET_CODE_DIGITS = 8;

/** HMAC of a code with the server's secret, bound to the user: a leaked table reveals no code. */
function codeHash(ctx: AppContext, userId: number, code: string): string {
  return crypto.createHmac('sha256', ctx.secrets.jwtSecret).update(`reset:${userId}:${code}`).digest('hex');
}

/**
 * Counts one password-reset call for the hourly limits: PASSWORD_RESET_IP_MAX per client address
 * (every kind), and PASSWORD_RESET_EMAIL_MAX codes asked per e-mail. Rows older than an hour go.
 * @throws ERR_TOO_MANY_REQUESTS (429) past a limit.
 */
async function countAttempt(
  ctx: AppContext,
  kind: 'request' | 'reset',
  email: string,
  ip: string,
): Promise<void> {
  const hourAgo = sql`now() - interval '1 hour'`;
  await ctx.db.delete(passwordResetAttempts).where(lt(passwordResetAttempts.createdAt, hourAgo));
  await ctx.db.insert(passwordResetAttempts).values({ kind, email, ip });
  const [byIp] = await ctx.db
    .select({ value: count() })
    .from(passwordResetAttempts)
    .where(and(eq(passwordResetAttempts.ip, ip), gt(passwordResetAttempts.createdAt, hourAgo)));
  if ((byIp?.value ?? 0) > ctx.config.PASSWORD_RESET_IP_MAX) throw new AppError('ERR_TOO_MANY_REQUESTS');
  if (kind !== 'request') return;
  const [byEmail] = await ctx.db
    .select({ value: count() })
    .from(passwordResetAttempts)
    .where(
      and(
        eq(passwordResetAttempts.kind, 'request'),
        eq(passwordResetAttempts.email, email),
        gt(passwordResetAttempts.createdAt, hourAgo),
      ),
    );
  if ((byEmail?.value ?? 0) > ctx.config.PASSWORD_RESET_EMAIL_MAX)
    throw new AppError('ERR_TOO_MANY_REQUESTS');
}

/** The first of pt/en/es named by an Accept-Language header, or undefined. */
export function languageOf(acceptLanguage: string | undefined): Language | undefined {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().slice(0, 2).toLowerCase();
    if ((LANGUAGES as readonly string[]).includes(tag ?? '')) return tag as Language;
  }
  return undefined;
}

/**
 * POST /forgetpassword/:email (document 3 sections 2 and 7): mails the user a fresh 8-digit code,
 * valid 30 minutes and once, in the user's language (else the request's, else pt); earlier codes of
 * the user stop working. Only an HMAC of the code is stored; neither is logged.
 * @throws ERR_TOO_MANY_REQUESTS (hourly limits per e-mail and per address), ERR_NO_USER_FOUND (404:
 *   the spec's client says the e-mail is unknown), ERR_SERVICE_UNAVAILABLE (the mail could not go).
 */
export async function forgotPassword(
  ctx: AppContext,
  mailer: Mailer,
  input: { email: string },
  client: { ip: string; acceptLanguage?: string },
): Promise<void> {
  const email = ZForgotPasswordBody.parse(input).email.toLowerCase();
  await countAttempt(ctx, 'request', email, client.ip);
  const [user] = await ctx.db
    .select({ id: users.id, companyId: users.companyId, name: users.name, language: users.language })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  const code = crypto
    .randomInt(0, 10 ** RESET_CODE_DIGITS)
    .toString()
    .padStart(RESET_CODE_DIGITS, '0');
  const resetId = await ctx.db.transaction(async (tx) => {
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    const [row] = await tx
      .insert(passwordResets)
      .values({
        companyId: user.companyId,
        userId: user.id,
        codeHash: codeHash(ctx, user.id, code),
        expiresAt: sql`now() + make_interval(mins => ${RESET_CODE_MINUTES})`,
      })
      .returning({ id: passwordResets.id });
    return row!.id;
  });
  const language =
    (LANGUAGES as readonly string[]).includes(user.language ?? '') && user.language
      ? (user.language as Language)
      : (languageOf(client.acceptLanguage) ?? 'pt');
  try {
    await mailer.send({
      to: email,
      ...resetMail(language, { name: user.name, code, minutes: RESET_CODE_MINUTES }),
    });
  } catch (error) {
    ctx.log.error({ err: error, userId: user.id }, 'password-reset mail could not be sent');
    await ctx.db.delete(passwordResets).where(eq(passwordResets.id, resetId));
    throw new AppError('ERR_SERVICE_UNAVAILABLE');
  }
}

/**
 * POST /resetpasswords/:email/:token/:password (document 3 sections 5 and 7): with the user's live
 * code (`token`), sets the new password (8+ characters with a digit, a lowercase and an uppercase
 * letter), spends the code and ends every session of the user. A wrong code counts against the
 * code, which dies after RESET_CODE_MAX_FAILURES wrong tries.
 * @throws ERR_VALIDATION (password rules), ERR_TOO_MANY_REQUESTS (hourly limit per address),
 *   ERR_INVALID_RESET_CODE (unknown e-mail, no live code, expired, used or wrong: one answer).
 */
export async function resetPassword(
  ctx: AppContext,
  input: ResetPasswordBody,
  client: { ip: string },
): Promise<void> {
  const body = ZResetPasswordBody.parse(input);
  const email = body.email.toLowerCase();
  await countAttempt(ctx, 'reset', email, client.ip);
  const [user] = await ctx.db
    .select({ id: users.id, companyId: users.companyId })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!user) throw new AppError('ERR_INVALID_RESET_CODE');
  const passwordHash = await hashPassword(body.password);
  const presented = Buffer.from(codeHash(ctx, user.id, body.token), 'hex');
  const outcome = await ctx.db.transaction(async (tx) => {
    const [reset] = await tx
      .select({ id: passwordResets.id, codeHash: passwordResets.codeHash, failures: passwordResets.failures })
      .from(passwordResets)
      .where(
        and(
          eq(passwordResets.userId, user.id),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(passwordResets.id))
      .limit(1)
      .for('update');
    if (!reset) return 'invalid' as const;
    if (!crypto.timingSafeEqual(presented, Buffer.from(reset.codeHash, 'hex'))) {
      const failures = reset.failures + 1;
      await tx
        .update(passwordResets)
        .set({ failures, ...(failures >= RESET_CODE_MAX_FAILURES ? { usedAt: sql`now()` } : {}) })
        .where(eq(passwordResets.id, reset.id));
      return 'invalid' as const;
    }
    await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(eq(passwordResets.id, reset.id));
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(and(eq(users.companyId, user.companyId), eq(users.id, user.id)));
    await revokeSessions(tx, { companyId: user.companyId, userId: user.id });
    return 'done' as const;
  });
  if (outcome === 'invalid') throw new AppError('ERR_INVALID_RESET_CODE');
  ctx.realtime.endSessions({ companyId: user.companyId, userId: user.id }, 'password-changed');
}
