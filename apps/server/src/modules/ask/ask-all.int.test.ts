import { TZDate } from '@date-fns/tz';
import { startOfMonth, subDays, subMonths } from 'date-fns';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  askAllAnswerSchema,
  DAILY_LIMIT_REACHED,
  type AskAllAnswer,
  type AskAllInput,
  type AskAllStreamEvent,
  type Message,
} from '@mbox/shared';
import { countTokens } from '../../ai/index.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting, type SeedLine } from '../../test/fixtures.js';
import { startOpenAiTestServer, testLlmConfig, type OpenAiTestServer } from '../../test/openai-server.js';
import { AI_UNAVAILABLE } from '../summary/ai-errors.js';
import { askAllMeetings, NOTHING_MATCHES_ALL, NO_WORDS_TO_SEARCH } from './all-meetings.js';
import { ASK_CONTEXT_TOKENS } from './service.js';

const ZONE = 'America/New_York';
/** Noon in New York on the 15th of the month `monthsAgo` months back: well inside that calendar month. */
function midMonth(monthsAgo: number): number {
  const start = startOfMonth(subMonths(new TZDate(Date.now(), ZONE), monthsAgo));
  return new TZDate(start.getFullYear(), start.getMonth(), 15, 12, 0, ZONE).getTime();
}
/** Yesterday at 10:00 in New York. */
function yesterday(): number {
  const day = subDays(new TZDate(Date.now(), ZONE), 1);
  return new TZDate(day.getFullYear(), day.getMonth(), day.getDate(), 10, 0, ZONE).getTime();
}

const pricingReview: SeedLine[] = [
  { speaker: 'Alice', text: 'Let us settle the pricing of the pro plan today.' },
  { speaker: 'Bob', text: 'The weather has been awful all week.' },
  { speaker: 'Alice', text: 'We decided to raise the pro plan price to thirty dollars from January.' },
  { speaker: 'Carol', text: 'Agreed, and annual billing keeps its discount.' },
];
const olderSync: SeedLine[] = [
  { speaker: 'Dana', text: 'The pricing page still shows the old screenshots.' },
  { speaker: 'Erin', text: 'I can update them before the launch.' },
];
const standup: SeedLine[] = [
  { speaker: 'Carol', text: 'I will own the onboarding emails from now on.' },
  { speaker: 'Bob', text: 'Great, thanks Carol.' },
];
const secret: SeedLine[] = [{ speaker: 'Zed', text: 'Secret pricing decision: we decided on a price of ninety dollars.' }];

