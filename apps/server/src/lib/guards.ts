import type { PlanFlag } from '@zapdesk/shared';
import type { AccessClaims } from './access-claims.js';

/**
 * Every route under /api declares its guard in `config`:
 * - `auth`: 'public' (no token) or 'user' (a valid access token of an existing user);
 * - `role`: 'admin' (company admin or super user) or 'super' (platform super user);
 * - `plan`: a plan flag the caller's company plan must have.
 * buildApp() refuses to register an /api route without `auth`, and a test lists them all.
 */
export interface RouteGuard {
  auth: 'public' | 'user';
  role?: 'admin' | 'super';
  plan?: PlanFlag;
}

/** The verified caller, set on `request.auth` for `auth: 'user'` routes: the token's claims and more. */
export interface AuthContext extends AccessClaims {
  planFlags: Record<PlanFlag, boolean>;
  /**
   * The caller's queues and allTicket flag, as the guard read them for this request (so listing
   * and opening tickets need no query of their own); absent on contexts built elsewhere.
   */
  viewer?: { allTicket: boolean; queueIds: number[] };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteGuard['auth'];
    role?: RouteGuard['role'];
    plan?: RouteGuard['plan'];
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
}

export const publicRoute = { auth: 'public' } as const satisfies RouteGuard;
export const userRoute = { auth: 'user' } as const satisfies RouteGuard;
export const adminRoute = { auth: 'user', role: 'admin' } as const satisfies RouteGuard;
export const superRoute = { auth: 'user', role: 'super' } as const satisfies RouteGuard;

/** True for admins and super users (core section 6: admins bypass queue checks, manage users). */
export function isAdmin(auth: AuthContext): boolean {
  return auth.profile === 'admin' || auth.super;
}
