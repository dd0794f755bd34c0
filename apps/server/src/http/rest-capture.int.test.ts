import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app.js';
import { makePremium, seedMeeting } from '../test/fixtures.js';
import { fetchDocument, fillPath, operationsOf, validValue, type DocumentOperation } from '../test/openapi-document.js';

/**
 * Every operation of the OpenAPI document, answered as it was recorded (rest-capture.fixture.json): status,
 * the headers a client reads and the body, byte for byte once the values that change from run to run (ids,
 * tokens, times, request ids) are replaced by placeholders. Each operation is called signed out, with
 * bad input, with an id that does not exist, with another account's ids, and with a valid call of an
 * account of its own; the path is also spelt with a trailing slash and in capitals. The calls run in
 * one fixed order, so counters (rate limits) read the same. `CAPTURE_RECORD=1` records the fixture anew.
 */

const FIXTURE = new URL('./rest-capture.fixture.json', import.meta.url);
const RECORD = process.env.CAPTURE_RECORD === '1';

interface Capture {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers of no meaning to a client, or set per connection. */
const IGNORED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length']);

/** Values that differ from run to run, as placeholders. */
function normalise(text: string): string {
  return text
    .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jwt>')
    .replace(/mbx_[\w-]+/g, '<token>')
    .replace(/mbox_[a-z]+_[\w-]{20,}/g, '<token>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\bc[a-z0-9]{24}\b/g, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/\b1[6-9]\d{11}\b/g, '<ms>')
    .replace(/\b1[6-9]\d{8}\b/g, '<s>')
    .replace(/\b[0-9a-f]{64}\b/g, '<hex>')
    .replace(/(mbox_[a-z]+=)[^;,\s]+/g, '$1<value>')
    .replace(/(expires=)[^;]+/gi, '$1<time>')
    .replace(/code=[a-z0-9]+/g, 'code=<code>');
}

function headerValue(name: string, value: string): string {
  // Seconds until a rate-limit window ends depend on when the call came.
  if (/reset|retry-after/.test(name)) return '<seconds>';
  return normalise(value);
}

interface Call {
  method: string;
  path: string;
  token?: string;
  contentType?: string | null;
  body?: string;
}

interface Account {
  token: string;
  /** Its ids, by the path parameter's kind. */
  ids: Record<string, string>;
}

/** The kind of id a path or query parameter is, from the operation's path. */
function idKind(path: string, name: string): string {
  if (name === 'meetingId') return 'meeting';
  if (name === 'id') {
    if (path.startsWith('/action-items')) return 'actionItem';
    if (path.includes('/message/')) return 'message';
    if (path.startsWith('/auth/sessions')) return 'session';
    if (path.startsWith('/auth/extension-tokens')) return 'extensionToken';
    if (path.startsWith('/webhooks')) return 'webhook';
    if (path.startsWith('/access-tokens')) return 'accessToken';
    return 'meeting';
  }
  return name;
}

async function ownIds(app: TestApp, email: string, token: string): Promise<Record<string, string>> {
  const { meetingKey, messages } = await seedMeeting(app, token, `capture-${email}`, [
    { speaker: 'Ana', text: 'the budget is approved' },
    { speaker: 'Bo', text: 'next step is the launch' },
  ]);
  const user = await app.deps.db.user.findUniqueOrThrow({ where: { email } });
  const extension = await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token });
  if (extension.status !== 200) throw new Error(`extension token: ${extension.status}`);
  const extensionToken = await app.deps.db.extensionToken.findFirstOrThrow({ where: { userId: user.id } });
  const session = await app.deps.db.session.findFirstOrThrow({ where: { userId: user.id } });
  const webhook = await app.deps.db.webhook.create({
    data: { userId: user.id, url: 'https://hooks.example.com/capture', events: ['meeting.finished'], secret: 'whsec_capture' },
  });
  const summary = await app.deps.db.summary.create({ data: { meetingId: meetingKey, promptKey: 'summary', title: 'Summary', text: '<p>s</p>' } });
  const accessToken = await app.rest<{ accessToken: { id: string } }>('POST', '/v1/access-tokens', { token, body: { name: 'capture', scope: 'read' } });
  if (accessToken.status !== 200) throw new Error(`access token: ${accessToken.status}`);
  const meeting = await app.deps.db.meeting.findUniqueOrThrow({ where: { id: meetingKey } });
  const actionItem = await app.deps.db.actionItem.create({
    data: {
      userId: user.id,
      meetingId: meetingKey,
      meetingStartedAt: meeting.startedAt,
      position: 0,
      sourceKey: `line:${messages[1]!.key}`,
      text: 'Plan the launch',
      owner: 'Bo',
      messageId: messages[1]!.key,
      speaker: 'Bo',
      spokenAt: new Date(messages[1]!.spokenAt),
    },
  });
  return {
    meeting: meetingKey,
    message: messages[0]!.key,
    session: session.id,
    extensionToken: extensionToken.id,
    webhook: webhook.id,
    summaryKey: summary.id,
    accessToken: accessToken.body.accessToken.id,
    actionItem: actionItem.id,
  };
}

