/**
 * Claims of the access token (a short-lived HS256 JWT sent as bearer): who calls, for which company,
 * with which profile, in which session. Signed and verified by modules/auth/tokens.ts; read by the
 * socket layer and the route guards.
 */
export interface AccessClaims {
  userId: number;
  companyId: number;
  profile: 'admin' | 'user';
  super: boolean;
  /** Session (refresh token family) the token was issued for. */
  sessionId: string;
}
