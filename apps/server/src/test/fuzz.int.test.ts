import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { isIP } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './app.js';
import { makePremium, seedMeeting } from './fixtures.js';
import {
  declaredErrorSchema,
  fetchDocument,
  fillPath,
  operationsOf,
  type DocumentOperation,
  type JsonSchema,
  type OpenApiDocument,
  types,
  validValue,
} from './openapi-document.js';

/**
 * Fuzzing of every write call of the REST facade, found in /v1/openapi.json so new calls are covered
 * without touching this file, on embedded PGlite and on PostgreSQL:
 * - table-driven: bodies that break the published schema in one place (wrong types, 1 MB strings,
 *   out-of-range numbers, unknown and missing fields), raw bodies that are not JSON or not an object,
 *   and ids that are unknown, malformed or another user's. Every answer is a declared 4xx and no
 *   stored row changes.
 * - generated (fast-check): bodies and ids shaped by the declared schema with hostile values (NUL,
 *   lone surrogates, huge strings, extreme numbers and dates, deep nesting, other users' ids), sent
 *   as user A. No 500; a 5xx only where the call declares it (upstream failures); every error answer
 *   is declared with the body the document says; user B's rows never change.
 * On failure fast-check prints the seed and path; FUZZ_SEED, FUZZ_PATH and FUZZ_RUNS replay or widen a run.
 */

const MEGABYTE = 1024 * 1024;
/** Nothing listens on the discard port: upstream calls fail at once, without the network. */
const CLOSED_UPSTREAM = '127.0.0.1:9';
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const unlimited = { max: 1_000_000, windowMs: 60_000 };

type Mutation = { name: string; value: unknown };

/** Values that break the schema at this node or, through `valid`, at one node below it. */
function mutations(schema: JsonSchema, valid: unknown): Mutation[] {
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

interface Case {
  name: string;
  /** Raw request body; undefined sends none. */
  body?: string;
  contentType?: string;
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

/** Milliseconds of 10000-01-01T00:00:00Z: the first instant PostgreSQL and ISO strings disagree on. */
const YEAR_10000 = 253402300800000;

/** Strings that have broken servers: NUL (PostgreSQL 22021), lone surrogates, huge, dates, markup, paths. */
const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  'speaker \uD83D',
  '😀'.repeat(2000),
  'x'.repeat(300_000),
  '10000-01-01T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '0000-00-00',
  '<img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00%2F..',
  '__proto__',
  'constructor',
  `http://${CLOSED_UPSTREAM}/`,
  `https://${CLOSED_UPSTREAM}/watch?v=dQw4w9WgXcQ`,
  'http://10.0.0.1/',
  'http://[::1]:22/',
  'javascript:alert(1)',
  'file:///etc/passwd',
];

const extremeNumbers = [
  0,
  -1,
  0.5,
  -0.0001,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  2 ** 31,
  -(2 ** 31) - 1,
  YEAR_10000,
  YEAR_10000 - 1,
  8.64e15,
  -8.64e15,
  946684800000,
];

interface Pools {
  /** Ids of user A's and user B's rows, and ids that do not exist. */
  ids: string[];
}

/** Any JSON value, hostile ones favoured: the wrong-type branch of every node. */
function hostileValue(pools: Pools): fc.Arbitrary<unknown> {
  const deep = (levels: number): unknown => (levels === 0 ? 'bottom' : { a: [deep(levels - 1)] });
  return fc.oneof(
    fc.constantFrom<unknown>(null, true, false, [], {}, deep(20), deep(40)),
    fc.constantFrom(...hostileStrings),
    fc.constantFrom(...extremeNumbers),
    fc.constantFrom(...pools.ids),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

/** How one request is generated: shaped to pass validation (with hostile contents), or hostile throughout. */
interface Generation {
  pools: Pools;
  /** Wrong types, out-of-range values, dropped and unknown fields at any node. */
  hostile: boolean;
  /** Name of the field being generated: ids and timestamps are told by their names. */
  key: string;
  depth: number;
}

const ID_FIELD = /(^id$|Id$|Key$|^key$|^code$)/;
const TIME_FIELD = /(At$|^at$|time|Time|date|Date)/;

function stringArbitrary(schema: JsonSchema, g: Generation): fc.Arbitrary<string> {
  const maxLength = Math.min(schema.maxLength ?? 80, 80);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  const fits = (value: string) => value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity);
  if (schema.enum) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  if (schema.format === 'email') return fc.constantFrom('a@example.com', 'fuzz+1@example.org', 'other@example.com');
  const shaped: fc.Arbitrary<string>[] = [
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
    // Any UTF-16 code unit: lone surrogates and NUL included.
    fc.string({ minLength, maxLength, unit: 'binary' }),
  ];
  const hostileContents = hostileStrings.filter((value) => g.hostile || fits(value));
  const ids = g.pools.ids.filter((value) => g.hostile || fits(value));
  const choices: fc.WeightedArbitrary<string>[] = [{ weight: 4, arbitrary: fc.oneof(...shaped) }];
  if (hostileContents.length) choices.push({ weight: 2, arbitrary: fc.constantFrom(...hostileContents) });
  if (ids.length) choices.push({ weight: ID_FIELD.test(g.key) ? 8 : 1, arbitrary: fc.constantFrom(...ids) });
  return fc.oneof(...choices);
}

function numberArbitrary(schema: JsonSchema, integer: boolean, g: Generation): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? schema.exclusiveMinimum ?? -1e6, -1e15);
  const max = Math.min(schema.maximum ?? schema.exclusiveMaximum ?? 1e6, 1e15);
  const step = schema.multipleOf ?? 1;
  const inRange = integer || schema.multipleOf
    ? fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((n) => n * step)
    : fc.double({ min, max, noNaN: true });
  // Timestamps of the last day and the next hour, as real calls send.
  const recent = fc.integer({ min: Date.now() - 86_400_000, max: Date.now() + 3_600_000 });
  const isTime = TIME_FIELD.test(g.key);
  const choices: fc.WeightedArbitrary<number>[] = isTime ? [{ weight: 6, arbitrary: recent }] : [];
  if (!isTime || g.hostile) choices.push({ weight: 3, arbitrary: inRange });
  if (g.hostile) choices.push({ weight: 3, arbitrary: fc.constantFrom(...extremeNumbers) });
  return fc.oneof(...choices);
}

