import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAILY_LIMIT_REACHED, type AskCitation, type AskInput, type AskStreamEvent, type Message } from '@mbox/shared';
import { countTokens } from '../../ai/index.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting, type SeedLine } from '../../test/fixtures.js';
import { startOpenAiTestServer, testLlmConfig, type OpenAiTestServer } from '../../test/openai-server.js';
import { AI_UNAVAILABLE } from '../summary/ai-errors.js';
import { ASK_CONTEXT_TOKENS, NOTHING_MATCHES } from './service.js';

const standup: SeedLine[] = [
  { speaker: 'Alice', text: 'Good morning everyone, let us go through the launch checklist.' },
  { speaker: 'Bob', text: 'The weather is terrible today, I got completely soaked on the way in.' },
  { speaker: 'Carol', text: 'The landing page copy is ready for review.' },
  { speaker: 'Bob', text: 'I promise to send the revised budget to finance by Friday.' },
  { speaker: 'Alice', text: 'Thanks Bob. Carol, can you check the pricing table?' },
  { speaker: 'Carol', text: 'Yes, I will fix the pricing table tomorrow morning.' },
  { speaker: 'Bob', text: 'Sounds good to me, see you all tomorrow.' },
];

interface Streamed {
  events: AskStreamEvent[];
  /** Resolves with the last event (done or error); rejects with the subscription's error. */
  end: Promise<AskStreamEvent>;
}

/** One question through the tRPC subscription, as the web app asks it. */
function ask(app: TestApp, token: string, input: AskInput): Streamed {
  const events: AskStreamEvent[] = [];
  const end = new Promise<AskStreamEvent>((resolve, reject) => {
    const sub = app.trpc(token).ask.stream.subscribe(input, {
      onData: (event) => {
        events.push(event);
        if (event.type === 'done' || event.type === 'error') {
          sub.unsubscribe();
          resolve(event);
        }
      },
      onError: (error) => {
        sub.unsubscribe();
        reject(error);
      },
    });
  });
  return { events, end };
}

async function answer(app: TestApp, token: string, input: AskInput) {
  const { events, end } = ask(app, token, input);
  const last = await end;
  if (last.type !== 'done') throw new Error(`ask failed: ${JSON.stringify(last)}`);
  const deltas = events.flatMap((e) => (e.type === 'delta' ? [e.text] : []));
  const streamedCitations = events.flatMap((e) => (e.type === 'citations' ? e.citations : []));
  return { ...last, events, deltas, streamedCitations };
}

/** Adds lines to a meeting as the extension does while it runs (same session, new captions). */
async function postLines(app: TestApp, token: string, sessionId: string, from: number, lines: SeedLine[]): Promise<void> {
  const startedAt = Date.UTC(2026, 10, 20, 15, 0);
  const response = await app.rest('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt },
      lines: lines.map((line, i) => ({
        captionId: `c${from + i}`,
        revision: 0,
        speaker: line.speaker,
        text: line.text,
        spokenAt: startedAt + (from + i) * 1000,
        final: true,
      })),
    },
  });
  expect(response.status).toBe(200);
}

const byText = (messages: Message[], text: string) => messages.find((m) => m.text === text)!.key;

