import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COMMENT_LENGTH, type Meeting, type MeetingDetail, type Message } from '@mbox/shared';
import { UNREADABLE_TEXT } from '../../crypto/encryption.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting } from '../../test/fixtures.js';
import { getMeeting } from '../meeting/whole-meeting.js';

type ErrorBody = { message: string; code: string; data: { field?: string; httpStatus: number } };

const lines = [
  { speaker: 'Ana', text: 'We ship on Friday' },
  { speaker: 'Bo', text: 'The budget is 4000 euros' },
  { speaker: 'Ana', text: 'Secret plan stays secret' },
];

describe('messages', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  let cy: string;
  let meetingKey: string;
  let messages: Message[];
  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    cy = await app.signIn('cy@example.com');
    ({ meetingKey, messages } = await seedMeeting(app, ana, 'm1', lines));
  });
  afterAll(() => app.close());

  const userId = async (email: string) => (await app.deps.db.user.findUniqueOrThrow({ where: { email } })).id;

  describe('marks', () => {
    it('stores the given set of marks, each once, and shows it in the meeting', async () => {
      const key = messages[0]!.key;
      const put = await app.rest<Message>('PUT', `/v1/message/mark/${key}`, {
        token: ana,
        body: { marks: ['important', 'flagged', 'important'] },
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ key, marks: ['important', 'flagged'], text: lines[0]!.text });
      const removed = await app.rest<Message>('PUT', `/v1/message/mark/${key}`, { token: ana, body: { marks: ['flagged'] } });
      expect(removed.body.marks).toEqual(['flagged']);
      const detail = await app.rest<MeetingDetail>('GET', `/v1/meeting/${meetingKey}`, { token: ana });
      expect(detail.body.messages.find((m) => m.key === key)?.marks).toEqual(['flagged']);
      expect((await app.trpc(ana).message.mark.mutate({ id: key, marks: [] })).marks).toEqual([]);
    });

    it('names the invalid field', async () => {
      const key = messages[0]!.key;
      for (const [body, field] of [
        [{ marks: ['starred'] }, 'marks.0'],
        [{ marks: 'important' }, 'marks'],
        [{}, 'marks'],
        [{ marks: [], extra: 1 }, '(body)'],
        [{ marks: Array(21).fill('important') }, 'marks'],
      ] as const) {
        const bad = await app.rest<ErrorBody>('PUT', `/v1/message/mark/${key}`, { token: ana, body });
        expect(bad.status, JSON.stringify(body)).toBe(400);
        expect(bad.body.data.field, JSON.stringify(body)).toBe(field);
        expect(bad.body.message).toContain('Invalid input');
      }
    });

    it('answers 401 without a token and 404 for a foreign or unknown message', async () => {
      const key = messages[0]!.key;
      expect((await app.rest('PUT', `/v1/message/mark/${key}`, { body: { marks: [] } })).status).toBe(401);
      const foreign = await app.rest<ErrorBody>('PUT', `/v1/message/mark/${key}`, { token: bo, body: { marks: ['important'] } });
      expect(foreign).toMatchObject({ status: 404, body: { message: 'Message not found', code: 'NOT_FOUND' } });
      expect((await app.rest('PUT', '/v1/message/mark/nope', { token: ana, body: { marks: [] } })).status).toBe(404);
      // The path names the message: an id in the body cannot redirect the write.
      const smuggled = await app.rest('PUT', `/v1/message/mark/nope`, { token: ana, body: { id: key, marks: ['important'] } });
      expect(smuggled.status).toBe(404);
      const row = await app.deps.db.message.findUniqueOrThrow({ where: { id: key } });
      expect(row.marks).toEqual([]);
    });
  });

  describe('comments', () => {
    it('sets, trims and clears a comment; marks stay as they were', async () => {
      const key = messages[1]!.key;
      await app.rest('PUT', `/v1/message/mark/${key}`, { token: ana, body: { marks: ['important', 'commented'] } });
      const put = await app.rest<Message>('PUT', `/v1/message/comment/${key}`, { token: ana, body: { comment: '  check the number ' } });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ comment: 'check the number', marks: ['important', 'commented'] });
      const cleared = await app.rest<Message>('PUT', `/v1/message/comment/${key}`, { token: ana, body: { comment: '' } });
      expect(cleared.body).toMatchObject({ comment: '', marks: ['important', 'commented'] });
    });

    it('refuses a comment that is too long or not text, naming the field', async () => {
      const key = messages[1]!.key;
      for (const comment of ['x'.repeat(MAX_COMMENT_LENGTH + 1), 12, null]) {
        const bad = await app.rest<ErrorBody>('PUT', `/v1/message/comment/${key}`, { token: ana, body: { comment } });
        expect(bad.status).toBe(400);
        expect(bad.body.data.field).toBe('comment');
      }
      const ok = await app.rest('PUT', `/v1/message/comment/${key}`, { token: ana, body: { comment: 'x'.repeat(MAX_COMMENT_LENGTH) } });
      expect(ok.status).toBe(200);
    });

    it("never touches another user's message", async () => {
      const key = messages[1]!.key;
      const foreign = await app.rest('PUT', `/v1/message/comment/${key}`, { token: bo, body: { comment: 'mine now' } });
      expect(foreign.status).toBe(404);
      expect((await app.deps.db.message.findUniqueOrThrow({ where: { id: key } })).comment).not.toBe('mine now');
    });
  });

  describe('encryption of one message', () => {
    it('is a premium call: 403 with a clear message, also once premium has expired', async () => {
      const key = messages[2]!.key;
      const refused = await app.rest<ErrorBody>('PUT', `/v1/p/message/encrypt/${key}`, { token: ana });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN', message: 'This is a premium feature: upgrade to premium to use it' });
      await makePremium(app, 'ana@example.com', -1);
      expect((await app.rest('PUT', `/v1/p/message/encrypt/${key}`, { token: ana })).status).toBe(403);
      expect((await app.deps.db.message.findUniqueOrThrow({ where: { id: key } })).encrypted).toBe(false);
    });

    it('stores ciphertext under a wrapped per-user key and shows plain text to the owner', async () => {
      await makePremium(app, 'ana@example.com');
      const key = messages[2]!.key;
      await app.deps.db.message.update({ where: { id: key }, data: { aiFixed: 'The secret plan stays secret.' } });
      const put = await app.rest<Message>('PUT', `/v1/p/message/encrypt/${key}`, { token: ana });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ encrypted: true, text: lines[2]!.text, aiFixed: 'The secret plan stays secret.' });

      const row = await app.deps.db.message.findUniqueOrThrow({ where: { id: key } });
      expect(row.encrypted).toBe(true);
      expect(row.text).toMatch(/^enc1:/);
      expect(row.text).not.toContain('Secret');
      expect(row.aiFixed).toMatch(/^enc1:/);
      const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'ana@example.com' } });
      expect(user.wrappedDataKey?.length).toBe(1 + 12 + 16 + 32);
      expect(Buffer.from(user.wrappedDataKey!).includes(app.deps.secrets.masterKey)).toBe(false);

      const detail = await app.rest<MeetingDetail>('GET', `/v1/meeting/${meetingKey}`, { token: ana });
      expect(detail.body.messages.map((m) => m.text)).toEqual(lines.map((l) => l.text));
      const again = await app.rest<Message>('PUT', `/v1/p/message/encrypt/${key}`, { token: ana });
      expect(again.body.text).toBe(lines[2]!.text);
      expect((await app.deps.db.message.findUniqueOrThrow({ where: { id: key } })).text).toBe(row.text);
    });

    it('keeps a newer caption revision of an encrypted message encrypted', async () => {
      const key = messages[2]!.key;
      const original = await app.deps.db.message.findUniqueOrThrow({ where: { id: key } });
      const resent = await app.rest('POST', '/v1/transcript/lines', {
        token: ana,
        body: {
          meeting: { sessionId: 'm1', meetCode: 'abc-defg-hij', startedAt: Date.UTC(2026, 10, 20, 15, 0) },
          lines: [{ captionId: original.captionId, revision: 1, speaker: 'Ana', text: 'Secret plan stays very secret', spokenAt: original.spokenAt.getTime(), final: true }],
        },
      });
      expect(resent.status).toBe(200);
      const row = await app.deps.db.message.findUniqueOrThrow({ where: { id: key } });
      expect(row).toMatchObject({ encrypted: true, revision: 1 });
      expect(row.text).toMatch(/^enc1:/);
      const detail = await app.rest<MeetingDetail>('GET', `/v1/meeting/${meetingKey}`, { token: ana });
      expect(detail.body.messages.find((m) => m.key === key)?.text).toBe('Secret plan stays very secret');
    });

    it("answers 404 to a premium user asking for another user's message", async () => {
      await makePremium(app, 'bo@example.com');
      const foreign = await app.rest<ErrorBody>('PUT', `/v1/p/message/encrypt/${messages[0]!.key}`, { token: bo });
      expect(foreign).toMatchObject({ status: 404, body: { message: 'Message not found' } });
      expect((await app.deps.db.message.findUniqueOrThrow({ where: { id: messages[0]!.key } })).encrypted).toBe(false);
    });

    it('shows a placeholder, not an error, when the server key cannot open a text', async () => {
      const otherKey = { ...app.deps, secrets: { ...app.deps.secrets, masterKey: Buffer.alloc(32, 9) } };
      const detail = await getMeeting(otherKey, await userId('ana@example.com'), meetingKey);
      expect(detail.messages.map((m) => m.text)).toEqual([lines[0]!.text, lines[1]!.text, UNREADABLE_TEXT]);
    });
  });

  describe('encryption of a whole meeting', () => {
    it('is a premium call; foreign or unknown meetings answer 404', async () => {
      const { meetingKey: cyMeeting } = await seedMeeting(app, cy, 'cy1', lines);
      expect((await app.rest<ErrorBody>('PUT', `/v1/p/meeting/encrypt/${cyMeeting}`, { token: cy })).status).toBe(403);
      expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${cyMeeting}`, { token: ana })).status).toBe(404);
      expect((await app.rest('PUT', '/v1/p/meeting/encrypt/nope', { token: ana })).status).toBe(404);
      expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${cyMeeting}`)).status).toBe(401);
      expect(await app.deps.db.message.count({ where: { meetingId: cyMeeting, encrypted: true } })).toBe(0);
    });

    it('seals every line and summary, flags the meeting, and seals lines that arrive later', async () => {
      const summary = await app.deps.db.summary.create({
        data: {
          meetingId: meetingKey,
          promptKey: 'summary',
          title: 'Summary',
          text: '<p>We ship on Friday</p>',
          translations: { fr: { text: '<p>Nous livrons vendredi</p>' } },
        },
      });
      const put = await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token: ana });
      expect(put).toEqual({ status: 200, body: { success: true } });
      const rows = await app.deps.db.message.findMany({ where: { meetingId: meetingKey } });
      expect(rows.every((r) => r.encrypted && r.text.startsWith('enc1:'))).toBe(true);
      const sealed = await app.deps.db.summary.findUniqueOrThrow({ where: { id: summary.id } });
      expect(sealed.encrypted).toBe(true);
      expect(JSON.stringify([sealed.text, sealed.translations])).not.toMatch(/Friday|vendredi/);
      const summaries = await app.rest<{ summaries: { docId: string; text: string; translations: unknown }[] }>(
        'GET',
        `/v1/summary-list/${meetingKey}`,
        { token: ana },
      );
      expect(summaries.body.summaries.find((x) => x.docId === summary.id)).toMatchObject({
        text: '<p>We ship on Friday</p>',
        translations: { fr: { text: '<p>Nous livrons vendredi</p>' } },
      });
      const list = await app.rest<Meeting[]>('GET', '/v1/meeting-list', { token: ana });
      expect(list.body.find((m) => m.key === meetingKey)?.encrypted).toBe(true);

      const received: Message[] = [];
      const live = new Promise<void>((resolve, reject) => {
        const sub = app.trpc(ana).meeting.onLines.subscribe(
          { meetingId: meetingKey },
          {
            onData: (message) => {
              received.push(message);
              sub.unsubscribe();
              resolve();
            },
            onError: reject,
          },
        );
      });
      await new Promise((r) => setTimeout(r, 300));
      await app.rest('POST', '/v1/transcript/lines', {
        token: ana,
        body: {
          meeting: { sessionId: 'm1', meetCode: 'abc-defg-hij', startedAt: Date.UTC(2026, 10, 20, 15, 0) },
          lines: [{ captionId: 'late', revision: 0, speaker: 'Bo', text: 'A late secret', spokenAt: Date.UTC(2026, 10, 20, 15, 9), final: true }],
        },
      });
      await live;
      expect(received[0]).toMatchObject({ captionId: 'late', text: 'A late secret', encrypted: true });
      const late = await app.deps.db.message.findFirstOrThrow({ where: { meetingId: meetingKey, captionId: 'late' } });
      expect(late.text).toMatch(/^enc1:/);
      const detail = await app.trpc(ana).meeting.get.query({ id: meetingKey });
      expect(detail.messages.map((m) => m.text)).toContain('A late secret');
    });

    it('leaves no plain line behind when lines arrive while the meeting is being encrypted', async () => {
      const { meetingKey: busy } = await seedMeeting(app, ana, 'busy', lines);
      const startedAt = Date.UTC(2026, 10, 20, 15, 0);
      const batches = Array.from({ length: 12 }, (_, i) =>
        app.rest('POST', '/v1/transcript/lines', {
          token: ana,
          body: {
            meeting: { sessionId: 'busy', meetCode: 'abc-defg-hij', startedAt },
            lines: [{ captionId: `b${i}`, revision: 0, speaker: 'Bo', text: `line ${i}`, spokenAt: startedAt + i, final: true }],
          },
        }),
      );
      const [encrypted, ...ingested] = await Promise.all([
        app.rest('PUT', `/v1/p/meeting/encrypt/${busy}`, { token: ana }),
        ...batches,
      ]);
      expect(encrypted.status).toBe(200);
      expect(ingested.every((r) => r.status === 200)).toBe(true);
      const rows = await app.deps.db.message.findMany({ where: { meetingId: busy } });
      expect(rows).toHaveLength(lines.length + 12);
      expect(rows.filter((r) => !r.encrypted || !r.text.startsWith('enc1:'))).toEqual([]);
      const detail = await app.trpc(ana).meeting.get.query({ id: busy });
      expect(detail.messages.map((m) => m.text).sort()).toEqual(
        [...lines.map((l) => l.text), ...Array.from({ length: 12 }, (_, i) => `line ${i}`)].sort(),
      );
    });
  });
});
