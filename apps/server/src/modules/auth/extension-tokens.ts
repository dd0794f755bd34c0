import { randomBytes } from 'node:crypto';
import { EXTENSION_TOKEN_PREFIX, type ExtensionTokenInfo } from '@mbox/shared';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import { credentialCache, forgetCredentials } from './credential-cache.js';
import type { AuthUser } from './service.js';
import { authUserSelect, CredentialRefused, sha256 } from './sessions.js';

/*
 * The extension's own credential: minted for a signed-in session (auth.extensionToken), handed over
 * through the bridge, sent by the extension with each capture call.
 */

/** Unused for this long, an extension token expires. */
const EXTENSION_TOKEN_TTL_MS = 90 * 24 * 3600 * 1000;

/** Issues an extension token; only its hash is stored, so it is shown once. Unused for 90 days, it expires. */
export async function issueExtensionToken(deps: AppDeps, userId: string, label = ''): Promise<string> {
  const token = `${EXTENSION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(Date.now() + EXTENSION_TOKEN_TTL_MS);
  await deps.db.extensionToken.create({ data: { userId, tokenHash: sha256(token), label, expiresAt } });
  return token;
}

/** The user's extension tokens that still work (connected extensions), newest first. */
export async function listExtensionTokens(deps: AppDeps, userId: string): Promise<ExtensionTokenInfo[]> {
  const rows = await deps.db.extensionToken.findMany({
    where: { userId, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'desc' },
  });
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
    expiresAt: row.expiresAt.getTime(),
  }));
}

/** Revokes one extension token of the user (one browser's extension). */
export async function revokeExtensionToken(deps: AppDeps, userId: string, id: string): Promise<void> {
  const { count } = await deps.db.extensionToken.updateMany({
    where: { id, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw new AppError('NOT_FOUND', `No active extension token with id ${id}`);
  forgetCredentials(deps, { userId, extensionTokenId: id });
}

/** Revokes every extension token of a user (sign-out everywhere, or a lost device). */
export async function revokeExtensionTokens(deps: AppDeps, userId: string): Promise<number> {
  const { count } = await deps.db.extensionToken.updateMany({
    where: { userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  forgetCredentials(deps, { userId });
  return count;
}

/** Record use, and renew the 90 days, at most once a minute: one write per ingest batch would be wasteful. */
async function recordExtensionUse(deps: AppDeps, token: string, tokenId: string, lastUsedAt: number | null): Promise<void> {
  const now = Date.now();
  if (lastUsedAt !== null && now - lastUsedAt <= 60_000) return;
  credentialCache(deps).touch(token, now, now + EXTENSION_TOKEN_TTL_MS);
  // updateMany: a token deleted meanwhile (its account deleted) is no failure here; the call is refused later.
  await deps.db.extensionToken.updateMany({
    where: { id: tokenId },
    data: { lastUsedAt: new Date(now), expiresAt: new Date(now + EXTENSION_TOKEN_TTL_MS) },
  });
}

/** The owner of an extension token; throws CredentialRefused naming why it no longer works. */
export async function authenticateExtension(deps: AppDeps, token: string): Promise<AuthUser> {
  const cache = credentialCache(deps);
  const cached = cache.get(token);
  if (cached?.extensionTokenId) {
    await recordExtensionUse(deps, token, cached.extensionTokenId, cached.lastUsedAt);
    return cached.user;
  }
  const ticket = cache.begin();
  const found = await deps.db.extensionToken.findUnique({
    where: { tokenHash: sha256(token) },
    include: { user: { select: authUserSelect } },
  });
  const now = Date.now();
  // The token and its user are read by separate queries: an account deleted in between leaves no user.
  if (!found || !(found.user as typeof found.user | null)) {
    throw new CredentialRefused('Extension token unknown: sign in to the web app again to reconnect the extension');
  }
  if (found.revokedAt) {
    throw new CredentialRefused('Extension token revoked: sign in to the web app again to reconnect the extension');
  }
  if (found.expiresAt.getTime() <= now) {
    throw new CredentialRefused('Extension token expired after 90 days unused: sign in to the web app again to reconnect the extension');
  }
  const user: AuthUser = { ...found.user, via: 'extension' };
  const lastUsedAt = found.lastUsedAt?.getTime() ?? null;
  cache.set(ticket, token, { user, sessionId: null, extensionTokenId: found.id, personalTokenId: null, expiresAt: found.expiresAt.getTime(), lastUsedAt: lastUsedAt ?? 0 });
  await recordExtensionUse(deps, token, found.id, lastUsedAt);
  return user;
}
