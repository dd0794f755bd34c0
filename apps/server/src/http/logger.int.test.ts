import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer } from '../test/server-process.js';
import type { AppRouter } from '../trpc/app-router.js';

describe('the server log', () => {
  let dataDir = '';
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('carries no credential: not from headers, bodies, or query strings', { timeout: 180_000 }, async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-log-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = await startServer(dataDir, port, { LOG_LEVEL: 'debug' });
    const secrets: string[] = [];
    try {
      const login = await fetch(`${base}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'logs@example.com' }),
      });
      expect(login.status).toBe(200);
      const { token, refreshToken } = (await login.json()) as { token: string; refreshToken?: string };
      secrets.push(token, ...(refreshToken ? [refreshToken] : []));
      const bearer = { authorization: `Bearer ${token}` };

      expect((await fetch(`${base}/v1/auth/me`, { headers: bearer })).status).toBe(200);
      expect((await fetch(`${base}/trpc/auth.me,settings.get?batch=1&input=${encodeURIComponent('{}')}`, { headers: bearer })).status).toBe(200);
      const extension = await fetch(`${base}/v1/auth/extension-token`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' } });
      secrets.push(((await extension.json()) as { token: string }).token);

      // An SSE client as older clients built it: the token in the URL (connection params) and a header.
      const client = createTRPCClient<AppRouter>({
        links: [
          httpSubscriptionLink({
            url: `${base}/trpc`,
            EventSource,
            connectionParams: () => ({ token }),
            eventSourceOptions: { fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...bearer } }) },
          }),
        ],
      });
      await new Promise<void>((resolve, reject) => {
        const subscription = client.meeting.onChanged.subscribe(undefined, {
          onStarted: () => {
            subscription.unsubscribe();
            resolve();
          },
          onError: reject,
        });
      });

      // A token that only ever travels in a query string: the unsubscribe link of a recap e-mail.
      const linkToken = 'unsubscribe-token-0123456789abcdef';
      secrets.push(linkToken);
      await fetch(`${base}/email/unsubscribe?token=${linkToken}`, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }

    const logFile = path.join(dataDir, 'server.log');
    await writeFile(logFile, server.output());
    const log = await readFile(logFile, 'utf8');
    // The requests were logged (at debug, everything is), by path.
    expect(log).toContain('"path":"/v1/auth/me"');
    expect(log).toContain('"path":"/trpc/meeting.onChanged"');
    expect(log).toContain('"path":"/email/unsubscribe"');
    // One line at info per request, when it completes: what it was (the path as it came, not as the REST
    // facade rewrote it), its status and its time.
    const completed = log
      .split('\n')
      .filter((line) => line.includes('"msg":"request completed"'))
      .map((line) => JSON.parse(line) as { level: number; req: { method: string; path: string }; res: { statusCode: number }; responseTime: number });
    expect(completed.find((line) => line.req.path === '/v1/auth/me')).toMatchObject({ level: 30, req: { method: 'GET' }, res: { statusCode: 200 } });
    expect(completed.every((line) => typeof line.responseTime === 'number')).toBe(true);
    for (const secret of secrets) expect(log).not.toContain(secret);
    // Nor any other bearer value, JWT-looking string or query string.
    expect(log).not.toMatch(/Bearer\s+\S/);
    expect(log).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}/);
    expect(log).not.toMatch(/connectionParams=/);
  });
});
