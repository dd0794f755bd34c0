import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@mbox/shared';
import { startTestApp, type TestApp } from './app.js';
import { makePremium, seedMeeting } from './fixtures.js';

/**
 * Table-driven fuzzing of every write call of the REST facade, found in /v1/openapi.json so new calls
 * are covered without touching this file. Each call gets bodies that break its published schema in
 * one place (wrong types, 1 MB strings, out-of-range and non-integer numbers, unknown and missing
 * fields), raw bodies that are not valid JSON or not an object, and ids that are unknown, malformed or
 * another user's. Every answer must be a 4xx with a message, and no stored row may change.
 */

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
}

interface Operation {
  method: string;
  path: string;
  body: Schema | null;
}

interface Case {
  name: string;
  /** Raw request body; undefined sends none. */
  body?: string;
  contentType?: string;
}

const MEGABYTE = 1024 * 1024;

/** A string matching simple patterns made of literals and [classes] with {n} counts. */
function fromPattern(pattern: string): string {
  let out = '';
  const source = pattern.replace(/^\^/, '').replace(/\$$/, '');
  for (let i = 0; i < source.length; ) {
    let unit: string;
    if (source[i] === '[') {
      const end = source.indexOf(']', i);
      unit = source[i + 1]!;
      i = end + 1;
    } else if (source[i] === '\\') {
      unit = source[i + 1]!;
      i += 2;
    } else {
      unit = source[i]!;
      i += 1;
    }
    const count = /^\{(\d+)(?:,\d*)?\}/.exec(source.slice(i));
    if (count) i += count[0].length;
    else if (source[i] === '+') i += 1;
    out += unit.repeat(count ? Number(count[1]) : 1);
  }
  if (!new RegExp(pattern).test(out)) throw new Error(`fuzz: cannot build an example of /${pattern}/; teach fromPattern`);
  return out;
}

function types(schema: Schema): string[] {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.flatMap(types);
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.enum) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  if (schema.const !== undefined) return [typeof schema.const];
  return [];
}

/** The smallest value the schema accepts. */
function validValue(schema: Schema): unknown {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return validValue(alternatives[0]!);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  switch (types(schema)[0]) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, validValue(schema.properties?.[key] ?? {})]));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => validValue(schema.items ?? {}));
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.pattern) return fromPattern(schema.pattern);
      return 'a'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
    case 'number': {
      const minimum = schema.minimum ?? 0;
      return schema.multipleOf ? Math.ceil(minimum / schema.multipleOf) * schema.multipleOf : minimum;
    }
    case 'boolean':
      return false;
    default:
      return null;
  }
}

type Mutation = { name: string; value: unknown };

