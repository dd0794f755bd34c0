import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@mbox/shared';
import { startTestApp, type TestApp } from '../test/app.js';
import { EXTENSION_ORIGIN } from './request-guards.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** An HTTP request with any Host header (fetch does not let a caller choose it). */
function send(
  app: TestApp,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON: the text itself.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = { 'content-type': 'application/json' };
const loginBody = JSON.stringify({ email: 'guards@example.com' });

function expectRefusal(response: RawResponse, status: number, message: RegExp): void {
  expect(response.status).toBe(status);
  const body = apiErrorBodySchema.parse(response.body);
  expect(body.message).toMatch(message);
  expect(body.data).toMatchObject({ httpStatus: status });
}

describe('Host allow-list (DNS rebinding)', () => {
  let app: TestApp;
  let token: string;
  let host: string;
  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL: 'https://mbox.example.org', ALLOWED_HOSTS: ['mbox.internal'] });
    token = await app.signIn('guards@example.com');
    host = new URL(app.url).host;
  });
  afterAll(() => app.close());

  it('refuses sign-in and signed-in reads addressed to a foreign name with 421', async () => {
    const port = new URL(app.url).port;
    for (const foreign of ['evil.example', `evil.example:${port}`, 'mbox.example.org.evil.example', '192.168.1.20']) {
      const login = await send(app, { method: 'POST', path: '/v1/auth/login', headers: { ...json, host: foreign }, body: loginBody });
      expectRefusal(login, 421, new RegExp(`does not answer for host '${foreign.replace(/\./g, '\\.')}'`));
      const me = await send(app, { path: '/v1/auth/me', headers: { host: foreign, authorization: `Bearer ${token}` } });
      expectRefusal(me, 421, /does not answer for host/);
      const meTrpc = await send(app, { path: '/trpc/auth.me', headers: { host: foreign, authorization: `Bearer ${token}` } });
      expect(meTrpc.status).toBe(421);
      expect(JSON.stringify(meTrpc.body)).not.toContain('guards@example.com');
    }
    // The web app's pages too: nothing is served under a rebound name.
    expect((await send(app, { path: '/', headers: { host: 'evil.example' } })).status).toBe(421);
  });

  it('serves the public host, ALLOWED_HOSTS and loopback names on any port', async () => {
    for (const allowed of [host, 'localhost', 'localhost:5173', 'app.localhost:80', '127.0.0.1', '127.1.2.3:9', '[::1]:3000', 'mbox.example.org', 'MBOX.example.org.', 'mbox.internal:8080']) {
      const me = await send(app, { path: '/v1/auth/me', headers: { host: allowed, authorization: `Bearer ${token}` } });
      expect(me.status, allowed).toBe(200);
    }
  });

  it('keeps the health check open to probes by address', async () => {
    const health = await send(app, { path: '/healthz', headers: { host: '10.1.2.3:3000' } });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true });
  });

  it('ignores X-Forwarded-Host unless TRUST_PROXY is set', async () => {
    const me = await send(app, { path: '/v1/auth/me', headers: { host, 'x-forwarded-host': 'evil.example', authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
  });

  it('checks the forwarded host behind a trusted proxy', async () => {
    const proxied = await startTestApp({ PUBLIC_URL: 'https://mbox.example.org', TRUST_PROXY: 1 });
    try {
      const proxiedToken = await proxied.signIn('proxied@example.com');
      const through = (forwardedHost: string) =>
        send(proxied, {
          path: '/v1/auth/me',
          headers: { host: '127.0.0.1', 'x-forwarded-host': forwardedHost, authorization: `Bearer ${proxiedToken}` },
        });
      expect((await through('mbox.example.org')).status).toBe(200);
      expectRefusal(await through('evil.example'), 421, /host 'evil\.example'/);
    } finally {
      await proxied.close();
    }
  });
});

describe('Origin check on state-changing calls', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await startTestApp({
      PUBLIC_URL: 'https://mbox.example.org',
      CORS_ORIGIN: 'http://localhost:5173',
      EXTENSION_ORIGINS: ['chrome-extension://abcdefghijklmnopabcdefghijklmnop'],
      STRIPE_SECRET_KEY: 'sk_test_guards',
      STRIPE_WEBHOOK_SECRET: 'whsec_guards',
    });
    token = await app.signIn('origin@example.com');
  });
  afterAll(() => app.close());

  const login = (origin?: string) =>
    send(app, { method: 'POST', path: '/v1/auth/login', headers: { ...json, ...(origin ? { origin } : {}) }, body: loginBody });

  it('refuses a foreign Origin with 403 naming it, over REST and tRPC', async () => {
    expectRefusal(await login('https://evil.example'), 403, /origin 'https:\/\/evil\.example' are not allowed/);
    expectRefusal(await login('null'), 403, /origin 'null'/);
    // A page on another local port is another origin, although its cookies are same-site.
    expectRefusal(await login('http://localhost:8080'), 403, /http:\/\/localhost:8080/);
    expectRefusal(await login('chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba'), 403, /chrome-extension/);

    const trpc = await send(app, {
      method: 'POST',
      path: '/trpc/settings.update',
      headers: { ...json, origin: 'https://evil.example', authorization: `Bearer ${token}` },
      body: JSON.stringify({ sendSummary: false }),
    });
    expect(trpc.status).toBe(403);
    expect(trpc.body).toMatchObject({ error: { message: expect.stringContaining('evil.example'), data: { httpStatus: 403 } } });
    const settings = await app.rest<{ sendSummary: boolean }>('GET', '/v1/user-settings', { token });
    expect(settings.body.sendSummary).toBe(true);
  });

  it('checks GET calls that change state (referral acceptance), not reads', async () => {
    const accept = await send(app, {
      path: '/v1/referral/somecode',
      headers: { origin: 'https://evil.example', authorization: `Bearer ${token}` },
    });
    expectRefusal(accept, 403, /evil\.example/);
    const read = await send(app, { path: '/v1/auth/me', headers: { origin: 'https://evil.example', authorization: `Bearer ${token}` } });
    expect(read.status).toBe(200);
  });

  it('passes the web app, the dev server, the extension and calls without Origin', async () => {
    const sameOrigin = `http://${new URL(app.url).host}`;
    for (const origin of [
      undefined,
      'https://mbox.example.org',
      sameOrigin,
      'http://localhost:5173',
      EXTENSION_ORIGIN,
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
    ]) {
      expect((await login(origin)).status, origin ?? 'no Origin').toBe(200);
    }
    // The Vite dev server proxies with its own Host: the page's origin is the request's own.
    const proxied = await send(app, {
      method: 'POST',
      path: '/v1/auth/login',
      headers: { ...json, host: 'localhost:5174', origin: 'http://localhost:5174' },
      body: loginBody,
    });
    expect(proxied.status).toBe(200);
  });

  it('leaves the Stripe webhook and one-click unsubscribe (no browser Origin) to their own checks', async () => {
    const webhook = await send(app, {
      method: 'POST',
      path: '/v1/stripe/webhook',
      headers: { ...json, host: 'mbox.example.org', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    expectRefusal(webhook, 400, /Invalid Stripe signature/);
    const unsubscribe = await send(app, {
      method: 'POST',
      path: '/email/unsubscribe?token=not-a-token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'mbox.example.org' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribe.status).toBe(400);
    expect(unsubscribe.body).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
