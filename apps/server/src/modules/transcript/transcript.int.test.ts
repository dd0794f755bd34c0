import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestLinesInput } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { captionLine } from '../../test/fixtures.js';

const startedAt = Date.UTC(2026, 10, 20, 15, 0);
const meeting = { sessionId: 's-1', meetCode: 'abc-defg-hij', title: 'Kick-off', startedAt };
const line = (captionId: string, revision: number, text: string, speaker?: string) => captionLine(startedAt, captionId, revision, text, speaker);

describe('transcript ingest', () => {
  let app: TestApp;
  let token: string;
  let extensionToken: string;
  beforeAll(async () => {
    app = await startTestApp();
    token = await app.signIn('ana@example.com');
    const issued = await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token });
    expect(issued.status).toBe(200);
    extensionToken = issued.body.token;
  });
  afterAll(() => app.close());

  const post = (body: IngestLinesInput, bearer = extensionToken) =>
    app.rest<{ meetingKey: string; accepted: number }>('POST', '/v1/transcript/lines', { token: bearer, body });

  it('creates the meeting and stores lines; resending the batch adds nothing', async () => {
    const batch = { meeting, lines: [line('c1', 0, 'Hello'), line('c2', 0, 'Hi there', 'Bo')] };
    const first = await post(batch);
    expect(first.status).toBe(200);
    expect(first.body.accepted).toBe(2);
    const again = await post(batch);
    expect(again.body).toEqual({ meetingKey: first.body.meetingKey, accepted: 0 });

    const detail = await app.rest<{ meet: { users: string[]; title: string }; messages: { text: string; user: string }[] }>(
      'GET',
      `/v1/meeting/${first.body.meetingKey}`,
      { token },
    );
    expect(detail.status).toBe(200);
    expect(detail.body.meet.title).toBe('Kick-off');
    expect(detail.body.meet.users.sort()).toEqual(['Ana', 'Bo']);
    expect(detail.body.messages.map((m) => [m.user, m.text])).toEqual([
      ['Ana', 'Hello'],
      ['Bo', 'Hi there'],
    ]);
  });

  it('a higher revision rewrites a line; a lower or equal one never does', async () => {
    const up = await post({ meeting, lines: [line('c1', 3, 'Hello everyone, welcome')] });
    expect(up.body.accepted).toBe(1);
    const stale = await post({ meeting, lines: [line('c1', 2, 'Hello every'), line('c1', 3, 'Hello X')] });
    expect(stale.body.accepted).toBe(0);
    const detail = await app.rest<{ messages: { text: string }[] }>('GET', `/v1/meeting/${up.body.meetingKey}`, { token });
    expect(detail.body.messages[0]?.text).toBe('Hello everyone, welcome');
  });

  it('keeps the highest revision when one batch repeats a caption, and survives concurrent batches', async () => {
    const m = { ...meeting, sessionId: 's-2' };
    const batches = Array.from({ length: 5 }, (_, i) => ({
      meeting: m,
      lines: [line('c9', i, `rev ${i}`), line('c9', i + 10, `rev ${i + 10}`)],
    }));
    const results = await Promise.all(batches.map((b) => post(b)));
    expect(new Set(results.map((r) => r.body.meetingKey)).size).toBe(1);
    const detail = await app.rest<{ messages: { text: string }[] }>('GET', `/v1/meeting/${results[0]!.body.meetingKey}`, {
      token,
    });
    expect(detail.body.messages.map((x) => x.text)).toEqual(['rev 14']);
  });

  it('ends a meeting, keeping the latest end', async () => {
    const end = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/end', {
      token: extensionToken,
      body: { sessionId: 's-1', finishedAt: startedAt + 3_600_000 },
    });
    expect(end.status).toBe(200);
    await app.rest('POST', '/v1/transcript/end', { token: extensionToken, body: { sessionId: 's-1', finishedAt: startedAt + 60_000 } });
    const detail = await app.rest<{ meet: { finishedAt: number } }>('GET', `/v1/meeting/${end.body.meetingKey}`, { token });
    expect(detail.body.meet.finishedAt).toBe(startedAt + 3_600_000);
    const unknown = await app.rest('POST', '/v1/transcript/end', { token: extensionToken, body: { sessionId: 'nope', finishedAt: startedAt } });
    expect(unknown).toEqual({ status: 200, body: { meetingKey: null } });
  });

  it('rejects malformed bodies with 400 naming the field, and stores nothing', async () => {
    const before = await app.deps.db.message.count();
    const cases: [unknown, string][] = [
      [{ meeting: { ...meeting, meetCode: 'not a code' }, lines: [] }, 'meeting.meetCode'],
      [{ meeting, lines: [{ ...line('c5', 0, 'x'), revision: -1 }] }, 'lines.0.revision'],
      [{ meeting, lines: [{ ...line('c5', 0, 'x'), revision: 1.5 }] }, 'lines.0.revision'],
      [{ meeting, lines: [{ ...line('c5', 0, 'x'), speaker: 42 }] }, 'lines.0.speaker'],
      [{ meeting, lines: [line('c5', 0, 'x'.repeat(1_000_001))] }, 'lines.0.text'],
      [{ meeting, lines: [{ ...line('c5', 0, 'x'), extra: true }] }, 'lines.0'],
      [{ lines: [] }, 'meeting'],
      // Strings are not coerced in JSON bodies: "false" must not be read as true, nor "3" as 3.
      [{ meeting, lines: [{ ...line('c5', 0, 'x'), final: 'false' }] }, 'lines.0.final'],
      [{ meeting, lines: [{ ...line('c5', 0, 'x'), revision: '3' }] }, 'lines.0.revision'],
    ];
    for (const [body, field] of cases) {
      const response = await app.rest<{ message: string; data: { field: string } }>('POST', '/v1/transcript/lines', {
        token: extensionToken,
        body,
      });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.data.field).toBe(field);
      expect(response.body.message).toContain(field);
    }
    const badJson = await app.rest<{ message: string }>('POST', '/v1/transcript/lines', { token: extensionToken, rawBody: '{"meeting":' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.message).toMatch(/JSON/);
    expect(await app.deps.db.message.count()).toBe(before);
  });

  it('answers 401 without a valid token, and after revocation', async () => {
    const body = { meeting, lines: [] };
    expect((await app.rest('POST', '/v1/transcript/lines', { body })).status).toBe(401);
    expect((await app.rest('POST', '/v1/transcript/lines', { body, token: 'mbx_forged' })).status).toBe(401);
    expect((await app.rest('POST', '/v1/transcript/lines', { body, token: 'not.a.jwt' })).status).toBe(401);
    const revoked = await app.rest<{ revoked: number }>('DELETE', '/v1/auth/extension-token', { token });
    expect(revoked.body.revoked).toBe(1);
    expect((await post(body)).status).toBe(401);
  });
});
