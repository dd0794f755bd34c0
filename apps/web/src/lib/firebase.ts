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

/**
 * product.md, States sign-in: Google popup, then the ID token, which the server trades for its own session
 * (auth.firebaseSignIn). Firebase's own session is ended right after: it keeps a refresh token in
 * storage that page scripts can read, and the server's session cookies replace it.
 */
export async function signInWithGooglePopup(config: FirebaseWebConfig): Promise<string> {
  const auth = await getFirebaseAuth(config);
  const { GoogleAuthProvider, signInWithPopup } = await import('firebase/auth');
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  const credential = await signInWithPopup(auth, provider);
  return credential.user.getIdToken();
}

export async function firebaseSignOut(config: FirebaseWebConfig): Promise<void> {
  const auth = await getFirebaseAuth(config);
  await auth.signOut();
}