/** An invalid value for every parameter: far too long, and not a number. */
const BAD_VALUE = 'x'.repeat(300);

function pathWith(operation: DocumentOperation, values: (name: string) => string, query: Record<string, string> = {}): string {
  const path = fillPath(operation.path, Object.fromEntries(operation.pathParams.map((p) => [p.name, values(p.name)])));
  const search = new URLSearchParams(query).toString();
  return `/v1${path}${search ? `?${search}` : ''}`;
}

/**
 * Valid query parameters: each required one with the smallest value its schema accepts, or, for an id
 * (`meetingId`), the id the call is made with.
 */
function validQuery(operation: DocumentOperation, ids: (name: string) => string): Record<string, string> {
  return Object.fromEntries(
    operation.queryParams
      .filter((p) => p.required)
      .map((p) => [p.name, idKind(operation.path, p.name) === p.name ? String(validValue(p.schema ?? {})) : ids(p.name)]),
  );
}

function validBody(operation: DocumentOperation): string | undefined {
  return operation.body ? JSON.stringify(validValue(operation.body)) : undefined;
}

/** The calls made of one operation, by name. */
function callsOf(operation: DocumentOperation, accounts: { caller: Account; other: Account; valid: Account }): [string, Call][] {
  const token = accounts.caller.token;
  const { method } = operation;
  const json = operation.body ? 'application/json' : null;
  const unknownId = (name: string) => (idKind(operation.path, name) === 'meeting' ? 'cmissingmeeting000000000000' : `missing-${name}`);
  const otherIds = (name: string) => accounts.other.ids[idKind(operation.path, name)] ?? unknownId(name);
  const validIds = (name: string) => accounts.valid.ids[idKind(operation.path, name)] ?? unknownId(name);
  const calls: [string, Call][] = [
    ['signed out', { method, path: pathWith(operation, unknownId, validQuery(operation, unknownId)), contentType: json, body: validBody(operation) }],
    ['signed out, trailing slash', { method, path: pathWith(operation, unknownId).replace(/(\?|$)/, '/$1'), contentType: json, body: validBody(operation) }],
    [
      'signed out, capitals',
      {
        method,
        path: pathWith(operation, unknownId, validQuery(operation, unknownId)).replace(/^\/v1(\/[^?]*)/, (_m, rest: string) => `/v1${rest.toUpperCase()}`),
        contentType: json,
        body: validBody(operation),
      },
    ],
    ['unknown id', { method, path: pathWith(operation, unknownId, validQuery(operation, unknownId)), token, contentType: json, body: validBody(operation) }],
    [
      "another account's ids",
      {
        method,
        path: pathWith(operation, otherIds, validQuery(operation, otherIds)),
        token,
        contentType: json,
        body: validBody(operation),
      },
    ],
    [
      'bad parameters',
      {
        method,
        path: pathWith(operation, () => BAD_VALUE, Object.fromEntries(operation.queryParams.map((p) => [p.name, BAD_VALUE]))),
        token,
        contentType: json,
        body: validBody(operation),
      },
    ],
  ];
  if (method !== 'GET') {
    const path = pathWith(operation, unknownId, validQuery(operation, unknownId));
    calls.push(
      ['unknown field', { method, path, token, contentType: 'application/json', body: JSON.stringify({ ...(validValue(operation.body ?? {}) as object), captureUnknown: 1 }) }],
      ['body not an object', { method, path, token, contentType: 'application/json', body: '[]' }],
      ['body not JSON', { method, path, token, contentType: 'application/json', body: '{"a":' }],
      ['no content type', { method, path, token, contentType: null }],
      ['form body', { method, path, token, contentType: 'application/x-www-form-urlencoded', body: 'a=1' }],
    );
  }
  calls.push([
    'valid call',
    { method, path: pathWith(operation, validIds, validQuery(operation, validIds)), token: accounts.valid.token, contentType: json, body: validBody(operation) },
  ]);
  return calls;
}

