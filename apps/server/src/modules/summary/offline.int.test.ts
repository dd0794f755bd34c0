import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, Summary, SummarySettings, SummaryStreamEvent } from '@mbox/shared';
import { QMSUM_FIXTURE_MEETINGS, loadQmsumMeeting, toTranscript } from '../../ai/eval/qmsum.js';
import { AiEngine, OFFLINE_MODEL } from '../../ai/index.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting, type SeedLine } from '../../test/fixtures.js';

const es2004a: SeedLine[] = loadQmsumMeeting('ES2004a').meeting_transcripts.map((t) => ({ speaker: t.speaker, text: t.content }));

/** Tuesday 5 March 2024, 09:00 UTC: "by Friday" is 8 March. */
const STARTED = Date.UTC(2024, 2, 5, 9);
const planning: SeedLine[] = [
  { speaker: 'Ann Lee', text: 'Welcome. Today we need to choose the supplier for the new laptops.' },
  { speaker: 'Ben Ode', text: 'I compared the offers from Dell and Lenovo; Lenovo is cheaper by ten percent.' },
  { speaker: 'Ann Lee', text: "Let's go with Lenovo for the laptops then." },
  { speaker: 'Ben Ode', text: 'Yes, agreed.' },
  { speaker: 'Ann Lee', text: 'Um, I will send the the purchase order to finance by Friday.' },
  { speaker: 'Ben Ode', text: 'The delivery time is still a problem, nobody knows when the stock arrives.' },
];

