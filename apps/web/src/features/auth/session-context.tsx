/**
 * The signed-in session (core section 4 "Session"): login, logout, restore on load through
 * GET /auth/me, and the due-date warning toast. No react-toastify or react-router here: the login
 * entry (app/login-entry.tsx) signs in with `requestLogin` and hands the answer to the full app's
 * provider (`handover`).
 */
import type { AuthResponse, LoginBody, SessionUser } from '@zapdesk/shared';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { api, onSessionExpired, onSessionRefreshed } from '../../lib/api';
import { showToast } from '../../lib/notify';
import { clearSession, getToken, writeSession } from '../../lib/storage';

export interface SessionValue {
  user: SessionUser | null;
  /** True while a stored token is being checked on load. */
  loading: boolean;
  /** True after a login in this page: public routes then send the user to /tickets. */
  justLoggedIn: boolean;
  /** POST /auth/login; throws the ApiError of a failed login. */
  login: (body: LoginBody) => Promise<AuthResponse>;
  /** DELETE /auth/logout, then clears the local session. */
  logout: () => Promise<void>;
  /** Replaces the session user (after editing one's own profile). */
  setUser: (user: SessionUser) => void;
}

export const SessionContext = createContext<SessionValue | null>(null);

const clearedListeners = new Set<() => void>();

/**
 * Calls `listener` whenever the session ends (logout or expiry), so that caches of the signed-in
 * app (the TanStack Query client, loaded only after sign-in) are emptied. Returns the unsubscribe.
 */
export function onSessionCleared(listener: () => void): () => void {
  clearedListeners.add(listener);
  return () => clearedListeners.delete(listener);
}

const sessionCleared = () => {
  for (const listener of clearedListeners) listener();
};

/**
 * POST /auth/login (core section 2) and stores the session (token, companyId, userId); returns the
 * answer. Throws the ApiError of a failed login (ERR_INVALID_CREDENTIALS, ERR_SUBSCRIPTION_EXPIRED
 * with its dueDate, a network failure as status 0).
 */
export async function requestLogin(body: LoginBody): Promise<AuthResponse> {
  const answer = await api.post<AuthResponse>('/auth/login', body, { public: true });
  writeSession(answer.token, answer.user.companyId, answer.user.id);
  return answer;
}

/** The due-date warning days of a login answer, rounded and at least 0; null when none is due. */
function warningDays(answer: AuthResponse): number | null {
  const days = answer.dueDateWarningDays;
  return days === null || days === undefined ? null : Math.max(0, Math.round(days));
}

export interface SessionProviderProps {
  children: ReactNode;
  /**
   * A login that just succeeded outside this provider (the login entry): the session starts
   * signed in with its user, without GET /auth/me, as after `login` (public routes go to
   * /tickets), and its due-date warning shows once.
   */
  handover?: AuthResponse;
}

/** Holds the session and keeps it in step with the API client's refresh and expiry. */
export function SessionProvider({ children, handover }: SessionProviderProps) {
  const { t } = useTranslation();
  const [user, setUser] = useState<SessionUser | null>(handover?.user ?? null);
  const [loading, setLoading] = useState(() => !handover && getToken() !== null);
  const [justLoggedIn, setJustLoggedIn] = useState(handover !== undefined);

  const warn = useCallback(
    (answer: AuthResponse) => {
      const count = warningDays(answer);
      if (count !== null)
        showToast('warning', t('auth.dueDateWarning', { count }), { toastId: 'due-date-warning' });
    },
    [t],
  );

  // The handed-over login's warning, once (the ref survives StrictMode's second effect run).
  const handoverWarned = useRef(false);
  useEffect(() => {
    if (!handover || handoverWarned.current) return;
    handoverWarned.current = true;
    warn(handover);
  }, [handover, warn]);

  useEffect(() => {
    const offExpired = onSessionExpired(() => {
      setUser(null);
      setJustLoggedIn(false);
      sessionCleared();
    });
    const offRefreshed = onSessionRefreshed((answer) => setUser(answer.user));
    return () => {
      offExpired();
      offRefreshed();
    };
  }, []);

  // The stored session is checked once on load (not after a hand-over: its user is fresh).
  useEffect(() => {
    if (handover || !getToken()) return;
    let active = true;
    api
      .get<SessionUser>('/auth/me')
      .then((me) => {
        if (active) setUser(me);
      })
      .catch(() => {
        if (active) setUser(null);
      })
      .finally(() => {
        if (active) setLoading(false);
      });
    return () => {
      active = false;
    };
  }, [handover]);

  const login = useCallback(
    async (body: LoginBody) => {
      const answer = await requestLogin(body);
      setUser(answer.user);
      setJustLoggedIn(true);
      warn(answer);
      return answer;
    },
    [warn],
  );

  const logout = useCallback(async () => {
    try {
      await api.delete('/auth/logout');
    } catch {
      // The local session is cleared whatever the server answers.
    }
    clearSession();
    setUser(null);
    setJustLoggedIn(false);
    sessionCleared();
  }, []);

  const value = useMemo<SessionValue>(
    () => ({ user, loading, justLoggedIn, login, logout, setUser }),
    [user, loading, justLoggedIn, login, logout],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session; must be used under SessionProvider. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in user; only for components rendered behind PrivateRoute. */
export function useCurrentUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useCurrentUser without a session');
  return user;
}