describe('every operation of the REST API answers as recorded', () => {
  let app: TestApp;
  let operations: DocumentOperation[];
  let other: Account;
  const captured: Record<string, Capture> = {};

  beforeAll(async () => {
    app = await startTestApp({ YOUTUBE_BASE_URL: 'http://127.0.0.1:9', SUMMARIZER_ALLOWED_HOSTS: ['127.0.0.1:9'], SUMMARIZER_FETCH_TIMEOUT_MS: 2000 });
    operations = operationsOf(await fetchDocument(app.url));
    other = await account('capture-other@example.com');
  });
  afterAll(async () => {
    if (RECORD) await writeFile(FIXTURE, `${JSON.stringify(captured, null, 1)}\n`);
    await app.close();
  });

  /** A premium account with a meeting, a session, an extension token, a webhook, a summary and an access token. */
  async function account(email: string): Promise<Account> {
    const token = await app.signIn(email);
    await makePremium(app, email);
    return { token, ids: await ownIds(app, email, token) };
  }

  async function capture(call: Call): Promise<Capture> {
    const headers: Record<string, string> = {};
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.contentType) headers['content-type'] = call.contentType;
    const response = await fetch(`${app.url}${call.path}`, { method: call.method, headers, body: call.body });
    // A zip holds the times it was written at: only its type and disposition are compared.
    const body = response.headers.get('content-type') === 'application/zip' ? '<zip>' : normalise(await response.text());
    const kept: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!IGNORED_HEADERS.has(name)) kept[name] = headerValue(name, value);
    });
    return { status: response.status, headers: kept, body };
  }

  it('answers each call as the fixture holds it', async () => {
    const fixture: Record<string, Capture> = !RECORD && existsSync(FIXTURE) ? JSON.parse(await readFile(FIXTURE, 'utf8')) : {};
    if (!RECORD) expect(Object.keys(fixture).length).toBeGreaterThan(0);
    const differences: unknown[] = [];
    let n = 0;
    for (const operation of operations) {
      // Fresh accounts per operation: calls may delete, sign out or change what they are given.
      const caller = await account(`capture-${n}@example.com`);
      const valid = await account(`capture-${n++}-valid@example.com`);
      for (const [name, call] of callsOf(operation, { caller, other, valid })) {
        const key = `${operation.method} ${operation.path}: ${name}`;
        captured[key] = await capture(call);
        if (!RECORD && !isDeepStrictEqual(captured[key], fixture[key])) differences.push({ key, recorded: fixture[key], now: captured[key] });
      }
    }
    if (RECORD) return;
    expect(differences).toEqual([]);
    expect(Object.keys(captured).sort()).toEqual(Object.keys(fixture).sort());
  }, 300_000);
});
