import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_COOKIE } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { credentialCache } from '../auth/credential-cache.js';
import { sha256 } from '../auth/sessions.js';

const START = Date.UTC(2025, 0, 6, 9, 0);
const meeting = { sessionId: 'route-1', meetCode: 'abc-defg-hij', title: 'Route', startedAt: START };
const line = (captionId: string) => ({ captionId, revision: 0, speaker: 'Ana Lima', text: 'the plan', spokenAt: START, final: true });

interface Answer {
  status: number;
  body: unknown;
}

/**
 * The extension's calls, REST routes with options of their own (route.ts). A path with a trailing slash
 * reaches the same route (the router ignores the slash), so every request below is sent both ways and
 * must be answered alike; the expected answers are those docs/api.md and the
 * OpenAPI document describe.
 */
describe('the transcript routes', () => {
  let app: TestApp;
  let session = '';
  let extension = '';

  beforeAll(async () => {
    app = await startTestApp();
    session = await app.signIn('route@example.com');
    extension = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: session })).body.token;
  });
  afterAll(() => app.close());

  async function send(path: string, init: { token?: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
    const headers: Record<string, string> = { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers };
    const response = await fetch(`${app.url}${path}`, { method: 'POST', headers, body: init.body });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** The answer, after checking the path with a trailing slash is answered the same. */
  async function both(path: string, init: Parameters<typeof send>[1]): Promise<Answer> {
    const answer = await send(path, init);
    const slashed = await send(`${path}/`, init);
    expect(answer).toEqual(slashed);
    return answer;
  }

  const json = { 'content-type': 'application/json' };
  const error = (status: number, code: string, message: string) => ({ status, body: { message, code, data: { code, httpStatus: status } } });

  it('stores lines sent with an extension token or a session token', async () => {
    const lines = (captionId: string) => JSON.stringify({ meeting, lines: [line(captionId)] });
    const first = await send('/v1/transcript/lines', { token: extension, headers: json, body: lines('c1') });
    expect(first).toEqual({ status: 200, body: { meetingKey: expect.any(String), accepted: 1 } });
    const meetingKey = (first.body as { meetingKey: string }).meetingKey;
    expect(await send('/v1/transcript/lines/', { token: extension, headers: json, body: lines('c2') })).toEqual({ status: 200, body: { meetingKey, accepted: 1 } });
    expect(await both('/v1/transcript/lines', { token: session, headers: json, body: lines('c1') })).toEqual({ status: 200, body: { meetingKey, accepted: 0 } });
    expect(await send('/v1/transcript/lines', { token: session, headers: json, body: lines('c3') })).toEqual({ status: 200, body: { meetingKey, accepted: 1 } });
    const gap = (eventId: string) => JSON.stringify({ meeting, events: [{ eventId, kind: 'captions-off', startedAt: START + 1000 }] });
    expect(await send('/v1/transcript/events', { token: extension, headers: json, body: gap('e1') })).toEqual({ status: 200, body: { meetingKey, accepted: 1 } });
    expect(await send('/v1/transcript/events/', { token: extension, headers: json, body: gap('e2') })).toEqual({ status: 200, body: { meetingKey, accepted: 1 } });
    const end = await both('/v1/transcript/end', { token: extension, headers: json, body: JSON.stringify({ sessionId: 'route-1', finishedAt: START + 60_000 }) });
    expect(end).toEqual({ status: 200, body: { meetingKey } });
    const stored = await app.deps.db.message.findMany({ where: { meetingId: meetingKey }, orderBy: { captionId: 'asc' } });
    expect(stored.map((m) => m.captionId)).toEqual(['c1', 'c2', 'c3']);
  });

  it('refuses missing and unknown credentials, and cookies without the CSRF header', async () => {
    const body = JSON.stringify({ meeting, lines: [line('c3')] });
    expect(await both('/v1/transcript/lines', { headers: json, body })).toEqual(error(401, 'UNAUTHORIZED', 'Sign in required: missing or invalid token'));
    expect(await both('/v1/transcript/lines', { token: 'mbx_nope', headers: json, body })).toEqual(
      error(401, 'UNAUTHORIZED', 'Sign in required: Extension token unknown: sign in to the web app again to reconnect the extension'),
    );
    expect(await both('/v1/transcript/end', { headers: { ...json, cookie: `${ACCESS_COOKIE}=${session}` }, body: '{}' })).toEqual(
      error(
        403,
        'FORBIDDEN',
        'CSRF check failed: a state-changing call signed in by cookie must repeat the mbox_csrf cookie in the X-CSRF-Token header',
      ),
    );
  });

  it('refuses bodies that are not a JSON object of the call, naming the problem', async () => {
    const token = extension;
    expect(await both('/v1/transcript/lines', { token, headers: json, body: '{"meeting":' })).toEqual(error(400, 'BAD_REQUEST', 'Body is not valid JSON'));
    expect(await both('/v1/transcript/lines', { token, headers: json, body: '[]' })).toEqual(error(400, 'BAD_REQUEST', 'Body must be a JSON object'));
    expect(await both('/v1/transcript/lines', { token, headers: { 'content-type': 'text/plain' }, body: '{}' })).toEqual(
      error(400, 'BAD_REQUEST', 'Body must be a JSON object'),
    );
    expect(await both('/v1/transcript/lines', { token, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' })).toEqual(
      error(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type'),
    );
    expect(await both('/v1/transcript/lines', { token })).toEqual(error(415, 'UNSUPPORTED_MEDIA_TYPE', 'Missing content-type header'));
    expect(await both('/v1/transcript/lines', { token, headers: json, body: JSON.stringify({ a: 'x'.repeat(3 * 1024 * 1024) }) })).toEqual(
      error(413, 'PAYLOAD_TOO_LARGE', 'Body too large: at most 2097152 bytes'),
    );
    expect(await both('/v1/transcript/lines', { token, headers: json, body: JSON.stringify({ meeting, lines: [], extra: 1 }) })).toEqual({
      status: 400,
      body: {
        message: 'Invalid input: (body): Unrecognized key: "extra"',
        code: 'BAD_REQUEST',
        data: { code: 'BAD_REQUEST', httpStatus: 400, field: '(body)', issues: [{ path: '(body)', message: 'Unrecognized key: "extra"' }] },
      },
    });
    const empty = await both('/v1/transcript/end', { token, headers: json });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'BAD_REQUEST', data: { field: 'sessionId' } });
  });

  it('refuses a page of another origin (the request guards apply)', async () => {
    const answer = await both('/v1/transcript/lines', {
      token: extension,
      headers: { ...json, origin: 'https://evil.example' },
      body: JSON.stringify({ meeting, lines: [line('c4')] }),
    });
    expect(answer).toEqual(error(403, 'FORBIDDEN', "Requests from origin 'https://evil.example' are not allowed"));
  });

  it('renews an extension token in use, and refuses it once expired or revoked', async () => {
    const token = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: session })).body.token;
    const body = JSON.stringify({ meeting, lines: [line('c5')] });
    const soon = new Date(Date.now() + 60_000);
    await app.deps.db.extensionToken.update({ where: { tokenHash: sha256(token) }, data: { expiresAt: soon } });
    credentialCache(app.deps).clear();
    expect((await send('/v1/transcript/lines', { token, headers: json, body })).status).toBe(200);
    const renewed = await app.deps.db.extensionToken.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
    expect(renewed.expiresAt.getTime()).toBeGreaterThan(Date.now() + 89 * 24 * 3600_000);

    await app.deps.db.extensionToken.update({ where: { id: renewed.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    credentialCache(app.deps).clear();
    expect(await both('/v1/transcript/lines', { token, headers: json, body })).toEqual(
      error(401, 'UNAUTHORIZED', 'Sign in required: Extension token expired after 90 days unused: sign in to the web app again to reconnect the extension'),
    );
    await app.deps.db.extensionToken.update({ where: { id: renewed.id }, data: { revokedAt: new Date() } });
    credentialCache(app.deps).clear();
    expect(await both('/v1/transcript/lines', { token, headers: json, body })).toEqual(
      error(401, 'UNAUTHORIZED', 'Sign in required: Extension token revoked: sign in to the web app again to reconnect the extension'),
    );
  });
});
