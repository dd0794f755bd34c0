import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Message } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';

const day = (d: number, h = 10) => Date.UTC(2026, 10, d, h);

describe('meetings', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  const keys: string[] = [];
  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    for (const [i, startedAt] of [day(18), day(19), day(20)].entries()) {
      const { body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
        token: ana,
        body: {
          meeting: { sessionId: `s${i}`, meetCode: 'abc-defg-hij', startedAt, participants: ['Ana', 'Ana', ' Bo '] },
          lines: [{ captionId: 'c1', revision: 0, speaker: 'Ana', text: `meeting ${i}`, spokenAt: startedAt, final: true }],
        },
      });
      keys.push(body.meetingKey);
    }
  });
  afterAll(() => app.close());

  it('lists newest first with limit and offset; untitled meetings read "Untitled meet"', async () => {
    const all = await app.rest<{ key: string; title: string; users: string[] }[]>('GET', '/v1/meeting-list', { token: ana });
    expect(all.status).toBe(200);
    expect(all.body.map((m) => m.key)).toEqual([...keys].reverse());
    expect(all.body[0]?.title).toBe('Untitled meet');
    expect(all.body[0]?.users).toEqual(['Ana', 'Bo']);
    const page = await app.rest<{ key: string }[]>('GET', '/v1/meeting-list?limit=1&offset=1', { token: ana });
    expect(page.body.map((m) => m.key)).toEqual([keys[1]]);
    for (const query of ['limit=0', 'limit=1001', 'limit=abc', 'offset=-1', 'limit=1.5']) {
      const bad = await app.rest<{ data: { field: string } }>('GET', `/v1/meeting-list?${query}`, { token: ana });
      expect(bad.status, query).toBe(400);
      expect(bad.body.data.field).toBe(query.split('=')[0]);
    }
  });

  it("another user's meeting answers 404, never its data", async () => {
    expect((await app.rest('GET', '/v1/meeting-list', { token: bo })).body).toEqual([]);
    const get = await app.rest<{ message: string }>('GET', `/v1/meeting/${keys[0]}`, { token: bo });
    expect(get.status).toBe(404);
    expect(get.body.message).toBe('Meeting not found');
    expect((await app.rest('DELETE', `/v1/meeting/${keys[0]}`, { token: bo })).status).toBe(404);
    expect((await app.rest('GET', '/v1/meeting/does-not-exist', { token: ana })).status).toBe(404);
    expect((await app.rest('GET', `/v1/meeting/${keys[0]}`, { token: ana })).status).toBe(200);
  });

  it("meeting.exists answers the owner true, and false (not 404) for an unknown id or another user's", async () => {
    expect(await app.trpc(ana).meeting.exists.query({ id: keys[0]! })).toEqual({ exists: true });
    expect(await app.trpc(ana).meeting.exists.query({ id: 'does-not-exist' })).toEqual({ exists: false });
    expect(await app.trpc(bo).meeting.exists.query({ id: keys[0]! })).toEqual({ exists: false });
    await expect(app.trpc().meeting.exists.query({ id: keys[0]! })).rejects.toMatchObject({ data: { httpStatus: 401 } });
  });

  it('streams new and updated lines live to the owner over tRPC', async () => {
    const received: Message[] = [];
    const client = app.trpc(ana);
    // Told it is connected only once the server listens, the client misses nothing posted after.
    let started = () => {};
    const connected = new Promise<void>((resolve) => (started = resolve));
    const done = new Promise<void>((resolve, reject) => {
      const sub = client.meeting.onLines.subscribe(
        { meetingId: keys[2]! },
        {
          onStarted: () => started(),
          onData: (message) => {
            received.push(message);
            if (received.length === 2) {
              sub.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    await connected;
    const startedAt = day(20);
    const send = (revision: number, text: string) =>
      app.rest('POST', '/v1/transcript/lines', {
        token: ana,
        body: {
          meeting: { sessionId: 's2', meetCode: 'abc-defg-hij', startedAt },
          lines: [{ captionId: 'c2', revision, speaker: 'Bo', text, spokenAt: startedAt + 5000, final: false }],
        },
      });
    await send(0, 'Live');
    await send(1, 'Live line');
    await done;
    expect(received.map((m) => [m.captionId, m.text])).toEqual([
      ['c2', 'Live'],
      ['c2', 'Live line'],
    ]);
  });

  it('ends the subscription on the server when its client leaves', async () => {
    // The bus's listener of the subscription is removed once the server sees the connection close.
    const bus = app.deps.events;
    const listen = bus.listen.bind(bus);
    const stopped = vi.fn();
    const listening = vi.spyOn(bus, 'listen').mockImplementation((name, key, listener) => {
      const stop = listen(name, key, listener);
      return () => {
        stopped(name, key);
        stop();
      };
    });
    try {
      const sub = app.trpc(ana).meeting.onLines.subscribe({ meetingId: keys[2]! }, { onData: () => {} });
      await vi.waitFor(() => expect(listening).toHaveBeenCalledWith('meeting.lines', keys[2], expect.any(Function)));
      expect(stopped).not.toHaveBeenCalled();
      sub.unsubscribe();
      await vi.waitFor(() => expect(stopped).toHaveBeenCalledWith('meeting.lines', keys[2]));
    } finally {
      listening.mockRestore();
    }
  });

  it('refuses a subscription to another user meeting', async () => {
    const client = app.trpc(bo);
    const error = await new Promise<Error>((resolve) => {
      client.meeting.onLines.subscribe({ meetingId: keys[2]! }, { onError: resolve, onData: () => {} });
    });
    expect(error.message).toBe('Meeting not found');
  });

  it('deletes a meeting with its messages', async () => {
    const removed = await app.rest('DELETE', `/v1/meeting/${keys[0]}`, { token: ana });
    expect(removed).toEqual({ status: 200, body: { success: true } });
    expect(await app.deps.db.message.count({ where: { meetingId: keys[0] } })).toBe(0);
    expect((await app.rest('GET', `/v1/meeting/${keys[0]}`, { token: ana })).status).toBe(404);
  });
});
