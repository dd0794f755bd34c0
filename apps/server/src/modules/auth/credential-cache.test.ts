import { describe, expect, it } from 'vitest';
import { EventBus } from '../../events.js';
import { CACHE_TTL_MS, CredentialCache, credentialCache, forgetCredentials, type CachedCredential } from './credential-cache.js';
import type { AuthUser } from './service.js';

const user = (id: string): AuthUser => ({
  id,
  email: `${id}@example.com`,
  name: id,
  avatarUrl: '',
  isPremium: false,
  premiumUntil: null,
  timezone: 'UTC',
  via: 'session',
});
const credential = (userId: string, extra: Partial<CachedCredential> = {}): CachedCredential => ({
  user: user(userId),
  sessionId: `s-${userId}`,
  extensionTokenId: null,
  personalTokenId: null,
  expiresAt: 10_000_000,
  lastUsedAt: 0,
  ...extra,
});

describe('credential cache', () => {
  it('answers a stored credential until its TTL or its own expiry, whichever comes first', () => {
    const cache = new CredentialCache();
    cache.set(cache.begin(), 'token-a', credential('a'), 1_000);
    expect(cache.get('token-a', 1_000 + CACHE_TTL_MS - 1)?.user.id).toBe('a');
    expect(cache.get('token-a', 1_000 + CACHE_TTL_MS)).toBeNull();

    cache.set(cache.begin(), 'token-b', credential('b', { expiresAt: 5_000 }), 1_000);
    expect(cache.get('token-b', 4_999)?.user.id).toBe('b');
    expect(cache.get('token-b', 5_000)).toBeNull();
    expect(cache.get('token-unknown', 1_000)).toBeNull();
  });

  it('does not store what a lookup read before an invalidation came in', () => {
    const cache = new CredentialCache();
    const ticket = cache.begin();
    cache.invalidate({ userId: 'someone-else' });
    cache.set(ticket, 'token-a', credential('a'), 0);
    expect(cache.get('token-a', 1)).toBeNull();
  });

  it('drops one session, one extension token, one personal token, or everything of a user', () => {
    const cache = new CredentialCache();
    cache.set(cache.begin(), 'a1', credential('a', { sessionId: 's1' }), 0);
    cache.set(cache.begin(), 'a2', credential('a', { sessionId: 's2' }), 0);
    cache.set(cache.begin(), 'a3', credential('a', { sessionId: null, extensionTokenId: 'x1' }), 0);
    cache.set(cache.begin(), 'a4', credential('a', { sessionId: null, personalTokenId: 'p1' }), 0);
    cache.set(cache.begin(), 'b1', credential('b'), 0);
    cache.invalidate({ userId: 'a', sessionId: 's1' });
    expect(['a1', 'a2', 'a3', 'a4', 'b1'].map((t) => cache.get(t, 1) !== null)).toEqual([false, true, true, true, true]);
    cache.invalidate({ userId: 'a', extensionTokenId: 'x1' });
    expect(['a2', 'a3', 'a4', 'b1'].map((t) => cache.get(t, 1) !== null)).toEqual([true, false, true, true]);
    cache.invalidate({ userId: 'a', personalTokenId: 'p1' });
    expect(['a2', 'a4', 'b1'].map((t) => cache.get(t, 1) !== null)).toEqual([true, false, true]);
    cache.invalidate({ userId: 'a' });
    expect(['a2', 'b1'].map((t) => cache.get(t, 1) !== null)).toEqual([false, true]);
  });

  it('holds at most 10,000 entries, the oldest going first', () => {
    const cache = new CredentialCache();
    for (let i = 0; i <= 10_000; i++) cache.set(cache.begin(), `t${i}`, credential(`u${i}`), 0);
    expect(cache.size).toBe(10_000);
    expect(cache.get('t0', 1)).toBeNull();
    expect(cache.get('t10000', 1)?.user.id).toBe('u10000');
  });

  it('forgets on this instance at once and tells the others through the bus', async () => {
    const bus = new EventBus();
    await bus.start();
    const published: unknown[] = [];
    bus.listen('auth.invalidate', null, (change) => published.push(change));
    const cache = credentialCache({ events: bus });
    cache.set(cache.begin(), 'token', credential('a'));
    forgetCredentials({ events: bus }, { userId: 'a' });
    expect(cache.get('token')).toBeNull();
    expect(published).toEqual([{ userId: 'a' }]);
    // An invalidation from another instance arrives through the bus alone.
    cache.set(cache.begin(), 'token', credential('a'));
    bus.emit('auth.invalidate', { userId: 'a' });
    expect(cache.get('token')).toBeNull();
    await bus.close();
  });
});
