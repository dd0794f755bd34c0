import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingGroups } from '@mbox/shared';
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
});
