import { STORAGE_KEYS } from '@zapdesk/shared';

/** The session kept in local storage: access token, company and user ids (core section 7). */
export interface StoredSession {
  token: string | null;
  companyId: number | null;
  userId: number | null;
}

const toNumber = (value: string | null): number | null => {
  if (value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

/** Reads a JSON value from local storage, `fallback` when missing or unreadable. */
export function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

/** Writes a JSON value to local storage. */
export function writeJson(key: string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}

/** The stored access token, or null. */
export function getToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.token);
}

/** Replaces the stored access token. */
export function setToken(token: string): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
}

/** Reads token, companyId and userId. */
export function readSession(): StoredSession {
  return {
    token: getToken(),
    companyId: toNumber(localStorage.getItem(STORAGE_KEYS.companyId)),
    userId: toNumber(localStorage.getItem(STORAGE_KEYS.userId)),
  };
}

/** Stores the session after login or refresh. */
export function writeSession(token: string, companyId: number, userId: number): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
  localStorage.setItem(STORAGE_KEYS.companyId, String(companyId));
  localStorage.setItem(STORAGE_KEYS.userId, String(userId));
}

/** Removes token, companyId and userId (preferences such as language, theme and volume stay). */
export function clearSession(): void {
  localStorage.removeItem(STORAGE_KEYS.token);
  localStorage.removeItem(STORAGE_KEYS.companyId);
  localStorage.removeItem(STORAGE_KEYS.userId);
}