/** Values of the declared shape with hostile contents; when hostile, now and then of no shape at all. */
function valueArbitrary(schema: JsonSchema, g: Generation): fc.Arbitrary<unknown> {
  const shaped = shapedArbitrary(schema, g);
  return g.hostile ? fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: hostileValue(g.pools) }) : shaped;
}

function shapedArbitrary(schema: JsonSchema, g: Generation): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => shapedArbitrary(s, g)));
  if (schema.allOf?.length) return shapedArbitrary(Object.assign({}, ...schema.allOf) as JsonSchema, g);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (g.depth > 5) return g.hostile ? hostileValue(g.pools) : fc.constant(null);
  const child = (key: string): Generation => ({ ...g, key, depth: g.depth + 1 });
  const kinds = types(schema);
  const options: fc.Arbitrary<unknown>[] = [];
  for (const kind of kinds.length ? kinds : ['any']) {
    switch (kind) {
      case 'string':
        options.push(stringArbitrary(schema, g));
        break;
      case 'integer':
      case 'number':
        options.push(numberArbitrary(schema, kind === 'integer', g));
        break;
      case 'boolean':
        options.push(fc.boolean());
        break;
      case 'null':
        options.push(fc.constant(null));
        break;
      case 'array': {
        const maxLength = Math.min(schema.maxItems ?? 6, g.depth === 0 ? 6 : 3);
        options.push(fc.array(valueArbitrary(schema.items ?? {}, child(g.key)), { minLength: Math.min(schema.minItems ?? 0, maxLength), maxLength }));
        break;
      }
      case 'object': {
        const properties = schema.properties ?? {};
        const required = new Set(schema.required ?? []);
        const record = fc.record(
          Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, valueArbitrary(value, child(key))])),
          { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) },
        );
        if (!g.hostile) {
          options.push(record);
          break;
        }
        // A required field dropped, or an unknown one added.
        options.push(
          fc.oneof(
            { weight: 6, arbitrary: record },
            { weight: 1, arbitrary: record.map((value) => ({ ...value, fuzzUnknown: 'x' })) },
            {
              weight: 1,
              arbitrary: fc.tuple(record, fc.constantFrom('', ...required)).map(([value, key]) => {
                const copy: Record<string, unknown> = { ...value };
                delete copy[key];
                return copy;
              }),
            },
          ),
        );
        break;
      }
      default:
        options.push(g.hostile ? hostileValue(g.pools) : fc.jsonValue({ maxDepth: 2 }));
    }
  }
  return fc.oneof(...options);
}

