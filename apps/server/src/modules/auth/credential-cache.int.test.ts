import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { credentialCache } from './credential-cache.js';

const startedAt = Date.UTC(2026, 10, 20, 23, 30);

/** Every call below is made with credentials the cache already holds: revocation must still win at once. */
describe('credential cache: revocation and user changes take effect at once', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const cache = () => credentialCache(app.deps);
  const ingest = (token: string, sessionId = 'cache-1') =>
    app.rest('POST', '/v1/transcript/lines', {
      token,
      body: { meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt }, lines: [{ captionId: 'c1', revision: 0, speaker: 'Ana', text: 'Hi', spokenAt: startedAt, final: true }] },
    });
  const extensionToken = async (session: string) =>
    (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: session })).body.token;
  const me = (token: string) => app.rest('GET', '/v1/auth/me', { token });

  it('answers known credentials from memory: no session or token row is read', async () => {
    const session = await app.signIn('cached@example.com');
    const extension = await extensionToken(session);
    expect((await me(session)).status).toBe(200);
    expect((await ingest(extension)).status).toBe(200);
    // Rows gone from under the cache: the calls still pass, so they were answered from memory.
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'cached@example.com' } });
    const [sessions, tokens] = await Promise.all([
      app.deps.db.session.findMany({ where: { userId: user.id } }),
      app.deps.db.extensionToken.findMany({ where: { userId: user.id } }),
    ]);
    await app.deps.db.session.deleteMany({ where: { userId: user.id } });
    await app.deps.db.extensionToken.deleteMany({ where: { userId: user.id } });
    expect((await me(session)).status).toBe(200);
    expect((await ingest(extension)).status).toBe(200);
    await app.deps.db.session.createMany({ data: sessions });
    await app.deps.db.extensionToken.createMany({ data: tokens });
  });

  it('refuses a revoked session and a disconnected extension on the very next call', async () => {
    const session = await app.signIn('revoke@example.com');
    const other = await app.signIn('revoke@example.com');
    const first = await extensionToken(session);
    const second = await extensionToken(session);
    for (const token of [session, other]) expect((await me(token)).status).toBe(200);
    for (const token of [first, second]) expect((await ingest(token)).status).toBe(200);

    const { sessions } = (await app.rest<{ sessions: { id: string; current: boolean }[] }>('GET', '/v1/auth/sessions', { token: session })).body;
    const otherId = sessions.find((s) => !s.current)!.id;
    expect((await app.rest('DELETE', `/v1/auth/sessions/${otherId}`, { token: session })).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await me(session)).status).toBe(200);

    const { tokens } = (await app.rest<{ tokens: { id: string }[] }>('GET', '/v1/auth/extension-tokens', { token: session })).body;
    expect((await app.rest('DELETE', `/v1/auth/extension-tokens/${tokens[0]!.id}`, { token: session })).status).toBe(200);
    expect((await ingest(second)).status).toBe(401);
    expect((await ingest(first)).status).toBe(200);
  });

  it('signs out everywhere at once: every cached session and extension of the user, no one else', async () => {
    const a = await app.signIn('everywhere@example.com');
    const b = await app.signIn('everywhere@example.com');
    const extension = await extensionToken(a);
    const bystander = await app.signIn('bystander@example.com');
    for (const token of [a, b, bystander]) expect((await me(token)).status).toBe(200);
    expect((await ingest(extension)).status).toBe(200);

    expect((await app.rest('POST', '/v1/auth/logout-everywhere', { token: a, body: { extensionTokens: true } })).status).toBe(200);
    for (const token of [a, b]) expect((await me(token)).status).toBe(401);
    expect((await ingest(extension)).status).toBe(401);
    expect((await me(bystander)).status).toBe(200);
  });

  it('signing out (logout) ends the cached access token', async () => {
    const token = await app.signIn('logout@example.com');
    expect((await me(token)).status).toBe(200);
    expect((await app.rest('POST', '/v1/auth/logout', { token })).status).toBe(200);
    expect((await me(token)).status).toBe(401);
  });

  it('premium earned by a referral counts on the next call', async () => {
    const referrer = await app.signIn('referrer@example.com');
    const acceptor = await app.signIn('acceptor@example.com');
    const meetingKey = (await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token: acceptor,
      body: { meeting: { sessionId: 'premium-1', meetCode: 'abc-defg-hij', startedAt }, lines: [] },
    })).body.meetingKey;
    const encrypt = () => app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token: acceptor });
    expect((await encrypt()).status).toBe(403);
    const link = (await app.rest<{ link: string }>('GET', '/v1/referral', { token: referrer })).body.link;
    const code = new URL(link).searchParams.get('code')!;
    expect((await app.rest('GET', `/v1/referral/${code}`, { token: acceptor })).status).toBe(200);
    expect((await encrypt()).status).toBe(200);
  });

  it('a new timezone counts on the next call', async () => {
    const token = await app.signIn('zone@example.com');
    const seeded = await app.rest('POST', '/v1/transcript/lines', {
      token,
      body: { meeting: { sessionId: 'zone-1', meetCode: 'abc-defg-hij', startedAt }, lines: [] },
    });
    expect(seeded.status).toBe(200);
    const day = async () =>
      (await app.rest<{ groups: { day: string }[] }>('GET', '/v1/meeting-list/grouped', { token })).body.groups.map((g) => g.day);
    expect(await day()).toEqual(['2026-11-20']);
    expect((await app.rest('PUT', '/v1/user-settings', { token, body: { timezone: 'Asia/Tokyo' } })).status).toBe(200);
    expect(await day()).toEqual(['2026-11-21']);
  });

  it('drops what another instance invalidates (an auth.invalidate event from the bus)', async () => {
    const token = await app.signIn('remote@example.com');
    expect((await me(token)).status).toBe(200);
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'remote@example.com' } });
    const cached = () => cache().get(token)?.user.id;
    expect(cached()).toBe(user.id);
    // As the event arrives from another instance: only the bus, not this instance's forgetCredentials.
    app.deps.events.emit('auth.invalidate', { userId: user.id, sessionId: 'some-other-session' });
    expect(cached()).toBe(user.id);
    app.deps.events.emit('auth.invalidate', { userId: user.id });
    expect(cached()).toBeUndefined();
    // The row is read again: revoked behind the server's back, the next call is refused.
    await app.deps.db.session.updateMany({ where: { userId: user.id }, data: { revokedAt: new Date() } });
    expect((await me(token)).status).toBe(401);
  });
});
