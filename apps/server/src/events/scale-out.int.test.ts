import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Message } from '@mbox/shared';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { freePort, startServer, type ServerProcess } from '../test/server-process.js';
import { WebSession } from '../test/web-session.js';
import type { AppRouter } from '../trpc/app-router.js';

/**
 * Two real server processes on different ports behind one PostgreSQL database, as a deployment behind
 * a load balancer runs them: a line posted to either reaches live subscribers on both, through
 * LISTEN/NOTIFY or, with REDIS_URL, Redis pub/sub; a session made on one works and ends on the other.
 * (Rate limits count across instances too: apps/server/src/http/rate-limit.int.test.ts proves it for
 * the database store and for Redis.)
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const startedAt = Date.UTC(2026, 0, 12, 9);

interface Instance {
  server: ServerProcess;
  url: string;
  dataDir: string;
}

async function call<T>(base: string, method: string, route: string, token: string | null, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A browser's live view on one instance: meeting.onLines of one meeting and meeting.onChanged, by header. */
function watch(base: string, token: string, meetingId: string) {
  const headers = { authorization: `Bearer ${token}` };
  const client = createTRPCClient<AppRouter>({
    links: [
      httpSubscriptionLink({
        url: `${base}/trpc`,
        EventSource,
        eventSourceOptions: { fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...headers } }) },
      }),
    ],
  });
  const lines = new Map<string, Message>();
  const changes: { meetingId: string; kind: string }[] = [];
  const errors: unknown[] = [];
  let wake = () => {};
  const subscriptions = [
    client.meeting.onLines.subscribe(
      { meetingId },
      {
        onData: (line) => {
          lines.set(line.captionId, line);
          wake();
        },
        onError: (error) => errors.push(error),
      },
    ),
    client.meeting.onChanged.subscribe(undefined, {
      onData: (change) => {
        changes.push(change);
        wake();
      },
      onError: (error) => errors.push(error),
    }),
  ];
  return {
    lines,
    changes,
    errors,
    /** Resolves when `done()` holds (checked on every event; the test's timeout bounds the wait). */
    async until(done: () => boolean): Promise<void> {
      while (!done()) await new Promise<void>((resolve) => (wake = resolve));
    },
    close: () => subscriptions.forEach((s) => s.unsubscribe()),
  };
}

const line = (captionId: string, text: string, revision = 0) => ({
  captionId,
  revision,
  speaker: 'Ana',
  text,
  spokenAt: startedAt + 1000,
  final: true,
});

