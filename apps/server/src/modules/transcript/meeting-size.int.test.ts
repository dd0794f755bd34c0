import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestLinesInput } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { captionLine, makePremium } from '../../test/fixtures.js';

/**
 * A meeting's size bounds (MAX_LINES_PER_MEETING, MAX_MEETING_TEXT_BYTES), small here: a capture batch
 * that would cross one is refused whole with 413, and nothing of it is stored.
 */

const startedAt = Date.UTC(2026, 10, 20, 15, 0);
const line = (captionId: string, revision: number, text: string) => captionLine(startedAt, captionId, revision, text);
const LINES_MESSAGE = 'Meeting too long: at most 5 lines per meeting (MAX_LINES_PER_MEETING); none of these lines was stored';
const BYTES_MESSAGE = 'Meeting too long: at most 1,024 bytes of text per meeting (MAX_MEETING_TEXT_BYTES); none of these lines was stored';

describe.each([
  { database: 'PostgreSQL', embeddedDatabase: false },
  { database: 'embedded PGlite', embeddedDatabase: true },
])('meeting size bounds on $database', ({ embeddedDatabase }) => {
  let app: TestApp;
  let token: string;
  let extensionToken: string;
  beforeAll(async () => {
    app = await startTestApp({ MAX_LINES_PER_MEETING: 5, MAX_MEETING_TEXT_BYTES: 1024 }, { embeddedDatabase });
    token = await app.signIn('ana@example.com');
    extensionToken = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token })).body.token;
  });
  afterAll(() => app.close());

  const meeting = (sessionId: string) => ({ sessionId, meetCode: 'abc-defg-hij', title: 'Long one', startedAt });
  const post = (body: IngestLinesInput) =>
    app.rest<{ meetingKey?: string; accepted?: number; message?: string; code?: string }>('POST', '/v1/transcript/lines', {
      token: extensionToken,
      body,
    });
  const texts = async (meetingKey: string) =>
    (await app.rest<{ messages: { text: string }[] }>('GET', `/v1/meeting/${meetingKey}`, { token })).body.messages.map((m) => m.text);
  const size = (meetingKey: string) =>
    app.deps.db.meeting.findUniqueOrThrow({ where: { id: meetingKey }, select: { storedLines: true, storedTextBytes: true } });

  it('refuses a batch that would cross the line bound whole, with 413 naming the limit; revisions still pass', async () => {
    const m = meeting('lines');
    const first = await post({ meeting: m, lines: [line('c1', 0, 'one'), line('c2', 0, 'two'), line('c3', 0, 'three')] });
    expect(first.status).toBe(200);
    const key = first.body.meetingKey!;

    // 3 stored + 3 new = 6 > 5: nothing of it is written, not even the revision of c1 riding along.
    const over = await post({ meeting: m, lines: [line('c1', 1, 'one!'), line('c4', 0, 'four'), line('c5', 0, 'five'), line('c6', 0, 'six')] });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: LINES_MESSAGE });
    expect(await texts(key)).toEqual(['one', 'two', 'three']);
    expect(await size(key)).toEqual({ storedLines: 3, storedTextBytes: 11 });

    // Up to the bound exactly.
    expect((await post({ meeting: m, lines: [line('c4', 0, 'four'), line('c5', 0, 'five')] })).body.accepted).toBe(2);
    // At the bound: a new revision of a stored line adds no line, a resent batch adds nothing.
    expect((await post({ meeting: m, lines: [line('c1', 1, 'one!')] })).body.accepted).toBe(1);
    expect((await post({ meeting: m, lines: [line('c1', 1, 'one!')] })).status).toBe(200);
    const sixth = await post({ meeting: m, lines: [line('c6', 0, 'six')] });
    expect(sixth.status).toBe(413);
    expect(sixth.body.message).toBe(LINES_MESSAGE);
    expect(await texts(key)).toEqual(['one!', 'two', 'three', 'four', 'five']);
    expect(await size(key)).toEqual({ storedLines: 5, storedTextBytes: 20 });
  });

  it('refuses a batch that would cross the byte bound (UTF-8 bytes, not characters); shorter revisions make room', async () => {
    const m = meeting('bytes');
    const first = await post({ meeting: m, lines: [line('c1', 0, 'é'.repeat(450))] });
    expect(first.status).toBe(200);
    const key = first.body.meetingKey!;
    expect(await size(key)).toEqual({ storedLines: 1, storedTextBytes: 900 });

    // 200 characters, 200 bytes: 1,100 > 1,024.
    const over = await post({ meeting: m, lines: [line('c2', 0, 'x'.repeat(200))] });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: BYTES_MESSAGE });
    expect(await texts(key)).toEqual(['é'.repeat(450)]);

    // A revision that grows the stored line past the bound is refused too.
    expect((await post({ meeting: m, lines: [line('c1', 1, 'é'.repeat(520))] })).status).toBe(413);
    expect(await size(key)).toEqual({ storedLines: 1, storedTextBytes: 900 });

    // Shrinking the first line makes room for the second.
    expect((await post({ meeting: m, lines: [line('c1', 2, 'short')] })).status).toBe(200);
    expect((await post({ meeting: m, lines: [line('c2', 0, 'x'.repeat(200))] })).status).toBe(200);
    expect(await texts(key)).toEqual(['short', 'x'.repeat(200)]);
    expect(await size(key)).toEqual({ storedLines: 2, storedTextBytes: 205 });
  });

  it('refuses a first batch larger than a whole meeting before creating the meeting', async () => {
    const tooMany = await post({ meeting: meeting('first-lines'), lines: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map((c) => line(c, 0, c)) });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.message).toBe(LINES_MESSAGE);
    const tooLong = await post({ meeting: meeting('first-bytes'), lines: [line('c1', 0, 'x'.repeat(1025))] });
    expect(tooLong.status).toBe(413);
    expect(tooLong.body.message).toBe(BYTES_MESSAGE);
    const sessions = await app.deps.db.meeting.findMany({ where: { sessionId: { in: ['first-lines', 'first-bytes'] } } });
    expect(sessions).toEqual([]);
  });

  it('never lets concurrent batches of one meeting together cross the bound', async () => {
    const m = meeting('concurrent');
    const key = (await post({ meeting: m, lines: [line('c0', 0, 'zero')] })).body.meetingKey!;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => post({ meeting: m, lines: [line(`c${i + 1}`, 0, `line ${i + 1}`)] })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    expect(results.filter((r) => r.status === 413)).toHaveLength(6);
    expect(await texts(key)).toHaveLength(5);
    expect((await size(key)).storedLines).toBe(5);
  });

  it('counts sealed text as stored once a meeting is encrypted', async () => {
    await makePremium(app, 'ana@example.com');
    const m = meeting('sealed');
    const key = (await post({ meeting: m, lines: [line('c1', 0, 'x'.repeat(300))] })).body.meetingKey!;
    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${key}`, { token })).status).toBe(200);
    const sealed = await size(key);
    // enc1: + base64 of nonce, text and tag.
    expect(sealed.storedTextBytes).toBeGreaterThan(400);
    expect((await post({ meeting: m, lines: [line('c2', 0, 'y'.repeat(300))] })).status).toBe(200);
    const after = await size(key);
    expect(after.storedLines).toBe(2);
    expect(after.storedTextBytes - sealed.storedTextBytes).toBeGreaterThan(400);
    const over = await post({ meeting: m, lines: [line('c3', 0, 'z'.repeat(100))] });
    expect(over.status).toBe(413);
    expect(over.body.message).toBe(BYTES_MESSAGE);
  });
});
