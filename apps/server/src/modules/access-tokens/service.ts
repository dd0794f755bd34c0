import { randomBytes } from 'node:crypto';
import {
  MAX_PERSONAL_TOKENS,
  PERSONAL_TOKEN_PREFIX,
  personalTokenScopeSchema,
  type PersonalToken,
  type PersonalTokenCreated,
  type PersonalTokenCreateInput,
} from '@mbox/shared';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import type { PersonalAccessToken } from '../../generated/prisma/client.js';
import { credentialCache, forgetCredentials } from '../auth/credential-cache.js';
import type { AuthUser } from '../auth/service.js';
import { authUserSelect, CredentialRefused, sha256 } from '../auth/sessions.js';

/*
 * Personal access tokens (docs/mcp.md, "Personal access tokens"): long-lived bearer credentials an
 * owner creates for scripts and AI assistants (the REST API and /mcp), each named and of one scope.
 * Stored as extension tokens are: only the SHA-256 of the secret, so it is shown once.
 */

/** Last use is recorded at most once a minute, as for extension tokens and sessions. */
const LAST_USED_RESOLUTION_MS = 60_000;

function toDto(row: PersonalAccessToken): PersonalToken {
  return {
    id: row.id,
    name: row.name,
    // Written only from the schema's values; anything else would be a row edited by hand.
    scope: personalTokenScopeSchema.parse(row.scope),
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
  };
}

/** Creates a token; its secret is in the answer only. An account holds at most MAX_PERSONAL_TOKENS live ones. */
export async function issuePersonalToken(deps: AppDeps, userId: string, input: PersonalTokenCreateInput): Promise<PersonalTokenCreated> {
  const live = await deps.db.personalAccessToken.count({ where: { userId, revokedAt: null } });
  if (live >= MAX_PERSONAL_TOKENS) {
    throw new AppError('BAD_REQUEST', `An account holds at most ${MAX_PERSONAL_TOKENS} access tokens: revoke one you no longer use first`);
  }
  const token = `${PERSONAL_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await deps.db.personalAccessToken.create({
    data: { userId, tokenHash: sha256(token), name: input.name, scope: input.scope },
  });
  return { token, accessToken: toDto(row) };
}

/** The user's tokens that still work, newest first. */
export async function listPersonalTokens(deps: AppDeps, userId: string): Promise<PersonalToken[]> {
  const rows = await deps.db.personalAccessToken.findMany({ where: { userId, revokedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return rows.map(toDto);
}

/** Revokes one of the user's tokens; every instance stops accepting it at once (the credential cache). */
export async function revokePersonalToken(deps: AppDeps, userId: string, id: string): Promise<void> {
  const { count } = await deps.db.personalAccessToken.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw new AppError('NOT_FOUND', `No active access token with id ${id}`);
  forgetCredentials(deps, { userId, personalTokenId: id });
}

async function recordPersonalTokenUse(deps: AppDeps, token: string, tokenId: string, lastUsedAt: number | null): Promise<void> {
  const now = Date.now();
  if (lastUsedAt !== null && now - lastUsedAt <= LAST_USED_RESOLUTION_MS) return;
  credentialCache(deps).touch(token, now);
  // updateMany: a token deleted meanwhile (its account deleted) is no failure here; the call is refused later.
  await deps.db.personalAccessToken.updateMany({ where: { id: tokenId }, data: { lastUsedAt: new Date(now) } });
}

/** The owner of a personal access token, with its scope; throws CredentialRefused naming why it does not work. */
export async function authenticatePersonalToken(deps: AppDeps, token: string): Promise<AuthUser> {
  const cache = credentialCache(deps);
  const cached = cache.get(token);
  if (cached?.personalTokenId) {
    await recordPersonalTokenUse(deps, token, cached.personalTokenId, cached.lastUsedAt || null);
    return cached.user;
  }
  const ticket = cache.begin();
  const found = await deps.db.personalAccessToken.findUnique({
    where: { tokenHash: sha256(token) },
    include: { user: { select: authUserSelect } },
  });
  // The token and its user are read by separate queries: an account deleted in between leaves no user.
  if (!found || !(found.user as typeof found.user | null)) {
    throw new CredentialRefused('Access token unknown: create one in Settings › Access tokens');
  }
  if (found.revokedAt) throw new CredentialRefused('Access token revoked: create a new one in Settings › Access tokens');
  const user: AuthUser = { ...found.user, via: 'personal-token', scope: toDto(found).scope };
  const lastUsedAt = found.lastUsedAt?.getTime() ?? null;
  cache.set(ticket, token, {
    user,
    sessionId: null,
    extensionTokenId: null,
    personalTokenId: found.id,
    // Personal tokens do not expire: the entry ends with the cache's own TTL or a revocation.
    expiresAt: Number.MAX_SAFE_INTEGER,
    lastUsedAt: lastUsedAt ?? 0,
  });
  await recordPersonalTokenUse(deps, token, found.id, lastUsedAt);
  return user;
}

/**
 * Refuses a change made with a `read` personal access token (403 naming the missing scope). Sessions
 * carry every right; extension tokens are refused by the procedure ladder before this matters.
 */
export function requireWriteScope(user: AuthUser, what: string): void {
  if (user.via !== 'personal-token' || user.scope === 'write') return;
  throw new AppError('FORBIDDEN', `This access token has the ${user.scope} scope: ${what} needs the write scope`);
}
