import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test/app.js';

/** A web build as Vite lays it out: the shell and content-hashed assets. */
async function fakeWebDist(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mbox-headers-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/index-AbC123.js"></script>');
  await writeFile(path.join(dir, 'assets/index-AbC123.js'), 'console.log(1)');
  return dir;
}

function directives(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? '').split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
}

describe('security headers', () => {
  let app: TestApp;
  let webDist: string;
  let token: string;
  beforeAll(async () => {
    webDist = await fakeWebDist();
    app = await startTestApp({}, { webDist });
    token = await app.signIn('headers@example.com');
  });
  afterAll(async () => {
    await app.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const get = (url: string, init?: RequestInit) => fetch(`${app.url}${url}`, init);

  it('sends the common headers on every kind of response', async () => {
    const responses = {
      shell: await get('/'),
      spaRoute: await get('/meetings/abc'),
      asset: await get('/assets/index-AbC123.js'),
      rest: await get('/v1/auth/me', { headers: { authorization: `Bearer ${token}` } }),
      trpc: await get('/trpc/auth.me', { headers: { authorization: `Bearer ${token}` } }),
      notFound: await get('/v1/no-such-call'),
      badJson: await get('/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      health: await get('/healthz'),
    };
    for (const [label, response] of Object.entries(responses)) {
      const h = response.headers;
      expect(h.get('x-frame-options'), label).toBe('DENY');
      expect(h.get('x-content-type-options'), label).toBe('nosniff');
      expect(h.get('referrer-policy'), label).toBe('strict-origin-when-cross-origin');
      expect(h.get('permissions-policy'), label).toMatch(/camera=\(\).*geolocation=\(\).*microphone=\(\)/);
      const csp = directives(h.get('content-security-policy'));
      expect(csp.get('frame-ancestors'), label).toEqual(["'none'"]);
      expect(csp.get('script-src'), label).toEqual(["'self'"]);
      expect(csp.get('script-src-attr'), label).toEqual(["'none'"]);
      expect(csp.get('object-src'), label).toEqual(["'none'"]);
      expect(h.get('content-security-policy'), label).not.toContain('unsafe-inline');
      expect(h.get('content-security-policy'), label).not.toContain('upgrade-insecure-requests');
    }
    expect(responses.rest.status).toBe(200);
    expect(responses.trpc.status).toBe(200);
  });

  it('keeps API answers out of every cache, and lets hashed assets be cached for good', async () => {
    for (const url of ['/v1/auth/me', '/trpc/auth.me', '/v1/meeting-list']) {
      const response = await get(url, { headers: { authorization: `Bearer ${token}` } });
      expect(response.headers.get('cache-control'), url).toBe('no-store');
    }
    expect((await get('/trpc/auth.me')).headers.get('cache-control')).toBe('no-store');
    expect((await get('/assets/index-AbC123.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/meetings/abc')).headers.get('cache-control')).toBe('no-cache');
  });

  it('gives the API explorer at /docs the inline styles Swagger UI needs, still no inline scripts', async () => {
    const page = await get('/docs');
    expect(page.status).toBe(200);
    const csp = directives(page.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('allows what Google sign-in loads only in Firebase mode', async () => {
    const firebase = await startTestApp(
      { AUTH_MODE: 'firebase', FIREBASE_WEB_CONFIG: { apiKey: 'k', authDomain: 'demo.firebaseapp.com', projectId: 'demo' } },
      { webDist },
    );
    try {
      const response = await fetch(`${firebase.url}/`);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('script-src')).toEqual(["'self'", 'https://apis.google.com']);
      expect(csp.get('frame-src')).toContain('https://demo.firebaseapp.com');
      expect(csp.get('connect-src')).toEqual(expect.arrayContaining(['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com']));
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    } finally {
      await firebase.close();
    }
    const local = directives((await get('/')).headers.get('content-security-policy'));
    expect(local.get('frame-src')).toEqual(["'self'"]);
    expect(local.get('connect-src')).toEqual(["'self'"]);
  });
});
