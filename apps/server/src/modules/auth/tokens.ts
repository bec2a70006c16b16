import crypto from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { AccessClaims } from '../../lib/access-claims.js';
import { AppError } from '../../lib/app-error.js';

export type { AccessClaims } from '../../lib/access-claims.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** Signs an access token valid for `ttlSeconds`. */
export async function signAccessToken(
  claims: AccessClaims,
  secret: Uint8Array,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({
    companyId: claims.companyId,
    profile: claims.profile,
    super: claims.super,
    sid: claims.sessionId,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(secret);
}

/** Tokens already verified, per secret: the exact token text to its claims and expiry (ms). */
const verified = new WeakMap<Uint8Array, Map<string, { claims: AccessClaims; expiresAt: number }>>();
/** At most this many verified tokens are remembered per secret; beyond, the memory starts over. */
const VERIFIED_MAX = 10_000;

/**
 * Verifies an access token. A token whose signature was verified before is answered from memory
 * until its `exp` (the HMAC is the guard's largest CPU cost once the user is cached); the
 * same text under the same secret always verifies the same way.
 * @throws AppError ERR_SESSION_EXPIRED (403: the client refreshes once) when expired or invalid.
 */
export async function verifyAccessToken(token: string, secret: Uint8Array): Promise<AccessClaims> {
  let known = verified.get(secret);
  const hit = known?.get(token);
  if (hit) {
    if (Date.now() < hit.expiresAt) return hit.claims;
    known!.delete(token);
  }
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    const userId = Number(payload.sub);
    const companyId = Number(payload.companyId);
    if (!Number.isInteger(userId) || !Number.isInteger(companyId) || !isUuid(payload.sid)) {
      throw new Error('bad claims');
    }
    const claims: AccessClaims = {
      userId,
      companyId,
      profile: payload.profile === 'admin' ? 'admin' : 'user',
      super: payload.super === true,
      sessionId: payload.sid,
    };
    if (typeof payload.exp === 'number') {
      if (!known) {
        known = new Map();
        verified.set(secret, known);
      }
      if (known.size >= VERIFIED_MAX) known.clear();
      known.set(token, { claims, expiresAt: payload.exp * 1000 });
    }
    return claims;
  } catch (error) {
    if (error instanceof AppError) throw error;
    const expired = error instanceof joseErrors.JWTExpired;
    throw new AppError('ERR_SESSION_EXPIRED', {
      status: 403,
      message: expired ? 'token expired' : 'invalid token',
    });
  }
}

/** A new opaque refresh token (256 random bits, base64url). */
export function newRefreshToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/**
 * The refresh token that replaces `presented` on rotation: HMAC-SHA256 of it under the server
 * secret (base64url). Being derived, the same presented token always yields the same successor, so
 * two refreshes racing with one cookie can both be answered with the same new token.
 */
export function nextRefreshToken(presented: string, secret: Uint8Array): string {
  return crypto.createHmac('sha256', secret).update(`refresh:${presented}`).digest('base64url');
}

/** SHA-256 of a refresh token, hex; only this is stored. */
export function hashRefreshToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