/** Values that break the schema at this node or, through `valid`, at one node below it. */
function mutations(schema: Schema, valid: unknown): Mutation[] {
  const allowed = types(schema);
  const samples: [string, unknown][] = [
    ['null', null],
    ['boolean', true],
    ['number', 12],
    ['string', 'fuzz'],
    ['array', []],
    ['object', {}],
  ];
  const out: Mutation[] = samples
    .filter(([type]) => !allowed.includes(type) && !(type === 'number' && allowed.includes('integer')))
    .map(([type, value]) => ({ name: `wrong type ${type}`, value }));
  const isString = allowed.includes('string');
  const isNumber = allowed.includes('number') || allowed.includes('integer');

  if (isString) {
    out.push({ name: '1 MB string', value: 'x'.repeat(MEGABYTE) });
    if (schema.maxLength !== undefined) out.push({ name: 'too long', value: 'x'.repeat(schema.maxLength + 1) });
    if ((schema.minLength ?? 0) > 0) out.push({ name: 'empty', value: '' });
    if (schema.enum ?? schema.const ?? schema.anyOf ?? schema.oneOf) out.push({ name: 'unknown value', value: 'not-a-known-value' });
    if (schema.pattern ?? schema.format) out.push({ name: 'bad format', value: '!!not valid!!' });
  }
  if (isNumber) {
    const minimum = schema.minimum;
    if (minimum === undefined || minimum > -1) out.push({ name: 'negative', value: -1 });
    if (minimum !== undefined && minimum > 0) out.push({ name: 'below minimum', value: minimum - 1 });
    out.push({ name: 'above maximum', value: schema.maximum !== undefined ? schema.maximum + 1 : 1e300 });
    if (allowed.includes('integer') || schema.multipleOf) out.push({ name: 'non-integer', value: Number(valid) + 0.5 });
    if (schema.multipleOf && schema.multipleOf > 1) out.push({ name: 'not a multiple', value: Number(valid) + 1 });
  }
  if (allowed.includes('array')) {
    const item = schema.items ?? {};
    const validItem = validValue(item);
    if (schema.maxItems !== undefined) {
      out.push({ name: 'too many items', value: Array.from({ length: schema.maxItems + 1 }, () => validItem) });
    }
    for (const m of mutations(item, validItem)) out.push({ name: `[0] ${m.name}`, value: [m.value] });
  }
  if (allowed.includes('object') && valid && typeof valid === 'object' && !Array.isArray(valid)) {
    const base = valid as Record<string, unknown>;
    if (schema.additionalProperties === false) out.push({ name: 'unknown field', value: { ...base, fuzzUnknownField: 1 } });
    for (const key of schema.required ?? []) {
      const rest = { ...base };
      delete rest[key];
      out.push({ name: `missing ${key}`, value: rest });
    }
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      const childValid = key in base ? base[key] : validValue(child);
      for (const m of mutations(child, childValid)) out.push({ name: `${key}: ${m.name}`, value: { ...base, [key]: m.value } });
    }
  }
  return out;
}

/** Bodies that are not JSON, not an object, or too big, whatever the call. */
const rawCases: Case[] = [
  { name: 'invalid JSON', body: '{"a":' },
  { name: 'single quotes', body: "{'a': 1}" },
  { name: 'NaN literal', body: '{"a": NaN}' },
  { name: 'deep nesting', body: '['.repeat(5000) + ']'.repeat(5000) },
  { name: 'over the body limit', body: JSON.stringify({ a: 'x'.repeat(3 * MEGABYTE) }) },
  { name: 'not JSON content type', body: 'marks=important', contentType: 'application/x-www-form-urlencoded' },
];
/** JSON that is valid but not an object: refused by calls that take a body. */
const nonObjectCases: Case[] = ['null', '[]', '"text"', '12', 'true', JSON.stringify('x'.repeat(MEGABYTE))].map((body) => ({
  name: `non-object ${body.slice(0, 10)}`,
  body,
}));

