import { randomBytes } from 'node:crypto';
import type { App } from 'firebase-admin/app';
import type { DecodedIdToken } from 'firebase-admin/auth';
import { EXTENSION_TOKEN_PREFIX, PERSONAL_TOKEN_PREFIX, type AuthConfig, type PersonalTokenScope, type PublicUser } from '@mbox/shared';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import { Prisma, type User } from '../../generated/prisma/client.js';
import { authenticatePersonalToken } from '../access-tokens/service.js';
import { authenticateExtension } from './extension-tokens.js';
import { authenticateAccessToken, createSession, CredentialRefused, looksLikeAccessToken, type IssuedSession } from './sessions.js';

/**
 * How a call signed in: a session (or Firebase ID token), an extension token (capture only), or a
 * personal access token, which carries its scope.
 */
export type SignedInVia = { via: 'session' | 'extension' } | { via: 'personal-token'; scope: PersonalTokenScope };

/** The signed-in user as procedures see it. */
export type AuthUser = Pick<User, 'id' | 'email' | 'name' | 'avatarUrl' | 'isPremium' | 'premiumUntil' | 'timezone'> & SignedInVia;

const DEFAULT_LOCAL_ACCOUNT = { email: 'me@localhost', name: 'Local user' };

export function toPublicUser(user: Pick<User, 'id' | 'email' | 'name' | 'avatarUrl'>): PublicUser {
  return { id: user.id, email: user.email, name: user.name, avatarUrl: user.avatarUrl };
}

function newReferralCode(): string {
  return randomBytes(8).toString('base64url').replace(/[-_]/g, '').slice(0, 10).toLowerCase();
}

/**
 * Finds the account of an e-mail address, creating it (with its referral code) on first sign-in. An
 * existing account is returned as it is: linking it to a Firebase user is firebaseAccount's decision.
 */
export async function findOrCreateUser(
  deps: AppDeps,
  profile: { email: string; name?: string; avatarUrl?: string; firebaseUid?: string },
): Promise<User> {
  const email = profile.email.toLowerCase();
  const name = profile.name ?? email.split('@')[0] ?? email;
  const existing = await deps.db.user.findUnique({ where: { email } });
  if (existing) return existing;
  const data = { email, name, avatarUrl: profile.avatarUrl ?? '', firebaseUid: profile.firebaseUid ?? null };
  // Prisma runs this upsert as read-then-insert on PostgreSQL, so parallel first sign-ins of one address
  // race to the insert: the losers (unique violation, P2002) read the row the winner created. A clash
  // on the random referral code instead finds no row and tries again with a new code.
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.db.user.upsert({ where: { email }, update: {}, create: { ...data, referralCode: newReferralCode() } });
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002' || attempt === 3) throw error;
      const created = await deps.db.user.findUnique({ where: { email } });
      if (created) return created;
    }
  }
}

/** What the web app reads at start: the sign-in mode and the deployment's links (runtime settings). */
export function authConfig(deps: AppDeps): AuthConfig {
  const { config } = deps;
  const links = { support: config.SUPPORT_URL ?? null, feedback: config.FEEDBACK_URL ?? null };
  if (config.AUTH_MODE === 'local') return { mode: 'local', firebase: null, links };
  // Checked at start (config.ts): firebase mode has a valid web config.
  const web = config.FIREBASE_WEB_CONFIG!;
  const emulator = config.FIREBASE_AUTH_EMULATOR_HOST;
  return { mode: 'firebase', firebase: emulator ? { ...web, emulatorUrl: `http://${emulator}` } : web, links };
}

