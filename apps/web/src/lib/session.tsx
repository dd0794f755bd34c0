import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AuthConfig } from '@mbox/shared/auth';
import { DEFAULT_TIME_ZONE, isValidTimeZone } from '@mbox/shared/days';
import { isPremiumActive } from '@mbox/shared/premium';
import { authStore, csrfToken, useAuth, type AuthUser } from './auth';
import { setUnauthorizedHandler, signInFailureMessage } from './errors';
import { firebaseSignOut, signInWithGooglePopup } from './firebase';
import { runHandshake, signOutExtension } from './handshake';
import { trpc } from './trpc';

export type SessionStatus = 'loading' | 'signed-out' | 'signed-in';

export interface Session {
  /** product.md, States: unknown at start-up, then signed out or signed in. */
  status: SessionStatus;
  mode: AuthConfig['mode'] | null;
  user: AuthUser | null;
  /** null while the settings load. */
  onboarded: boolean | null;
  premium: boolean;
  /**
   * Local mode: `email` picks (or creates) a local account; Firebase mode: Google popup. Resolves with
   * why the sign-in failed (for the login card), or null when it worked.
   */
  login: (options?: { email?: string }) => Promise<string | null>;
  /** Ends this browser's session on the server, then here. */
  logout: () => Promise<void>;
  /** Forgets the session in this tab only: after the server ended it (revoked, signed out everywhere). */
  endLocally: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider');
  return session;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const config = trpc.auth.config.useQuery(undefined, { staleTime: Infinity, meta: { silent: true } });
  const signInMutation = trpc.auth.signIn.useMutation({ meta: { silent: true } });
  const firebaseSignInMutation = trpc.auth.firebaseSignIn.useMutation({ meta: { silent: true } });
  const logoutMutation = trpc.auth.logout.useMutation({ meta: { silent: true } });
  const extensionToken = trpc.auth.extensionToken.useMutation({ meta: { silent: true } });
  const mode = config.data?.mode ?? null;

  const handshakeFor = useRef<string | null>(null);

  // No user hint, but session cookies (the CSRF cookie is readable): ask the server who is signed in.
  const [probing, setProbing] = useState(() => user === null && csrfToken() !== null);
  useEffect(() => {
    if (!probing) return;
    let cancelled = false;
    utils.auth.me
      .fetch()
      .then((me) => {
        if (!cancelled) authStore.signIn({ id: me.id, email: me.email, name: me.name });
      })
      .catch(() => {
        // Signed out (the 401 survived a refresh); nothing to show.
      })
      .finally(() => {
        if (!cancelled) setProbing(false);
      });
    return () => {
      cancelled = true;
    };
  }, [probing, utils]);

  const configResolved = config.isSuccess || config.isError;
  const status: SessionStatus =
    user === null ? (probing ? 'loading' : 'signed-out') : !configResolved ? 'loading' : 'signed-in';

  /** Forgets the session in this tab (the server already ended it, or is told to). */
  const endLocally = useCallback(() => {
    authStore.signOut();
    handshakeFor.current = null;
    signOutExtension();
    queryClient.clear();
  }, [queryClient]);

  const { mutateAsync: serverLogout } = logoutMutation;
  const logout = useCallback(async () => {
    // The server ends the session and clears its cookies; sign out here even when it cannot be reached.
    await serverLogout().catch((error: unknown) => console.warn('[mbox] sign-out call failed', error));
    endLocally();
  }, [serverLogout, endLocally]);

  useEffect(() => {
    // A 401 that survived a refresh: the session is gone on the server, only this tab still shows it.
    setUnauthorizedHandler(() => {
      if (authStore.get().user) endLocally();
    });
  }, [endLocally]);

  // The server's view of the user.
  const me = trpc.auth.me.useQuery(undefined, { enabled: status === 'signed-in', staleTime: 60_000 });

  // product.md, States: once signed in, ask the extension whether it needs the user, once per user and page load.
  const { mutateAsync: fetchExtensionToken } = extensionToken;
  useEffect(() => {
    const account = me.data;
    if (status !== 'signed-in' || !account || handshakeFor.current === account.id) return;
    handshakeFor.current = account.id;
    const handed = { id: account.id, email: account.email, name: account.name };
    void runHandshake(handed, async () => (await fetchExtensionToken()).token).catch((error: unknown) =>
      console.warn('[mbox] extension handshake failed', error),
    );
  }, [status, me.data, fetchExtensionToken]);

  const login = useCallback(
    async (options: { email?: string } = {}) => {
      try {
        const current = config.data ?? (await utils.auth.config.fetch());
        if (current.mode === 'firebase') {
          if (!current.firebase) throw new Error('Firebase mode without a web config');
          const idToken = await signInWithGooglePopup(current.firebase);
          const result = await firebaseSignInMutation.mutateAsync({ idToken });
          await firebaseSignOut(current.firebase).catch((error: unknown) =>
            console.warn('[mbox] firebase sign-out after the exchange failed', error),
          );
          authStore.signIn({ id: result.user.id, email: result.user.email, name: result.user.name });
        } else {
          const email = options.email?.trim();
          const result = await signInMutation.mutateAsync(email ? { email } : {});
          authStore.signIn({ id: result.user.id, email: result.user.email, name: result.user.name });
        }
        return null;
      } catch (error) {
        // A failed login returns no user and is logged; the login card says why (docs/product.md, "Login").
        console.warn('[mbox] login failed', error);
        return signInFailureMessage(error);
      }
    },
    [config.data, signInMutation, firebaseSignInMutation, utils],
  );

  const account = useAccountState(status === 'signed-in');

  const value = useMemo<Session>(
    () => ({
      status,
      mode,
      user: me.data ? { id: me.data.id, email: me.data.email, name: me.data.name } : user,
      onboarded: account.onboarded,
      premium: account.premium,
      login,
      logout,
      endLocally,
    }),
    [status, mode, user, me.data, account.onboarded, account.premium, login, logout, endLocally],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** Onboarding and premium state of the signed-in user, from the cached settings (product.md, States). */
function useAccountState(enabled: boolean): { onboarded: boolean | null; premium: boolean } {
  const utils = trpc.useUtils();
  // A 401 here logs the user out through the shared error handler (product.md, Data: authError).
  const settings = trpc.settings.get.useQuery(undefined, { enabled, staleTime: Infinity, meta: { silent: true } });
  const update = trpc.settings.update.useMutation({ meta: { silent: true } });
  const { mutate: saveSettings } = update;

  // The server groups meetings by day in the user's zone; tell it ours while it still has the default.
  const storedZone = settings.data?.timezone;
  useEffect(() => {
    const zone = browserTimeZone();
    if (storedZone !== DEFAULT_TIME_ZONE || zone === DEFAULT_TIME_ZONE || !isValidTimeZone(zone)) return;
    saveSettings(
      { timezone: zone },
      {
        onSuccess: (saved) => {
          utils.settings.get.setData(undefined, saved);
          void utils.meeting.grouped.invalidate();
        },
      },
    );
  }, [storedZone, saveSettings, utils]);

  if (!enabled) return { onboarded: null, premium: false };
  if (settings.isPending) return { onboarded: null, premium: false };
  // product.md, Errors: other settings failures are only logged; do not lock the user out of the app for them.
  if (!settings.data) return { onboarded: true, premium: false };
  return {
    onboarded: settings.data.onboardingComplete,
    premium: isPremiumActive({ isPremium: settings.data.isPremium, premiumUntil: settings.data.premiumUntil }),
  };
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE;
}
