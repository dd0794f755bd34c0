import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meeting, MeetingDetail, MeetingEvent, MeetingMessages } from '@mbox/shared';
import { startTestApp, type TestApp } from './app.js';
import { seedMeeting } from './fixtures.js';

const startedAt = Date.UTC(2026, 10, 20, 15, 0);
const meeting = (sessionId: string, extra: object = {}) => ({ sessionId, meetCode: 'abc-defg-hij', startedAt, ...extra });
const line = (extra: object = {}) => ({ captionId: 'c1', revision: 0, speaker: 'Ana', text: 'hello', spokenAt: startedAt, final: true, ...extra });

describe('hostile input', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await startTestApp();
    token = await app.signIn('hostile@example.com');
  });
  afterAll(() => app.close());

  const ingest = (body: object) => app.rest<{ meetingKey: string; data?: { field?: string; issues?: { path: string }[] } }>(
    'POST', '/v1/transcript/lines', { token, body },
  );
  const detail = async (key: string) => (await app.rest<MeetingDetail>('GET', `/v1/meeting/${key}`, { token })).body;

  it('stores caption text with NUL bytes and lone surrogates normalised, never dropped', async () => {
    const response = await ingest({
      meeting: meeting('nul-1', { title: 'Plan\u0000ning \ud800', participants: ['Bo\u0000b', 'Eve\udc00'] }),
      lines: [line({ speaker: 'A\u0000na \ud83d', text: 'we ship\u0000 on \udc00Friday' })],
    });
    expect(response.status).toBe(200);
    const { meet, messages } = await detail(response.body.meetingKey);
    expect(messages.map((m) => [m.user, m.text])).toEqual([['Ana \ufffd', 'we ship on \ufffdFriday']]);
    expect(meet.title).toBe('Planning \ufffd');
    expect(meet.users).toEqual(expect.arrayContaining(['Bob', 'Eve\ufffd']));
  });

  it('normalises every other text input too, over REST and tRPC; a field left empty is a 400 naming it', async () => {
    const seeded = await seedMeeting(app, token, 'nul-2', [{ speaker: 'Ana', text: 'hi' }]);
    const messageKey = seeded.messages[0]!.key;
    const comment = await app.rest('PUT', `/v1/message/comment/${messageKey}`, { token, body: { comment: 'ok\u0000ay \ud800' } });
    expect(comment.status).toBe(200);
    expect((await detail(seeded.meetingKey)).messages[0]!.comment).toBe('okay \ufffd');

    const login = await app.rest<{ user: { name: string } }>('POST', '/v1/auth/login', {
      body: { email: 'named@example.com', name: 'Zo\u0000e\udfff' },
    });
    expect(login).toMatchObject({ status: 200, body: { user: { name: 'Zoe\ufffd' } } });
    // Path and query parameters: a NUL in an id finds nothing instead of failing the query.
    expect((await app.rest('GET', `/v1/meeting/x%00y`, { token })).status).toBe(404);
    expect((await app.rest('GET', `/v1/meeting-list?limit=2%00`, { token })).status).toBe(200);

    const onlyNul = await ingest({ meeting: meeting('nul-3'), lines: [line({ speaker: '\u0000' })] });
    expect(onlyNul.status).toBe(400);
    expect(onlyNul.body.data?.field).toBe('lines.0.speaker');
    const viaTrpc = await app.trpc(token).transcript.ingest.mutate({ meeting: meeting('nul-4'), lines: [line({ text: 'a\u0000b\ud800' })] });
    expect((await detail(viaTrpc.meetingKey)).messages[0]!.text).toBe('ab\ufffd');
  });

  it('refuses times outside 2000 … now + 1 day with a 400 naming the field', async () => {
    const year10000 = Date.UTC(10000, 0, 1);
    const cases: [string, string, object][] = [
      ['/v1/transcript/lines', 'lines.0.spokenAt', { meeting: meeting('t-1'), lines: [line({ spokenAt: year10000 })] }],
      ['/v1/transcript/lines', 'meeting.startedAt', { meeting: meeting('t-2', { startedAt: 1 }), lines: [line()] }],
      ['/v1/transcript/lines', 'meeting.startedAt', { meeting: meeting('t-3', { startedAt: Date.now() + 2 * 86_400_000 }), lines: [line()] }],
      ['/v1/transcript/end', 'finishedAt', { sessionId: 't-4', finishedAt: 8.64e15 }],
      ['/v1/transcript/events', 'events.0.startedAt', { meeting: meeting('t-5'), events: [{ eventId: 'g', kind: 'captions-off', startedAt: year10000 }] }],
    ];
    for (const [path, field, body] of cases) {
      const response = await app.rest<{ message: string; data: { field: string } }>('POST', path, { token, body });
      expect(response.status, field).toBe(400);
      expect(response.body.data.field, path).toBe(field);
      expect(response.body.message).toMatch(/2000|future/);
    }
    // A clock a few hours ahead of the server's is still fine.
    expect((await ingest({ meeting: meeting('t-6', { startedAt: Date.now() + 3_600_000 }), lines: [] })).status).toBe(200);
  });

  it('keeps the meeting list, a transcript and its gaps readable when an old row holds a time in year 10000', async () => {
    const seeded = await seedMeeting(app, token, 'bad-row', [{ speaker: 'Ana', text: 'one' }, { speaker: 'Bo', text: 'two' }]);
    const events = await app.rest('POST', '/v1/transcript/events', {
      token,
      body: { meeting: meeting('bad-row'), events: [{ eventId: 'g1', kind: 'captions-off', startedAt, endedAt: startedAt + 1000 }] },
    });
    expect(events.status).toBe(200);
    // What servers before the input bound stored.
    const db = app.deps.db;
    await db.$executeRawUnsafe(`UPDATE "Meeting" SET "startedAt" = '10000-01-01', "finishedAt" = '12000-01-01' WHERE id = $1`, seeded.meetingKey);
    await db.$executeRawUnsafe(`UPDATE "Message" SET "spokenAt" = '10000-01-01' WHERE id = $1`, seeded.messages[0]!.key);
    await db.$executeRawUnsafe(`UPDATE "MeetingEvent" SET "startedAt" = '10000-01-01', "endedAt" = '10000-01-02' WHERE "meetingId" = $1`, seeded.meetingKey);

    const list = await app.rest<Meeting[]>('GET', '/v1/meeting-list', { token });
    expect(list.status).toBe(200);
    const listed = list.body.find((m) => m.key === seeded.meetingKey)!;
    expect(listed.date).toBe(listed.createdAt);
    expect(listed.finishedAt).toBeNull();
    expect((await app.rest('GET', '/v1/meeting-list/grouped', { token })).status).toBe(200);
    expect((await detail(seeded.meetingKey)).messages).toHaveLength(2);
    const page = await app.rest<MeetingMessages>('GET', `/v1/meeting/${seeded.meetingKey}/messages`, { token });
    expect(page.status).toBe(200);
    expect(page.body.messages).toHaveLength(2);
    const gaps = await app.rest<MeetingEvent[]>('GET', `/v1/meeting/${seeded.meetingKey}/events`, { token });
    expect(gaps.status).toBe(200);
    expect(gaps.body[0]?.endedAt).toBeNull();
  });

  it('signs in 40 parallel first sign-ins of one new e-mail, all to one account', async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => app.rest<{ user: { id: string } }>('POST', '/v1/auth/login', { body: { email: 'Race@Example.com' } })),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    expect(new Set(responses.map((r) => r.body.user.id)).size).toBe(1);
    expect(await app.deps.db.user.count({ where: { email: 'race@example.com' } })).toBe(1);
  });

  it('answers an output validation failure with a logged 500 carrying the request id, not a 400', async () => {
    const lines: string[] = [];
    // Requests log through children of the app's logger, made per request: they write to its stream.
    const log = app.deps.log;
    const { level, [pino.symbols.streamSym]: stream } = log as unknown as { level: string; [pino.symbols.streamSym]: unknown };
    Object.assign(log, { [pino.symbols.streamSym]: new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) }) });
    log.level = 'error';
    try {
      // premiumUntil is written by the server (billing), never by a client: a value it cannot read is its fault.
      await app.deps.db.$executeRawUnsafe(`UPDATE "User" SET "premiumUntil" = '10000-01-01' WHERE email = 'hostile@example.com'`);
      const response = await app.rest<{ message: string; data: { requestId?: string; httpStatus: number } }>('GET', '/v1/user-settings', { token });
      expect(response.status).toBe(500);
      expect(response.body.message).toBe('Internal server error');
      const requestId = response.body.data.requestId;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; msg: string; path?: string });
      expect(logged).toContainEqual(expect.objectContaining({ reqId: requestId, msg: 'procedure failed', path: 'settings.get' }));

      const viaTrpc = await app.trpc(token).settings.get.query().catch((e: unknown) => e as { data: { httpStatus: number; requestId?: string } });
      expect(viaTrpc).toMatchObject({ data: { httpStatus: 500, requestId: expect.any(String) } });
    } finally {
      Object.assign(log, { [pino.symbols.streamSym]: stream });
      log.level = level;
      await app.deps.db.user.update({ where: { email: 'hostile@example.com' }, data: { premiumUntil: null } });
    }
  });
});
