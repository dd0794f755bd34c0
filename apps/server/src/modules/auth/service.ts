import { createHash, randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { initializeApp, deleteApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { jwtVerify, SignJWT } from 'jose';
import {
  EXTENSION_TOKEN_PREFIX,
  firebaseWebConfigSchema,
  type AuthConfig,
  type PublicUser,
} from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { Prisma, type User } from '../../generated/prisma/client.js';

/** The signed-in user as procedures see it. */
export type AuthUser = Pick<
  User,
  'id' | 'email' | 'name' | 'avatarUrl' | 'isPremium' | 'premiumUntil' | 'timezone'
> & { via: 'session' | 'extension' };

const SESSION_TTL = '30d';
const ISSUER = 'mbox-local';
const DEFAULT_LOCAL_ACCOUNT = { email: 'me@localhost', name: 'Local user' };
const authUserSelect = {
  id: true,
  email: true,
  name: true,
  avatarUrl: true,
  isPremium: true,
  premiumUntil: true,
  timezone: true,
} as const;

export function toPublicUser(user: Pick<User, 'id' | 'email' | 'name' | 'avatarUrl'>): PublicUser {
  return { id: user.id, email: user.email, name: user.name, avatarUrl: user.avatarUrl };
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function newReferralCode(): string {
  return randomBytes(8).toString('base64url').replace(/[-_]/g, '').slice(0, 10).toLowerCase();
}

/** Finds the account of an e-mail address, creating it (with its referral code) on first sign-in. */
export async function findOrCreateUser(
  deps: AppDeps,
  profile: { email: string; name?: string; avatarUrl?: string; firebaseUid?: string },
): Promise<User> {
  const email = profile.email.toLowerCase();
  const name = profile.name ?? email.split('@')[0] ?? email;
  const existing = await deps.db.user.findUnique({ where: { email } });
  if (existing) {
    if (profile.firebaseUid && existing.firebaseUid !== profile.firebaseUid) {
      return deps.db.user.update({ where: { id: existing.id }, data: { firebaseUid: profile.firebaseUid } });
    }
    return existing;
  }
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

export function authConfig(deps: AppDeps): AuthConfig {
  const { config } = deps;
  if (config.AUTH_MODE === 'local') return { mode: 'local', firebase: null };
  const web = firebaseWebConfigSchema.parse(JSON.parse(config.FIREBASE_WEB_CONFIG ?? '{}'));
  const emulator = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  return { mode: 'firebase', firebase: emulator ? { ...web, emulatorUrl: `http://${emulator}` } : web };
}

/** Local mode: passwordless sign-in to a local account; refused in Firebase mode. */
export async function loginLocal(deps: AppDeps, input: { email?: string; name?: string }) {
  if (deps.config.AUTH_MODE !== 'local') {
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: 'Local sign-in is disabled: this server uses Firebase (Google) sign-in',
    });
  }
  const user = await findOrCreateUser(deps, {
    email: input.email ?? DEFAULT_LOCAL_ACCOUNT.email,
    name: input.name ?? (input.email ? undefined : DEFAULT_LOCAL_ACCOUNT.name),
  });
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(SESSION_TTL)
    .sign(deps.secrets.authSecret);
  return { token, user: toPublicUser(user) };
}

/** Issues a long-lived extension token; only its hash is stored, so it is shown once. */
export async function issueExtensionToken(deps: AppDeps, userId: string, label = ''): Promise<string> {
  const token = `${EXTENSION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  await deps.db.extensionToken.create({ data: { userId, tokenHash: sha256(token), label } });
  return token;
}

/** Revokes every extension token of a user (sign-out everywhere, or a lost device). */
export async function revokeExtensionTokens(deps: AppDeps, userId: string): Promise<number> {
  const { count } = await deps.db.extensionToken.updateMany({
    where: { userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count;
}

/**
 * One firebase-admin App per project id: an App is bound to its project for life, and one process can
 * serve apps configured for different projects (tests do). firebase-admin reads
 * FIREBASE_AUTH_EMULATOR_HOST on every verification, so the emulator need not be set before the first use.
 */
const firebaseApps = new Map<string, App>();

function firebase(deps: AppDeps): App {
  const projectId = deps.config.FIREBASE_PROJECT_ID ?? '';
  let app = firebaseApps.get(projectId);
  if (!app) {
    app = initializeApp(projectId ? { projectId } : {}, `mbox-${process.pid}-${projectId || 'default'}`);
    firebaseApps.set(projectId, app);
    if (process.env.FIREBASE_AUTH_EMULATOR_HOST) {
      // Emulator tokens are unsigned, so firebase-admin skips signature checks: never in production.
      deps.log.warn('FIREBASE_AUTH_EMULATOR_HOST is set: ID tokens are checked against the emulator, without signatures');
    }
  }
  return app;
}

export async function closeFirebase(): Promise<void> {
  const apps = [...firebaseApps.values()];
  firebaseApps.clear();
  await Promise.all(apps.map((app) => deleteApp(app)));
}

async function authenticateFirebase(deps: AppDeps, idToken: string): Promise<AuthUser | null> {
  try {
    const decoded = await getAuth(firebase(deps)).verifyIdToken(idToken);
    if (!decoded.email) return null;
    const user = await findOrCreateUser(deps, {
      email: decoded.email,
      name: typeof decoded.name === 'string' ? decoded.name : undefined,
      avatarUrl: decoded.picture,
      firebaseUid: decoded.uid,
    });
    return { ...pickAuthUser(user), via: 'session' };
  } catch (error) {
    deps.log.debug({ err: error }, 'firebase token rejected');
    return null;
  }
}

function pickAuthUser(user: User): Omit<AuthUser, 'via'> {
  const { id, email, name, avatarUrl, isPremium, premiumUntil, timezone } = user;
  return { id, email, name, avatarUrl, isPremium, premiumUntil, timezone };
}

async function authenticateExtension(deps: AppDeps, token: string): Promise<AuthUser | null> {
  const found = await deps.db.extensionToken.findUnique({
    where: { tokenHash: sha256(token) },
    include: { user: { select: authUserSelect } },
  });
  if (!found || found.revokedAt) return null;
  // Record use at most once a minute: one write per ingest batch would be wasteful.
  if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > 60_000) {
    await deps.db.extensionToken.update({ where: { id: found.id }, data: { lastUsedAt: new Date() } });
  }
  return { ...found.user, via: 'extension' };
}

async function authenticateSession(deps: AppDeps, token: string): Promise<AuthUser | null> {
  try {
    const { payload } = await jwtVerify(token, deps.secrets.authSecret, { issuer: ISSUER });
    if (!payload.sub) return null;
    const user = await deps.db.user.findUnique({ where: { id: payload.sub }, select: authUserSelect });
    return user ? { ...user, via: 'session' } : null;
  } catch {
    return null;
  }
}

/** Resolves a bearer token (extension token, local session JWT or Firebase ID token) to its user. */
export async function authenticateBearer(deps: AppDeps, token: string): Promise<AuthUser | null> {
  if (token.startsWith(EXTENSION_TOKEN_PREFIX)) return authenticateExtension(deps, token);
  return deps.config.AUTH_MODE === 'firebase' ? authenticateFirebase(deps, token) : authenticateSession(deps, token);
}

export async function getPublicUser(deps: AppDeps, userId: string): Promise<PublicUser> {
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: userId } });
  return toPublicUser(user);
}
