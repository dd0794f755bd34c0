import { useEffect, useSyncExternalStore } from 'react';
import { extensionConnection, runHandshake, type ExtensionConnection } from '../../lib/handshake';
import { useSession } from '../../lib/session';
import { trpc } from '../../lib/trpc';

/** How often a screen that shows the extension's state asks again while it is not connected. */
export const EXTENSION_RECHECK_MS = 3000;

/**
 * Whether the extension is connected to this server, kept current while the screen is open: until it is
 * connected the handshake runs again every few seconds (while the tab is visible), so installing the
 * extension or setting its server in another tab connects it here, with no reload.
 */
export function useExtensionConnection(): ExtensionConnection {
  const state = useSyncExternalStore(extensionConnection.subscribe, extensionConnection.get);
  const { user } = useSession();
  const { mutateAsync: fetchExtensionToken } = trpc.auth.extensionToken.useMutation({ meta: { silent: true } });
  const connected = state === 'connected';
  const userId = user?.id;
  const email = user?.email ?? '';
  const name = user?.name ?? '';

  useEffect(() => {
    if (!userId || connected) return;
    const check = () => {
      if (document.visibilityState === 'hidden') return;
      void runHandshake({ id: userId, email, name }, async () => (await fetchExtensionToken()).token).catch((error: unknown) =>
        console.warn('[mbox] extension handshake failed', error),
      );
    };
    check();
    const timer = setInterval(check, EXTENSION_RECHECK_MS);
    return () => clearInterval(timer);
  }, [userId, email, name, connected, fetchExtensionToken]);

  return state;
}
