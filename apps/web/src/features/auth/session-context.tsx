/**
 * The signed-in session (core section 4 "Session"): login, logout, restore on load through
 * GET /auth/me, and the due-date warning toast.
 */
import type { AuthResponse, LoginBody, SessionUser } from '@zapdesk/shared';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { api, onSessionExpired, onSessionRefreshed } from '../../lib/api';
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

/** Holds the session and keeps it in step with the API client's refresh and expiry. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [user, setUser] = useState<SessionUser | null>(null);
  const [loading, setLoading] = useState(() => getToken() !== null);
  const [justLoggedIn, setJustLoggedIn] = useState(false);

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

  useEffect(() => {
    if (!getToken()) return;
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
  }, []);

  const login = useCallback(
    async (body: LoginBody) => {
      const answer = await api.post<AuthResponse>('/auth/login', body, { public: true });
      writeSession(answer.token, answer.user.companyId, answer.user.id);
      setUser(answer.user);
      setJustLoggedIn(true);
      if (answer.dueDateWarningDays !== null && answer.dueDateWarningDays !== undefined) {
        toast.warn(t('auth.dueDateWarning', { count: Math.max(0, Math.round(answer.dueDateWarningDays)) }));
      }
      return answer;
    },
    [t],
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
