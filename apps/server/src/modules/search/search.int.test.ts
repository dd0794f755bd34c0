import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchOutput, SearchResult } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting } from '../../test/fixtures.js';

type ErrorBody = { message: string; data: { field?: string; httpStatus: number } };

const STARTED = Date.UTC(2026, 10, 20, 15, 0);

/** The text of a snippet, matched words in [brackets]. */
const shown = (result: SearchResult) => result.snippet.map((p) => (p.match ? `[${p.text}]` : p.text)).join('');

for (const embedded of [false, true]) {
  describe(`search (${embedded ? 'embedded PGlite' : 'PostgreSQL'})`, () => {
    let app: TestApp;
    let ana: string;
    let bo: string;
    let planning: { meetingKey: string; messages: { key: string; text: string }[] };
    let german: string;

    const search = (token: string, q: string) => app.rest<SearchOutput>('GET', `/v1/search?q=${encodeURIComponent(q)}`, { token });

    /** Ingests a meeting as the extension does, with the browser's Accept-Language. */
    async function ingestWithLanguage(token: string, sessionId: string, language: string, texts: string[]): Promise<string> {
      const response = await fetch(`${app.url}/v1/transcript/lines`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': language },
        body: JSON.stringify({
          meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt: STARTED, title: 'Jahresplanung' },
          lines: texts.map((text, i) => ({ captionId: `c${i}`, revision: 0, speaker: 'Greta Vogel', text, spokenAt: STARTED + i * 1000, final: true })),
        }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { meetingKey: string }).meetingKey;
    }

    beforeAll(async () => {
      app = await startTestApp({}, { embeddedDatabase: embedded });
      ana = await app.signIn('ana@example.com');
      bo = await app.signIn('bo@example.com');
      planning = await seedMeeting(app, ana, 'planning', [
        { speaker: 'John Carter', text: 'Good morning everyone, let us start.' },
        { speaker: 'Maria Garcia', text: 'I promise the invoice goes out on Friday.' },
        { speaker: 'John Carter', text: 'Great, the zeppelin launch is next.' },
        { speaker: 'Maria Garcia', text: 'Then we close the meeting.' },
      ]);
      // A comment that mentions the launch: it ranks below the line that says it.
      const other = await seedMeeting(app, ana, 'review', [{ speaker: 'Maria Garcia', text: 'Budget numbers look fine.' }], STARTED + 3_600_000);
      const comment = await app.rest('PUT', `/v1/message/comment/${other.messages[0]!.key}`, { token: ana, body: { comment: 'ask about the zeppelin launch' } });
      expect(comment.status).toBe(200);
      await app.deps.db.meeting.update({ where: { id: other.meetingKey }, data: { title: 'Quarterly review' } });
      await app.deps.db.summary.create({
        data: { meetingId: other.meetingKey, promptKey: 'summary', title: 'Summary', text: '<p>The team agreed on the <b>hiring</b> plan.</p>' },
      });
      german = await ingestWithLanguage(ana, 'german', 'de-DE,de;q=0.9,en;q=0.8', ['Wir haben die Häuser verkauft.']);
      // Bo's meeting says the same words: it must never show up for Ana.
      await seedMeeting(app, bo, 'bo-secret', [{ speaker: 'John Carter', text: 'The zeppelin launch is secret.' }]);
    });
    afterAll(() => app.close());

    it('ranks the line that says the words above a comment that mentions them, with context', async () => {
      const { status, body } = await search(ana, 'zeppelin launch');
      expect(status).toBe(200);
      const kinds = body.results.map((r) => r.kind);
      expect(kinds.slice(0, 2)).toEqual(['line', 'comment']);
      const [line, comment] = body.results;
      expect(line).toMatchObject({ meetingId: planning.meetingKey, messageId: planning.messages[2]!.key, speaker: 'John Carter' });
      expect(shown(line!)).toBe('Great, the [zeppelin launch] is next.');
      expect(line!.before).toMatchObject({ messageId: planning.messages[1]!.key, speaker: 'Maria Garcia', text: 'I promise the invoice goes out on Friday.' });
      expect(line!.after).toMatchObject({ text: 'Then we close the meeting.' });
      expect(comment!.score).toBeLessThan(line!.score);
      expect(shown(comment!)).toBe('ask about the [zeppelin launch]');
      expect(body.results.every((r) => r.meetingId !== undefined && r.meetingTitle.length > 0)).toBe(true);
    });

    it('stems: "promised" finds "promise"; a German meeting stems German', async () => {
      const promised = await search(ana, 'promised');
      expect(promised.body.results[0]).toMatchObject({ kind: 'line', messageId: planning.messages[1]!.key });
      expect(shown(promised.body.results[0]!)).toContain('[promise]');
      const stored = await app.deps.db.meeting.findUniqueOrThrow({ where: { id: german } });
      expect(stored.searchConfig).toBe('german');
      // 'Haus' is the German stem of 'Häuser'; the English configuration would not find it.
      const haus = await search(ana, 'Haus');
      expect(haus.body.results.map((r) => r.meetingId)).toContain(german);
      expect(shown(haus.body.results.find((r) => r.meetingId === german)!)).toContain('[Häuser]');
    });

    it('finds titles, summaries and participants, misspelled names included', async () => {
      const title = await search(ana, 'quarterly');
      expect(title.body.results[0]).toMatchObject({ kind: 'title', meetingTitle: 'Quarterly review' });
      const summary = await search(ana, 'hiring');
      expect(summary.body.results[0]).toMatchObject({ kind: 'summary', summaryTitle: 'Summary' });
      expect(shown(summary.body.results[0]!)).toContain('[hiring]');
      for (const q of ['Jon', 'Jhon Carter', 'Garsia']) {
        const names = await search(ana, q);
        expect(names.body.results.some((r) => r.kind === 'participant'), q).toBe(true);
      }
      const jon = await search(ana, 'Jon');
      const participant = jon.body.results.find((r) => r.kind === 'participant')!;
      expect(participant).toMatchObject({ meetingId: planning.meetingKey, speaker: 'John Carter' });
      expect(participant.snippet.some((p) => p.match && p.text === 'John')).toBe(true);
    });

    it("never shows another user's meetings, over REST and tRPC", async () => {
      const rest = await search(ana, 'secret');
      expect(rest.status).toBe(200);
      expect(rest.body.results).toEqual([]);
      const viaTrpc = await app.trpc(ana).search.query.query({ q: 'zeppelin' });
      expect(viaTrpc.results.length).toBeGreaterThan(0);
      const anaMeetings = new Set([planning.meetingKey, ...(await app.deps.db.meeting.findMany({ where: { user: { email: 'ana@example.com' } } })).map((m) => m.id)]);
      expect(viaTrpc.results.every((r) => anaMeetings.has(r.meetingId))).toBe(true);
      const boSees = await search(bo, 'invoice');
      expect(boSees.body.results).toEqual([]);
      expect((await app.rest('GET', '/v1/search?q=zeppelin')).status).toBe(401);
    });

    it('leaves encrypted meetings out and counts them', async () => {
      const secret = await seedMeeting(app, ana, 'encrypted', [{ speaker: 'Ana', text: 'The walrus protocol is confidential.' }]);
      expect((await search(ana, 'walrus')).body.results).toHaveLength(1);
      await makePremium(app, 'ana@example.com');
      expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${secret.meetingKey}`, { token: ana })).status).toBe(200);
      const after = await search(ana, 'walrus');
      expect(after.body).toEqual({ results: [], encryptedMeetings: 1 });
      expect((await search(ana, 'Ana')).body.results.some((r) => r.meetingId === secret.meetingKey)).toBe(false);
    });

    it('refuses bad input with a 400 naming q', async () => {
      for (const path of ['/v1/search', '/v1/search?q=', '/v1/search?q=%20%20', `/v1/search?q=${'a'.repeat(201)}`, '/v1/search?q=x&limit=0']) {
        const bad = await app.rest<ErrorBody>('GET', path, { token: ana });
        expect(bad.status, path).toBe(400);
        expect(bad.body.message, path).toMatch(path.includes('limit') ? /limit/ : /q/);
      }
      // Operators, quotes and stop words alone are no error: they find nothing, or what they can.
      for (const q of ['the', '"', '-', 'OR', '!!', "'; DROP TABLE", '\\', '<mark>']) {
        expect((await search(ana, q)).status, q).toBe(200);
      }
    });

    it('opens a transcript page around a line, for the jump to a result (?line=)', async () => {
      const page = await app.rest<{ messages: { key: string }[]; next: string | null }>(
        'GET',
        `/v1/meeting/${planning.meetingKey}/messages?around=${planning.messages[2]!.key}&limit=2`,
        { token: ana },
      );
      expect(page.status).toBe(200);
      expect(page.body.messages.map((m) => m.key)).toEqual([planning.messages[1]!.key, planning.messages[2]!.key]);
      expect(page.body.next).toMatch(/^after\./);
      const later = await app.rest<{ messages: { key: string }[] }>('GET', `/v1/meeting/${planning.meetingKey}/messages?cursor=${page.body.next}`, { token: ana });
      expect(later.body.messages.map((m) => m.key)).toEqual([planning.messages[3]!.key]);
      const missing = await app.rest<ErrorBody>('GET', `/v1/meeting/${planning.meetingKey}/messages?around=nope`, { token: ana });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toMatch(/around/);
      expect((await app.rest('GET', `/v1/meeting/${planning.meetingKey}/messages?around=${planning.messages[2]!.key}`, { token: bo })).status).toBe(404);
      expect((await app.rest('GET', `/v1/meeting/${planning.meetingKey}/messages?around=x&cursor=after.1.x`, { token: ana })).status).toBe(400);
    });

    it('is in the OpenAPI document', async () => {
      const doc = await app.rest<{ paths: Record<string, { get?: { parameters?: { name: string }[] } }> }>('GET', '/v1/openapi.json');
      expect(doc.body.paths['/search']?.get?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['q', 'limit']));
    });
  });
}