describe('fuzzing every write call of the REST facade', () => {
  let app: TestApp;
  let token: string;
  let ops: Operation[];
  let ownIds: string[];
  let foreignIds: string[];

  beforeAll(async () => {
    app = await startTestApp();
    token = await app.signIn('fuzz@example.com');
    const other = await app.signIn('other@example.com');
    // Premium, so /v1/p/ calls get past the gate and reach their validation.
    await makePremium(app, 'fuzz@example.com');
    const talk = ['Ana', 'Bo', 'Ana', 'Bo', 'Ana', 'Bo'].map((speaker, i) => ({ speaker, text: `line ${i}` }));
    const own = await seedMeeting(app, token, 'own', talk);
    const foreign = await seedMeeting(app, other, 'foreign', talk);
    const summary = (meetingId: string) =>
      app.deps.db.summary.create({ data: { meetingId, promptKey: 'summary', title: 'Summary', text: '<p>s</p>' } });
    ownIds = [own.meetingKey, own.messages[0]!.key, (await summary(own.meetingKey)).id];
    foreignIds = [foreign.meetingKey, foreign.messages[0]!.key, (await summary(foreign.meetingKey)).id];
    await app.rest('POST', '/v1/auth/extension-token', { token });

    const document = (await (await fetch(`${app.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
    };
    ops = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => method !== 'get')
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          body: op.requestBody?.content?.['application/json']?.schema ?? null,
        })),
    );
  });
  afterAll(() => app.close());

  /** Every stored row, so any write the fuzzing lets through shows up as a difference. */
  async function snapshot(): Promise<unknown> {
    const db = app.deps.db;
    const byId = { orderBy: { id: 'asc' as const } };
    const rows = {
      users: await db.user.findMany(byId),
      meetings: await db.meeting.findMany(byId),
      messages: await db.message.findMany(byId),
      summaries: await db.summary.findMany(byId),
      tokens: await db.extensionToken.findMany(byId),
      referrals: await db.referral.findMany(byId),
      subscriptions: await db.subscription.findMany(byId),
      usage: await db.dailyUsage.findMany({ orderBy: [{ subject: 'asc' }, { day: 'asc' }, { kind: 'asc' }] }),
    };
    return JSON.parse(JSON.stringify(rows, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value)));
  }

  async function send(method: string, path: string, request: Case): Promise<{ status: number; text: string }> {
    const response = await fetch(`${app.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': request.contentType ?? 'application/json' },
      body: request.body,
    });
    return { status: response.status, text: await response.text() };
  }

  function checkAnswer(label: string, answer: { status: number; text: string }, failures: string[]): void {
    let message = '';
    try {
      message = apiErrorBodySchema.parse(JSON.parse(answer.text)).message;
    } catch {
      // Reported below as an answer without a message.
    }
    if (answer.status < 400 || answer.status >= 500 || !message) {
      failures.push(`${label} → ${answer.status} ${answer.text.slice(0, 200)}`);
    }
  }

  it('finds the write calls in the OpenAPI document', () => {
    const names = ops.map((op) => `${op.method} ${op.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /transcript/lines',
        'PUT /message/mark/{id}',
        'PUT /message/comment/{id}',
        'PUT /p/message/encrypt/{id}',
        'PUT /p/meeting/encrypt/{id}',
        'DELETE /meeting/{id}',
      ]),
    );
  });

  it('answers every malformed request with a 4xx and a message, and changes no stored row', async () => {
    const failures: string[] = [];
    let requests = 0;
    for (const op of ops) {
      const before = await snapshot();
      const hasIdParam = /\{[^}]+\}/.test(op.path);
      const withId = (id: string) => op.path.replace(/\{[^}]+\}/g, id);
      const paths = hasIdParam ? ownIds.map(withId) : [op.path];

      const cases: Case[] = [...rawCases];
      if (op.body) {
        const valid = validValue(op.body);
        cases.push(...nonObjectCases, ...mutations(op.body, valid).map((m) => ({ name: m.name, body: JSON.stringify(m.value) })));
        if ((op.body.required ?? []).length) cases.push({ name: 'empty body' });
      }
      for (const path of paths) {
        for (const request of cases) {
          requests += 1;
          checkAnswer(`${op.method} ${path} [${request.name}]`, await send(op.method, path, request), failures);
        }
      }
      // Ids that are unknown, malformed or another user's, with an otherwise valid body.
      if (hasIdParam) {
        const body = op.body ? JSON.stringify(validValue(op.body)) : undefined;
        const badIds = ['does-not-exist', 'x'.repeat(101), '%00', "'%20OR%201=1--", '..%2F..', '%F0%9F%98%80', ...foreignIds];
        for (const id of badIds) {
          requests += 1;
          checkAnswer(`${op.method} ${withId(id)} [bad id]`, await send(op.method, withId(id), { name: 'bad id', body }), failures);
        }
      }
      const after = await snapshot();
      if (!isDeepStrictEqual(after, before)) failures.push(`${op.method} ${op.path} changed stored data`);
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(300);
  });
});