describe.each([
  ['PostgreSQL LISTEN/NOTIFY', undefined],
  ['Redis pub/sub (REDIS_URL)', REDIS_URL],
])('two instances on one database, live events by %s', (_name, redisUrl) => {
  let database: TestDatabase;
  const channel = `mbox_test_${randomBytes(6).toString('hex')}`;
  let a: Instance;
  let b: Instance;

  async function startInstance(): Promise<Instance> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-scale-'));
    const port = await freePort();
    const server = await startServer(dataDir, port, {
      NODE_ENV: 'test',
      DATABASE_URL: database.url!,
      // Every instance of a deployment shares its secrets: a token signed by one is checked by the other.
      AUTH_SECRET: 'scale-out-test-secret-scale-out-test-secret',
      ENCRYPTION_MASTER_KEY: Buffer.alloc(32, 3).toString('base64'),
      EVENTS_CHANNEL: channel,
      REDIS_URL: redisUrl ?? '',
      RATE_LIMIT_SIGN_IN: '100000/1m',
      RATE_LIMIT_TOKENS: '100000/1m',
    });
    return { server, url: `http://127.0.0.1:${port}`, dataDir };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.close();
    // One after the other: the first start creates the job queue's schema.
    a = await startInstance();
    b = await startInstance();
  }, 180_000);

  afterAll(async () => {
    for (const instance of [a, b]) {
      if (!instance) continue;
      instance.server.child.kill('SIGTERM');
      expect(await instance.server.exited).toBe(0);
      await rm(instance.dataDir, { recursive: true, force: true });
    }
    await database?.destroy().catch(() => {});
  });

  it('delivers every line posted to either instance to subscribers on both, a batch over 8 kB included', { timeout: 120_000 }, async () => {
    const login = await call<{ token: string }>(a.url, 'POST', '/v1/auth/login', null, { email: 'scale@example.com' });
    expect(login.status).toBe(200);
    const token = login.body.token;
    const meeting = { sessionId: 'scale-1', meetCode: 'abc-defg-hij', startedAt };
    const post = (instance: Instance, lines: ReturnType<typeof line>[], session = meeting) =>
      call<{ meetingKey: string }>(instance.url, 'POST', '/v1/transcript/lines', token, { meeting: session, lines });

    const first = await post(a, [line('opening', 'Good morning')]);
    expect(first.status).toBe(200);
    const meetingId = first.body.meetingKey;

    // With NOTIFY, a listener of our own sees the raw notifications: the big batch must travel in parts.
    const raw = new pg.Client({ connectionString: database.url! });
    const notifications: string[] = [];
    if (!redisUrl) {
      await raw.connect();
      raw.on('notification', (message) => notifications.push(message.payload ?? ''));
      await raw.query(`LISTEN "${channel}"`);
    }
    const onA = watch(a.url, token, meetingId);
    const onB = watch(b.url, token, meetingId);
    try {
      // A subscription is live once a line reaches it: probe through A until both have one.
      let probe = 0;
      await vi.waitFor(
        async () => {
          probe += 1;
          expect((await post(a, [line('probe', `probe ${probe}`, probe)])).status).toBe(200);
          expect(onA.lines.has('probe') && onB.lines.has('probe')).toBe(true);
        },
        { timeout: 30_000, interval: 250 },
      );

      const expected = new Map<string, string>();
      // 10 batches of 20 lines, taking turns between the instances.
      for (let batch = 0; batch < 10; batch += 1) {
        const lines = Array.from({ length: 20 }, (_, i) => line(`b${batch}-${i}`, `Batch ${batch} line ${i}`));
        for (const l of lines) expected.set(l.captionId, l.text);
        expect((await post(batch % 2 ? b : a, lines)).status).toBe(200);
      }
      // 500 long lines through B: its event is far over NOTIFY's 8000-byte limit, ids alone or rows.
      const big = Array.from({ length: 500 }, (_, i) => line(`big-${i}`, `Long line ${i}: ${'Zusammenfassung äöü '.repeat(10)}`));
      for (const l of big) expected.set(l.captionId, l.text);
      expect((await post(b, big)).status).toBe(200);
      // A newer revision of a line first posted to A, now through B.
      expected.set('b0-0', 'Batch 0 line 0, corrected');
      expect((await post(b, [line('b0-0', 'Batch 0 line 0, corrected', 1)])).status).toBe(200);

      const complete = (lines: Map<string, Message>) => [...expected].every(([id, text]) => lines.get(id)?.text === text);
      await Promise.all([onA.until(() => complete(onA.lines)), onB.until(() => complete(onB.lines))]);
      for (const view of [onA, onB]) {
        expect(view.errors).toEqual([]);
        expect([...view.lines.keys()].filter((id) => id !== 'probe' && id !== 'opening').sort()).toEqual([...expected.keys()].sort());
      }

      // The meeting list follows too: a meeting started through A shows up on B.
      const other = await post(a, [line('x', 'Another meeting')], { sessionId: 'scale-2', meetCode: 'abc-defg-hij', startedAt });
      await onB.until(() => onB.changes.some((c) => c.meetingId === other.body.meetingKey && c.kind === 'created'));
      await onA.until(() => onA.changes.some((c) => c.meetingId === other.body.meetingKey && c.kind === 'created'));

      if (!redisUrl) {
        const multipart = notifications.filter((payload) => !/^[^|]+\|1\|1\|/.test(payload));
        expect(multipart.length).toBeGreaterThan(1);
        expect(notifications.every((payload) => Buffer.byteLength(payload) < 8000)).toBe(true);
      }
    } finally {
      onA.close();
      onB.close();
      if (!redisUrl) await raw.end();
    }
  });

  it('needs no sticky sessions: signed in on A, accepted by B; signed out on A, refused by B', async () => {
    // Bearer (API clients, the extension).
    const login = await call<{ token: string }>(a.url, 'POST', '/v1/auth/login', null, { email: 'sticky@example.com' });
    const token = login.body.token;
    expect((await call(b.url, 'GET', '/v1/auth/me', token)).status).toBe(200);
    expect((await call(a.url, 'POST', '/v1/auth/logout', token)).status).toBe(200);
    await expect.poll(async () => (await call(b.url, 'GET', '/v1/auth/me', token)).status, { timeout: 2000, interval: 50 }).toBe(401);

    // Cookies (the web app): a browser sends one host's cookies to every port of it.
    const onA = new WebSession(a.url);
    const onB = new WebSession(b.url);
    expect((await onA.mutate('auth.signIn', { email: 'sticky@example.com' })).status).toBe(200);
    for (const [name, cookie] of onA.cookies) onB.cookies.set(name, cookie);
    expect((await onB.query('auth.me')).status).toBe(200);
    expect((await onA.mutate('auth.logout')).status).toBe(200);
    // B still holds the cookies (another tab, a copied cookie): the ended session is refused all the same.
    expect(onB.cookies.size).toBeGreaterThan(0);
    await expect.poll(async () => (await onB.query('auth.me')).status, { timeout: 2000, interval: 50 }).toBe(401);
  });
});