/** One generated request: the operation, its path parameters, query and body. */
interface Request {
  op: DocumentOperation;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

function requestArbitrary(ops: DocumentOperation[], pools: Pools): fc.Arbitrary<Request> {
  return fc.tuple(fc.constantFrom(...ops), fc.boolean()).chain(([op, hostile]) => {
    const g: Generation = { pools, hostile, key: '', depth: 0 };
    return fc.record({
      op: fc.constant(op),
      params: fc.record(
        Object.fromEntries(
          op.pathParams.map((p) => [
            p.name,
            fc.oneof(
              { weight: 4, arbitrary: fc.constantFrom(...pools.ids) },
              { weight: 2, arbitrary: fc.constantFrom('\u0000', '%', '..', '😀', ' ', 'x'.repeat(300)) },
              { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }) },
            ),
          ]),
        ),
      ),
      query: fc.record(
        Object.fromEntries(op.queryParams.map((p) => [p.name, valueArbitrary(p.schema ?? {}, { ...g, key: p.name })])),
        { requiredKeys: [] },
      ),
      body: op.body ? valueArbitrary(op.body, g) : fc.constantFrom(undefined, {}),
    });
  });
}

/**
 * No host name resolves while fuzzing, so generated links and webhook URLs cannot reach the network.
 * Address literals (the database, the closed upstream port) still connect.
 */
