import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaptureEvent, TranscriptLine } from '@mbox/shared';
import type { Account } from '../messages.js';
import { Outbox, type IngestMeeting } from './outbox.js';
import { openDB } from 'idb';
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, BATCH_SIZE, Sender, backoffDelay, retryAfterDelay } from './sender.js';

// Times inside the window the server accepts (year 2000 to tomorrow).
const T0 = Date.UTC(2026, 0, 1);

const meeting: IngestMeeting = { sessionId: 's1', meetCode: 'abc-defg-hij', title: 'Sync', startedAt: T0 + 1_000 };

function line(captionId: string, revision: number, text = `text ${captionId} r${revision}`): TranscriptLine {
  return { captionId, revision, speaker: 'Alice', text, spokenAt: T0 + 2_000, final: false };
}

interface Call {
  url: string;
  auth: string | null;
  body: { meeting?: IngestMeeting; lines?: TranscriptLine[]; events?: CaptureEvent[]; sessionId?: string; finishedAt?: number };
}

let dbNo = 0;
let outbox: Outbox;
let now: number;
let calls: Call[];
let respond: (call: Call) => Response | Promise<Response>;
let account: Account | null;
/** What the sender's jitter source returns; 1 makes every delay the full (capped) exponential one. */
let jitter: number;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (call: Call) =>
  json(
    200,
    call.url.endsWith('/end') ? { meetingKey: 'm1' } : { meetingKey: 'm1', accepted: call.body.lines?.length ?? call.body.events?.length ?? 0 },
  );

function makeSender(): Sender {
  return new Sender({
    outbox,
    now: () => now,
    random: () => jitter,
    getAccount: async () => account,
    rejectAccount: async () => {
      if (account) account = { ...account, rejected: true };
    },
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      const call: Call = { url: String(input), auth: headers.get('authorization'), body: JSON.parse(String(init?.body)) as Call['body'] };
      calls.push(call);
      return respond(call);
    },
  });
}

beforeEach(async () => {
  dbNo += 1;
  outbox = await Outbox.open(`test-outbox-${dbNo}`);
  now = 10_000;
  calls = [];
  respond = ok;
  jitter = 1;
  account = {
    user: { id: 'u1', email: 'a@example.com', name: 'Alice' },
    token: 'tok',
    serverOrigin: 'http://127.0.0.1:4000',
    webOrigin: 'http://127.0.0.1:4000',
    rejected: false,
  };
});

afterEach(() => outbox.close());

describe('Outbox', () => {
  it('keeps only the highest revision per (session, caption)', async () => {
    await outbox.putLines(meeting, [line('c1', 2), line('c2', 0)], 7, now);
    await outbox.putLines(meeting, [line('c1', 1), line('c1', 3)], 7, now);
    await outbox.putLines({ ...meeting, sessionId: 's2' }, [line('c1', 0)], 8, now);
    expect((await outbox.linesOf('s1', 10)).map((l) => [l.captionId, l.revision])).toEqual([
      ['c1', 3],
      ['c2', 0],
    ]);
    expect(await outbox.countLines()).toBe(3);
  });

  it('merges meeting facts and keeps the first start time', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    await outbox.touchSession({ ...meeting, startedAt: T0 + 5_000, participants: ['Alice', 'Bob'] }, 7, now + 1);
    const session = await outbox.session('s1');
    expect(session?.meeting).toEqual({ ...meeting, participants: ['Alice', 'Bob'] });
    expect(session?.lastSeenAt).toBe(now + 1);
  });

  it('ends the sessions of a closed tab once', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    await outbox.touchSession({ ...meeting, sessionId: 's2' }, 8, now);
    expect(await outbox.endSessionsOfTab(7, 20_000)).toEqual(['s1']);
    expect(await outbox.endSessionsOfTab(7, 30_000)).toEqual([]);
    expect((await outbox.session('s1'))?.finishedAt).toBe(20_000);
    expect(await outbox.markEnded('unknown', 1)).toBe(false);
  });

  it('drops the item-less set-aside descriptions of version 2 when upgrading', async () => {
    const name = `test-outbox-v2-${dbNo}`;
    const v2 = await openDB(name, 2, {
      upgrade(database) {
        database.createObjectStore('lines', { keyPath: ['sessionId', 'captionId'] }).createIndex('bySession', 'sessionId');
        database.createObjectStore('sessions', { keyPath: 'sessionId' });
        database.createObjectStore('meta');
        database.createObjectStore('events', { keyPath: ['sessionId', 'eventId'] }).createIndex('bySession', 'sessionId');
        database.createObjectStore('setAside', { keyPath: 'id', autoIncrement: true });
      },
    });
    await v2.add('setAside', { sessionId: 's1', what: 'lines', count: 3, reason: 'server refused (400)', at: now });
    await v2.put('lines', { sessionId: 's1', captionId: 'c1', line: line('c1', 0) });
    v2.close();
    const upgraded = await Outbox.open(name);
    expect(await upgraded.setAsides()).toEqual([]);
    expect(await upgraded.countLines()).toBe(1);
    upgraded.close();
  });

  it('survives reopening (a restarted service worker)', async () => {
    await outbox.putLines(meeting, [line('c1', 4)], 7, now);
    outbox.close();
    outbox = await Outbox.open(`test-outbox-${dbNo}`);
    expect((await outbox.linesOf('s1', 10))[0]?.revision).toBe(4);
  });
});

