import { useSyncExternalStore } from 'react';

/** The signed-in user as the login calls return it. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
}

export interface AuthState {
  token: string | null;
  user: AuthUser | null;
}

export const TOKEN_KEY = 'mbox.token';
export const USER_KEY = 'mbox.user';
/** Spec §4: the local flag removed on logout (kept for parity with the original app). */
export const AUTHORIZED_FLAG = 'isUserAuthorized';

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
  const token = safeGet(TOKEN_KEY);
  return { token, user: token ? readUser() : null };
}

let state: AuthState = load();
const listeners = new Set<() => void>();
/** In Firebase mode the ID token expires hourly: this returns a fresh one (set by lib/firebase). */
let tokenRefresher: ((force: boolean) => Promise<string | null>) | null = null;

function emit(): void {
  for (const listener of listeners) listener();
}

export const authStore = {
  get: (): AuthState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  signIn(token: string, user: AuthUser): void {
    safeSet(TOKEN_KEY, token);
    safeSet(USER_KEY, JSON.stringify(user));
    safeSet(AUTHORIZED_FLAG, 'true');
    state = { token, user };
    emit();
  },
  /** Replaces the token only (a refreshed Firebase ID token); no re-render needed beyond listeners. */
  setToken(token: string): void {
    if (!state.token || token === state.token) return;
    safeSet(TOKEN_KEY, token);
    state = { ...state, token };
    emit();
  },
  signOut(): void {
    safeSet(TOKEN_KEY, null);
    safeSet(USER_KEY, null);
    safeSet(AUTHORIZED_FLAG, null);
    tokenRefresher = null;
    if (state.token === null && state.user === null) return;
    state = { token: null, user: null };
    emit();
  },
  setTokenRefresher(refresher: ((force: boolean) => Promise<string | null>) | null): void {
    tokenRefresher = refresher;
  },
  canRefresh: (): boolean => tokenRefresher !== null,
  /** The bearer for the next call: refreshed through Firebase when it signed the user in. */
  async getToken(force = false): Promise<string | null> {
    if (tokenRefresher && state.token) {
      const fresh = await tokenRefresher(force);
      if (fresh) authStore.setToken(fresh);
    }
    return state.token;
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