/** Where a sign-in comes from: local sign-in is only for this machine. */
export interface SignInOrigin {
  ip: string;
  /** Host name the client addressed, without port. */
  host: string;
  userAgent: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackAddress(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return v4.startsWith('127.') || ip === '::1';
}

/**
 * Local accounts have no password, so only this machine may sign in: the connection must come from a
 * loopback address and name a loopback host. The Host check stops DNS rebinding (a page on another
 * site whose name now points at 127.0.0.1 still sends its own name). An operator who chose
 * ALLOW_LOCAL_AUTH_ON_NETWORK opened local sign-in to the network on purpose.
 */
function checkLocalSignInOrigin(deps: AppDeps, origin: SignInOrigin): void {
  if (deps.config.ALLOW_LOCAL_AUTH_ON_NETWORK) return;
  if (!isLoopbackAddress(origin.ip) || !LOOPBACK_HOSTS.has(origin.host)) {
    throw new AppError('FORBIDDEN', 'Local sign-in is only allowed from this machine: open the app at http://localhost (loopback address and host name)');
  }
}

/** Local mode: passwordless sign-in to a local account, from this machine only; refused in Firebase mode. */
export async function signInLocal(
  deps: AppDeps,
  input: { email?: string; name?: string },
  origin: SignInOrigin,
): Promise<{ session: IssuedSession; user: PublicUser }> {
  if (deps.config.AUTH_MODE !== 'local') {
    throw new AppError('FORBIDDEN', 'Local sign-in is disabled: this server uses Firebase (Google) sign-in');
  }
  checkLocalSignInOrigin(deps, origin);
  const user = await findOrCreateUser(deps, {
    email: input.email ?? DEFAULT_LOCAL_ACCOUNT.email,
    name: input.name ?? (input.email ? undefined : DEFAULT_LOCAL_ACCOUNT.name),
  });
  const session = await createSession(deps, user.id, origin.userAgent);
  return { session, user: toPublicUser(user) };
}

/** Firebase mode: trades a verified Firebase ID token for a session of its account. */
export async function signInFirebase(
  deps: AppDeps,
  idToken: string,
  userAgent: string,
): Promise<{ session: IssuedSession; user: PublicUser }> {
  if (deps.config.AUTH_MODE !== 'firebase') {
    throw new AppError('FORBIDDEN', 'Firebase sign-in is disabled: this server uses local sign-in');
  }
  let user: User;
  try {
    user = await verifyFirebaseUser(deps, idToken);
  } catch (error) {
    if (error instanceof FirebaseAccountRefused) throw new AppError('FORBIDDEN', error.message);
    if (error instanceof CredentialRefused) throw new AppError('UNAUTHORIZED', error.message);
    throw error;
  }
  const session = await createSession(deps, user.id, userAgent);
  return { session, user: toPublicUser(user) };
}

/**
 * One firebase-admin App per project id: an App is bound to its project for life, and one process can
 * serve apps configured for different projects (tests do). firebase-admin reads
 * FIREBASE_AUTH_EMULATOR_HOST on every verification, so the emulator need not be set before the first use.
 * firebase-admin itself is loaded with the first Firebase sign-in, not at start-up (local mode never needs it).
 */
const firebaseApps = new Map<string, App>();

async function firebase(deps: AppDeps): Promise<App> {
  const projectId = deps.config.FIREBASE_PROJECT_ID ?? '';
  const { initializeApp } = await import('firebase-admin/app');
  let app = firebaseApps.get(projectId);
  if (!app) {
    app = initializeApp(projectId ? { projectId } : {}, `mbox-${process.pid}-${projectId || 'default'}`);
    firebaseApps.set(projectId, app);
    if (deps.config.FIREBASE_AUTH_EMULATOR_HOST) {
      // Emulator tokens are unsigned, so firebase-admin skips signature checks: never in production.
      deps.log.warn('FIREBASE_AUTH_EMULATOR_HOST is set: ID tokens are checked against the emulator, without signatures');
    }
  }
  return app;
}

export async function closeFirebase(): Promise<void> {
  const apps = [...firebaseApps.values()];
  firebaseApps.clear();
  if (apps.length === 0) return;
  const { deleteApp } = await import('firebase-admin/app');
  await Promise.all(apps.map((app) => deleteApp(app)));
}

/** A genuine Firebase ID token whose account may not sign in here; the message says why. */
export class FirebaseAccountRefused extends CredentialRefused {
  override name = 'FirebaseAccountRefused';
}

/** The account of a Firebase ID token; throws CredentialRefused for a bad token, FirebaseAccountRefused for a refused account. */
async function verifyFirebaseUser(deps: AppDeps, idToken: string): Promise<User> {
  let decoded: DecodedIdToken;
  try {
    const { getAuth } = await import('firebase-admin/auth');
    decoded = await getAuth(await firebase(deps)).verifyIdToken(idToken);
  } catch (error) {
    deps.log.debug({ err: error }, 'firebase token rejected');
    throw new CredentialRefused('Firebase ID token invalid or expired');
  }
  return firebaseAccount(deps, decoded);
}

/**
 * The account a verified Firebase user signs in to. The Firebase uid is the identity: an account
 * already linked to it is that user's, whatever its e-mail now. Otherwise the e-mail decides, and only
 * a verified one: a provider that hands out unverified addresses (e-mail/password sign-up) would let
 * anyone claim a victim's address, so an unverified address neither links an existing account nor
 * creates one (which would squat the address and receive its recaps). An account linked to another
 * Firebase uid is never relinked: the operator decides that, not a sign-in.
 */
async function firebaseAccount(deps: AppDeps, decoded: DecodedIdToken): Promise<User> {
  const linked = await deps.db.user.findUnique({ where: { firebaseUid: decoded.uid } });
  if (linked) return linked;
  if (!decoded.email) throw new FirebaseAccountRefused('Sign-in refused: this Firebase account has no e-mail address');
  if (decoded.email_verified !== true) {
    throw new FirebaseAccountRefused(
      `Sign-in refused: the e-mail address ${decoded.email} is not verified with the sign-in provider; verify it, or sign in with Google`,
    );
  }
  const user = await findOrCreateUser(deps, {
    email: decoded.email,
    name: typeof decoded.name === 'string' ? decoded.name : undefined,
    avatarUrl: decoded.picture,
    firebaseUid: decoded.uid,
  });
  if (user.firebaseUid === decoded.uid) return user;
  if (user.firebaseUid === null) {
    // Only while unlinked: two sign-ins racing for one address cannot both link it.
    const { count } = await deps.db.user.updateMany({ where: { id: user.id, firebaseUid: null }, data: { firebaseUid: decoded.uid } });
    if (count === 1) return { ...user, firebaseUid: decoded.uid };
  }
  deps.log.warn({ userId: user.id }, 'firebase sign-in refused: the account is linked to another Firebase user');
  throw new FirebaseAccountRefused(
    `Sign-in refused: the account of ${decoded.email} is linked to another sign-in; ask the administrator of this server to move it`,
  );
}

function pickAuthUser(user: User): Omit<AuthUser, 'via'> {
  const { id, email, name, avatarUrl, isPremium, premiumUntil, timezone } = user;
  return { id, email, name, avatarUrl, isPremium, premiumUntil, timezone };
}

/** Who a bearer token signs in, and the session it belongs to (null for extension, personal and Firebase tokens). */
export interface Authenticated {
  user: AuthUser;
  sessionId: string | null;
}

/**
 * Resolves a bearer token: an extension token, a personal access token, an access token of a session,
 * or (Firebase mode) a Firebase ID token, which API clients may keep sending. Throws CredentialRefused
 * naming the reason.
 */
export async function authenticateBearer(deps: AppDeps, token: string): Promise<Authenticated> {
  if (token.startsWith(EXTENSION_TOKEN_PREFIX)) return { user: await authenticateExtension(deps, token), sessionId: null };
  if (token.startsWith(PERSONAL_TOKEN_PREFIX)) return { user: await authenticatePersonalToken(deps, token), sessionId: null };
  if (deps.config.AUTH_MODE === 'firebase' && !looksLikeAccessToken(token)) {
    const user = await verifyFirebaseUser(deps, token);
    return { user: { ...pickAuthUser(user), via: 'session' }, sessionId: null };
  }
  return authenticateAccessToken(deps, token);
}

/** The account of `userId` as procedures see it, for callers that hold only its id (tools outside tRPC); 404 when it is gone. */
export async function authUserById(deps: AppDeps, userId: string): Promise<AuthUser> {
  const user = await deps.db.user.findUnique({ where: { id: userId } });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return { ...pickAuthUser(user), via: 'session' };
}

export async function getPublicUser(deps: AppDeps, userId: string): Promise<PublicUser> {
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: userId } });
  return toPublicUser(user);
}
