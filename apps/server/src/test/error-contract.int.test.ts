import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@mbox/shared';
import { startTestApp, type TestApp } from './app.js';
import { makePremium } from './fixtures.js';

interface Operation {
  method: string;
  path: string;
  protected: boolean;
}

/** Every call of the REST facade, as the OpenAPI document lists it. */
async function operations(app: TestApp): Promise<Operation[]> {
  const document = (await (await fetch(`${app.url}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      // Any value fills a path parameter: authentication and the premium check come first.
      path: `/v1${path.replace(/\{[^}]+\}/g, 'x')}`,
      protected: Boolean(op.security?.length),
    })),
  );
}

const hasBody = (method: string) => method !== 'GET' && method !== 'DELETE';

describe('error contract', () => {
  let app: TestApp;
  let ops: Operation[];
  let free: string;
  beforeAll(async () => {
    app = await startTestApp();
    free = await app.signIn('free@example.com');
    ops = await operations(app);
  });
  afterAll(() => app.close());

  const expectError = (response: { status: number; body: unknown }, status: number, code: string, label: string) => {
    expect(response.status, label).toBe(status);
    const body = apiErrorBodySchema.parse(response.body);
    expect(body.code, label).toBe(code);
    expect(body.message.length, label).toBeGreaterThan(0);
    expect(body.data, label).toMatchObject({ code, httpStatus: status });
  };

  it('answers 401 to every protected call without a valid token', async () => {
    expect(ops.filter((op) => op.protected).length).toBeGreaterThan(15);
    for (const op of ops.filter((o) => o.protected)) {
      const body = hasBody(op.method) ? {} : undefined;
      expectError(await app.rest(op.method, op.path, { body }), 401, 'UNAUTHORIZED', `${op.method} ${op.path}`);
      expectError(await app.rest(op.method, op.path, { body, token: 'not-a-token' }), 401, 'UNAUTHORIZED', `${op.method} ${op.path} bad token`);
    }
  });

  it('answers 403 with a clear message to every /v1/p/ call of a non-premium or expired-premium user', async () => {
    const premiumOps = ops.filter((op) => op.path.startsWith('/v1/p/'));
    expect(premiumOps.length).toBeGreaterThanOrEqual(2);
    const expired = await app.signIn('expired@example.com');
    await makePremium(app, 'expired@example.com', -1);
    for (const token of [free, expired]) {
      for (const op of premiumOps) {
        const response = await app.rest<{ message: string }>(op.method, op.path, { token, body: hasBody(op.method) ? {} : undefined });
        expectError(response, 403, 'FORBIDDEN', `${op.method} ${op.path}`);
        expect(response.body.message).toMatch(/premium/i);
      }
    }
  });

  it('keeps one error shape for REST, tRPC and the server itself', async () => {
    const rest = await app.rest<{ message: string; data: unknown }>('PUT', '/v1/message/mark/nope', { token: free, body: { marks: [] } });
    expectError(rest, 404, 'NOT_FOUND', 'REST');
    const trpcError = await app
      .trpc(free)
      .message.mark.mutate({ id: 'nope', marks: [] })
      .catch((e: unknown) => e);
    expect(trpcError).toBeInstanceOf(TRPCClientError);
    const { message, data } = trpcError as TRPCClientError<never>;
    expect({ message, data }).toEqual({ message: rest.body.message, data: rest.body.data });

    const invalid = await app.rest<{ data: { field: string } }>('PUT', '/v1/message/mark/nope', { token: free, body: { marks: [1] } });
    expectError(invalid, 400, 'BAD_REQUEST', 'invalid input');
    expect(invalid.body.data.field).toBe('marks.0');
    expectError(await app.rest('PUT', '/v1/message/mark/nope', { token: free, rawBody: '{"marks": [' }), 400, 'BAD_REQUEST', 'bad JSON');
    expectError(await app.rest('GET', '/v1/no-such-call', { token: free }), 404, 'NOT_FOUND', 'unknown route');
  });

  it('takes JSON values as sent: no coercion of body fields, over REST or tRPC', async () => {
    const body = {
      meeting: { sessionId: 's', meetCode: 'abc-defg-hij', startedAt: null },
      lines: [{ captionId: 'c1', revision: 0, speaker: 'Ana', text: 'hi', spokenAt: Date.now(), final: 'false' }],
    };
    const rest = await app.rest<{ data: { issues: { path: string }[] } }>('POST', '/v1/transcript/lines', { token: free, body });
    expectError(rest, 400, 'BAD_REQUEST', 'REST');
    expect(rest.body.data.issues.map((i) => i.path)).toEqual(['meeting.startedAt', 'lines.0.final']);
    // trpc-to-openapi sets zod's coerce flag on body fields of the schema tRPC shares: it must not bite.
    const viaTrpc = await app
      .trpc(free)
      .transcript.ingest.mutate(body as never)
      .catch((e: unknown) => e);
    expect((viaTrpc as TRPCClientError<never>).data).toMatchObject({ httpStatus: 400, field: 'meeting.startedAt' });
    expect(await app.deps.db.meeting.count()).toBe(0);
    // Query parameters arrive as text and are still read as numbers where the schema says so.
    expect((await app.rest('GET', '/v1/meeting-list?limit=2', { token: free })).status).toBe(200);
  });

  it('refuses bodies that are not a JSON object or are nested absurdly deep', async () => {
    for (const rawBody of ['null', '[]', '12', '"text"']) {
      const response = await app.rest<{ message: string }>('POST', '/v1/auth/login', { rawBody });
      expectError(response, 400, 'BAD_REQUEST', rawBody);
      expect(response.body.message).toBe('Body must be a JSON object');
    }
    const deep = await app.rest<{ message: string }>('PUT', '/v1/message/mark/x', { token: free, rawBody: '['.repeat(5000) + ']'.repeat(5000) });
    expectError(deep, 400, 'BAD_REQUEST', 'deep');
    expect(deep.body.message).toBe('Body is nested too deeply: at most 32 levels');
    // An empty body still signs in the default local account (docs/account-and-plans.md).
    expect((await app.rest('POST', '/v1/auth/login', { rawBody: '' })).status).toBe(200);
  });

  it('serves the OpenAPI document and a browsable page at /docs from bundled assets', async () => {
    const page = await fetch(`${app.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets).toContain('/docs/static/swagger-ui-bundle.js');
    for (const asset of assets) {
      // Resolved as the browser does from /docs: everything comes from this server.
      const response = await fetch(new URL(asset, `${app.url}/docs`));
      expect(response.status, asset).toBe(200);
    }
    const docsJson: unknown = await (await fetch(`${app.url}/docs/json`)).json();
    const openapi = await (await fetch(`${app.url}/v1/openapi.json`)).json();
    expect(docsJson).toEqual(openapi);
  });
});
