import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNTITLED_MEETING, meetingGroupsSchema, uniqueParticipants, type Meeting, type MeetingGroups } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { seedMeeting } from '../../test/fixtures.js';

describe('grouped meeting list', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    // Los Angeles is UTC-8 in November: 02:00 UTC on the 21st is still the 20th there.
    await app.deps.db.user.update({ where: { email: 'ana@example.com' }, data: { timezone: 'America/Los_Angeles' } });
    const starts = {
      early20: Date.UTC(2026, 10, 20, 17, 0),
      late20: Date.UTC(2026, 10, 21, 2, 0),
      on21: Date.UTC(2026, 10, 21, 20, 0),
      on22: Date.UTC(2026, 10, 22, 18, 0),
    };
    for (const [name, startedAt] of Object.entries(starts)) {
      keys[name] = (await seedMeeting(app, ana, name, [{ speaker: 'Ana', text: name }], startedAt)).meetingKey;
    }
  });
  afterAll(() => app.close());

  it("groups by day in the user's timezone, newest day and meeting first, with long English labels", async () => {
    const { status, body } = await app.rest<MeetingGroups>('GET', '/v1/meeting-list/grouped', { token: ana });
    expect(status).toBe(200);
    expect(body.groups.map((g) => [g.day, g.label, g.meetings.map((m) => m.key)])).toEqual([
      ['2026-11-22', 'Sunday, November 22, 2026', [keys.on22]],
      ['2026-11-21', 'Saturday, November 21, 2026', [keys.on21]],
      ['2026-11-20', 'Friday, November 20, 2026', [keys.late20, keys.early20]],
    ]);
    expect(body.groups[0]?.meetings[0]).toMatchObject({ title: 'Untitled meet', users: ['Ana'] });
  });

  it('gives the same groups over tRPC, honours limit, and validates it', async () => {
    const viaTrpc = await app.trpc(ana).meeting.grouped.query({});
    expect(viaTrpc.groups.flatMap((g) => g.meetings.map((m) => m.key))).toEqual([keys.on22, keys.on21, keys.late20, keys.early20]);
    const two = await app.rest<MeetingGroups>('GET', '/v1/meeting-list/grouped?limit=2', { token: ana });
    expect(two.body.groups.map((g) => g.day)).toEqual(['2026-11-22', '2026-11-21']);
    for (const query of ['limit=0', 'limit=1001', 'limit=-1', 'limit=2.5', 'offset=x']) {
      const bad = await app.rest<{ data: { field: string } }>('GET', `/v1/meeting-list/grouped?${query}`, { token: ana });
      expect(bad.status, query).toBe(400);
      expect(bad.body.data.field).toBe(query.split('=')[0]);
    }
  });

  it("never shows another user's meetings and needs a token", async () => {
    expect((await app.rest('GET', '/v1/meeting-list/grouped', { token: bo })).body).toEqual({ groups: [] });
    expect((await app.rest('GET', '/v1/meeting-list/grouped')).status).toBe(401);
  });

  it('writes each meeting as the API shows it, as JSON text, the same over REST and tRPC', async () => {
    const cy = await app.signIn('cy@example.com');
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'cy@example.com' } });
    const farOut = new Date(Date.UTC(10000, 2, 1));
    const rows = [
      { title: ' \u3000Plan\u00a0\ufeff', startedAt: new Date(Date.UTC(2026, 0, 5, 9)), finishedAt: farOut },
      { title: '\u2028\t', startedAt: new Date(Date.UTC(2026, 0, 5, 8)), finishedAt: null },
      { title: 'He said "hi"\n\\ 🚀 \u0001', startedAt: farOut, finishedAt: new Date(Date.UTC(2026, 0, 4, 10)) },
    ];
    for (const [i, row] of rows.entries()) {
      await app.deps.db.meeting.create({
        data: { ...row, userId: user.id, sessionId: `json-${i}`, meetCode: 'abc-defg-hij', users: ['Ana Lima', 'Bo'], encrypted: i === 1, isAnalyzed: i === 2 },
      });
    }
    const stored = await app.deps.db.meeting.findMany({ where: { userId: user.id } });
    // The API's rules, as JavaScript has them.
    const expected = new Map(
      stored.map((m): [string, Meeting] => [
        m.id,
        {
          key: m.id,
          title: m.title.trim() || UNTITLED_MEETING,
          meetCode: m.meetCode,
          date: m.startedAt.getFullYear() < 10000 ? m.startedAt.getTime() : m.createdAt.getTime(),
          createdAt: m.createdAt.getTime(),
          finishedAt: m.finishedAt && m.finishedAt.getFullYear() < 10000 ? m.finishedAt.getTime() : null,
          users: uniqueParticipants(m.users),
          encrypted: m.encrypted,
          isAnalyzed: m.isAnalyzed,
        },
      ]),
    );

    const response = await fetch(`${app.url}/v1/meeting-list/grouped`, { headers: { authorization: `Bearer ${cy}` } });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const viaRest = meetingGroupsSchema.parse(await response.json());
    const viaTrpc = await app.trpc(cy).meeting.grouped.query({});
    expect(viaRest).toEqual(viaTrpc);
    const listed = viaRest.groups.flatMap((g) => g.meetings);
    expect(listed).toHaveLength(3);
    for (const meeting of listed) expect(meeting).toEqual(expected.get(meeting.key));
    expect(listed.map((m) => m.title)).toEqual(expect.arrayContaining(['Plan', UNTITLED_MEETING, 'He said "hi"\n\\ 🚀 \u0001']));
    // The meeting of year 10000 is dated by its creation (today), so it comes first.
    expect(viaRest.groups.map((g) => g.meetings.length)).toEqual([1, 2]);
    expect(await app.trpc(cy).meeting.list.query({})).toEqual([...listed].sort((a, b) => b.date - a.date));
  });

  it('has participants stored trimmed and once each: the migration brings older rows to that form', async () => {
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'bo@example.com' } });
    const legacy = [' Ana ', 'Bo', 'Ana', '\u3000', '', 'Cy\u00a0', 'Bo'];
    const meeting = await app.deps.db.meeting.create({ data: { userId: user.id, sessionId: 'legacy', meetCode: 'abc-defg-hij', startedAt: new Date(), users: legacy } });
    const migration = readFileSync(new URL('../../../../../prisma/migrations/20261124050000_participants_stored_unique/migration.sql', import.meta.url), 'utf8');
    await app.deps.db.$executeRawUnsafe(migration);
    const after = await app.deps.db.meeting.findUniqueOrThrow({ where: { id: meeting.id } });
    expect(after.users).toEqual(uniqueParticipants(legacy));
    expect(after.users).toEqual(['Ana', 'Bo', 'Cy']);
    await app.deps.db.meeting.delete({ where: { id: meeting.id } });
  });
});

