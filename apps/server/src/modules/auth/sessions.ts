import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { ApiSession, SessionInfo } from '@mbox/shared';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import { credentialCache, forgetCredentials, type CredentialCache } from './credential-cache.js';
import type { AuthUser } from './service.js';

/**
 * A sign-in is a Session row. Its access token is a short JWT naming the session, so revoking the row
 * ends every access token at once (revocation also empties the credential cache on every instance);
 * its refresh token is random, stored as a hash, and replaced on every refresh.
 */
export const ACCESS_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** Like extension tokens: last use is recorded at most once a minute, not on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;
const ISSUER = 'mbox-local';
const AUDIENCE = 'mbox-access';
const REFRESH_TOKEN_PREFIX = 'mbox_rt_';

export const authUserSelect = {
  id: true,
  email: true,
  name: true,
  avatarUrl: true,
  isPremium: true,
  premiumUntil: true,
  timezone: true,
} as const;

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export interface IssuedSession extends ApiSession {
  sessionId: string;
  /** Epoch ms when the refresh token (and the session, unless refreshed) ends. */
  refreshExpiresAt: number;
}

/** Why a presented credential was refused: the 401 of any call that needs a user says so. */
export class CredentialRefused extends Error {
  override name = 'CredentialRefused';
}

async function signAccessToken(deps: AppDeps, userId: string, sessionId: string, now: number) {
  const expiresAt = now + ACCESS_TTL_MS;
  const token = await new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(deps.secrets.authSecret);
  return { token, expiresAt };
}

function newRefreshToken(): string {
  return `${REFRESH_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Starts a session for a user who just proved who they are (local sign-in, Firebase exchange). */
export async function createSession(deps: AppDeps, userId: string, userAgent: string): Promise<IssuedSession> {
  const now = Date.now();
  const refreshToken = newRefreshToken();
  const refreshExpiresAt = now + SESSION_TTL_MS;
  const session = await deps.db.session.create({
    data: {
      userId,
      refreshHash: sha256(refreshToken),
      userAgent: userAgent.slice(0, 500),
      createdAt: new Date(now),
      lastUsedAt: new Date(now),
      expiresAt: new Date(refreshExpiresAt),
    },
  });
  const access = await signAccessToken(deps, userId, session.id, now);
  return { sessionId: session.id, token: access.token, expiresAt: access.expiresAt, refreshToken, refreshExpiresAt };
}

/**
 * Trades a refresh token for a new pair. The old refresh token stops working (it is swapped in the same
 * conditional update that checks it), so a stolen one is good for one use at most.
 */
export async function refreshSession(deps: AppDeps, refreshToken: string): Promise<IssuedSession> {
  const refused = () =>
    new AppError('UNAUTHORIZED', 'Refresh token unknown, used already, expired or signed out: sign in again');
  const now = Date.now();
  const oldHash = sha256(refreshToken);
  const session = await deps.db.session.findUnique({ where: { refreshHash: oldHash } });
  if (!session || session.revokedAt || session.expiresAt.getTime() <= now) throw refused();
  const next = newRefreshToken();
  const refreshExpiresAt = now + SESSION_TTL_MS;
  const { count } = await deps.db.session.updateMany({
    where: { id: session.id, refreshHash: oldHash, revokedAt: null },
    data: { refreshHash: sha256(next), lastUsedAt: new Date(now), expiresAt: new Date(refreshExpiresAt) },
  });
  if (count !== 1) throw refused();
  const access = await signAccessToken(deps, session.userId, session.id, now);
  return { sessionId: session.id, token: access.token, expiresAt: access.expiresAt, refreshToken: next, refreshExpiresAt };
}

/** True for a token this server signed as an access token (HS256), as opposed to a Firebase ID token. */
export function looksLikeAccessToken(token: string): boolean {
  const header = token.split('.')[0];
  if (!header) return false;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && 'alg' in parsed && parsed.alg === 'HS256';
  } catch {
    return false;
  }
}

/**
 * Resolves an access token to its user and session: from the credential cache, else in one query (the
 * session row comes with the user), so a revoked or expired session refuses its access tokens at once.
 */
export async function authenticateAccessToken(
  deps: AppDeps,
  token: string,
): Promise<{ user: AuthUser; sessionId: string }> {
  const cache = credentialCache(deps);
  const cached = cache.get(token);
  if (cached?.sessionId) {
    await recordSessionUse(deps, cache, token, cached.sessionId, cached.lastUsedAt);
    return { user: cached.user, sessionId: cached.sessionId };
  }
  const ticket = cache.begin();
  let userId: string;
  let sessionId: string;
  let tokenExpiresAt: number;
  try {
    const { payload } = await jwtVerify(token, deps.secrets.authSecret, { issuer: ISSUER, audience: AUDIENCE });
    if (!payload.sub || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') throw new Error('no subject, session or expiry');
    userId = payload.sub;
    sessionId = payload.sid;
    tokenExpiresAt = payload.exp * 1000;
  } catch {
    throw new CredentialRefused('Access token invalid or expired: refresh it or sign in again');
  }
  const session = await deps.db.session.findUnique({
    where: { id: sessionId },
    select: { userId: true, revokedAt: true, expiresAt: true, lastUsedAt: true, user: { select: authUserSelect } },
  });
  const now = Date.now();
  // The session and its user are read by separate queries: an account deleted in between leaves no user.
  if (!session || session.userId !== userId || !(session.user as typeof session.user | null)) {
    throw new CredentialRefused('Session unknown: sign in again');
  }
  if (session.revokedAt) throw new CredentialRefused('This session was signed out: sign in again');
  if (session.expiresAt.getTime() <= now) throw new CredentialRefused('This session expired: sign in again');
  const user: AuthUser = { ...session.user, via: 'session' };
  cache.set(ticket, token, {
    user,
    sessionId,
    extensionTokenId: null,
    personalTokenId: null,
    expiresAt: Math.min(tokenExpiresAt, session.expiresAt.getTime()),
    lastUsedAt: session.lastUsedAt.getTime(),
  });
  await recordSessionUse(deps, cache, token, sessionId, session.lastUsedAt.getTime());
  return { user, sessionId };
}

async function recordSessionUse(deps: AppDeps, cache: CredentialCache, token: string, sessionId: string, lastUsedAt: number): Promise<void> {
  const now = Date.now();
  if (now - lastUsedAt <= LAST_USED_RESOLUTION_MS) return;
  cache.touch(token, now);
  // updateMany: a session deleted meanwhile (its account deleted) is no failure here.
  await deps.db.session.updateMany({ where: { id: sessionId }, data: { lastUsedAt: new Date(now) } });
}

/** The user's sessions that still work, newest use first. */
export async function listSessions(deps: AppDeps, userId: string, currentSessionId: string | null): Promise<SessionInfo[]> {
  const rows = await deps.db.session.findMany({
    where: { userId, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { lastUsedAt: 'desc' },
  });
  return rows.map((row) => ({
    id: row.id,
    userAgent: row.userAgent,
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
    current: row.id === currentSessionId,
  }));
}

/** Ends one session of the user; its access and refresh tokens stop working at once. */
export async function revokeSession(deps: AppDeps, userId: string, sessionId: string): Promise<void> {
  const { count } = await deps.db.session.updateMany({
    where: { id: sessionId, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw new AppError('NOT_FOUND', `No active session with id ${sessionId}`);
  forgetCredentials(deps, { userId, sessionId });
}

export async function revokeAllSessions(deps: AppDeps, userId: string): Promise<number> {
  const { count } = await deps.db.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
  forgetCredentials(deps, { userId });
  return count;
}
