import { request as httpRequest } from 'node:http';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { ACCESS_COOKIE, CSRF_COOKIE, REFRESH_COOKIE, type LoginOutput } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { fetchDocument, fillPath, operationsOf } from '../../test/openapi-document.js';
import { appRouter } from '../../trpc/app-router.js';
import { WebSession } from '../../test/web-session.js';
import { credentialCache } from './credential-cache.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A request with a Host header of our choosing (fetch will not send one). */
function requestWithHost(url: string, host: string, path: string, body: unknown): Promise<{ status: number; body: { message: string } }> {
  const { hostname, port } = new URL(url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, path, method: 'POST', headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { message: string } }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('sessions and tokens', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL: 'https://mbox.example.org' });
  });
  afterAll(() => app.close());

  const login = async (email: string) => {
    const response = await app.rest<LoginOutput>('POST', '/v1/auth/login', { body: { email } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const status = async (method: string, path: string, token?: string, body?: unknown) =>
    (await app.rest(method, path, { token, body })).status;

  it('answers API clients a 15-minute access token and a refresh token; the old 30-day JWT is refused', async () => {
    const before = Date.now();
    const session = await login('api@example.com');
    expect(session.expiresAt).toBeGreaterThanOrEqual(before + 15 * MINUTE - 1000);
    expect(session.expiresAt).toBeLessThanOrEqual(Date.now() + 15 * MINUTE);
    expect(session.refreshToken).toMatch(/^mbox_rt_/);
    expect(await status('GET', '/v1/auth/me', session.token)).toBe(200);

    // What the server signed before sessions: a 30-day JWT naming only the user. Still valid by its
    // signature and expiry, it must not sign anyone in any more: it cannot be revoked.
    const legacy = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.user.id)
      .setIssuer('mbox-local')
      .setIssuedAt()
      .setExpirationTime('30d')
      .sign(app.deps.secrets.authSecret);
    const refused = await app.rest<{ message: string }>('GET', '/v1/auth/me', { token: legacy });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/Access token invalid or expired/);
  });

  it('refuses an access token past its 15 minutes', async () => {
    const session = await login('late@example.com');
    const row = await app.deps.db.session.findFirstOrThrow({ where: { userId: session.user.id } });
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ sid: row.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.user.id)
      .setIssuer('mbox-local')
      .setAudience('mbox-access')
      .setIssuedAt(now - 16 * 60)
      .setExpirationTime(now - 60)
      .sign(app.deps.secrets.authSecret);
    expect(await status('GET', '/v1/auth/me', expired)).toBe(401);
  });

  it('rotates the refresh token: the new pair works, the old refresh token is good for one use only', async () => {
    const session = await login('rotate@example.com');
    const refreshed = await app.rest<{ token: string; refreshToken: string; expiresAt: number }>('POST', '/v1/auth/refresh', {
      body: { refreshToken: session.refreshToken },
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.refreshToken).not.toBe(session.refreshToken);
    expect(await status('GET', '/v1/auth/me', refreshed.body.token)).toBe(200);
    const replay = await app.rest<{ message: string }>('POST', '/v1/auth/refresh', { body: { refreshToken: session.refreshToken } });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/Refresh token unknown, used already/);
    expect((await app.rest('POST', '/v1/auth/refresh', { body: {} })).status).toBe(401);
  });

  it('lists sessions, and a revoked session refuses its access token and refresh token at once', async () => {
    const first = await login('revoke@example.com');
    const second = await login('revoke@example.com');
    const list = await app.rest<{ sessions: { id: string; current: boolean; userAgent: string }[] }>('GET', '/v1/auth/sessions', {
      token: first.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(2);
    const current = list.body.sessions.find((s) => s.current);
    const other = list.body.sessions.find((s) => !s.current);
    expect(current && other).toBeTruthy();

    expect(await status('DELETE', `/v1/auth/sessions/${other?.id}`, first.token)).toBe(200);
    expect(await status('GET', '/v1/auth/me', second.token)).toBe(401);
    expect((await app.rest('POST', '/v1/auth/refresh', { body: { refreshToken: second.refreshToken } })).status).toBe(401);
    expect(await status('GET', '/v1/auth/me', first.token)).toBe(200);
    // Someone else's session, or one already ended: 404.
    const stranger = await login('stranger@example.com');
    expect(await status('DELETE', `/v1/auth/sessions/${current?.id}`, stranger.token)).toBe(404);
    expect(await status('DELETE', `/v1/auth/sessions/${other?.id}`, first.token)).toBe(404);

    expect((await app.rest<{ revoked: boolean }>('POST', '/v1/auth/logout', { token: first.token })).body).toEqual({ revoked: true });
    expect(await status('GET', '/v1/auth/me', first.token)).toBe(401);
  });

  it('signs out everywhere: every session, and extension tokens unless told to keep them', async () => {
    const a = await login('everywhere@example.com');
    const b = await login('everywhere@example.com');
    const ext = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: a.token })).body.token;
    const keep = await app.rest<{ sessions: number; extensionTokens: number }>('POST', '/v1/auth/logout-everywhere', {
      token: a.token,
      body: { extensionTokens: false },
    });
    expect(keep.body).toEqual({ sessions: 2, extensionTokens: 0 });
    expect(await status('GET', '/v1/auth/me', a.token)).toBe(401);
    expect(await status('GET', '/v1/auth/me', b.token)).toBe(401);
    expect(await status('POST', '/v1/transcript/end', ext, { sessionId: 'none', finishedAt: Date.now() })).toBe(200);

    const c = await login('everywhere@example.com');
    const all = await app.rest<{ sessions: number; extensionTokens: number }>('POST', '/v1/auth/logout-everywhere', { token: c.token });
    expect(all.body).toEqual({ sessions: 1, extensionTokens: 1 });
    expect(await status('POST', '/v1/transcript/end', ext, { sessionId: 'none', finishedAt: Date.now() })).toBe(401);
  });
});

