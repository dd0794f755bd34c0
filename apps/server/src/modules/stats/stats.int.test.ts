import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingStats, TalkTime } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { getMeetingStats } from './service.js';

const MIN = 60_000;
type ErrorBody = { message: string; code: string };

describe('statistics', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  let anaId: string;
  let talkMeetingId: string;

  const addMeeting = async (userId: string, startedAt: Date, minutes: number | null, isAnalyzed = false) =>
    app.deps.db.meeting.create({
      data: {
        userId,
        sessionId: `s-${Math.random()}`,
        meetCode: 'abc-defg-hij',
        startedAt,
        finishedAt: minutes === null ? null : new Date(startedAt.getTime() + minutes * MIN),
        isAnalyzed,
      },
    });

  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    anaId = (await app.deps.db.user.findUniqueOrThrow({ where: { email: 'ana@example.com' } })).id;
    // Fixed dates for the calendar figures (checked through the service with a fixed "now").
    await addMeeting(anaId, new Date('2026-12-01T20:00:00Z'), 90, true);
    await addMeeting(anaId, new Date('2026-12-01T03:00:00Z'), 30, true); // 30 Nov in New York
    await addMeeting(anaId, new Date('2026-11-10T12:00:00Z'), 20);
    await addMeeting(anaId, new Date('2026-11-10T14:00:00Z'), -5); // finish before start: no duration
    const talk = await addMeeting(anaId, new Date('2026-11-11T14:00:00Z'), 10);
    talkMeetingId = talk.id;
    const t0 = talk.startedAt.getTime();
    await app.deps.db.message.createMany({
      data: [
        { meetingId: talk.id, captionId: 'c1', revision: 0, user: 'Ana', text: 'hello', spokenAt: new Date(t0) },
        { meetingId: talk.id, captionId: 'c2', revision: 0, user: 'Bo', text: 'hi', spokenAt: new Date(t0 + 60_000) },
        { meetingId: talk.id, captionId: 'c3', revision: 0, user: 'Ana', text: 'bye', spokenAt: new Date(t0 + 90_000) },
      ],
    });
  });
  afterAll(() => app.close());

  it('counts the dashboard figures with calendar days and months in the given zone', async () => {
    const now = new Date('2026-12-02T01:00:00Z');
    const utc = await getMeetingStats(app.deps, { id: anaId, timezone: 'UTC' }, now);
    expect(utc).toMatchObject({
      total: 5,
      last7Days: 2,
      thisMonth: 2,
      analyzed: 2,
      analyzedPercent: 40,
      totalDuration: { hours: 2, minutes: 30 },
      thisMonthDuration: { hours: 2, minutes: 0 },
    });
    expect(utc.perWeek.at(-1)).toEqual({ weekStart: '2026-11-30', count: 2 });
    const ny = await getMeetingStats(app.deps, { id: anaId, timezone: 'America/New_York' }, now);
    expect(ny).toMatchObject({ thisMonth: 1, thisMonthDuration: { hours: 1, minutes: 30 }, timeZone: 'America/New_York' });
  });

  it("serves GET /v1/stats in the user's time zone, over REST and tRPC", async () => {
    const recent = await addMeeting(anaId, new Date(Date.now() - 2 * MIN), 75, true);
    const response = await app.rest<MeetingStats>('GET', '/v1/stats', { token: ana });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 6, analyzed: 3, analyzedPercent: 50, timeZone: 'UTC' });
    expect(response.body.last7Days).toBeGreaterThanOrEqual(1);
    expect(response.body.perWeek).toHaveLength(12);
    expect(response.body.perWeek.at(-1)?.count).toBeGreaterThanOrEqual(1);
    expect(response.body.totalDuration).toEqual({ hours: 3, minutes: 45 });

    await app.rest('PUT', '/v1/user-settings', { token: ana, body: { timezone: 'Asia/Tokyo' } });
    expect((await app.trpc(ana).stats.dashboard.query()).timeZone).toBe('Asia/Tokyo');
    await app.deps.db.meeting.delete({ where: { id: recent.id } });
  });

  it("never counts another user's meetings", async () => {
    const response = await app.rest<MeetingStats>('GET', '/v1/stats', { token: bo });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 0, last7Days: 0, thisMonth: 0, analyzed: 0, analyzedPercent: 0 });
  });

  it('gives talk time per speaker for one meeting', async () => {
    const response = await app.rest<TalkTime>('GET', `/v1/stats/talk-time/${talkMeetingId}`, { token: ana });
    expect(response.status).toBe(200);
    // Ana: 60 s + until the finish at 10 min (capped at 3 min); Bo: 30 s.
    expect(response.body).toEqual({
      totalMs: 270_000,
      speakers: [
        { user: 'Ana', ms: 240_000, percent: 88, messages: 2 },
        { user: 'Bo', ms: 30_000, percent: 11, messages: 1 },
      ],
    });
    expect(await app.trpc(ana).stats.talkTime.query({ id: talkMeetingId })).toEqual(response.body);
  });

  it("answers 404 for another user's or an unknown meeting, 400 for a blank id", async () => {
    const theirs = await app.rest<ErrorBody>('GET', `/v1/stats/talk-time/${talkMeetingId}`, { token: bo });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('Meeting not found');
    expect((await app.rest('GET', '/v1/stats/talk-time/nope', { token: ana })).status).toBe(404);
    const blank = await app
      .trpc(ana)
      .stats.talkTime.query({ id: ' ' })
      .catch((e: { data: { httpStatus: number } }) => e);
    expect(blank).toMatchObject({ data: { httpStatus: 400 } });
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await app.rest<{ paths: Record<string, unknown> }>('GET', '/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/stats', '/stats/talk-time/{id}']));
  });

  it('answers 401 without a valid token', async () => {
    expect((await app.rest('GET', '/v1/stats')).status).toBe(401);
    expect((await app.rest('GET', `/v1/stats/talk-time/${talkMeetingId}`)).status).toBe(401);
  });
});
