import { useSyncExternalStore } from 'react';
import { CSRF_COOKIE, CSRF_HEADER, REFRESH_PATH } from '@mbox/shared/auth-cookies';

/**
 * The web app keeps no token that page scripts could read: the server holds the session in httpOnly
 * cookies (access and refresh). What is stored here is a hint, the signed-in user's name and e-mail,
 * so a returning user sees the app at once; the server remains the judge (a 401 signs out).
 */

/** The signed-in user as the sign-in calls return it. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
}

export interface AuthState {
  user: AuthUser | null;
}

export const USER_KEY = 'mbox.user';
/** product.md, States: the local flag removed on logout (kept for parity with the original app). */
export const AUTHORIZED_FLAG = 'isUserAuthorized';
/** Where older versions kept the session token: removed at start-up, it must not linger. */
const LEGACY_TOKEN_KEY = 'mbox.token';

function readUser(): AuthUser | null {
  const raw = safeGet(USER_KEY);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (
      parsed &&
      typeof parsed === 'object' &&
      'id' in parsed &&
      'email' in parsed &&
      'name' in parsed &&
      typeof parsed.id === 'string' &&
      typeof parsed.email === 'string' &&
      typeof parsed.name === 'string'
    ) {
      return { id: parsed.id, email: parsed.email, name: parsed.name };
    }
  } catch {
    // A corrupt entry is treated as no user.
  }
  return null;
}

// Storage may be unavailable (privacy modes); the app then works for the tab's lifetime only.
function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function safeSet(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* see safeGet */
  }
}

function load(): AuthState {
  safeSet(LEGACY_TOKEN_KEY, null);
  return { user: readUser() };
}

let state: AuthState = load();
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export const authStore = {
  get: (): AuthState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** The server set the session cookies for `user`. */
  signIn(user: AuthUser): void {
    safeSet(USER_KEY, JSON.stringify(user));
    safeSet(AUTHORIZED_FLAG, 'true');
    if (state.user && state.user.id === user.id && state.user.email === user.email && state.user.name === user.name) return;
    state = { user };
    emit();
  },
  signOut(): void {
    safeSet(USER_KEY, null);
    safeSet(AUTHORIZED_FLAG, null);
    if (state.user === null) return;
    state = { user: null };
    emit();
  },
  /** Test helper: re-read storage (tests write localStorage directly). */
  reload(): void {
    state = load();
    emit();
  },
};

export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);
}

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/**
 * The CSRF token to echo in the X-CSRF-Token header of state-changing calls (double submit). It is
 * set with the session, so its absence also means there is no session to refresh.
 */
export function csrfToken(): string | null {
  return readCookie(CSRF_COOKIE);
}

export function csrfHeaders(): Record<string, string> {
  const token = csrfToken();
  return token ? { [CSRF_HEADER]: token } : {};
}

let refreshing: Promise<boolean> | null = null;

async function postRefresh(): Promise<boolean> {
  // Refresh tokens are single-use: after another tab refreshed, this tab's cookie jar already has the
  // new one, so the request below (made after the lock is ours) sends it.
  const response = await fetch(REFRESH_PATH, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', ...csrfHeaders() },
    body: '{}',
  });
  return response.ok;
}

/**
 * Trades the refresh cookie for new session cookies; true when the session goes on. Calls that failed
 * with 401 at the same time share one refresh, and tabs take turns (Web Locks) so that two tabs never
 * send the same single-use refresh token.
 */
export function refreshSession(): Promise<boolean> {
  if (!csrfToken()) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
      return locks ? await locks.request('mbox-session-refresh', postRefresh) : await postRefresh();
    } catch (error) {
      console.warn('[mbox] session refresh failed', error);
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}