describe('extension token scope and lifetime', () => {
  let app: TestApp;
  let session: string;
  let extension: string;
  beforeAll(async () => {
    app = await startTestApp();
    session = await app.signIn('ext@example.com');
    extension = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: session })).body.token;
  });
  afterAll(() => app.close());

  const startedAt = Date.UTC(2026, 0, 12, 9, 0);
  const ingest = (token: string, sessionId = 'scope-1') =>
    app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId, meetCode: 'abc-defg-hij', title: 'Scope', startedAt },
        lines: [{ captionId: 'c1', revision: 0, speaker: 'Ana', text: 'Hello', spokenAt: startedAt, final: true }],
      },
    });

  it('lets the extension send lines, gaps and meeting ends, and nothing else', async () => {
    const lines = await ingest(extension);
    expect(lines.status, JSON.stringify(lines.body)).toBe(200);
    const gaps = await app.rest('POST', '/v1/transcript/events', {
      token: extension,
      body: {
        meeting: { sessionId: 'scope-1', meetCode: 'abc-defg-hij', title: 'Scope', startedAt },
        events: [{ eventId: 'g1', kind: 'captions-off', startedAt, endedAt: startedAt + MINUTE }],
      },
    });
    expect(gaps.status, JSON.stringify(gaps.body)).toBe(200);
    expect((await app.rest('POST', '/v1/transcript/end', { token: extension, body: { sessionId: 'scope-1', finishedAt: startedAt + MINUTE } })).status).toBe(200);

    for (const [method, path] of [
      ['POST', '/v1/auth/extension-token'],
      ['GET', '/v1/auth/extension-tokens'],
      ['GET', '/v1/auth/me'],
      ['GET', '/v1/auth/sessions'],
      ['GET', `/v1/meeting/${lines.body.meetingKey}`],
      ['GET', '/v1/user-settings'],
    ] as const) {
      const refused = await app.rest<{ message: string }>(method, path, { token: extension });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.message).toBe('Extension tokens may only send transcripts and end meetings: this call needs a signed-in session');
    }
    // A session token may still make the extension's calls.
    expect((await ingest(session, 'scope-2')).status).toBe(200);
  });

  it('is refused (403) on every call but the capture calls, public ones included, over REST and tRPC', async () => {
    const refusal = 'Extension tokens may only send transcripts and end meetings: this call needs a signed-in session';
    const capture = new Set(['POST /transcript/lines', 'POST /transcript/events', 'POST /transcript/end']);
    // Calls outside the procedure ladder that take no credentials at all: Stripe signs its own.
    const unauthenticated = new Set(['POST /stripe/webhook']);
    const operations = operationsOf(await fetchDocument(app.url)).filter(
      (op) => !capture.has(`${op.method} ${op.path}`) && !unauthenticated.has(`${op.method} ${op.path}`),
    );
    expect(operations.map((op) => `${op.method} ${op.path}`)).toEqual(
      expect.arrayContaining(['GET /auth/config', 'POST /public/utils/summary', 'POST /public/utils/youtube', 'POST /auth/logout']),
    );
    for (const op of operations) {
      const path = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p.name, 'x'])));
      const answer = await app.rest<{ message: string }>(op.method, `/v1${path}`, {
        token: extension,
        body: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
      });
      expect(answer.status, `${op.method} ${op.path}: ${JSON.stringify(answer.body)}`).toBe(403);
      expect(answer.body.message, `${op.method} ${op.path}`).toBe(refusal);
    }

    // Every tRPC procedure, subscriptions (SSE) included.
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).filter(
      ([name]) => !name.startsWith('transcript.'),
    );
    const headers = { authorization: `Bearer ${extension}`, 'content-type': 'application/json' };
    for (const [name, { _def }] of procedures) {
      const response =
        _def.type === 'mutation'
          ? await fetch(`${app.url}/trpc/${name}`, { method: 'POST', headers, body: '{}' })
          : await fetch(`${app.url}/trpc/${name}?input=${encodeURIComponent('{}')}`, { headers });
      const text = await response.text();
      if (_def.type === 'subscription') {
        // SSE answers 200 and sends the refusal as its one error event.
        expect(text, name).toContain('serialized-error');
        expect(text, name).toContain(refusal);
      } else {
        expect(response.status, `${name}: ${text.slice(0, 300)}`).toBe(403);
        expect(text, name).toContain(refusal);
      }
    }
  });

  it('never counts as its owner on the public summarizers', async () => {
    const owner = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'ext@example.com' } });
    await app.deps.db.user.update({ where: { id: owner.id }, data: { isPremium: true, premiumUntil: new Date(Date.now() + 30 * DAY) } });
    credentialCache(app.deps).clear();
    const text = 'The quarterly review covered hiring, the budget and the roadmap for the next two releases. '.repeat(4);
    for (let i = 0; i < 12; i++) {
      const answer = await app.rest('POST', '/v1/public/utils/summary', { token: extension, body: { text } });
      expect(answer.status).toBe(403);
    }
    expect(await app.deps.db.dailyUsage.count({ where: { subject: owner.id } })).toBe(0);
    // Without the token the same call is an anonymous one, counted by address.
    expect((await app.rest('POST', '/v1/public/utils/summary', { body: { text } })).status).toBe(200);
  });

  it('expires after 90 days unused, and each use (at most once a minute) renews the 90 days', async () => {
    const row = await app.deps.db.extensionToken.findFirstOrThrow({ where: { label: { startsWith: 'Extension in' } } });
    await app.deps.db.extensionToken.update({
      where: { id: row.id },
      data: { lastUsedAt: new Date(Date.now() - 2 * MINUTE), expiresAt: new Date(Date.now() + DAY) },
    });
    // Rows changed behind the services' back: the credential cache learns of it only by its TTL.
    credentialCache(app.deps).clear();
    expect((await ingest(extension)).status).toBe(200);
    const renewed = await app.deps.db.extensionToken.findUniqueOrThrow({ where: { id: row.id } });
    expect(renewed.expiresAt.getTime()).toBeGreaterThan(Date.now() + 89 * DAY);

    await app.deps.db.extensionToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    credentialCache(app.deps).clear();
    const expired = await ingest(extension);
    expect(expired.status).toBe(401);
    expect((expired.body as unknown as { message: string }).message).toMatch(/expired after 90 days unused/);
  });

  it('lists connected extensions and revokes them one by one', async () => {
    const first = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: session })).body.token;
    const second = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: session })).body.token;
    const listed = await app.rest<{ tokens: { id: string; label: string; createdAt: number; lastUsedAt: number | null; expiresAt: number }[] }>(
      'GET',
      '/v1/auth/extension-tokens',
      { token: session },
    );
    expect(listed.status).toBe(200);
    // The expired one of the test before is not connected any more.
    expect(listed.body.tokens).toHaveLength(2);
    expect(listed.body.tokens[0]).toMatchObject({ label: 'Extension in node', lastUsedAt: null });
    const [newest] = listed.body.tokens;
    expect((await app.rest('DELETE', `/v1/auth/extension-tokens/${newest?.id}`, { token: session })).status).toBe(200);
    expect((await ingest(second)).status).toBe(401);
    expect((await ingest(first)).status).toBe(200);
    expect((await app.rest('DELETE', `/v1/auth/extension-tokens/${newest?.id}`, { token: session })).status).toBe(404);
    const after = await app.rest<{ tokens: unknown[] }>('GET', '/v1/auth/extension-tokens', { token: session });
    expect(after.body.tokens).toHaveLength(1);
  });
});