describe('Sender', () => {
  it('posts validated batches with the bearer token and deletes what the server acknowledged', async () => {
    await outbox.putLines(meeting, [line('c1', 0), line('c2', 1)], 7, now);
    const result = await makeSender().flush();
    expect(result).toEqual({ status: 'done' });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('http://127.0.0.1:4000/v1/transcript/lines');
    expect(calls[0]?.auth).toBe('Bearer tok');
    expect(calls[0]?.body.meeting).toEqual(meeting);
    expect(calls[0]?.body.lines?.map((l) => l.captionId)).toEqual(['c1', 'c2']);
    expect(await outbox.countLines()).toBe(0);
  });

  it('keeps (and then sends) a newer revision that arrived while the older one was in flight', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    respond = async (call) => {
      if (calls.length === 1) await outbox.putLines(meeting, [line('c1', 1)], 7, now);
      return ok(call);
    };
    await makeSender().flush();
    expect(calls.map((c) => c.body.lines?.map((l) => l.revision))).toEqual([[0], [1]]);
    expect(await outbox.countLines()).toBe(0);
  });

  it('sends in batches and sends the end only after the last line', async () => {
    const lines = Array.from({ length: BATCH_SIZE + 5 }, (_, i) => line(`c${i}`, 0));
    await outbox.putLines(meeting, lines, 7, now);
    await outbox.markEnded('s1', T0 + 50_000);
    await makeSender().flush();
    expect(calls.map((c) => [c.url.replace('http://127.0.0.1:4000', ''), c.body.lines?.length ?? c.body.finishedAt])).toEqual([
      ['/v1/transcript/lines', BATCH_SIZE],
      ['/v1/transcript/lines', 5],
      ['/v1/transcript/end', T0 + 50_000],
    ]);
    expect(calls[2]?.body).toEqual({ sessionId: 's1', finishedAt: T0 + 50_000 });
    expect(await outbox.sessions()).toEqual([]);
  });

  it('retries 5xx, 429 and network errors with exponential backoff, keeping the outbox', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    const sender = makeSender();
    respond = () => json(503, { message: 'down' });
    expect(await sender.flush()).toEqual({ status: 'retry', retryAt: now + BACKOFF_BASE_MS, error: 'server answered 503' });

    // Within the backoff nothing is sent, unless forced.
    expect((await sender.flush()).status).toBe('retry');
    expect(calls).toHaveLength(1);

    now += BACKOFF_BASE_MS;
    respond = () => json(429, {});
    expect(await sender.flush()).toMatchObject({ status: 'retry', retryAt: now + 2 * BACKOFF_BASE_MS });

    now += 2 * BACKOFF_BASE_MS;
    respond = () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await sender.flush()).toMatchObject({ status: 'retry', retryAt: now + 4 * BACKOFF_BASE_MS });
    expect(await outbox.countLines()).toBe(1);

    respond = ok;
    expect(await sender.flush(true)).toEqual({ status: 'done' });
    expect(await outbox.retryState()).toBeUndefined();
    expect(await outbox.countLines()).toBe(0);
  });

  it('treats a 2xx that is not our answer as a failure', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    respond = () => new Response('<html>captive portal</html>', { status: 200 });
    expect((await makeSender().flush()).status).toBe('retry');
    expect(await outbox.countLines()).toBe(1);
  });

  it('stops on 401, marks the account signed out and keeps the outbox', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    respond = () => json(401, { message: 'bad token' });
    const sender = makeSender();
    expect(await sender.flush()).toEqual({ status: 'signed-out' });
    expect(account?.rejected).toBe(true);
    expect(await outbox.countLines()).toBe(1);
    expect(await sender.flush()).toEqual({ status: 'signed-out' });
    expect(calls).toHaveLength(1);
  });

  it('does nothing while signed out', async () => {
    account = null;
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    expect(await makeSender().flush()).toEqual({ status: 'signed-out' });
    expect(calls).toHaveLength(0);
  });

  it('sets aside a batch refused with another 4xx, keeping its lines, and delivers the batches behind it', async () => {
    const lines = Array.from({ length: BATCH_SIZE + 5 }, (_, i) => line(`c${i}`, 0));
    await outbox.putLines(meeting, lines, 7, now);
    await outbox.markEnded('s1', T0 + 50_000);
    await outbox.putLines({ ...meeting, sessionId: 's2' }, [line('c1', 0)], 8, now);
    respond = (call) => (calls.length === 1 ? json(422, { message: 'lines.0.text: too long' }) : ok(call));
    expect(await makeSender().flush()).toEqual({ status: 'done' });
    expect(calls.map((c) => [c.url.replace('http://127.0.0.1:4000', ''), c.body.meeting?.sessionId ?? c.body.sessionId, c.body.lines?.length])).toEqual([
      ['/v1/transcript/lines', 's1', BATCH_SIZE],
      ['/v1/transcript/lines', 's1', 5],
      ['/v1/transcript/end', 's1', undefined],
      ['/v1/transcript/lines', 's2', 1],
    ]);
    const [aside, ...more] = await outbox.setAsides();
    expect(more).toEqual([]);
    expect(aside).toMatchObject({ sessionId: 's1', reason: 'server refused (422: lines.0.text: too long)', at: now });
    expect(aside?.batch).toEqual({ kind: 'lines', meeting, lines: calls[0]?.body.lines });
    expect(await outbox.countLines()).toBe(0);
    // Not retried on its own: later flushes send nothing more.
    await makeSender().flush(true);
    expect(calls).toHaveLength(4);
    expect(await outbox.retryState()).toBeUndefined();
  });

  const FULL_MESSAGE = 'Meeting too long: at most 50,000 lines per meeting (MAX_LINES_PER_MEETING); none of these lines was stored';
  const FULL_REASON = `server refused (413: ${FULL_MESSAGE})`;
  const full = (call: Call) => (call.url.endsWith('/lines') ? json(413, { message: FULL_MESSAGE, code: 'PAYLOAD_TOO_LARGE' }) : ok(call));

  it('holds the lines of a meeting the server calls full (413): kept, not sent again until a retry', async () => {
    await outbox.putLines(meeting, [line('c1', 0), line('c2', 0), line('c3', 0)], 7, now);
    await outbox.putEvents(meeting, [{ eventId: 'e1', kind: 'captions-off', startedAt: T0 + 3_000 }], 7, now);
    respond = full;
    expect(await makeSender().flush()).toEqual({ status: 'done' });
    // The gap still goes out; the lines stay queued, the session marked full with the server's message.
    expect(calls.map((c) => c.url.replace('http://127.0.0.1:4000', ''))).toEqual(['/v1/transcript/lines', '/v1/transcript/events']);
    expect(await outbox.countLines()).toBe(3);
    expect((await outbox.session('s1'))?.full).toBe(FULL_REASON);
    expect(await outbox.setAsides()).toEqual([]);

    // New lines of the meeting wait with them: no request per line, however often the sender runs.
    await outbox.putLines(meeting, [line('c3', 1), line('c4', 0)], 7, now);
    await makeSender().flush();
    await makeSender().flush(true);
    expect(calls).toHaveLength(2);
    expect(await outbox.heldLines()).toEqual({ lines: 4, reason: FULL_REASON });

    // Retry (the operator raised the bound): they go out once more, and are delivered.
    respond = ok;
    const sender = makeSender();
    await sender.retrySetAsides();
    expect(await sender.flush()).toEqual({ status: 'done' });
    expect(calls.at(-1)?.body.lines?.map((l) => [l.captionId, l.revision])).toEqual([
      ['c1', 0],
      ['c2', 0],
      ['c3', 1],
      ['c4', 0],
    ]);
    expect(await outbox.countLines()).toBe(0);
    expect(await outbox.heldLines()).toEqual({ lines: 0, reason: null });
  });

  it('sets the held lines aside when a full meeting ends, and discards them on request', async () => {
    await outbox.putLines(meeting, [line('c1', 0), line('c2', 0)], 7, now);
    respond = full;
    await makeSender().flush();
    await outbox.markEnded('s1', T0 + 50_000);
    expect(await makeSender().flush()).toEqual({ status: 'done' });
    expect(calls.map((c) => c.url.replace('http://127.0.0.1:4000', ''))).toEqual(['/v1/transcript/lines', '/v1/transcript/end']);
    expect(await outbox.sessions()).toEqual([]);
    expect((await outbox.setAsides()).map((a) => [a.batch, a.reason])).toEqual([
      [{ kind: 'lines', meeting, lines: [line('c1', 0), line('c2', 0)] }, FULL_REASON],
    ]);

    await outbox.putLines({ ...meeting, sessionId: 's2' }, [line('c1', 0)], 8, now);
    await makeSender().flush();
    expect(await outbox.heldLines()).toEqual({ lines: 1, reason: FULL_REASON });
    await outbox.discardHeldLines();
    expect(await outbox.heldLines()).toEqual({ lines: 0, reason: null });
  });

  it('sets aside, unsent, lines that fail the schema and fits meeting facts to it', async () => {
    await outbox.putLines(
      { ...meeting, title: 'x'.repeat(600), participants: [' Bob ', 'Bob', ''] },
      [line('c1', 0), { ...line('c2', 0), speaker: '   ' }],
      7,
      now,
    );
    await makeSender().flush();
    expect(calls[0]?.body.lines?.map((l) => l.captionId)).toEqual(['c1']);
    expect(calls[0]?.body.meeting?.title).toHaveLength(500);
    expect(calls[0]?.body.meeting?.participants).toEqual(['Bob']);
    expect(await outbox.countLines()).toBe(0);
    const asides = await outbox.setAsides();
    expect(asides.map((a) => [a.reason.startsWith('invalid line:'), a.batch.kind === 'lines' ? a.batch.lines.map((l) => l.captionId) : []])).toEqual([
      [true, ['c2']],
    ]);
  });

  it('sets aside a refused meeting end and sends it again on retry', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    await outbox.markEnded('s1', T0 + 50_000);
    respond = (call) => (call.url.endsWith('/end') ? json(404, { message: 'Meeting not found' }) : ok(call));
    const sender = makeSender();
    expect(await sender.flush()).toEqual({ status: 'done' });
    expect(await outbox.sessions()).toEqual([]);
    expect((await outbox.setAsides()).map((a) => [a.batch, a.reason])).toEqual([
      [{ kind: 'end', sessionId: 's1', finishedAt: T0 + 50_000 }, 'server refused (404: Meeting not found)'],
    ]);
    respond = ok;
    expect(await sender.retrySetAsides()).toEqual({ delivered: 1, refused: 0, error: null });
    expect(calls.at(-1)?.body).toEqual({ sessionId: 's1', finishedAt: T0 + 50_000 });
    expect(await outbox.setAsides()).toEqual([]);
  });

  it('runs one flush at a time and goes round again for lines queued meanwhile', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    const sender = makeSender();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    respond = async (call) => {
      if (calls.length === 1) await gate;
      return ok(call);
    };
    const first = sender.flush();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await outbox.putLines(meeting, [line('c2', 0)], 7, now);
    const second = sender.flush();
    release();
    expect(await first).toEqual({ status: 'done' });
    expect(await second).toEqual({ status: 'done' });
    expect(calls.map((c) => c.body.lines?.map((l) => l.captionId))).toEqual([['c1'], ['c2']]);
  });

  it('sends gaps after the lines and before the end, a closed report replacing the open one', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    await outbox.putEvents(meeting, [{ eventId: 'g1', kind: 'captions-off', startedAt: T0 + 3_000 }], 7, now);
    await outbox.putEvents(meeting, [{ eventId: 'g1', kind: 'captions-off', startedAt: T0 + 3_000, endedAt: T0 + 9_000 }], 7, now);
    // A late open report never reopens a closed gap.
    await outbox.putEvents(meeting, [{ eventId: 'g1', kind: 'captions-off', startedAt: T0 + 3_000 }], 7, now);
    await outbox.markEnded('s1', 20_000);
    expect(await makeSender().flush()).toEqual({ status: 'done' });
    expect(calls.map((c) => c.url.replace('http://127.0.0.1:4000', ''))).toEqual([
      '/v1/transcript/lines',
      '/v1/transcript/events',
      '/v1/transcript/end',
    ]);
    expect(calls[1]?.body).toEqual({
      meeting: { sessionId: 's1', meetCode: 'abc-defg-hij', title: 'Sync', startedAt: T0 + 1_000 },
      events: [{ eventId: 'g1', kind: 'captions-off', startedAt: T0 + 3_000, endedAt: T0 + 9_000 }],
    });
    expect(await outbox.countEvents()).toBe(0);
    expect(await outbox.lastSentAt()).toBe(now);
  });

  it('keeps gaps through an outage and sends them once the server is back', async () => {
    await outbox.putEvents(meeting, [{ eventId: 'g1', kind: 'region-missing', startedAt: T0 + 3_000 }], 7, now);
    respond = () => json(503, { message: 'down' });
    expect((await makeSender().flush()).status).toBe('retry');
    expect(await outbox.countEvents()).toBe(1);
    respond = ok;
    expect(await makeSender().flush(true)).toEqual({ status: 'done' });
    expect(await outbox.countEvents()).toBe(0);
  });

  it('sets refused batches aside with the reason, counting only delivered lines as sent', async () => {
    await outbox.putLines(meeting, [line('c1', 0), line('c2', 0)], 7, now);
    respond = () => json(422, { message: 'lines.0.text: too long' });
    expect(await makeSender().flush()).toEqual({ status: 'done' });
    expect(await outbox.setAsides()).toEqual([
      { id: 1, sessionId: 's1', batch: { kind: 'lines', meeting, lines: [line('c1', 0), line('c2', 0)] }, reason: 'server refused (422: lines.0.text: too long)', at: now },
    ]);
    expect((await outbox.session('s1'))?.sentCaptionIds).toEqual([]);
    respond = ok;
    await outbox.putLines(meeting, [line('c3', 0)], 7, now);
    await makeSender().flush();
    expect((await outbox.session('s1'))?.sentCaptionIds).toEqual(['c3']);
  });

  it('retries set-aside batches on request: delivered ones leave, refused ones stay with the new reason', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    await outbox.putLines({ ...meeting, sessionId: 's2' }, [line('c9', 0)], 8, now);
    respond = () => json(400, { message: 'first refusal' });
    await makeSender().flush();
    expect(await outbox.setAsides()).toHaveLength(2);

    now += 60_000;
    respond = (call) => (call.body.meeting?.sessionId === 's1' ? ok(call) : json(403, { message: 'still no' }));
    const sender = makeSender();
    expect(await sender.retrySetAsides()).toEqual({ delivered: 1, refused: 1, error: null });
    const left = await outbox.setAsides();
    expect(left.map((a) => [a.sessionId, a.reason, a.at])).toEqual([['s2', 'server refused (403: still no)', now]]);
    expect((await outbox.session('s1'))?.sentCaptionIds).toEqual(['c1']);
    expect(await outbox.lastSentAt()).toBe(now);

    // A transient failure stops the retry and keeps the batch; a 401 signs out.
    respond = () => json(503, {});
    expect(await sender.retrySetAsides()).toEqual({ delivered: 0, refused: 0, error: 'server answered 503' });
    respond = () => json(401, {});
    expect((await sender.retrySetAsides()).error).toMatch(/no longer accepts the token/);
    expect(account?.rejected).toBe(true);
    expect(await sender.retrySetAsides()).toEqual({ delivered: 0, refused: 0, error: 'signed out: sign in in the web app first' });
    expect(await outbox.setAsides()).toHaveLength(1);

    await outbox.clearSetAsides();
    expect(await outbox.setAsides()).toEqual([]);
  });

  it('backs off with jitter up to 5 minutes, never under a second, and starts over after a success', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    const sender = makeSender();
    respond = () => json(500, {});
    jitter = 0;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const result = await sender.flush(true);
      if (result.status !== 'retry') throw new Error(`expected a retry, got ${result.status}`);
      delays.push(result.retryAt - now);
    }
    // Half the exponential step with no jitter: 1 s, 2 s, 4 s ... capped at half of 5 min.
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 150, 150].map((s) => s * 1000));
    respond = ok;
    expect(await sender.flush(true)).toEqual({ status: 'done' });
    expect(await outbox.retryState()).toBeUndefined();
    await outbox.putLines(meeting, [line('c2', 0)], 7, now);
    respond = () => json(502, {});
    expect(await sender.flush()).toMatchObject({ status: 'retry', retryAt: now + 1000 });
  });

  it('honours Retry-After on 429 and 503 within 1 s … 5 min, and retries 408', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    const sender = makeSender();
    respond = () => new Response('{}', { status: 429, headers: { 'retry-after': '120' } });
    expect(await sender.flush(true)).toEqual({ status: 'retry', retryAt: now + 120_000, error: 'server answered 429' });
    respond = () => new Response('{}', { status: 503, headers: { 'retry-after': '86400' } });
    expect(await sender.flush(true)).toMatchObject({ retryAt: now + BACKOFF_MAX_MS });
    respond = () => json(408, {});
    expect(await sender.flush(true)).toMatchObject({ status: 'retry', error: 'server answered 408' });
    expect(await outbox.countLines()).toBe(1);
    expect(await outbox.setAsides()).toEqual([]);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterDelay('5', now)).toBe(5000);
    expect(retryAfterDelay(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(retryAfterDelay('0', now)).toBe(1000);
    expect(retryAfterDelay('soon', now)).toBeUndefined();
    expect(retryAfterDelay(null, now)).toBeUndefined();
  });

  it('caps the backoff, jitter spreading each delay over its upper half', () => {
    expect(backoffDelay(1, () => 1)).toBe(BACKOFF_BASE_MS);
    expect(backoffDelay(1, () => 0)).toBe(BACKOFF_BASE_MS / 2);
    expect(backoffDelay(30, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(1000, () => 0.5)).toBe(0.75 * BACKOFF_MAX_MS);
  });
});