describe('ask the meeting with the offline engine', () => {
  let app: TestApp;
  let owner: string;
  let other: string;
  let meetingId: string;
  let messages: Message[];
  beforeAll(async () => {
    app = await startTestApp();
    owner = await app.signIn('owner@example.com');
    other = await app.signIn('other@example.com');
    await makePremium(app, 'owner@example.com');
    ({ meetingKey: meetingId, messages } = await seedMeeting(app, owner, 'standup', standup));
  });
  afterAll(() => app.close());

  it("cites Bob's promise, not Bob's small talk, and quotes it with speaker and time", async () => {
    const result = await answer(app, owner, { meetingId, question: 'What did Bob promise?' });
    const promise = byText(messages, standup[3]!.text);
    expect(result.citations.map((c) => c.messageId)).toContain(promise);
    expect(result.citations[0]).toMatchObject({ messageId: promise, speaker: 'Bob', text: standup[3]!.text });
    for (const noise of [standup[1]!.text, standup[6]!.text]) expect(result.citations.map((c) => c.text)).not.toContain(noise);
    // The citations come first, then the text that refers to them, which the done event repeats whole.
    expect(result.events[0]).toEqual({ type: 'citations', citations: result.citations });
    expect(result.deltas.join('')).toBe(result.answer);
    expect(result.answer).toMatch(/^This line of the transcript so far matches your question best:\n\[1\] Bob \(\d\d:\d\d [AP]M\): “I promise to send the revised budget to finance by Friday\.”$/);
  });

  it('quotes a matching question with the reply to it', async () => {
    const result = await answer(app, owner, { meetingId, question: 'Who checks the pricing table?' });
    expect(result.citations.map((c) => c.text)).toEqual([standup[4]!.text, standup[5]!.text]);
    expect(result.answer).toMatch(/^These 2 lines of the transcript so far match your question best:\n\[1\] Alice .*\n\[2\] Carol /);
  });

  it('says honestly when nothing in the transcript matches', async () => {
    const result = await answer(app, owner, { meetingId, question: 'What was decided about the marketing campaign?' });
    expect(result).toMatchObject({ answer: NOTHING_MATCHES, citations: [] });
  });

  it('uses lines added after a first question for the next one (a running meeting)', async () => {
    const first = await answer(app, owner, { meetingId, question: 'Who owns the invoice export?' });
    expect(first.answer).toBe(NOTHING_MATCHES);
    const added = 'Dana will own the invoice export from now on.';
    await postLines(app, owner, 'standup', standup.length, [{ speaker: 'Dana', text: added }]);
    const next = await answer(app, owner, {
      meetingId,
      question: 'Who owns the invoice export?',
      history: [{ question: 'Who owns the invoice export?', answer: first.answer }],
    });
    expect(next.citations.map((c) => c.text)).toEqual([added]);
  });

  it('answers follow-ups from the previous question when they have no words of their own', async () => {
    const result = await answer(app, owner, {
      meetingId,
      question: 'Tell me more about that',
      history: [{ question: 'What about the pricing table?', answer: 'Carol will fix it [1].' }],
    });
    expect(result.citations.map((c) => c.speaker)).toContain('Carol');
    expect(result.citations.every((c) => /pricing table/.test(c.text))).toBe(true);
  });

  it('answers from the decrypted lines of an encrypted meeting', async () => {
    const { meetingKey } = await seedMeeting(app, owner, 'sealed', standup);
    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token: owner })).status).toBe(200);
    expect((await app.deps.db.message.findFirstOrThrow({ where: { meetingId: meetingKey } })).text).toMatch(/^enc1:/);
    const result = await answer(app, owner, { meetingId: meetingKey, question: 'What did Bob promise?' });
    expect(result.citations[0]!.text).toBe(standup[3]!.text);
  });

  it("answers 404 for another user's meeting or an unknown one, and costs them nothing", async () => {
    for (const [token, id] of [
      [other, meetingId],
      [owner, 'no-such-meeting'],
    ] as const) {
      await expect(ask(app, token, { meetingId: id, question: 'What did Bob promise?' }).end).rejects.toMatchObject({
        message: 'Meeting not found',
        data: { httpStatus: 404 },
      });
    }
    const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'other@example.com' } });
    expect(await app.deps.db.dailyUsage.count({ where: { subject: id } })).toBe(0);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ meetingId, question: 'Why?' }, 'question must be at least 6 characters'],
      [{ meetingId, question: 'x'.repeat(1001) }, 'question must be at most 1000 characters'],
      [{ meetingId, question: '      Bob?      ' }, 'question must be at least 6 characters'],
      [{ meetingId: '', question: 'What did Bob promise?' }, 'meetingId'],
      [{ meetingId, question: 'What did Bob promise?', history: Array(7).fill({ question: 'What did Bob say?', answer: '' }) }, 'history must hold at most 6 turns'],
      [{ meetingId, question: 'What did Bob promise?', history: [{ question: 'Hm?', answer: '' }] }, 'question must be at least 6'],
      [{ meetingId, question: 'What did Bob promise?', extra: 1 }, 'extra'],
    ];
    for (const [input, message] of cases) {
      const error = await ask(app, owner, input as AskInput).end.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, JSON.stringify(input)).toMatchObject({ data: { httpStatus: 400 } });
      expect((error as Error).message, JSON.stringify(input)).toContain(message);
    }
  });

  it("does not count offline answers against a free user's day: they cost no LLM spend", async () => {
    const token = await app.signIn('free-offline@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'free-offline', standup);
    for (let i = 0; i < 12; i++) await answer(app, token, { meetingId: meetingKey, question: 'What did Bob promise?' });
    const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'free-offline@example.com' } });
    expect(await app.deps.db.dailyUsage.count({ where: { subject: id } })).toBe(0);
  });
});