describe('web session in cookies', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL: 'https://mbox.example.org' });
  });
  afterAll(() => app.close());

  it('signs in with httpOnly, SameSite=Strict cookies and no token in the answer', async () => {
    const web = new WebSession(app.url);
    const signIn = await web.mutate<{ user: { email: string } }>('auth.signIn', { email: 'cookie@example.com' });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    expect(signIn.body.result?.data).toEqual({ user: expect.objectContaining({ email: 'cookie@example.com' }) });
    expect(JSON.stringify(signIn.body)).not.toMatch(/token/i);

    const access = web.cookie(ACCESS_COOKIE)?.raw ?? '';
    const refresh = web.cookie(REFRESH_COOKIE)?.raw ?? '';
    const csrf = web.cookie(CSRF_COOKIE)?.raw ?? '';
    expect(access).toMatch(/HttpOnly/);
    expect(access).toMatch(/SameSite=Strict/);
    expect(access).toMatch(/Secure/);
    expect(access).toMatch(/Path=\/(;|$)/);
    expect(refresh).toMatch(/HttpOnly/);
    expect(refresh).toMatch(/Path=\/v1\/auth\/refresh/);
    expect(csrf).not.toMatch(/HttpOnly/);
    expect(csrf).toMatch(/SameSite=Strict/);

    const me = await web.query<{ email: string }>('auth.me');
    expect(me.body.result?.data.email).toBe('cookie@example.com');
    const rows = await app.deps.db.session.findMany({ where: { user: { email: 'cookie@example.com' } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.userAgent).toMatch(/Chrome/);
  });

  it('refuses a cookie-authenticated change without the CSRF header, but not a bearer one', async () => {
    const web = new WebSession(app.url);
    await web.mutate('auth.signIn', { email: 'csrf@example.com' });
    const without = await web.mutate('settings.update', { sendSummary: false }, { csrf: false });
    expect(without.status).toBe(403);
    expect(without.body.error?.message).toMatch(/CSRF check failed/);
    const wrong = await web.request<{ message: string }>('PUT', '/v1/user-settings', {
      body: { sendSummary: false },
      csrf: false,
      headers: { 'x-csrf-token': 'guessed' },
    });
    expect(wrong.status).toBe(403);
    const withHeader = await web.mutate('settings.update', { sendSummary: false });
    expect(withHeader.status, JSON.stringify(withHeader.body)).toBe(200);
    // Queries (GET) change nothing and need no header.
    expect((await web.query('settings.get')).status).toBe(200);
    const bearer = await app.signIn('csrf@example.com');
    expect((await app.rest('PUT', '/v1/user-settings', { token: bearer, body: { sendSummary: true } })).status).toBe(200);
  });

  it('refreshes by cookie (with the CSRF header) and signs out, clearing the cookies', async () => {
    const web = new WebSession(app.url);
    await web.mutate('auth.signIn', { email: 'refresh@example.com' });
    const oldAccess = web.cookie(ACCESS_COOKIE)?.value;
    const oldRefresh = web.cookie(REFRESH_COOKIE)?.value;
    // The refresh cookie is not sent to other paths.
    expect((await web.request('POST', '/v1/auth/refresh', { body: {}, csrf: false })).status).toBe(403);
    const refreshed = await web.request<{ expiresAt: number; token?: string }>('POST', '/v1/auth/refresh', { body: {} });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.token).toBeUndefined();
    expect(web.cookie(ACCESS_COOKIE)?.value).not.toBe(oldAccess);
    expect(web.cookie(REFRESH_COOKIE)?.value).not.toBe(oldRefresh);
    expect((await web.query('auth.me')).status).toBe(200);

    const logout = await web.mutate<{ revoked: boolean }>('auth.logout');
    expect(logout.body.result?.data, JSON.stringify(logout.body)).toEqual({ revoked: true });
    expect(web.cookies.size).toBe(0);
    const reused = await app.rest('GET', '/v1/auth/me', { token: oldAccess });
    expect(reused.status).toBe(401);
  });

  it('streams a subscription by cookie or by header, and ignores a token in the URL', async () => {
    const web = new WebSession(app.url);
    await web.mutate('auth.signIn', { email: 'sse@example.com' });
    const token = await app.signIn('sse@example.com');
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'sse@example.com' } });
    /**
     * Reports a change to the user's meetings until the stream ends: `connected` comes before the
     * procedure subscribes to the event bus, so one event could be missed.
     */
    const change = (source: EventSource) => {
      if (source.readyState === source.CLOSED) return;
      app.deps.events.emit('meeting.changed', { userId: user.id, meetingId: 'm', kind: 'updated' });
      setImmediate(() => change(source));
    };
    /** tRPC answers 200 and `connected` in any case; a refused call then sends an error event. */
    const firstEvent = (headers: Record<string, string>, query = '') =>
      new Promise<string>((resolve) => {
        const source = new EventSource(`${app.url}/trpc/meeting.onChanged${query}`, {
          fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, ...headers } }),
        });
        const done = (what: string) => {
          source.close();
          resolve(what);
        };
        source.addEventListener('connected', () => change(source));
        source.addEventListener('serialized-error', (event) => done(`error ${event.data}`));
        source.onmessage = () => done('data');
        source.onerror = () => done('failed');
      });
    const cookieHeader = `${ACCESS_COOKIE}=${web.cookie(ACCESS_COOKIE)?.value}`;
    expect(await firstEvent({ cookie: cookieHeader })).toBe('data');
    expect(await firstEvent({ authorization: `Bearer ${token}` })).toBe('data');
    // The old way: the token as a connection parameter in the URL. It is not read any more.
    const connectionParams = encodeURIComponent(JSON.stringify({ token }));
    expect(await firstEvent({}, `?connectionParams=${connectionParams}`)).toMatch(/^error .*Sign in required/);
  });

  it('needs the CSRF header for the mutations behind GET too: referral acceptance, checkout and portal links', async () => {
    const referrer = await app.signIn('csrf-referrer@example.com');
    const code = new URL((await app.rest<{ link: string }>('GET', '/v1/referral', { token: referrer })).body.link).searchParams.get('code');
    const web = new WebSession(app.url);
    await web.mutate('auth.signIn', { email: 'csrf-get@example.com' });
    // What an <img src> on a page of another localhost port would send: the same-site cookies, no header.
    for (const path of [`/v1/referral/${code}`, '/v1/subscription?planId=pro', '/v1/billing/portal']) {
      const without = await web.request<{ message: string }>('GET', path, { csrf: false });
      expect(without.status, `${path}: ${JSON.stringify(without.body)}`).toBe(403);
      expect(without.body.message, path).toMatch(/^CSRF check failed/);
    }
    expect(await app.deps.db.referral.count({ where: { acceptor: { email: 'csrf-get@example.com' } } })).toBe(0);
    // With it (a fetch of the web app's own pages), the call is made.
    const accepted = await web.request<{ status: string }>('GET', `/v1/referral/${code}`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toEqual({ status: 'accepted' });
    // Bearer clients keep the plain GET.
    const bearer = await app.signIn('csrf-get-bearer@example.com');
    expect((await app.rest('GET', `/v1/referral/${code}`, { token: bearer })).status).toBe(200);
  });

  it('refuses a subscription by cookie from a page of another origin (Sec-Fetch-Site), not from its own', async () => {
    const web = new WebSession(app.url);
    await web.mutate('auth.signIn', { email: 'sse-site@example.com' });
    const cookie = `${ACCESS_COOKIE}=${web.cookie(ACCESS_COOKIE)?.value}`;
    /** The first event of an SSE answer: `connected`, or the error it sends instead. */
    const firstEvent = async (path: string, headers: Record<string, string>) => {
      const aborted = new AbortController();
      const response = await fetch(`${app.url}/trpc/${path}`, { headers, signal: aborted.signal });
      const reader = response.body!.getReader();
      let text = '';
      while (!/event: (connected|serialized-error)\ndata: .*\n/.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      aborted.abort();
      return text;
    };
    const input = encodeURIComponent(JSON.stringify({ meetingId: 'no-such-meeting', promptKey: 'summary' }));
    for (const site of ['same-site', 'cross-site']) {
      const refused = await firstEvent(`summary.generateStream?input=${input}`, { cookie, 'sec-fetch-site': site });
      expect(refused, site).toContain('serialized-error');
      expect(refused, site).toContain(`Cross-site check failed: a subscription signed in by cookie must come from a page of this server's own origin (Sec-Fetch-Site: ${site})`);
      expect(await firstEvent('meeting.onChanged', { cookie, 'sec-fetch-site': site }), site).toContain('Cross-site check failed');
    }
    expect(await firstEvent('meeting.onChanged', { cookie, 'sec-fetch-site': 'same-origin' })).toMatch(/^event: connected/);
    // Clients that send no Sec-Fetch-Site (not a browser) are not refused for it.
    expect(await firstEvent('meeting.onChanged', { cookie })).toMatch(/^event: connected/);
  });
});

