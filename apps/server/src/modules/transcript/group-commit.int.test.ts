import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestLinesInput } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { captionLine } from '../../test/fixtures.js';

const startedAt = Date.UTC(2026, 10, 20, 15, 0);
const line = (captionId: string, revision: number, text: string, speaker?: string) => captionLine(startedAt, captionId, revision, text, speaker);

describe('ingest: posts that arrive together share statements (group commit)', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('group-ana@example.com');
    bo = await app.signIn('group-bo@example.com');
  });
  afterAll(() => app.close());

  const post = (token: string, body: IngestLinesInput) =>
    app.rest<{ meetingKey: string; accepted: number }>('POST', '/v1/transcript/lines', { token, body });
  const meeting = (sessionId: string, title = '') => ({ sessionId, meetCode: 'abc-defg-hij', title, startedAt });

  it('writes many sessions of two users at once, each to its own meeting, and a session twice in order of revision', async () => {
    // Both users have a session 's0' … 's9': the same session ids must never mix across users.
    const sessions = Array.from({ length: 10 }, (_, i) => `s${i}`);
    await Promise.all(
      sessions.flatMap((sessionId) => [
        post(ana, { meeting: meeting(sessionId, `Ana ${sessionId}`), lines: [line('c1', 0, `ana ${sessionId}`)] }),
        post(bo, { meeting: meeting(sessionId), lines: [line('c1', 0, `bo ${sessionId}`, 'Bo')] }),
      ]),
    );
    // Now many at once against existing meetings, and each of ana's sessions twice: revision 2 must win
    // whichever statement carries it first.
    const answers = await Promise.all(
      sessions.flatMap((sessionId) => [
        post(ana, { meeting: meeting(sessionId), lines: [line('c1', 2, `ana ${sessionId} final`), line('c2', 0, 'next', 'Cy')] }),
        post(ana, { meeting: meeting(sessionId), lines: [line('c1', 1, `ana ${sessionId} draft`)] }),
        post(bo, { meeting: meeting(sessionId), lines: [line('c2', 0, `bo ${sessionId} more`, 'Bo')] }),
      ]),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);

    const users = await app.deps.db.user.findMany({ where: { email: { startsWith: 'group-' } }, orderBy: { email: 'asc' } });
    for (const [user, speaker] of [
      [users[0]!, 'ana'],
      [users[1]!, 'bo'],
    ] as const) {
      const meetings = await app.deps.db.meeting.findMany({ where: { userId: user.id }, include: { messages: { orderBy: { captionId: 'asc' } } }, orderBy: { sessionId: 'asc' } });
      expect(meetings.map((m) => m.sessionId)).toEqual(sessions);
      for (const m of meetings) {
        const texts = m.messages.map((message) => message.text);
        expect(texts).toEqual(speaker === 'ana' ? [`ana ${m.sessionId} final`, 'next'] : [`bo ${m.sessionId}`, `bo ${m.sessionId} more`]);
        if (speaker === 'ana') expect([m.title, m.users]).toEqual([`Ana ${m.sessionId}`, ['Ana', 'Cy']]);
      }
    }
  });

  it("isolates a post the database refuses: the others of its statement are stored, it alone fails", async () => {
    await post(ana, { meeting: meeting('poison'), lines: [line('c1', 0, 'fine')] });
    await app.deps.db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.text = 'poison' THEN RAISE EXCEPTION 'poisoned line'; END IF; RETURN NEW; END $$`);
    await app.deps.db.$executeRawUnsafe(`CREATE TRIGGER refuse_poison BEFORE INSERT OR UPDATE ON "Message" FOR EACH ROW EXECUTE FUNCTION refuse_poison()`);
    try {
      const answers = await Promise.all([
        ...Array.from({ length: 12 }, (_, i) => post(ana, { meeting: meeting(`ok-${i}`), lines: [line('c1', 0, `fine ${i}`)] })),
        post(ana, { meeting: meeting('poison'), lines: [line('c2', 0, 'poison')] }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(12).fill(200), 500]);
      const stored = await app.deps.db.message.findMany({ where: { meeting: { sessionId: { startsWith: 'ok-' } } } });
      expect(stored).toHaveLength(12);
      expect(await app.deps.db.message.count({ where: { text: 'poison' } })).toBe(0);
    } finally {
      await app.deps.db.$executeRawUnsafe('DROP TRIGGER refuse_poison ON "Message"');
      await app.deps.db.$executeRawUnsafe('DROP FUNCTION refuse_poison()');
    }
  });
});