/** One question through the tRPC subscription, as the web app asks it. */
function askStream(app: TestApp, token: string, input: AskAllInput) {
  const events: AskAllStreamEvent[] = [];
  const end = new Promise<AskAllStreamEvent>((resolve, reject) => {
    const sub = app.trpc(token).ask.allStream.subscribe(input, {
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

async function answer(app: TestApp, token: string, input: AskAllInput) {
  const { events, end } = askStream(app, token, input);
  const last = await end;
  if (last.type !== 'done') throw new Error(`ask failed: ${JSON.stringify(last)}`);
  const deltas = events.flatMap((e) => (e.type === 'delta' ? [e.text] : []));
  return { ...last, events, deltas };
}

const keyOf = (messages: Message[], text: string) => messages.find((m) => m.text === text)!.key;

async function signInAt(app: TestApp, email: string): Promise<string> {
  const token = await app.signIn(email);
  expect((await app.rest('PUT', '/v1/user-settings', { token, body: { timezone: ZONE } })).status).toBe(200);
  return token;
}

describe('ask all meetings with the offline engine', () => {
  let app: TestApp;
  let owner: string;
  let other: string;
  let review: { meetingKey: string; messages: Message[] };
  let older: { meetingKey: string; messages: Message[] };
  beforeAll(async () => {
    app = await startTestApp();
    owner = await signInAt(app, 'owner@example.com');
    other = await signInAt(app, 'other@example.com');
    review = await seedMeeting(app, owner, 'review', pricingReview, midMonth(1));
    await app.deps.db.meeting.update({ where: { id: review.meetingKey }, data: { title: 'Pricing review' } });
    older = await seedMeeting(app, owner, 'older', olderSync, midMonth(2));
    await seedMeeting(app, owner, 'standup', standup, yesterday());
    await makePremium(app, 'owner@example.com');
    const sealed = await seedMeeting(app, owner, 'sealed', secret, midMonth(1) + 3_600_000);
    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${sealed.meetingKey}`, { token: owner })).status).toBe(200);
    await seedMeeting(app, other, 'foreign', secret, midMonth(1));
  });
  afterAll(() => app.close());

  it('restricts "last month" to that calendar month in the user’s zone, cites the decision, and counts the encrypted meeting left out', async () => {
    const result = await answer(app, owner, { question: 'What did we decide about pricing last month?' });
    expect(result.events[0]).toMatchObject({ type: 'scope', scope: { meetings: 1, encryptedMeetings: 1, range: { said: 'last month' } } });
    const range = result.scope.range!;
    expect(range.from).toBe(startOfMonth(subMonths(new TZDate(Date.now(), ZONE), 1)).getTime());
    expect(range.to).toBe(startOfMonth(new TZDate(Date.now(), ZONE)).getTime());
    expect(result.engine).toBe('offline');
    const decided = pricingReview[2]!.text;
    expect(result.citations).toContainEqual({
      n: expect.any(Number),
      messageId: keyOf(review.messages, decided),
      meetingId: review.meetingKey,
      meetingTitle: 'Pricing review',
      meetingDate: midMonth(1),
      speaker: 'Alice',
      spokenAt: midMonth(1) + 2000,
      text: decided,
    });
    expect(result.citations.every((c) => c.meetingId === review.meetingKey)).toBe(true);
    expect(result.citations.map((c) => c.text)).not.toContain(pricingReview[1]!.text);
    expect(result.answer).toContain(`Searched 1 meeting, ${range.label} (“last month”). 1 encrypted meeting was left out`);
    expect(result.answer).toMatch(/match(es)? your question best:\n\nPricing review · \w{3}, \w{3} 15, \d{4}\n\[1\] Alice \(12:00 PM\): “/);
    expect(result.answer).not.toMatch(/ninety/);
    expect(result.deltas.join('')).toBe(result.answer);
  });

  it('searches every meeting without a period, grouping the lines by meeting', async () => {
    const result = await answer(app, owner, { question: 'What about pricing?' });
    expect(result.scope).toEqual({ range: null, meetings: 3, encryptedMeetings: 1 });
    expect(new Set(result.citations.map((c) => c.meetingId))).toEqual(new Set([review.meetingKey, older.meetingKey]));
    expect(result.answer).toMatch(/^Searched all 3 of your meetings\. 1 encrypted meeting was left out/);
    // Each meeting's lines follow its heading, numbered across meetings.
    const headings = result.answer.split('\n').filter((line) => / · /.test(line));
    expect(headings).toHaveLength(2);
    expect(result.citations.map((c) => c.n)).toEqual(result.citations.map((_, i) => i + 1));
  });

  it('takes explicit from/to days over the question’s words, over REST as one body', async () => {
    const day = (at: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(at);
    const response = await app.rest<AskAllAnswer>('POST', '/v1/ask', {
      token: owner,
      body: { question: 'What did we decide about pricing last month?', from: day(midMonth(2)), to: day(midMonth(2)) },
    });
    expect(response.status).toBe(200);
    const body = askAllAnswerSchema.parse(response.body);
    expect(body.scope).toMatchObject({ meetings: 1, encryptedMeetings: 0, range: { said: null } });
    expect(body.citations.map((c) => c.meetingId)).toEqual([older.meetingKey]);
  });

  it('answers the service function without tRPC (what the MCP tool calls), streaming its events', async () => {
    const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'owner@example.com' } });
    const events: AskAllStreamEvent[] = [];
    const result = await askAllMeetings(app.deps, id, 'Who owns the onboarding emails since yesterday?', { onEvent: (e) => events.push(e) });
    expect(result.scope).toMatchObject({ meetings: 1, range: { said: 'since yesterday' } });
    expect(result.citations.map((c) => c.text)).toEqual([standup[0]!.text]);
    expect(events.map((e) => e.type)).toEqual(['scope', 'citations', 'delta', 'delta', 'delta']);
  });

  it('says so when nothing matches, when the question has no words, and when the period has no meetings', async () => {
    expect((await answer(app, owner, { question: 'What about the zeppelin hangar?' })).answer).toContain(NOTHING_MATCHES_ALL);
    expect((await answer(app, owner, { question: 'What happened yesterday?' })).answer).toContain(NO_WORDS_TO_SEARCH);
    const empty = await answer(app, owner, { question: 'What about pricing in the last 2 weeks?', from: '2001-01-01', to: '2001-01-31' });
    expect(empty).toMatchObject({ citations: [], scope: { meetings: 0 } });
    expect(empty.answer).toBe('You have no meetings to search in this period: Jan 1, 2001 – Jan 31, 2001.');
  });

  it("never searches another user's meetings, and offline answers cost no daily use", async () => {
    const result = await answer(app, other, { question: 'What did we decide about pricing?' });
    expect(result.citations.map((c) => c.text)).toEqual([secret[0]!.text]);
    const ownerLines = new Set([...review.messages, ...older.messages].map((m) => m.key));
    expect(result.citations.some((c) => ownerLines.has(c.messageId))).toBe(false);
    const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'owner@example.com' } });
    expect(await app.deps.db.dailyUsage.count({ where: { subject: id } })).toBe(0);
  });

  it('refuses bad input with a 400 naming the problem, over REST and tRPC', async () => {
    const cases: [unknown, string][] = [
      [{ question: 'Why?' }, 'question must be at least 6 characters'],
      [{ question: 'x'.repeat(1001) }, 'question must be at most 1000 characters'],
      [{}, 'question'],
      [{ question: 'What about pricing?', from: '2026-13-01' }, 'from must be a calendar date written YYYY-MM-DD'],
      [{ question: 'What about pricing?', to: 'last week' }, 'to must be a calendar date written YYYY-MM-DD'],
      [{ question: 'What about pricing?', from: '10/01/2026' }, 'from must be a calendar date'],
      [{ question: 'What about pricing?', from: '2026-02-30' }, 'from must be a calendar date'],
      [{ question: 'What about pricing?', from: '2026-10-05', to: '2026-10-01' }, 'to must not be before from (2026-10-05)'],
      [{ question: 'What about pricing?', meetingId: 'x' }, 'meetingId'],
    ];
    for (const [body, message] of cases) {
      const response = await app.rest<{ message: string }>('POST', '/v1/ask', { token: owner, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message, JSON.stringify(body)).toContain(message);
      const error = await askStream(app, owner, body as AskAllInput).end.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, JSON.stringify(body)).toMatchObject({ data: { httpStatus: 400 } });
      expect((error as Error).message).toContain(message);
    }
    expect((await app.rest('POST', '/v1/ask', { body: { question: 'What about pricing?' } })).status).toBe(401);
  });
});

describe('ask all meetings through an OpenAI-compatible LLM', () => {
  let llm: OpenAiTestServer;
  let app: TestApp;
  let token: string;
  let review: { meetingKey: string; messages: Message[] };
  beforeAll(async () => {
    llm = await startOpenAiTestServer();
    app = await startTestApp(testLlmConfig(llm, 2000));
    token = await signInAt(app, 'llm@example.com');
    review = await seedMeeting(app, token, 'review', pricingReview, midMonth(1));
    await seedMeeting(app, token, 'older', olderSync, midMonth(2));
    // Only the flag, the text left readable in the database: the meeting is left out for being encrypted.
    const sealed = await seedMeeting(app, token, 'sealed', secret, midMonth(1));
    await app.deps.db.meeting.update({ where: { id: sealed.meetingKey }, data: { encrypted: true } });
  });
  afterAll(async () => {
    await app.close();
    await llm.close();
  });
  beforeEach(() => llm.reset());

  const userMessage = (i = 0) => llm.requests[i]!.body.messages.at(-1)!.content;
  const numberOf = (content: string, text: string) => Number(new RegExp(`^\\[(\\d+)\\] [^\\n]*${text}`, 'm').exec(content)?.[1]);

  it('numbers the retrieved lines under their meetings, maps the [n] cited back to lines and drops numbers never given', async () => {
    llm.setResponder((body) => {
      const content = body.messages.at(-1)!.content;
      return `The pro plan goes to thirty dollars [${numberOf(content, 'thirty dollars')}], annual billing keeps its discount [${numberOf(content, 'annual billing')}] [99].`;
    });
    const result = await answer(app, token, { question: 'What did we decide about pricing last month?' });
    const content = userMessage();
    expect(content).toMatch(/^Searched 1 meeting, .+ \(“last month”\)\. 1 encrypted meeting was left out/);
    expect(content).toMatch(/\nMeeting “.*”, \w{3}, \w{3} \d+, \d{4}:\n\[1\] \d\d:\d\d [AP]M Alice: /);
    expect(content).toContain(pricingReview[2]!.text);
    // Only last month's meeting, never the encrypted one's text.
    expect(content).not.toContain(olderSync[0]!.text);
    expect(content).not.toContain('ninety');
    expect(content).toMatch(/\n\nQuestion: What did we decide about pricing last month\?$/);

    expect(result.engine).toBe('openai');
    expect(result.citations.map((c) => [c.messageId, c.meetingId])).toEqual([
      [keyOf(review.messages, pricingReview[2]!.text), review.meetingKey],
      [keyOf(review.messages, pricingReview[3]!.text), review.meetingKey],
    ]);
    expect(result.answer).toMatch(/^Searched 1 meeting, .*\n\nThe pro plan goes to thirty dollars \[\d\], annual billing keeps its discount \[\d\]\.$/);
    expect(result.answer).not.toContain('[99]');
    // Each citation is sent before the text that shows its marker.
    const firstCitation = result.events.findIndex((e) => e.type === 'citations');
    const firstMarker = result.events.findIndex((e) => e.type === 'delta' && /\[\d\]/.test(e.text));
    expect(firstCitation).toBeGreaterThan(0);
    expect(firstCitation).toBeLessThan(firstMarker);
    const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'llm@example.com' } });
    expect((await app.deps.db.dailyUsage.findFirst({ where: { subject: id, kind: 'ai-generation' } }))?.count).toBe(1);
  });

  it('sends only the windows of the best lines across many meetings, within the token budget', async () => {
    const fresh = await signInAt(app, 'many@example.com');
    const { id: userId } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'many@example.com' } });
    const topics = ['the office plants', 'parking spaces', 'the coffee machine', 'pricing tiers', 'the printer queue'];
    for (let m = 0; m < 20; m++) {
      const meeting = await app.deps.db.meeting.create({
        data: { userId, sessionId: `bulk-${m}`, meetCode: 'abc-defg-hij', title: `Bulk ${m}`, startedAt: new Date(midMonth(2) + m * 3_600_000) },
      });
      await app.deps.db.message.createMany({
        data: Array.from({ length: 100 }, (_, i) => ({
          meetingId: meeting.id,
          captionId: `c${i}`,
          revision: 0,
          final: true,
          user: ['Alice', 'Carol', 'Erin'][i % 3]!,
          text: `Remark ${m}-${i} about ${topics[i % topics.length]}: a long aside that goes on about schedules, rooms, snacks, weekend plans and the weather, which nobody needs to remember later on, honestly, not even the person saying it.`,
          spokenAt: new Date(midMonth(2) + m * 3_600_000 + i * 4000),
        })),
      });
    }
    const decision = await seedMeeting(app, fresh, 'decision', pricingReview, midMonth(1));
    llm.setResponder((body) => `Thirty dollars [${numberOf(body.messages.at(-1)!.content, 'thirty dollars')}].`);
    const result = await answer(app, fresh, { question: 'What did we decide about the pro plan price?' });
    const sent = llm.requests[0]!.body.messages.reduce((n, m) => n + countTokens(m.content), 0);
    // Filled up to the budget, not past it: more windows matched than fit.
    expect(sent).toBeLessThanOrEqual(ASK_CONTEXT_TOKENS);
    expect(sent).toBeGreaterThan(ASK_CONTEXT_TOKENS * 0.8);
    expect(userMessage()).toContain(pricingReview[2]!.text);
    expect(result.citations.map((c) => c.messageId)).toEqual([keyOf(decision.messages, pricingReview[2]!.text)]);
  }, 60_000);

  it('answers a question no line matches without asking the LLM, at no cost', async () => {
    const result = await answer(app, token, { question: 'What about the zeppelin hangar?' });
    expect(llm.requests).toHaveLength(0);
    expect(result).toMatchObject({ engine: 'offline', citations: [] });
    expect(result.answer).toContain(NOTHING_MATCHES_ALL);
  });

  it('ends an LLM outage with an error event that costs nothing', async () => {
    const fresh = await signInAt(app, 'outage@example.com');
    await seedMeeting(app, fresh, 'outage', pricingReview, midMonth(1));
    llm.enqueue({ status: 503 }, { status: 503 });
    expect(await askStream(app, fresh, { question: 'What did we decide about pricing?' }).end).toEqual({ type: 'error', message: AI_UNAVAILABLE });
    const refused = await app.rest<{ message: string }>('POST', '/v1/ask', { token: fresh, body: { question: 'What did we decide about pricing?' } });
    expect(refused).toMatchObject({ status: 503, body: { message: AI_UNAVAILABLE } });
    const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'outage@example.com' } });
    const used = async () => (await app.deps.db.dailyUsage.findMany({ where: { subject: id, kind: 'ai-generation' } })).reduce((n, u) => n + u.count, 0);
    await expect.poll(used, { timeout: 3000 }).toBe(0);
  });

  it("refuses a free user's 11th generation of the day, counting questions about one meeting too", async () => {
    const fresh = await signInAt(app, 'free@example.com');
    const { meetingKey } = await seedMeeting(app, fresh, 'free', pricingReview, midMonth(1));
    await new Promise<void>((resolve, reject) => {
      const sub = app.trpc(fresh).ask.stream.subscribe(
        { meetingId: meetingKey, question: 'What did we decide about pricing?' },
        {
          onData: (event) => {
            if (event.type === 'done' || event.type === 'error') {
              sub.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    for (let i = 0; i < 8; i++) await answer(app, fresh, { question: 'What did we decide about pricing?' });
    expect((await app.rest('POST', '/v1/ask', { token: fresh, body: { question: 'What did we decide about pricing?' } })).status).toBe(200);
    await expect(askStream(app, fresh, { question: 'What did we decide about pricing?' }).end).rejects.toMatchObject({
      message: DAILY_LIMIT_REACHED,
      data: { httpStatus: 429 },
    });
    const refused = await app.rest<{ message: string }>('POST', '/v1/ask', { token: fresh, body: { question: 'What did we decide about pricing?' } });
    expect(refused).toMatchObject({ status: 429, body: { message: DAILY_LIMIT_REACHED } });
  });
});
