import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestLinesInput, Message } from '@mbox/shared';
import type { EventMap } from '../../events.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { captionLine, makePremium } from '../../test/fixtures.js';

const startedAt = Date.UTC(2026, 10, 20, 15, 0);
const line = (captionId: string, revision: number, text: string, speaker?: string) => captionLine(startedAt, captionId, revision, text, speaker);

describe('ingest: the meeting row and the live event', () => {
  let app: TestApp;
  let token: string;
  const events: EventMap['meeting.lines'][] = [];
  beforeAll(async () => {
    app = await startTestApp();
    token = await app.signIn('statement@example.com');
    app.deps.events.listen('meeting.lines', null, (event) => events.push(structuredClone(event)));
  });
  afterAll(() => app.close());

  const post = (body: IngestLinesInput) =>
    app.rest<{ meetingKey: string; accepted: number }>('POST', '/v1/transcript/lines', { token, body });
  const meetingRow = (id: string) => app.deps.db.meeting.findUniqueOrThrow({ where: { id } });

  it('rewrites the meeting row only when the batch changes something in it', async () => {
    const meeting = { sessionId: 'row-1', meetCode: 'abc-defg-hij', title: 'Weekly', startedAt, participants: ['Ana'] };
    const first = await post({ meeting, lines: [line('c1', 0, 'Hello')] });
    const created = await meetingRow(first.body.meetingKey);
    expect(created.lastLineAt).not.toBeNull();

    // New lines by a known speaker, same title, idle clock fresh: the row stays as it is.
    expect((await post({ meeting, lines: [line('c2', 0, 'Next'), line('c1', 1, 'Hello all')] })).body.accepted).toBe(2);
    expect((await meetingRow(first.body.meetingKey)).updatedAt).toEqual(created.updatedAt);

    // A new speaker and a new title are stored.
    await post({ meeting: { ...meeting, title: 'Weekly sync' }, lines: [line('c3', 0, 'Hi', 'Bo')] });
    const renamed = await meetingRow(first.body.meetingKey);
    expect(renamed.title).toBe('Weekly sync');
    expect(renamed.users).toEqual(['Ana', 'Bo']);
    expect(renamed.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime());

    // An ended meeting is open again when words arrive; a re-sent batch does not reopen it.
    await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'row-1', finishedAt: startedAt + 60_000 } });
    expect((await meetingRow(first.body.meetingKey)).endedAt).not.toBeNull();
    expect((await post({ meeting, lines: [line('c3', 0, 'Hi', 'Bo')] })).body.accepted).toBe(0);
    expect((await meetingRow(first.body.meetingKey)).endedAt).not.toBeNull();
    expect((await post({ meeting, lines: [line('c4', 0, 'One more thing')] })).body.accepted).toBe(1);
    expect((await meetingRow(first.body.meetingKey)).endedAt).toBeNull();
  });

  it('stores participants trimmed and once each, in the order first seen: meeting reads pass them on as stored', async () => {
    const meeting = { sessionId: 'names-1', meetCode: 'abc-defg-hij', startedAt, participants: [' Bo ', 'Cy\u3000', 'Bo'] };
    const first = await post({ meeting, lines: [line('c1', 0, 'Hello', ' Ana\t')] });
    expect((await meetingRow(first.body.meetingKey)).users).toEqual(['Bo', 'Cy', 'Ana']);
    await post({ meeting: { ...meeting, participants: ['Dee ', 'Ana'] }, lines: [line('c2', 0, 'Hi', 'Cy ')] });
    expect((await meetingRow(first.body.meetingKey)).users).toEqual(['Bo', 'Cy', 'Ana', 'Dee']);
  });

  it('carries the changed rows, as stored, in transcript order in the live event', async () => {
    events.length = 0;
    const meeting = { sessionId: 'event-1', meetCode: 'abc-defg-hij', startedAt };
    const answer = await post({ meeting, lines: [line('c2', 0, 'second'), line('c1', 0, 'first')] });
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({ meetingId: answer.body.meetingKey });
    const lines = (event as { lines: Message[] }).lines;
    expect(lines.map((l) => [l.captionId, l.text, l.encrypted])).toEqual([
      ['c1', 'first', false],
      ['c2', 'second', false],
    ]);
    expect(lines[0]).toMatchObject({ spokenAt: startedAt + 1000, final: false, user: 'Ana', marks: [], comment: '' });
    // Plain JSON: what crosses instances through PostgreSQL or Redis is what local subscribers get.
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);

    events.length = 0;
    await post({ meeting, lines: [line('c1', 0, 'first'), line('c2', 0, 'second')] });
    expect(events).toEqual([]);
  });

  it('never puts the text of an encrypted meeting into an event; the subscriber reads it in plain', async () => {
    await makePremium(app, 'statement@example.com');
    const meeting = { sessionId: 'sealed-1', meetCode: 'abc-defg-hij', startedAt };
    const key = (await post({ meeting, lines: [line('c1', 0, 'before encryption')] })).body.meetingKey;
    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${key}`, { token })).status).toBe(200);

    const received: Message[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const sub = app.trpc(token).meeting.onLines.subscribe(
        { meetingId: key },
        {
          onStarted: () => void post({ meeting, lines: [line('c2', 0, 'a secret plan')] }),
          onData: (message) => {
            received.push(message as Message);
            sub.unsubscribe();
            resolve();
          },
          onError: reject,
        },
      );
    });
    events.length = 0;
    await done;
    expect(received.map((m) => [m.captionId, m.text, m.encrypted])).toEqual([['c2', 'a secret plan', true]]);
    const wire = JSON.stringify(events);
    expect(wire).not.toContain('secret');
    expect((events[0] as { lines: Message[] }).lines[0]?.text).toMatch(/^enc1:/);
  });
});
