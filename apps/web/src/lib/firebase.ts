import type { FirebaseWebConfig } from '@mbox/shared/auth';
import type { Auth } from 'firebase/auth';

/** Loaded on demand: local mode never downloads the Firebase SDK. */
let authPromise: Promise<Auth> | null = null;

async function getFirebaseAuth(config: FirebaseWebConfig): Promise<Auth> {
  authPromise ??= (async () => {
    const [{ initializeApp, getApps }, { getAuth, connectAuthEmulator }] = await Promise.all([
      import('firebase/app'),
      import('firebase/auth'),
    ]);
    const app =
      getApps()[0] ??
      initializeApp({
        apiKey: config.apiKey,
        authDomain: config.authDomain,
        projectId: config.projectId,
        ...(config.appId ? { appId: config.appId } : {}),
      });
    const auth = getAuth(app);
    if (config.emulatorUrl) connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
    return auth;
  })();
  return authPromise;
}

export interface FirebaseSignIn {
  idToken: string;
  user: { id: string; email: string; name: string };
}

/** Spec §4 sign-in: Google popup, then the ID token (which is the bearer in Firebase mode). */
export async function signInWithGooglePopup(config: FirebaseWebConfig): Promise<FirebaseSignIn> {
  const auth = await getFirebaseAuth(config);
  const { GoogleAuthProvider, signInWithPopup } = await import('firebase/auth');
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  const credential = await signInWithPopup(auth, provider);
  const idToken = await credential.user.getIdToken();
  return {
    idToken,
    user: {
      id: credential.user.uid,
      email: credential.user.email ?? '',
      name: credential.user.displayName ?? credential.user.email ?? '',
    },
  };
}

/**
 * Waits for Firebase to restore its session and returns a token getter, or null when Firebase has
 * no signed-in user any more (then the stored token is stale and the user must sign in again).
 */
export async function restoreFirebaseSession(
  config: FirebaseWebConfig,
): Promise<((force: boolean) => Promise<string | null>) | null> {
  const auth = await getFirebaseAuth(config);
  await auth.authStateReady();
  if (!auth.currentUser) return null;
  return async (force) => (auth.currentUser ? auth.currentUser.getIdToken(force) : null);
}

export async function firebaseSignOut(config: FirebaseWebConfig): Promise<void> {
  const auth = await getFirebaseAuth(config);
  await auth.signOut();
}
