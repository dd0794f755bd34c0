import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';

describe('local sign-in', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('signs in the default account with an empty body, and the same account again', async () => {
    const first = await app.rest<{ token: string; user: { email: string; name: string } }>('POST', '/v1/auth/login');
    expect(first.status).toBe(200);
    expect(first.body.user).toMatchObject({ email: 'me@localhost', name: 'Local user' });
    const second = await app.rest<{ user: { id: string } }>('POST', '/v1/auth/login', { body: {} });
    const me = await app.rest<{ id: string }>('GET', '/v1/auth/me', { token: first.body.token });
    expect(me.body.id).toBe(second.body.user.id);
  });

  it('validates the e-mail and refuses unknown fields', async () => {
    const bad = await app.rest<{ data: { field: string } }>('POST', '/v1/auth/login', { body: { email: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.field).toBe('email');
    const extra = await app.rest('POST', '/v1/auth/login', { body: { email: 'a@b.co', admin: true } });
    expect(extra.status).toBe(400);
  });

  it('signs in any address a browser e-mail field accepts, single-label domains included', async () => {
    for (const email of ['newbie@localhost', 'Ops.Team+mbox@intranet']) {
      const signedIn = await app.rest<{ user: { email: string } }>('POST', '/v1/auth/login', { body: { email } });
      expect(signedIn.status, email).toBe(200);
      expect(signedIn.body.user.email).toBe(email.toLowerCase());
    }
    const tooLong = await app.rest<{ message: string }>('POST', '/v1/auth/login', { body: { email: `${'a'.repeat(320)}@localhost` } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/email/);
  });

  it('gives the same error shape over tRPC and REST', async () => {
    const rest = await app.rest<{ message: string; code: string; data: { code: string; httpStatus: number } }>(
      'GET',
      '/v1/auth/me',
    );
    expect(rest.status).toBe(401);
    expect(rest.body).toMatchObject({ code: 'UNAUTHORIZED', data: { code: 'UNAUTHORIZED', httpStatus: 401 } });
    const trpcError = await app
      .trpc()
      .auth.me.query()
      .catch((e: { message: string; data: unknown }) => e);
    expect(trpcError).toMatchObject({ message: rest.body.message, data: rest.body.data });
  });

  it('refuses local sign-in in Firebase mode', async () => {
    const firebase = await startTestApp({
      AUTH_MODE: 'firebase',
      FIREBASE_PROJECT_ID: 'demo-mbox',
      FIREBASE_WEB_CONFIG: { apiKey: 'k', authDomain: 'demo-mbox.firebaseapp.com', projectId: 'demo-mbox' },
    });
    try {
      const response = await firebase.rest<{ message: string }>('POST', '/v1/auth/login');
      expect(response.status).toBe(403);
      expect(response.body.message).toMatch(/Firebase/);
    } finally {
      await firebase.close();
    }
  });

  it('serves health, the OpenAPI document and JSON 404s', async () => {
    expect((await app.rest('GET', '/healthz')).body).toMatchObject({ ok: true });
    const doc = await app.rest<{ paths: Record<string, unknown> }>('GET', '/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/meeting-list', '/meeting/{id}', '/transcript/lines']));
    const missing = await app.rest<{ code: string }>('GET', '/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });
});
