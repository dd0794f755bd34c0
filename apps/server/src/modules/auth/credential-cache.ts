import { createHash } from 'node:crypto';
import type { AppDeps } from '../../deps.js';
import type { EventBus, EventMap } from '../../events.js';
import type { AuthUser } from './service.js';

/** Entries are keyed by the token's hash: the cache holds no credential a heap dump could replay. */
const keyOf = (token: string) => createHash('sha256').update(token).digest('base64');

/**
 * Resolved bearer credentials kept in memory, so a request costs no query to learn who sent it: an
 * access token → its session and user, an extension or personal access token → the token row and user.
 *
 * An entry is dropped at once, on this instance and (through the event bus) on every other one, when
 * its session or token is revoked, when the user signs out everywhere and when a field the cached
 * user carries changes (premium, settings): see forgetCredentials and its callers. Entries also end
 * with the credential itself (access token or session expiry, extension token expiry) and after
 * CACHE_TTL_MS whatever happens, so an invalidation lost between instances heals on its own.
 */
export const CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

export interface CachedCredential {
  user: AuthUser;
  /** The session of an access token; null for an extension token. */
  sessionId: string | null;
  /** The row of an extension token; null for other credentials. */
  extensionTokenId: string | null;
  /** The row of a personal access token; null for other credentials. */
  personalTokenId: string | null;
  /** Epoch ms when the credential stops working by itself (token or session expiry). */
  expiresAt: number;
  /** Epoch ms of the last use recorded in the database (renewed at most once a minute). */
  lastUsedAt: number;
}

interface Entry extends CachedCredential {
  cachedAt: number;
}

type Invalidation = EventMap['auth.invalidate'];

export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a lookup that started before one does not store what it read. */
  private epoch = 0;

  constructor(private readonly ttlMs = CACHE_TTL_MS) {}

  /** The credential's entry while it is fresh and unexpired; null sends the caller to the database. */
  get(token: string, now = Date.now()): CachedCredential | null {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (now - entry.cachedAt >= this.ttlMs || entry.expiresAt <= now) {
      this.entries.delete(key);
      return null;
    }
    return entry;
  }

  /** Call before reading a credential from the database; pass the result to `set`. */
  begin(): number {
    return this.epoch;
  }

  /** Keeps what a lookup read, unless an invalidation came in since it began (it may have read old rows). */
  set(ticket: number, token: string, credential: CachedCredential, now = Date.now()): void {
    if (ticket !== this.epoch) return;
    const key = keyOf(token);
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) {
      // The oldest insertion goes first (Map keeps insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { ...credential, cachedAt: now });
  }

  /** Records a renewed last use on the cached entry, so the next calls do not renew again. */
  touch(token: string, lastUsedAt: number, expiresAt?: number): void {
    const entry = this.entries.get(keyOf(token));
    if (!entry) return;
    entry.lastUsedAt = lastUsedAt;
    if (expiresAt !== undefined) entry.expiresAt = expiresAt;
  }

  /** Drops the entries an invalidation names: one session, one extension or personal token, or all of the user's. */
  invalidate({ userId, sessionId, extensionTokenId, personalTokenId }: Invalidation): void {
    this.epoch++;
    const whole = sessionId === undefined && extensionTokenId === undefined && personalTokenId === undefined;
    for (const [key, entry] of this.entries) {
      if (entry.user.id !== userId) continue;
      if (
        whole ||
        (sessionId !== undefined && entry.sessionId === sessionId) ||
        (extensionTokenId !== undefined && entry.extensionTokenId === extensionTokenId) ||
        (personalTokenId !== undefined && entry.personalTokenId === personalTokenId)
      ) {
        this.entries.delete(key);
      }
    }
  }

  /** Drops everything (tests that change credential or user rows behind the services' back). */
  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** One cache per event bus (per running server), listening to invalidations from every instance. */
const caches = new WeakMap<EventBus, CredentialCache>();

export function credentialCache(deps: Pick<AppDeps, 'events'>): CredentialCache {
  let cache = caches.get(deps.events);
  if (!cache) {
    const created = new CredentialCache();
    deps.events.listen('auth.invalidate', null, (change) => created.invalidate(change));
    caches.set(deps.events, created);
    cache = created;
  }
  return cache;
}

/**
 * Call after a change to credentials or to the user fields they carry has been committed: this
 * instance forgets the cached entries at once, the others when the event reaches them.
 */
export function forgetCredentials(deps: Pick<AppDeps, 'events'>, change: Invalidation): void {
  credentialCache(deps).invalidate(change);
  deps.events.emit('auth.invalidate', change);
}