const visible = (html: string) => html.replace(/<sup class="cite"[^>]*>.*?<\/sup>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

// The server's offline engine runs in worker threads (piscina, loading the TypeScript sources through tsx here).
describe.each([
  ['PostgreSQL', false],
  ['PGlite', true],
])('offline summaries through the summary service (%s)', (_label, embeddedDatabase) => {
  let app: TestApp;
  let token: string;
  let meetKey: string;
  let extensionToken: string;
  beforeAll(async () => {
    app = await startTestApp({}, { embeddedDatabase });
    token = await app.signIn('notes@example.com');
    await makePremium(app, 'notes@example.com');
    await app.deps.db.user.update({ where: { email: 'notes@example.com' }, data: { timezone: 'Europe/Berlin' } });
    ({ meetingKey: meetKey } = await seedMeeting(app, token, 'es2004a', es2004a));
    extensionToken = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token })).body.token;
  });
  afterAll(() => app.close());

  it('writes notes of the meeting in worker threads and stores them', async () => {
    const { meetingKey } = await seedMeeting(app, token, 'planning', planning, STARTED);
    const action = await app.rest<Summary>('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'action' } });
    expect(action.status).toBe(200);
    // First person attributed, filler and repeated word gone, the due date relative to the meeting.
    expect(visible(action.body.text)).toContain('Ann Lee: Send the purchase order to finance — due Fri, Mar 8, 2024.');
    const decision = await app.rest<Summary>('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'decision' } });
    expect(visible(decision.body.text)).toContain('Ann Lee, agreed by Ben Ode: The team will go with Lenovo for the laptops');
    const stored = await app.deps.db.summary.findUniqueOrThrow({ where: { id: action.body.docId } });
    expect(stored.settings).toMatchObject({ model: OFFLINE_MODEL, variant: 0 });
  });

  it('Regenerate gives another selection each time and stores its variant', async () => {
    const first = await app.rest<Summary>('POST', '/v1/prompts', { token, body: { meetKey, promptKey: 'summary' } });
    expect(first.status).toBe(200);
    const texts = [first.body.text];
    for (const variant of [1, 2]) {
      const again = await app.rest<Summary>('PUT', `/v1/prompts/${first.body.docId}`, { token, body: { meetKey, promptKey: 'summary' } });
      expect(again.status).toBe(200);
      expect(texts).not.toContain(again.body.text);
      texts.push(again.body.text);
      expect((await app.deps.db.summary.findUniqueOrThrow({ where: { id: first.body.docId } })).settings).toMatchObject({ variant });
    }
  });

  it('honours depth and length settings', async () => {
    const first = await app.rest<Summary>('POST', '/v1/prompts', { token, body: { meetKey, promptKey: 'c_summary' } });
    for (const depth of ['standard', 'deep', 'speaker'] as const) {
      const r = await app.rest<Summary>('PUT', `/v1/p/prompts/${first.body.docId}`, {
        token,
        body: { meetKey, promptKey: 'c_summary', settings: { depth, minLength: 100, maxLength: 200 } },
      });
      expect(r.status).toBe(200);
      const words = visible(r.body.text).match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)!.length;
      expect(words, depth).toBeGreaterThanOrEqual(90);
      expect(words, depth).toBeLessThanOrEqual(220);
    }
  });

  it('hands a meeting of several pages to the worker in pages: the notes and citations the engine writes from its turns', async () => {
    // Three meetings one after the other, repeated to 2,400 lines: three pages of the database read, each
    // transferred to the worker as bytes. Main topics cite a line of each topic, all through the meeting.
    const three = QMSUM_FIXTURE_MEETINGS.flatMap((name) => toTranscript(loadQmsumMeeting(name))).filter((l) => l.text.trim());
    const lines = Array.from({ length: 2400 }, (_, i) => three[i % three.length]!);
    let meetingKey = '';
    for (let from = 0; from < lines.length; from += 500) {
      const r = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
        token: extensionToken,
        body: {
          meeting: { sessionId: 'paged', meetCode: 'abc-defg-hij', startedAt: STARTED },
          lines: lines.slice(from, from + 500).map((l, k) => ({ captionId: `p${from + k}`, revision: 0, speaker: l.speaker, text: l.text, spokenAt: STARTED + (from + k) * 1000, final: true })),
        },
      });
      expect(r.status).toBe(200);
      meetingKey = r.body.meetingKey;
    }
    const stored = await app.rest<Summary>('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'topic' } });
    expect(stored.status).toBe(200);
    const { depth, minLength, maxLength } = (await app.deps.db.summary.findUniqueOrThrow({ where: { id: stored.body.docId } })).settings as SummarySettings;

    const { messages } = (await app.rest<{ messages: Message[] }>('GET', `/v1/meeting/${meetingKey}`, { token })).body;
    expect(messages).toHaveLength(lines.length);
    const inline = await new AiEngine({ contextTokens: 16_000, concurrency: 1 }).generateSummary({
      transcript: messages.map((m) => ({ speaker: m.user, text: m.text, id: m.key, spokenAt: m.spokenAt })),
      promptKey: 'topic',
      settings: { depth, minLength, maxLength },
      timeZone: 'Europe/Berlin',
      tier: 'advanced',
    });
    expect(stored.body.text).toBe(inline.html);
    expect(inline.citedLines.some((line) => line >= 1000)).toBe(true); // cites beyond the first page
    expect(stored.body.citations).toEqual(
      inline.citedLines.map((line, i) => ({ n: i + 1, messageId: messages[line]!.key, spokenAt: messages[line]!.spokenAt, speaker: messages[line]!.user })),
    );
  });

  it('streams the offline answer block by block', async () => {
    const events: SummaryStreamEvent[] = [];
    const summary = await new Promise<Summary>((resolve, reject) => {
      const sub = app.trpc(token).summary.generateStream.subscribe(
        { meetKey, promptKey: 'topic' },
        {
          onData: (event) => {
            events.push(event);
            if (event.type === 'done') {
              sub.unsubscribe();
              resolve(event.summary);
            }
          },
          onError: reject,
        },
      );
    });
    const tokens = events.filter((e) => e.type === 'token');
    expect(tokens.length).toBeGreaterThan(1);
    // Topics with their time ranges in the owner's time zone (the seeded meeting starts 16:00 in Berlin).
    expect(summary.text).toMatch(/<ol><li><b>[^<]+ \(16:00–16:\d\d\):<\/b>/);
  });
});