describe('ask the meeting through an OpenAI-compatible LLM', () => {
  let llm: OpenAiTestServer;
  let app: TestApp;
  let token: string;
  let meetingId: string;
  let messages: Message[];
  beforeAll(async () => {
    llm = await startOpenAiTestServer();
    app = await startTestApp(testLlmConfig(llm, 2000));
    token = await app.signIn('llm@example.com');
    ({ meetingKey: meetingId, messages } = await seedMeeting(app, token, 'standup', standup));
  });
  afterAll(async () => {
    await app.close();
    await llm.close();
  });
  beforeEach(() => llm.reset());

  const userMessage = (i = 0) => llm.requests[i]!.body.messages.at(-1)!.content;
  /** The number the request gave the line with `text`. */
  const numberOf = (content: string, text: string) => Number(new RegExp(`^\\[(\\d+)\\] [^\\n]*${text}`, 'm').exec(content)?.[1]);

  it('sends a short meeting whole with numbered lines, maps the [n] the model cites to message ids and streams deltas', async () => {
    llm.setResponder((body) => {
      const content = body.messages.at(-1)!.content;
      const promise = numberOf(content, 'revised budget');
      const pricing = numberOf(content, 'fix the pricing table');
      return `Bob promised to send the revised budget to finance by Friday [${promise}], and Carol will fix the pricing table [${pricing}].`;
    });
    const result = await answer(app, token, { meetingId, question: 'What did people promise to do?' });
    expect(userMessage()).toMatch(/^Transcript so far/);
    for (const line of standup) expect(userMessage()).toContain(line.text);
    expect(userMessage()).toMatch(/\n\[4\] \d\d:\d\d [AP]M Bob: I promise to send the revised budget to finance by Friday\.\n/);
    expect(userMessage()).toMatch(/\n\nQuestion: What did people promise to do\?$/);
    expect(llm.requests[0]!.body).toMatchObject({ model: 'model-basic', stream: true });

    expect(result.citations.map((c) => c.messageId)).toEqual([byText(messages, standup[3]!.text), byText(messages, standup[5]!.text)]);
    expect(result.citations.map((c) => c.n)).toEqual([4, 6]);
    expect(result.deltas.length).toBeGreaterThan(5);
    expect(result.deltas.join('').trim()).toBe(result.answer);
    expect(result.streamedCitations).toEqual(result.citations);
    // Each citation is sent before the text that shows its marker.
    const firstMarker = result.events.findIndex((e) => e.type === 'delta' && e.text.includes('[4]'));
    const firstCitation = result.events.findIndex((e) => e.type === 'citations');
    expect(firstCitation).toBeGreaterThan(0);
    expect(firstCitation).toBeLessThan(firstMarker);
  });

  it('sends only the retrieved windows of a 3-hour meeting, within the token budget, and maps their numbers back', async () => {
    const { meetingKey } = await seedMeeting(app, token, 'long', standup.slice(0, 2));
    const startedAt = Date.UTC(2026, 10, 20, 9, 0);
    const topics = ['the office plants', 'parking spaces', 'the coffee machine', 'lunch options', 'the printer queue', 'desk booking'];
    const filler = Array.from({ length: 3000 }, (_, i) => ({
      speaker: ['Alice', 'Carol', 'Erin'][i % 3]!,
      text: `Filler ${i}: another remark about ${topics[i % topics.length]} that nobody needs to remember later on.`,
    }));
    const promise = { speaker: 'Bob', text: 'I promise to ship the invoice export before the March release.' };
    filler.splice(2400, 0, promise);
    await app.deps.db.message.createMany({
      data: filler.map((line, i) => ({
        meetingId: meetingKey,
        captionId: `long-${i}`,
        revision: 0,
        final: true,
        user: line.speaker,
        text: line.text,
        spokenAt: new Date(startedAt + i * 3500),
      })),
    });
    const promiseId = (await app.deps.db.message.findFirstOrThrow({ where: { meetingId: meetingKey, text: promise.text } })).id;
    llm.setResponder((body) => `Bob promised to ship the invoice export before the March release [${numberOf(body.messages.at(-1)!.content, 'invoice export')}].`);

    const result = await answer(app, token, { meetingId: meetingKey, question: 'What did Bob promise about the invoice export?' });
    const content = userMessage();
    expect(content).toMatch(/^The transcript lines most relevant to the question/);
    expect(content).toContain(promise.text);
    // The hit's neighbours come with it; lines far from it do not.
    expect(content).toContain('Filler 2399:');
    expect(content).toContain('Filler 2400:');
    expect(content).not.toContain('Filler 10:');
    expect(content).not.toContain('Filler 1500:');
    const sent = llm.requests[0]!.body.messages.reduce((n, m) => n + countTokens(m.content), 0);
    expect(sent).toBeLessThanOrEqual(ASK_CONTEXT_TOKENS);
    expect(result.citations).toEqual([expect.objectContaining<Partial<AskCitation>>({ messageId: promiseId, speaker: 'Bob', text: promise.text })]);
  }, 60_000);

  it('sends the earlier turns for a follow-up, without their citation markers', async () => {
    llm.setResponder(() => 'By Friday [4].');
    await answer(app, token, {
      meetingId,
      question: 'And by when will he send it?',
      history: [{ question: 'What did Bob promise?', answer: 'Bob promised the revised budget [4] [2].' }],
    });
    const sent = llm.requests[0]!.body.messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(sent[1]!.content).toBe('What did Bob promise?');
    expect(sent[2]!.content).toBe('Bob promised the revised budget.');
  });

  it('ignores numbers the request never gave and ends a failed answer with an error event that costs nothing', async () => {
    llm.setResponder(() => 'Nothing about that [99] [0].');
    const result = await answer(app, token, { meetingId, question: 'What about the holidays?' });
    expect(result.citations).toEqual([]);

    const fresh = await app.signIn('outage@example.com');
    const { meetingKey } = await seedMeeting(app, fresh, 'outage', standup);
    llm.enqueue({ status: 503 });
    const failed = ask(app, fresh, { meetingId: meetingKey, question: 'What did Bob promise?' });
    expect(await failed.end).toEqual({ type: 'error', message: AI_UNAVAILABLE });
    const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'outage@example.com' } });
    const used = async () => (await app.deps.db.dailyUsage.findMany({ where: { subject: id } })).reduce((n, u) => n + u.count, 0);
    await expect.poll(used, { timeout: 3000 }).toBe(0);
  });

  it("refuses a free user's 11th LLM generation of the day with 'Daily limit reached', counting summaries too; premium is unlimited", async () => {
    const token = await app.signIn('free@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'free', standup);
    // A summary and nine questions make ten generations.
    expect((await app.rest('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'summary' } })).status).toBe(200);
    for (let i = 0; i < 9; i++) await answer(app, token, { meetingId: meetingKey, question: 'What did Bob promise?' });
    await expect(ask(app, token, { meetingId: meetingKey, question: 'What did Bob promise?' }).end).rejects.toMatchObject({
      message: DAILY_LIMIT_REACHED,
      data: { httpStatus: 429 },
    });
    const refused = await app.rest<{ message: string }>('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'goal' } });
    expect(refused).toMatchObject({ status: 429, body: { message: DAILY_LIMIT_REACHED } });

    const owner = await app.signIn('premium-asker@example.com');
    await makePremium(app, 'premium-asker@example.com');
    const { meetingKey: premiumMeeting } = await seedMeeting(app, owner, 'premium-standup', standup);
    for (let i = 0; i < 12; i++) await answer(app, owner, { meetingId: premiumMeeting, question: 'What did Bob promise?' });
  });
});
