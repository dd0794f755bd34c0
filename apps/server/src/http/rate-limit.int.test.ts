import { randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@mbox/shared';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { Jobs } from '../jobs/jobs.js';
import { startTestApp, type TestApp } from '../test/app.js';

const perMinute = (max: number) => ({ max, windowMs: 60_000 });

/** Small limits; every test is a client address of its own. */
const LIMITS: Partial<Config> = {
  RATE_LIMIT_SIGN_IN: perMinute(3),
  RATE_LIMIT_TOKENS: perMinute(2),
  RATE_LIMIT_REFERRAL: { max: 2, windowMs: 3_600_000 },
  RATE_LIMIT_SUMMARIZER: perMinute(2),
  RATE_LIMIT_WEBHOOK_TEST: { max: 2, windowMs: 3_600_000 },
  RATE_LIMIT_CHECKOUT: { max: 2, windowMs: 3_600_000 },
  RATE_LIMIT_YOUTUBE_INFO: perMinute(2),
};

let lastAddress = 0;
/**
 * A client address no other test (or earlier run against a shared Redis) has used: all of 127.0.0.0/8
 * reaches this machine, and loopback clients may use local sign-in.
 */
const newAddress = () => `127.${randomInt(1, 255)}.${randomInt(256)}.${++lastAddress}`;

interface Call {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

function call(
  url: string,
  from: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string } = {},
): Promise<Call> {
  const { port } = new URL(url);
  const headers = { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, localAddress: from }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

const login = (url: string, from: string, path = '/v1/auth/login') => call(url, from, 'POST', path, { body: { email: 'limited@example.com' } });

function expectLimited(response: Call, what: RegExp, windowSeconds: number): void {
  expect(response.status).toBe(429);
  const body = apiErrorBodySchema.parse(response.body);
  expect(body.code).toBe('TOO_MANY_REQUESTS');
  expect(body.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
  expect(body.message).toMatch(what);
  expect(body.message).toMatch(/try again in \d+ (seconds?|minutes)$/);
  const retryAfter = Number(response.retryAfter);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

/** Another server on the same database and configuration: a second instance of a deployment. */
async function secondInstance(first: TestApp): Promise<{ url: string; close: () => Promise<void> }> {
  const shutdown = new AbortController();
  const app = await buildApp(
    { ...first.deps, jobs: new Jobs(first.deps.config, first.db, first.db.url, first.deps.log), shutdown: shutdown.signal },
    { webDist: null },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: async () => {
      shutdown.abort();
      await app.close();
    },
  };
}

describe.each([
  ['PostgreSQL', false],
  ['PGlite', true],
])('rate limits in the database (%s)', (_label, embeddedDatabase) => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await startTestApp(LIMITS, { embeddedDatabase });
    token = await app.signIn('limited@example.com');
  });
  afterAll(() => app.close());

  it('limits sign-in per client address, over REST and tRPC, with Retry-After', async () => {
    const client = newAddress();
    for (let i = 0; i < 3; i++) expect((await login(app.url, client)).status).toBe(200);
    expectLimited(await login(app.url, client), /^Too many sign-in attempts from your address/, 60);
    // The same counter behind tRPC, in tRPC's envelope so the client reads the status.
    const viaTrpc = await login(app.url, client, '/trpc/auth.login');
    expect(viaTrpc.status).toBe(429);
    expect(viaTrpc.body).toMatchObject({ error: { data: { httpStatus: 429 }, message: expect.stringMatching(/sign-in attempts/) } });
    // Another address is not affected.
    expect((await login(app.url, newAddress())).status).toBe(200);
  });

  it('counts every call of a batch and every spelling of a REST path', async () => {
    const batch = (from: string, calls: number) =>
      call(app.url, from, 'POST', `/trpc/${Array(calls).fill('auth.login').join(',')}?batch=1`, {
        body: Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { email: 'limited@example.com' }])),
      });
    const overLimit = await batch(newAddress(), 4);
    expect(overLimit.status).toBe(429);
    expect(overLimit.body).toHaveLength(4);

    const client = newAddress();
    expect((await batch(client, 3)).status).toBe(200);
    expect((await login(app.url, client)).status).toBe(429);

    const spelled = newAddress();
    for (const path of ['/v1/auth/login', '/v1/AUTH/Login/', '/v1/auth/login?via=query']) {
      expect((await login(app.url, spelled, path)).status, path).toBe(200);
    }
    expect((await login(app.url, spelled, '/trpc/auth.login')).status).toBe(429);
  });

  it('limits token minting, referral acceptance and the summarizers', async () => {
    const client = newAddress();
    const mint = () => call(app.url, client, 'POST', '/v1/auth/extension-token', { token });
    for (let i = 0; i < 2; i++) expect((await mint()).status).toBe(200);
    expectLimited(await mint(), /^Too many token requests/, 60);

    // Counted before the call runs: unknown codes and invalid input use up the limit too.
    const accept = () => call(app.url, client, 'GET', '/v1/referral/no-such-code', { token });
    for (let i = 0; i < 2; i++) expect((await accept()).status).toBe(404);
    const refused = await accept();
    expectLimited(refused, /^Too many referral acceptances/, 3600);
    expect(apiErrorBodySchema.parse(refused.body).message).toMatch(/in (59|60) minutes$/);

    const summarize = () => call(app.url, client, 'POST', '/v1/public/utils/summary', { body: {} });
    for (let i = 0; i < 2; i++) expect((await summarize()).status).toBe(400);
    expectLimited(await summarize(), /^Too many summaries/, 60);
  });

  it('limits webhook test pings, payment links and YouTube look-ups', async () => {
    const client = newAddress();
    // Counted before the call runs, whatever it then answers (an unknown webhook, payments not configured).
    const ping = () => call(app.url, client, 'POST', '/v1/webhooks/no-such-webhook/test', { token, body: {} });
    for (let i = 0; i < 2; i++) expect((await ping()).status).toBe(404);
    expectLimited(await ping(), /^Too many webhook tests from your address/, 3600);

    const checkout = await call(app.url, client, 'GET', '/v1/subscription?planID=pro', { token });
    expect(checkout.status).not.toBe(429);
    expect((await call(app.url, client, 'GET', '/v1/billing/portal', { token })).status).not.toBe(429);
    expectLimited(await call(app.url, client, 'GET', '/v1/subscription?planID=pro', { token }), /^Too many payment page requests/, 3600);

    const lookUp = () => call(app.url, client, 'GET', `/v1/utils/youtube?link=${encodeURIComponent('https://example.com/not-youtube')}`, { token });
    for (let i = 0; i < 2; i++) expect((await lookUp()).status).toBe(400);
    expectLimited(await lookUp(), /^Too many YouTube look-ups/, 60);
    // Other clients are not affected.
    expect((await call(app.url, newAddress(), 'POST', '/v1/webhooks/no-such-webhook/test', { token, body: {} })).status).toBe(404);
  });

  it('starts a new window once the old one has passed, and deletes expired counters', async () => {
    const client = newAddress();
    await app.deps.db.rateLimitHit.create({ data: { key: `sign-in:${client}`, count: 50, resetAt: new Date(Date.now() - 1000) } });
    await app.deps.db.rateLimitHit.create({ data: { key: 'sign-in:expired', count: 1, resetAt: new Date(Date.now() - 1000) } });
    // A new instance sweeps on its first hit.
    const second = await secondInstance(app);
    try {
      expect((await login(second.url, client)).status).toBe(200);
      expect(await app.deps.db.rateLimitHit.findUnique({ where: { key: `sign-in:${client}` } })).toMatchObject({ count: 1 });
      expect(await app.deps.db.rateLimitHit.findUnique({ where: { key: 'sign-in:expired' } })).toBeNull();
    } finally {
      await second.close();
    }
  });

  it('shares the counters between two instances on one database', async () => {
    const second = await secondInstance(app);
    try {
      const client = newAddress();
      expect((await login(app.url, client)).status).toBe(200);
      expect((await login(second.url, client)).status).toBe(200);
      expect((await login(app.url, client)).status).toBe(200);
      expect((await login(second.url, client)).status).toBe(429);
      expect((await login(app.url, client)).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('rate limits in Redis (REDIS_URL)', () => {
  const REDIS_URL = 'redis://127.0.0.1:6379';
  let redis: Redis;
  let first: TestApp;
  let second: TestApp;
  const client = newAddress();
  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    // Two servers on two databases: only Redis can make them count together.
    first = await startTestApp({ ...LIMITS, REDIS_URL });
    second = await startTestApp({ ...LIMITS, REDIS_URL });
  });
  afterAll(async () => {
    await redis.del(`mbox-rate-limit:sign-in:${client}`);
    await redis.quit();
    await first.close();
    await second.close();
  });

  it('keeps the counters in Redis, shared by every instance', async () => {
    expect((await login(first.url, client)).status).toBe(200);
    expect((await login(second.url, client)).status).toBe(200);
    expect((await login(first.url, client)).status).toBe(200);
    expectLimited(await login(second.url, client), /sign-in attempts/, 60);
    expect(await redis.get(`mbox-rate-limit:sign-in:${client}`)).toBe('4');
    const ttl = await redis.pttl(`mbox-rate-limit:sign-in:${client}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await first.deps.db.rateLimitHit.count()).toBe(0);
  });
});
