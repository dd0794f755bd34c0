import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingDetail } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium } from '../../test/fixtures.js';

/**
 * Whole-meeting reads that stream a page of lines at a time: `GET /v1/meeting/{id}` and the JSON export
 * answer what tRPC's meeting.get answers whole, across page boundaries (lines sharing a time included),
 * for an encrypted meeting and for one without lines.
 */

const startedAt = Date.UTC(2026, 10, 20, 15, 0);
/** Pages of 1,000: lines 1,000 and 1,001 share a second across a page boundary, lines 3,000 and 3,001 do not. */
const LINES = 3100;

describe('whole-meeting reads, streamed', () => {
  let app: TestApp;
  let token: string;
  let meetingKey: string;
  beforeAll(async () => {
    app = await startTestApp();
    token = await app.signIn('ana@example.com');
    await makePremium(app, 'ana@example.com');
    const extension = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token })).body.token;
    const meeting = { sessionId: 'long', meetCode: 'abc-defg-hij', title: 'Long', startedAt };
    for (let from = 0; from < LINES; from += 500) {
      const lines = Array.from({ length: Math.min(500, LINES - from) }, (_, k) => {
        const i = from + k;
        // Three lines a second.
        return { captionId: `c${i}`, revision: 0, speaker: i % 2 ? 'Bo' : 'Ana', text: `Line ${i} "quoted" é`, spokenAt: startedAt + Math.floor(i / 3) * 1000, final: true };
      });
      const posted = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', { token: extension, body: { meeting, lines } });
      expect(posted.status).toBe(200);
      meetingKey = posted.body.meetingKey;
    }
    // Encrypted: every page is opened with the server's key as the whole read opens it.
    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token })).status).toBe(200);
  });
  afterAll(() => app.close());

  const get = (path: string, bearer = token) => fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${bearer}`, 'accept-encoding': 'identity' } });

  it('GET /v1/meeting/{id} streams exactly what meeting.get answers whole', async () => {
    const whole = await app.trpc(token).meeting.get.query({ id: meetingKey });
    expect(whole.messages).toHaveLength(LINES);
    // The first second's three lines, in id order among themselves.
    expect(whole.messages[0]?.text).toMatch(/^Line [012] "quoted" é$/);

    const response = await get(`/v1/meeting/${meetingKey}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Written as it is read: no length known up front.
    expect(response.headers.get('content-length')).toBeNull();
    const streamed = (await response.json()) as MeetingDetail;
    expect(streamed).toEqual(whole);
    expect(new Set(streamed.messages.map((m) => m.key)).size).toBe(LINES);
  });

  it('the JSON export streams the same meeting, indented as before', async () => {
    const response = await get(`/v1/meeting/${meetingKey}/export?format=json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Long-2026-11-20.json"');
    const text = await response.text();
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    const file = JSON.parse(text) as { meeting: MeetingDetail; summaries: unknown };
    expect(file.meeting).toEqual(await app.trpc(token).meeting.get.query({ id: meetingKey }));
    expect(file.summaries).toEqual(await app.trpc(token).summary.list.query({ id: meetingKey }));
  });

  it('the text and subtitle exports stream every line; a cue ends where the next begins, across pages', async () => {
    const read = async (format: string) => {
      const response = await get(`/v1/meeting/${meetingKey}/export?format=${format}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBeNull();
      return response.text();
    };
    const markdown = await read('md');
    expect(markdown.split('\n').filter((l) => /^\*\*(Ana|Bo)\*\* \(\d\d:\d\d\): Line \d+ "quoted" é$/.test(l))).toHaveLength(LINES);
    expect(markdown.endsWith('é\n')).toBe(true);
    expect((await read('txt')).split('\n').filter((l) => /^\[\d\d:\d\d\] (Ana|Bo): Line \d+/.test(l))).toHaveLength(LINES);
    expect((await read('vtt')).match(/ --> /g)).toHaveLength(LINES);

    const ms = (t: string) => {
      const [h, m, rest] = t.split(':');
      return (Number(h) * 60 + Number(m)) * 60_000 + Number(rest!.replace(',', '.')) * 1000;
    };
    const srt = [...(await read('srt')).matchAll(/^(\d+)\n(\S+) --> (\S+)\n/gm)].map(([, n, start, end]) => ({ n: Number(n), start: ms(start!), end: ms(end!) }));
    expect(srt.map((cue) => cue.n)).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
    // Lines of a second apart take longer than that to read: a cue ends where the next line starts
    // (lines spoken in the same second keep their reading time), page boundaries included.
    srt.slice(0, -1).forEach((cue, i) => {
      const nextStart = srt[i + 1]!.start;
      if (nextStart > cue.start) expect(cue.end, `cue ${cue.n}`).toBe(nextStart);
      else expect(cue.end - cue.start, `cue ${cue.n}`).toBeGreaterThan(1000);
    });
  });

  it('answers a meeting without lines, and 404 for another account’s meeting', async () => {
    const extension = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token })).body.token;
    const gap = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/events', {
      token: extension,
      body: { meeting: { sessionId: 'silent', meetCode: 'abc-defg-hij', startedAt }, events: [{ eventId: 'e1', kind: 'captions-off', startedAt }] },
    });
    expect(gap.status).toBe(200);
    const empty = await get(`/v1/meeting/${gap.body.meetingKey}`);
    expect(await empty.json()).toEqual(await app.trpc(token).meeting.get.query({ id: gap.body.meetingKey }));
    const exported = await (await get(`/v1/meeting/${gap.body.meetingKey}/export?format=json`)).text();
    expect(exported).toBe(`${JSON.stringify(JSON.parse(exported), null, 2)}\n`);
    expect((JSON.parse(exported) as { meeting: MeetingDetail }).meeting.messages).toEqual([]);

    const other = await app.signIn('bo@example.com');
    const refused = await get(`/v1/meeting/${meetingKey}`, other);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Meeting not found' });
  });
});
