import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaptureEvent, TranscriptLine } from '@mbox/shared';
import type { Account } from '../messages.js';
import { Outbox, type IngestMeeting } from './outbox.js';
import { BACKOFF_BASE_MS, BATCH_SIZE, Sender, backoffDelay } from './sender.js';

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

  it('drops a batch the server refuses with another 4xx and goes on', async () => {
    await outbox.putLines(meeting, [line('c1', 0)], 7, now);
    await outbox.putLines({ ...meeting, sessionId: 's2' }, [line('c1', 0)], 8, now);
    respond = (call) => (call.body.meeting?.sessionId === 's1' ? json(400, { message: 'bad' }) : ok(call));
    expect(await makeSender().flush()).toEqual({ status: 'done' });
    expect(calls).toHaveLength(2);
    expect(await outbox.countLines()).toBe(0);
  });

  it('drops invalid lines locally and fits meeting facts to the schema', async () => {
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
      { id: 1, sessionId: 's1', what: 'lines', count: 2, reason: 'server refused (422: lines.0.text: too long)', at: now },
    ]);
    expect((await outbox.session('s1'))?.sentCaptionIds).toEqual([]);
    respond = ok;
    await outbox.putLines(meeting, [line('c3', 0)], 7, now);
    await makeSender().flush();
    expect((await outbox.session('s1'))?.sentCaptionIds).toEqual(['c3']);
  });

  it('caps the backoff', () => {
    expect(backoffDelay(1)).toBe(BACKOFF_BASE_MS);
    expect(backoffDelay(30)).toBe(5 * 60_000);
  });
});
