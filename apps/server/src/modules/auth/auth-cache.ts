import type { PlanFlag } from '@zapdesk/shared';
import type { NotifySubscriber } from '../../lib/notify-listener.js';

/** The NOTIFY channel of migration 0015 (auth-cache-notify): 'u:<userId>', 'c:<companyId>' or '*'. */
export const AUTH_CHANNEL = 'zapdesk_auth';

/**
 * Statements after which this node stops trusting its cache at once (before the NOTIFY of their
 * commit arrives): writes to the tables the guard reads. A new refresh token (sign-in, refresh) is
 * left out: it cannot make a cached answer wrong.
 */
const AUTH_WRITE =
  /^\s*(?:update\s+"?(?:users|user_queues|refresh_tokens|companies|plans)"?[\s(]|delete\s+from\s+"?(?:users|user_queues|refresh_tokens|companies|plans)"?[\s;]|insert\s+into\s+"?user_queues"?[\s(]|truncate\b)/i;

/** How long (ms) the cache is bypassed after this node sent such a write (its NOTIFY comes at commit). */
const LOCAL_WRITE_BYPASS_MS = 2000;
/** A cached user is read again after this long (ms) at the latest, whatever happens. */
const TTL_MS = 60_000;
/** At most this many users (and as many sessions) are kept; beyond, the cache starts over. */
const MAX_ENTRIES = 20_000;

/** What the guard knows of a user: the guard's answer and the viewer's queues (one query). */
export interface CachedUser {
  userId: number;
  companyId: number;
  profile: 'admin' | 'user';
  super: boolean;
  /** The company's dueDate (ms since the epoch) or null (never expires). */
  dueDate: number | null;
  planFlags: Record<PlanFlag, boolean>;
  allTicket: boolean;
  queueIds: number[];
}

/** A session (refresh-token family) known alive until `expiresAt` (ms), unless revoked. */
interface CachedSession {
  userId: number;
  expiresAt: number;
}

/**
 * Per-node cache of the auth guard's lookup (user, role, company plan and due date, queues, session).
 * Entries are dropped by the NOTIFY that database triggers send at the commit of any change to
 * users, user_queues, refresh_tokens, companies or plans (migration 0015), so every node — and every
 * writer, present or future — invalidates without calling anything; this node's own writes to those
 * tables also bypass it at once until their NOTIFY has had time to arrive. While the LISTEN
 * connection is down, nothing is cached. Fills that raced with an invalidation are not stored.
 */
export class AuthCache implements NotifySubscriber {
  readonly channel = AUTH_CHANNEL;
  private readonly users = new Map<number, { value: CachedUser; at: number }>();
  private readonly sessions = new Map<string, CachedSession & { at: number }>();
  private generation = 0;
  private listening = false;
  private bypassUntil = 0;
  /** Counters for tests and metrics. */
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  /** The LISTEN connection (the node's NotifyListener) came up or went down: forget everything. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate('*');
  }

  /** A statement of this node: a write to a table the guard reads bypasses the cache. */
  noteStatement(text: string): void {
    if (AUTH_WRITE.test(text)) this.noteLocalWrite();
  }

  /** A NOTIFY on AUTH_CHANNEL (see `invalidate`). */
  notify(payload: string): void {
    this.invalidate(payload);
  }

  /** A token sent on the generation at the start of a fill; `store` refuses a fill that raced. */
  begin(): number {
    return this.generation;
  }

  /** Whether cached answers may be used now. */
  get usable(): boolean {
    return this.listening && Date.now() >= this.bypassUntil;
  }

  /**
   * The cached user and session for a request, or undefined (then read the database and `store`).
   * A session is answered only while its last known refresh token has not expired.
   */
  get(userId: number, sessionId: string): CachedUser | undefined {
    if (!this.usable) return undefined;
    const now = Date.now();
    const user = this.users.get(userId);
    const session = this.sessions.get(sessionId);
    if (
      !user ||
      now - user.at > TTL_MS ||
      !session ||
      session.userId !== userId ||
      now - session.at > TTL_MS ||
      session.expiresAt <= now
    ) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    return user.value;
  }

  /** Stores a fill begun at `generation` (see `begin`), unless something was invalidated since. */
  store(generation: number, value: CachedUser, sessionId: string, sessionExpiresAt: number): void {
    if (generation !== this.generation || !this.usable) return;
    if (this.users.size >= MAX_ENTRIES || this.sessions.size >= MAX_ENTRIES) this.invalidate('*');
    const at = Date.now();
    this.users.set(value.userId, { value, at });
    this.sessions.set(sessionId, { userId: value.userId, expiresAt: sessionExpiresAt, at });
  }

  /**
   * Drops what a change names: 'u:<userId>' (the user, its queues or sessions), 'c:<companyId>' (the
   * company's users) or anything else (everything). Normally called by the NOTIFY of the triggers;
   * callable directly for a change the triggers cannot see.
   */
  invalidate(payload: string): void {
    this.generation++;
    this.stats.invalidations++;
    const [kind, idText] = payload.split(':');
    const id = Number(idText);
    if (kind === 'u' && Number.isInteger(id)) {
      this.users.delete(id);
      for (const [sid, s] of this.sessions) if (s.userId === id) this.sessions.delete(sid);
    } else if (kind === 'c' && Number.isInteger(id)) {
      for (const [uid, u] of this.users) {
        if (u.value.companyId !== id) continue;
        this.users.delete(uid);
        for (const [sid, s] of this.sessions) if (s.userId === uid) this.sessions.delete(sid);
      }
    } else {
      this.users.clear();
      this.sessions.clear();
    }
  }

  /** This node wrote to a table the guard reads: bypass and forget until its NOTIFY can have come. */
  private noteLocalWrite(): void {
    this.bypassUntil = Date.now() + LOCAL_WRITE_BYPASS_MS;
    this.invalidate('*');
  }
}
