import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestEventsInput, MeetingEvent } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';

const startedAt = Date.UTC(2026, 10, 20, 10, 0);
const minute = 60_000;
const meeting = { sessionId: 'gap-1', meetCode: 'abc-defg-hij', title: 'Gaps', startedAt };

describe('capture events (gaps)', () => {
  let app: TestApp;
  let token: string;
  let extensionToken: string;
  beforeAll(async () => {
    app = await startTestApp();
    token = await app.signIn('gaps@example.com');
    extensionToken = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token })).body.token;
  });
  afterAll(() => app.close());

  const post = (body: unknown, bearer = extensionToken) =>
    app.rest<{ meetingKey: string; accepted: number }>('POST', '/v1/transcript/events', { token: bearer, body });
  const events = (meetingKey: string, bearer = token) =>
    app.rest<MeetingEvent[]>('GET', `/v1/meeting/${meetingKey}/events`, { token: bearer });

  it('creates the meeting when captions were off before any line, then closes the gap once', async () => {
    const open: IngestEventsInput = { meeting, events: [{ eventId: 'g1', kind: 'captions-off', startedAt: startedAt + 2 * minute }] };
    const first = await post(open);
    expect(first.status).toBe(200);
    expect(first.body.accepted).toBe(1);
    expect((await events(first.body.meetingKey)).body).toEqual([
      { key: expect.any(String), kind: 'captions-off', startedAt: startedAt + 2 * minute, endedAt: null },
    ]);

    const closed = { meeting, events: [{ eventId: 'g1', kind: 'captions-off', startedAt: startedAt + 2 * minute, endedAt: startedAt + 7 * minute }] };
    expect((await post(closed)).body).toEqual({ meetingKey: first.body.meetingKey, accepted: 1 });
    // Resending the closed report, or the old open one, changes nothing.
    expect((await post(closed)).body.accepted).toBe(0);
    expect((await post(open)).body.accepted).toBe(0);
    const stored = (await events(first.body.meetingKey)).body;
    expect(stored.map((e) => [e.kind, e.startedAt, e.endedAt])).toEqual([['captions-off', startedAt + 2 * minute, startedAt + 7 * minute]]);
  });

  it('joins the meeting the lines created, and lists gaps in time order', async () => {
    const m = { ...meeting, sessionId: 'gap-2' };
    const lines = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token: extensionToken,
      body: { meeting: m, lines: [{ captionId: 'c1', revision: 0, speaker: 'Ana', text: 'Hi', spokenAt: startedAt, final: true }] },
    });
    const answer = await post({
      meeting: m,
      events: [
        { eventId: 'b', kind: 'no-captions', startedAt: startedAt + 20 * minute, endedAt: startedAt + 26 * minute },
        { eventId: 'a', kind: 'capture-broken', startedAt: startedAt + 5 * minute },
      ],
    });
    expect(answer.body).toEqual({ meetingKey: lines.body.meetingKey, accepted: 2 });
    expect((await events(lines.body.meetingKey)).body.map((e) => e.kind)).toEqual(['capture-broken', 'no-captions']);
  });

  it('a gap still open when the meeting ends ends with it', async () => {
    const m = { ...meeting, sessionId: 'gap-3' };
    const key = (await post({ meeting: m, events: [{ eventId: 'open', kind: 'captions-off', startedAt: startedAt + minute }] })).body.meetingKey;
    const end = await app.rest('POST', '/v1/transcript/end', { token: extensionToken, body: { sessionId: 'gap-3', finishedAt: startedAt + 30 * minute } });
    expect(end.status).toBe(200);
    expect((await events(key)).body.map((e) => e.endedAt)).toEqual([startedAt + 30 * minute]);
  });

  it('rejects malformed events with 400 naming the field, and stores nothing', async () => {
    const before = await app.deps.db.meetingEvent.count();
    const event = { eventId: 'x', kind: 'captions-off', startedAt };
    const cases: [unknown, string][] = [
      [{ meeting, events: [{ ...event, kind: 'muted' }] }, 'events.0.kind'],
      [{ meeting, events: [{ ...event, endedAt: startedAt - 1 }] }, 'events.0.endedAt'],
      [{ meeting, events: [{ ...event, eventId: '' }] }, 'events.0.eventId'],
      [{ meeting, events: [] }, 'events'],
      [{ events: [event] }, 'meeting'],
    ];
    for (const [body, field] of cases) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((response.body as unknown as { data: { field: string } }).data.field).toBe(field);
    }
    expect(await app.deps.db.meetingEvent.count()).toBe(before);
  });

  it("keeps a user's gaps to the owner: another account sees 404, a missing token 401", async () => {
    const key = (await post({ meeting, events: [{ eventId: 'g9', kind: 'region-missing', startedAt }] })).body.meetingKey;
    const other = await app.signIn('other@example.com');
    expect((await events(key, other)).status).toBe(404);
    expect((await app.rest('GET', `/v1/meeting/${key}/events`)).status).toBe(401);
    expect((await post({ meeting, events: [{ eventId: 'g9', kind: 'region-missing', startedAt }] }, 'mbx_forged')).status).toBe(401);
    // The other account's own session with the same id is a different meeting.
    const otherExt = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: other })).body.token;
    const theirs = await post({ meeting, events: [{ eventId: 'g9', kind: 'region-missing', startedAt }] }, otherExt);
    expect(theirs.body.meetingKey).not.toBe(key);
  });
});