function blockNameResolution(): { lookups: () => number; restore: () => void } {
  const original = { lookup: dns.lookup, promisesLookup: dns.promises.lookup };
  let count = 0;
  const refuse = (hostname: string) => {
    count += 1;
    return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (blocked by the fuzz suite)`), { code: 'ENOTFOUND', hostname });
  };
  dns.lookup = ((hostname: string, ...rest: unknown[]) => {
    if (isIP(hostname)) return (original.lookup as (...args: unknown[]) => void)(hostname, ...rest);
    const callback = rest[rest.length - 1] as (error: Error) => void;
    process.nextTick(() => callback(refuse(hostname)));
  }) as typeof dns.lookup;
  dns.promises.lookup = ((hostname: string, options?: unknown) =>
    isIP(hostname)
      ? (original.promisesLookup as (...args: unknown[]) => Promise<unknown>)(hostname, options)
      : Promise.reject(refuse(hostname))) as typeof dns.promises.lookup;
  syncBuiltinESMExports();
  return {
    lookups: () => count,
    restore() {
      dns.lookup = original.lookup;
      dns.promises.lookup = original.promisesLookup;
      syncBuiltinESMExports();
    },
  };
}

const engines = [
  { engine: 'PGlite', embedded: true },
  // The configured PostgreSQL (TEST_DATABASE_URL, else 127.0.0.1:5432); CI always has one.
  { engine: 'PostgreSQL', embedded: false },
];

describe.each(engines)('fuzzing every write call of the REST facade on $engine', ({ embedded }) => {
  let app: TestApp;
  let token: string;
  let document: OpenApiDocument;
  let ops: DocumentOperation[];
  let ownIds: string[];
  let foreignIds: string[];
  let otherUserId: string;
  let resolver: ReturnType<typeof blockNameResolution>;

  beforeAll(async () => {
    resolver = blockNameResolution();
    app = await startTestApp(
      {
        // Upstream calls go nowhere: YouTube and linked pages at a closed loopback port.
        YOUTUBE_BASE_URL: `http://${CLOSED_UPSTREAM}`,
        SUMMARIZER_ALLOWED_HOSTS: [CLOSED_UPSTREAM],
        SUMMARIZER_FETCH_TIMEOUT_MS: 2000,
        // Rate limits out of the way, so generated calls reach the procedures (a 429 would pass anyway).
        RATE_LIMIT_SIGN_IN: unlimited,
        RATE_LIMIT_TOKENS: unlimited,
        RATE_LIMIT_REFERRAL: unlimited,
        RATE_LIMIT_SUMMARIZER: unlimited,
      },
      { embeddedDatabase: embedded },
    );
    token = await app.signIn('fuzz@example.com');
    const other = await app.signIn('other@example.com');
    // Premium, so /v1/p/ calls get past the gate and reach their validation.
    await makePremium(app, 'fuzz@example.com');
    await makePremium(app, 'other@example.com');
    const talk = ['Ana', 'Bo', 'Ana', 'Bo', 'Ana', 'Bo'].map((speaker, i) => ({ speaker, text: `line ${i}` }));
    const own = await seedMeeting(app, token, 'own', talk);
    const foreign = await seedMeeting(app, other, 'foreign', talk);
    const summary = (meetingId: string) =>
      app.deps.db.summary.create({ data: { meetingId, promptKey: 'summary', title: 'Summary', text: '<p>s</p>' } });
    otherUserId = (await app.deps.db.user.findUniqueOrThrow({ where: { email: 'other@example.com' } })).id;
    const ownUserId = (await app.deps.db.user.findUniqueOrThrow({ where: { email: 'fuzz@example.com' } })).id;
    const otherWebhook = await app.deps.db.webhook.create({
      data: { userId: otherUserId, url: 'https://hooks.example.com/b', events: ['meeting.finished'], secret: 'whsec_b' },
    });
    ownIds = [own.meetingKey, own.messages[0]!.key, (await summary(own.meetingKey)).id, ownUserId];
    foreignIds = [foreign.meetingKey, foreign.messages[0]!.key, (await summary(foreign.meetingKey)).id, otherUserId, otherWebhook.id];
    await app.rest('POST', '/v1/auth/extension-token', { token });
    await app.rest('POST', '/v1/auth/extension-token', { token: other });
    const referral = await app.rest<{ code?: string }>('GET', '/v1/referral', { token: other });
    if (referral.body.code) foreignIds.push(referral.body.code);

    document = await fetchDocument(app.url);
    ops = operationsOf(document).filter((op) => op.method !== 'GET');
  });
  afterAll(async () => {
    await app?.close();
    resolver.restore();
  });

  /** Every stored row, so any write the malformed requests let through shows up as a difference. */
  async function snapshotAll(): Promise<unknown> {
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
      webhooks: await db.webhook.findMany(byId),
      usage: await db.dailyUsage.findMany({ orderBy: [{ subject: 'asc' }, { day: 'asc' }, { kind: 'asc' }] }),
    };
    return plain(rows);
  }

  /** Everything of user B: account and settings, meetings with their lines, summaries, tokens, webhooks. */
  async function snapshotOfB(): Promise<unknown> {
    const db = app.deps.db;
    const byId = { orderBy: { id: 'asc' as const } };
    const mine = { where: { userId: otherUserId }, ...byId };
    const ofMeetings = { where: { meeting: { userId: otherUserId } }, ...byId };
    return plain({
      user: await db.user.findUnique({ where: { id: otherUserId } }),
      meetings: await db.meeting.findMany(mine),
      messages: await db.message.findMany(ofMeetings),
      events: await db.meetingEvent.findMany(ofMeetings),
      summaries: await db.summary.findMany(ofMeetings),
      recaps: await db.recap.findMany(mine),
      tokens: await db.extensionToken.findMany(mine),
      sessions: await db.session.findMany(mine),
      subscriptions: await db.subscription.findMany(mine),
      webhooks: await db.webhook.findMany(mine),
      deliveries: await db.webhookDelivery.findMany({ where: { webhook: { userId: otherUserId } }, ...byId }),
      referrals: await db.referral.findMany({ where: { OR: [{ referrerId: otherUserId }, { acceptorId: otherUserId }] }, ...byId }),
      usage: await db.dailyUsage.findMany({ where: { subject: otherUserId }, orderBy: [{ day: 'asc' }, { kind: 'asc' }] }),
    });
  }

  function plain(rows: unknown): unknown {
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

  /** Problems of an error answer: a status the operation does not declare, or a body not as declared. */
  function errorProblems(op: DocumentOperation, answer: { status: number; text: string }): string[] {
    const schema = declaredErrorSchema(document, op, answer.status);
    if (!schema) return [`status ${answer.status} not declared (declared: ${op.errorStatuses.join(', ')})`];
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return ['body is not JSON'];
    }
    const parsed = schema.safeParse(body);
    return parsed.success ? [] : [`body not as declared: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`];
  }

  it('lets the server resolve no host name (generated URLs cannot reach the network)', async () => {
    const before = resolver.lookups();
    const answer = await app.rest('POST', '/v1/webhooks', { token, body: { url: 'https://fuzz-guard.example.com/hook', events: ['meeting.finished'] } });
    expect(answer.status).toBeLessThan(500);
    expect(resolver.lookups()).toBeGreaterThan(before);
  });

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

  it('answers every malformed request with a declared 4xx and its body, and changes no stored row', async () => {
    const failures: string[] = [];
    let requests = 0;
    const check = (op: DocumentOperation, label: string, answer: { status: number; text: string }) => {
      const problems = answer.status < 400 || answer.status >= 500 ? ['not a 4xx'] : errorProblems(op, answer);
      if (problems.length) failures.push(`${label} → ${answer.status} ${problems.join('; ')} ${answer.text.slice(0, 200)}`);
    };
    for (const op of ops) {
      const before = await snapshotAll();
      const hasIdParam = op.pathParams.length > 0;
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
          check(op, `${op.method} ${path} [${request.name}]`, await send(op.method, path, request));
        }
      }
      // Ids that are unknown, malformed or another user's, with an otherwise valid body.
      if (hasIdParam) {
        const body = op.body ? JSON.stringify(validValue(op.body)) : undefined;
        const badIds = ['does-not-exist', 'x'.repeat(101), '%00', "'%20OR%201=1--", '..%2F..', '%F0%9F%98%80', ...foreignIds];
        for (const id of badIds) {
          requests += 1;
          check(op, `${op.method} ${withId(id)} [bad id]`, await send(op.method, withId(id), { name: 'bad id', body }));
        }
      }
      const after = await snapshotAll();
      if (!isDeepStrictEqual(after, before)) failures.push(`${op.method} ${op.path} changed stored data`);
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(300);
  });

  it("answers generated requests of user A without a 500 or an undeclared answer, and leaves user B's data alone", async () => {
    const pools: Pools = { ids: [...ownIds, ...foreignIds, 'does-not-exist', '0', 'x'.repeat(64)] };
    const before = await snapshotOfB();
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(ops, pools), async ({ op, params, query, body }) => {
        const search = new URLSearchParams(
          Object.entries(query).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
        ).toString();
        const path = `${fillPath(op.path, params)}${search ? `?${search}` : ''}`;
        const answer = await send(op.method, path, { name: 'generated', body: body === undefined ? undefined : JSON.stringify(body) });
        seen.set(`${op.method} ${op.path}`, (seen.get(`${op.method} ${op.path}`) ?? 0) + 1);
        const label = `${op.method} ${path.slice(0, 120)} → ${answer.status} ${answer.text.slice(0, 300)}`;
        if (answer.status === 500) throw new Error(`500: ${label}`);
        if (answer.status >= 400) {
          const problems = errorProblems(op, answer);
          if (problems.length) throw new Error(`${problems.join('; ')}: ${label}`);
        }
        const after = await snapshotOfB();
        if (!isDeepStrictEqual(after, before)) throw new Error(`user B's data changed: ${label}`);
      }),
      {
        numRuns: RUNS,
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
        path: process.env.FUZZ_PATH,
        endOnFailure: true,
      },
    );
    // Every write call got some of the generated requests.
    expect(seen.size).toBeGreaterThan(ops.length / 2);
    // A wider run (FUZZ_RUNS) gets the time it needs; the default one takes seconds.
  }, Math.max(60_000, RUNS * 400));
});
