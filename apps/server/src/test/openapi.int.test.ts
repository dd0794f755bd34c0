import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './app.js';
import { makePremium } from './fixtures.js';
import {
  declaredErrorSchema,
  fetchDocument,
  fillPath,
  operationsOf,
  type DocumentOperation,
  type OpenApiDocument,
} from './openapi-document.js';

/**
 * The OpenAPI document is true: what it says about security and error answers holds for every
 * operation of the running server. Operations are read from the document, so new calls are covered.
 */
describe('the OpenAPI document', () => {
  let app: TestApp;
  let document: OpenApiDocument;
  let ops: DocumentOperation[];
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    document = await fetchDocument(app.url);
    ops = operationsOf(document);
    token = await app.signIn('doc@example.com');
    // Premium, so /v1/p/ calls get past the premium check to their input validation.
    await makePremium(app, 'doc@example.com');
  });
  afterAll(() => app.close());

  async function call(op: DocumentOperation, options: { token?: string; rawBody?: string } = {}) {
    const values = Object.fromEntries(op.pathParams.map((p) => [p.name, 'x']));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${app.url}/v1${fillPath(op.path, values)}`, {
      method: op.method,
      headers,
      body: options.rawBody ?? (op.method === 'GET' ? undefined : '{}'),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  /** The answer has `status`, the operation declares it, and the body matches the declared schema. */
  function expectDeclared(op: DocumentOperation, answer: { status: number; text: string; body: unknown }, status: number) {
    const label = `${op.method} ${op.path}`;
    expect(answer.status, `${label}: ${answer.text.slice(0, 300)}`).toBe(status);
    const schema = declaredErrorSchema(document, op, status);
    expect(schema, `${label} declares ${status}`).not.toBeNull();
    const parsed = schema!.safeParse(answer.body);
    expect(parsed.error?.issues ?? [], `${label} ${status} body ${answer.text.slice(0, 300)}`).toEqual([]);
  }

  it('is OpenAPI 3.1 with a bearer scheme, and every operation states its security', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const schemes = document.components.securitySchemes ?? {};
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(ops.length).toBeGreaterThan(30);
    for (const op of ops) {
      expect(Array.isArray(op.security), `${op.method} ${op.path} states its security`).toBe(true);
      for (const requirement of op.security ?? []) {
        for (const name of Object.keys(requirement)) expect(schemes, `${op.method} ${op.path}: scheme ${name}`).toHaveProperty(name);
      }
    }
    // Public calls exist and say so with an empty list.
    const publicOps = ops.filter((op) => !op.isProtected).map((op) => `${op.method} ${op.path}`);
    expect(publicOps).toEqual(expect.arrayContaining(['POST /auth/login', 'GET /auth/config', 'POST /public/utils/summary']));
  });

  it('declares for every operation the error answers it can give, each with the ApiError body', () => {
    expect(document.components.schemas?.ApiError?.required).toEqual(['message', 'code', 'data']);
    for (const op of ops) {
      const label = `${op.method} ${op.path}`;
      const expected = [429, 500];
      if (op.isProtected) expected.push(401, 403);
      if (op.body || op.pathParams.length || op.queryParams.length || op.method !== 'GET') expected.push(400);
      expect(op.errorStatuses, label).toEqual(expect.arrayContaining(expected));
      for (const status of op.errorStatuses) {
        const schema = document.paths[op.path]![op.method.toLowerCase()]!.responses![String(status)] as { $ref?: string };
        expect(schema.$ref, `${label} ${status}`).toMatch(/^#\/components\/responses\//);
        expect(declaredErrorSchema(document, op, status), `${label} ${status}`).not.toBeNull();
      }
    }
  });

  it('answers an unauthenticated call to every protected operation 401 with the declared body', async () => {
    const protectedOps = ops.filter((op) => op.isProtected);
    expect(protectedOps.length).toBeGreaterThan(20);
    for (const op of protectedOps) {
      expectDeclared(op, await call(op), 401);
      expectDeclared(op, await call(op, { token: 'not-a-token' }), 401);
    }
  });

  it('answers public operations called without a token as it declares', async () => {
    for (const op of ops.filter((o) => !o.isProtected)) {
      const answer = await call(op);
      expect(answer.status, `${op.method} ${op.path}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
      if (answer.status >= 400) expectDeclared(op, answer, answer.status);
    }
  });

  it('answers a bad body to every write operation 400 with the declared body', async () => {
    const writeOps = ops.filter((op) => op.method !== 'GET');
    expect(writeOps.length).toBeGreaterThan(15);
    let fieldErrors = 0;
    for (const op of writeOps) {
      const auth = op.isProtected ? token : undefined;
      // Not an object: refused before the call (app.ts).
      expectDeclared(op, await call(op, { token: auth, rawBody: '[1]' }), 400);
      expectDeclared(op, await call(op, { token: auth, rawBody: '{"a":' }), 400);
      // A required field missing: refused by the call's input schema, naming the field.
      if (op.body?.required?.length) {
        const answer = await call(op, { token: auth, rawBody: '{}' });
        expectDeclared(op, answer, 400);
        expect((answer.body as { data: { field?: string } }).data.field, `${op.method} ${op.path}`).toBeTruthy();
        fieldErrors += 1;
      }
    }
    expect(fieldErrors).toBeGreaterThan(5);
  });
});