describe('local sign-in only from this machine', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL: 'https://mbox.example.org', TRUST_PROXY: 1 });
  });
  afterAll(() => app.close());

  it('signs in from a loopback address naming a loopback host', async () => {
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:3000']) {
      const response = await requestWithHost(app.url, host, '/v1/auth/login', { email: 'home@example.com' });
      expect(response.status, `${host}: ${JSON.stringify(response.body)}`).toBe(200);
    }
  });

  it('refuses a loopback connection that names another host (DNS rebinding), over REST and tRPC', async () => {
    for (const path of ['/v1/auth/login', '/trpc/auth.signIn']) {
      const response = await requestWithHost(app.url, 'mbox.example.org', path, { email: 'rebind@example.com' });
      expect(response.status).toBe(403);
      const message = path.startsWith('/v1') ? response.body.message : (response.body as unknown as { error: { message: string } }).error.message;
      expect(message).toMatch(/Local sign-in is only allowed from this machine/);
    }
    expect(await app.deps.db.user.count({ where: { email: 'rebind@example.com' } })).toBe(0);
  });

  it('refuses a client that is not on this machine, whatever host it names', async () => {
    const response = await fetch(`${app.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ email: 'remote@example.com' }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { message: string }).message).toMatch(/only allowed from this machine/);
  });

  it('lets an operator open local sign-in to the network on purpose (ALLOW_LOCAL_AUTH_ON_NETWORK)', async () => {
    const open = await startTestApp({ ALLOW_LOCAL_AUTH_ON_NETWORK: true, TRUST_PROXY: 1 });
    try {
      const response = await fetch(`${open.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.168.1.20' },
        body: JSON.stringify({ email: 'lan@example.com' }),
      });
      expect(response.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
