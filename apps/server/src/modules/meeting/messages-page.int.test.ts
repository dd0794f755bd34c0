import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingMessages } from '@mbox/shared';
import { makePremium } from '../../test/fixtures.js';
import { startTestApp, type TestApp } from '../../test/app.js';

const START = Date.UTC(2026, 10, 20, 15, 0);
const LINES = 23;

describe('GET /v1/meeting/{id}/messages (paged transcript)', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  let finished: string;
  let live: string;
  /** Keys of the finished meeting in transcript order, as meeting.get answers them. */
  let order: string[];

  async function ingest(sessionId: string): Promise<string> {
    const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token: ana,
      body: {
        meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt: START },
        // Lines 10 to 14 share one spokenAt: the page order must break the tie by key, stably.
        lines: Array.from({ length: LINES }, (_, i) => ({
          captionId: `c${i}`,
          revision: 0,
          speaker: i % 2 ? 'Bo' : 'Ana',
          text: `line ${i}`,
          spokenAt: START + (i >= 10 && i < 15 ? 10 : i) * 1000,
          final: true,
        })),
      },
    });
    expect(status).toBe(200);
    return body.meetingKey;
  }

  async function readAll(id: string, limit: number): Promise<{ pages: MeetingMessages[]; keys: string[] }> {
    const pages: MeetingMessages[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await app.rest<MeetingMessages>('GET', `/v1/meeting/${id}/messages?${query}`, { token: ana });
      expect(page.status).toBe(200);
      pages.push(page.body);
      cursor = page.body.next;
    } while (cursor && pages.length < 50);
    return { pages, keys: pages.flatMap((p) => p.messages.map((m) => m.key)) };
  }

  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    finished = await ingest('finished');
    await app.rest('POST', '/v1/transcript/end', { token: ana, body: { sessionId: 'finished', finishedAt: START + 60_000 } });
    live = await ingest('live');
    const detail = await app.rest<{ messages: { key: string }[] }>('GET', `/v1/meeting/${finished}`, { token: ana });
    order = detail.body.messages.map((m) => m.key);
  });
  afterAll(() => app.close());

  it('reads a finished meeting from the top, page by page, in meeting.get order', async () => {
    const { pages, keys } = await readAll(finished, 5);
    expect(pages.map((p) => p.messages.length)).toEqual([5, 5, 5, 5, 3]);
    expect(keys).toEqual(order);
    expect(pages[0]!.messages[0]!.text).toBe('line 0');
    expect(pages.at(-1)!.next).toBeNull();
    expect(pages.every((p) => p.total === LINES && p.meet.key === finished)).toBe(true);
  });

  it('keeps the line count of an ended meeting until lines reopen it, and counts again at its next end', async () => {
    const sessionId = 'count';
    const id = await ingest(sessionId);
    const stored = async () => (await app.deps.db.meeting.findUniqueOrThrow({ where: { id } })).lineCount;
    const total = async () => (await app.rest<MeetingMessages>('GET', `/v1/meeting/${id}/messages?limit=5`, { token: ana })).body.total;
    expect([await stored(), await total()]).toEqual([null, LINES]);

    await app.rest('POST', '/v1/transcript/end', { token: ana, body: { sessionId, finishedAt: START + 60_000 } });
    expect([await stored(), await total()]).toEqual([LINES, LINES]);
    // The page reads the stored count: a row slipped in past the product (no path of it does that) is not counted.
    await app.deps.db.$executeRaw`UPDATE "Meeting" SET "lineCount" = ${LINES + 100} WHERE id = ${id}`;
    expect(await total()).toBe(LINES + 100);

    // A new line and a newer revision reopen the meeting: the count is cleared and the lines counted.
    const more = await app.rest('POST', '/v1/transcript/lines', {
      token: ana,
      body: {
        meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt: START },
        lines: [
          { captionId: 'c0', revision: 1, speaker: 'Ana', text: 'line 0, corrected', spokenAt: START, final: true },
          { captionId: 'late', revision: 0, speaker: 'Bo', text: 'one more thing', spokenAt: START + 70_000, final: true },
        ],
      },
    });
    expect(more.status).toBe(200);
    expect([await stored(), await total()]).toEqual([null, LINES + 1]);

    await app.rest('POST', '/v1/transcript/end', { token: ana, body: { sessionId, finishedAt: START + 80_000 } });
    expect([await stored(), await total()]).toEqual([LINES + 1, LINES + 1]);
  });

  it('reads a live meeting from the bottom, then earlier pages, each page in transcript order', async () => {
    const { pages } = await readAll(live, 5);
    expect(pages[0]!.meet.finishedAt).toBeNull();
    expect(pages[0]!.messages.map((m) => m.text)).toEqual(['line 18', 'line 19', 'line 20', 'line 21', 'line 22']);
    expect(pages[0]!.next).toMatch(/^before\./);
    // Pages come newest first; read back to front they are the whole transcript in meeting.get order.
    const keys = pages
      .slice()
      .reverse()
      .flatMap((p) => p.messages.map((m) => m.key));
    const detail = await app.rest<{ messages: { key: string }[] }>('GET', `/v1/meeting/${live}`, { token: ana });
    expect(keys).toEqual(detail.body.messages.map((m) => m.key));
    expect(new Set(keys).size).toBe(LINES);
  });

  it('defaults to a small first page and caps the limit', async () => {
    const first = await app.rest<MeetingMessages>('GET', `/v1/meeting/${finished}/messages`, { token: ana });
    expect(first.status).toBe(200);
    expect(first.body.messages).toHaveLength(LINES);
    expect(first.body.next).toBeNull();
  });

  it('answers 400 naming the field for a bad cursor or limit', async () => {
    for (const [query, field] of [
      ['cursor=nonsense', 'cursor'],
      ['cursor=after.12.a%20b', 'cursor'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
    ] as const) {
      const bad = await app.rest<{ data: { field: string } }>('GET', `/v1/meeting/${finished}/messages?${query}`, { token: ana });
      expect(bad.status, query).toBe(400);
      expect(bad.body.data.field, query).toBe(field);
    }
  });

  it("answers 404 for another user's meeting and an unknown one", async () => {
    const foreign = await app.rest<{ message: string }>('GET', `/v1/meeting/${finished}/messages`, { token: bo });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Meeting not found');
    expect((await app.rest('GET', '/v1/meeting/nope/messages', { token: ana })).status).toBe(404);
    expect((await app.rest('GET', `/v1/meeting/${finished}/messages`)).status).toBe(401);
  });

  it('decrypts an encrypted meeting on the paged path', async () => {
    await makePremium(app, 'ana@example.com');
    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${finished}`, { token: ana })).status).toBe(200);
    const stored = await app.deps.db.message.findFirstOrThrow({ where: { meetingId: finished, captionId: 'c0' } });
    expect(stored.encrypted).toBe(true);
    expect(stored.text).not.toBe('line 0');
    const { pages, keys } = await readAll(finished, 10);
    expect(keys).toEqual(order);
    expect(pages[0]!.meet.encrypted).toBe(true);
    expect(pages[0]!.messages[0]).toMatchObject({ text: 'line 0', encrypted: true });
  });
});
