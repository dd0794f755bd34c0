import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_LIMIT_REACHED, type AiUsage, type AskStreamEvent, type Summary } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting, type SeedLine } from '../../test/fixtures.js';
import { isActionItemsRequest, startOpenAiTestServer, testLlmConfig, type OpenAiTestServer, type RecordedRequest } from '../../test/openai-server.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { usageDay } from '../../trpc/rate-limit.js';
import type { AuthUser } from '../auth/service.js';
import { TALK } from '../recap/test-meetings.js';
import { streamSummary } from '../summary/generation.js';
import { AI_GENERATION_KIND, AI_TOKENS_KIND, SUMMARIZER_KIND } from './service.js';

/** The recap tests' summarisable meeting. */
const small: SeedLine[] = TALK.map(([speaker, text]) => ({ speaker, text }));

const ARTICLE = [
  'The library will extend its opening hours from next month and stay open until nine in the evening.',
  'A survey of six hundred readers showed that most of them could only visit after work.',
  'The extra hours cost forty thousand dollars a year, paid from the reserve fund.',
].join('\n');

const ANSWER = 'The team launches the billing page next Tuesday after fixing the export bugs.';
const FREE_TOKENS = 50_000;
const PREMIUM_TOKENS = 4_000;

type ErrorBody = { message: string; code: string };

/** Tokens the test LLM reports for a request: one per four characters of the messages, and of its answer. */
function reportedTokens(request: RecordedRequest, answer = ANSWER): number {
  return Math.ceil(request.body.messages.reduce((n, m) => n + m.content.length, 0) / 4) + Math.ceil(answer.length / 4);
}

async function userOf(app: TestApp, email: string): Promise<AuthUser> {
  return { ...(await app.deps.db.user.findUniqueOrThrow({ where: { email } })), via: 'session' };
}

async function counters(app: TestApp, email: string): Promise<Record<string, number>> {
  const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email } });
  const rows = await app.deps.db.dailyUsage.findMany({ where: { subject: id, day: usageDay() } });
  return Object.fromEntries(rows.map((r) => [r.kind, r.count]));
}

async function usage(app: TestApp, token: string): Promise<AiUsage> {
  const response = await app.rest<AiUsage>('GET', '/v1/ai-usage', { token });
  expect(response.status).toBe(200);
  return response.body;
}

function prompt(app: TestApp, token: string, meetKey: string, promptKey: string) {
  return app.rest<Summary & ErrorBody>('POST', '/v1/prompts', { token, body: { meetKey, promptKey } });
}

/** An Ask answer read to its end (done or error event). */
function ask(app: TestApp, token: string, meetingId: string, question: string): Promise<AskStreamEvent> {
  return new Promise((resolve, reject) => {
    const sub = app.trpc(token).ask.stream.subscribe(
      { meetingId, question },
      {
        onData: (event) => {
          if (event.type !== 'done' && event.type !== 'error') return;
          sub.unsubscribe();
          resolve(event);
        },
        onError: (error) => {
          sub.unsubscribe();
          reject(error);
        },
      },
    );
  });
}

describe('AI metering with an OpenAI-compatible LLM', () => {
  let llm: OpenAiTestServer;
  let smtp: TestSmtpServer;
  let app: TestApp;
  beforeAll(async () => {
    [llm, smtp] = await Promise.all([startOpenAiTestServer({ responder: () => ANSWER }), startSmtpServer()]);
    app = await startTestApp({
      ...testLlmConfig(llm, 5000),
      SMTP_URL: smtp.url,
      JOB_POLL_SECONDS: 0.5,
      AI_DAILY_TOKENS_FREE: FREE_TOKENS,
      AI_DAILY_TOKENS_PREMIUM: PREMIUM_TOKENS,
    });
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([llm?.close(), smtp?.close()]);
  });

  it('counts recap summaries: a free user ending 12 small meetings gets 10 generations that day, not 22; action items take none', { timeout: 90_000 }, async () => {
    const email = 'recaps@example.com';
    const token = await app.signIn(email);
    const before = llm.requests.length;
    // Each ended meeting also has its action items read (docs/action-items.md): LLM requests that take tokens, not generations.
    const summaryRequests = () => llm.requests.slice(before).filter((r) => !isActionItemsRequest(r.body));
    const meetings: string[] = [];
    const recapsSettled = async () => {
      const { recaps } = await app.trpc(token).recap.list.query({});
      return recaps.filter((r) => meetings.includes(r.meetingId) && ['sent', 'skipped', 'failed'].includes(r.status));
    };
    // One after the other, as a day of meetings goes: each recap is written before the next meeting ends.
    for (let i = 0; i < 12; i++) {
      const { meetingKey } = await seedMeeting(app, token, `recap-${i}`, small);
      const finishedAt = Date.UTC(2026, 10, 20, 15, 30);
      const ended = await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: `recap-${i}`, finishedAt } });
      expect(ended.status, JSON.stringify(ended.body)).toBe(200);
      meetings.push(meetingKey);
      await expect.poll(async () => (await recapsSettled()).length, { timeout: 20_000, interval: 200 }).toBe(i + 1);
    }
    const recaps = await recapsSettled();
    expect(recaps.filter((r) => r.status === 'sent' && r.kind === 'summary')).toHaveLength(10);
    // The other two were refused before anything ran: no summary, the reason in the outbox.
    const refused = recaps.filter((r) => r.status !== 'sent');
    expect(refused).toHaveLength(2);
    for (const recap of refused) expect(recap.error).toContain(DAILY_LIMIT_REACHED);
    expect(summaryRequests()).toHaveLength(10);
    const summaries = { meetingId: { in: meetings }, promptKey: 'summary' };
    expect(await app.deps.db.summary.count({ where: summaries })).toBe(10);
    await expect
      .poll(() => app.deps.db.summary.count({ where: { meetingId: { in: meetings }, promptKey: 'action' } }), { timeout: 30_000, interval: 200 })
      .toBe(12);

    // Asked for in the app, the 11th generation of the day is refused too and stores nothing.
    const over = await prompt(app, token, meetings[0]!, 'goal');
    expect(over).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS', message: DAILY_LIMIT_REACHED } });
    expect(summaryRequests()).toHaveLength(10);
    expect(await app.deps.db.summary.count({ where: summaries })).toBe(10);
    expect((await usage(app, token)).generations).toEqual({ used: 10, limit: 10, left: 0 });
  });

  it('counts input + output tokens as the LLM reports them, and shows what is left', async () => {
    const token = await app.signIn('tokens@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'tokens', small);
    expect(await usage(app, token)).toMatchObject({
      day: usageDay(),
      generations: { used: 0, limit: 10, left: 10 },
      tokens: { used: 0, limit: FREE_TOKENS, left: FREE_TOKENS },
    });
    const from = llm.requests.length;
    expect((await prompt(app, token, meetingKey, 'summary')).status).toBe(200);
    const spent = llm.requests.slice(from).reduce((n, r) => n + reportedTokens(r), 0);
    expect(spent).toBeGreaterThan(100);
    expect(await counters(app, 'tokens@example.com')).toEqual({ [AI_GENERATION_KIND]: 1, [AI_TOKENS_KIND]: spent });
    const after = await usage(app, token);
    expect(after.generations).toEqual({ used: 1, limit: 10, left: 9 });
    expect(after.tokens).toEqual({ used: spent, limit: FREE_TOKENS, left: FREE_TOKENS - spent });
    expect(after.resetsAt).toBe(Date.parse(`${usageDay()}T00:00:00Z`) + 86_400_000);

    // A translation and an Ask answer are generations too, with their own reported tokens.
    const summary = (await app.deps.db.summary.findFirstOrThrow({ where: { meetingId: meetingKey } })).id;
    const translated = await app.rest('POST', '/v1/translate', { token, body: { meetKey: meetingKey, type: 'summary', summaryKey: summary, languageKey: 'fr' } });
    expect(translated.status).toBe(200);
    expect((await ask(app, token, meetingKey, 'When do we launch?')).type).toBe('done');
    const all = llm.requests.slice(from).reduce((n, r) => n + reportedTokens(r), 0);
    expect(await counters(app, 'tokens@example.com')).toEqual({ [AI_GENERATION_KIND]: 3, [AI_TOKENS_KIND]: all });
  });

  it('never generates a type that already has a current summary: the stored one is returned, nothing counted', async () => {
    const email = 'again@example.com';
    const token = await app.signIn(email);
    const { meetingKey } = await seedMeeting(app, token, 'again', small);
    const from = llm.requests.length;
    const first = await prompt(app, token, meetingKey, 'decision');
    expect(first.status).toBe(200);
    const again = await prompt(app, token, meetingKey, 'decision');
    expect(again).toMatchObject({ status: 200, body: first.body });
    const streamed: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = app.trpc(token).summary.generateStream.subscribe(
        { meetKey: meetingKey, promptKey: 'decision' },
        {
          onData: (event) => {
            streamed.push(event.type);
            if (event.type !== 'done') return;
            expect(event.summary).toEqual(first.body);
            sub.unsubscribe();
            resolve();
          },
          onError: reject,
        },
      );
    });
    expect(streamed).toEqual(['done']);
    expect(llm.requests.length - from).toBe(1);
    expect((await counters(app, email))[AI_GENERATION_KIND]).toBe(1);

    // Once something was said after it, the summary is out of date and is written anew.
    await app.rest('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId: 'again', meetCode: 'abc-defg-hij', startedAt: Date.UTC(2026, 10, 20, 15, 0) },
        lines: [{ captionId: 'late', revision: 0, speaker: 'Ana', text: 'One more thing: the launch moves to Wednesday.', spokenAt: Date.UTC(2026, 10, 20, 15, 5), final: true }],
      },
    });
    // The meeting's line clock is rewritten at most every 15 s; this test does not wait for it.
    await app.deps.db.meeting.update({ where: { id: meetingKey }, data: { lastLineAt: new Date(Date.now() + 1000) } });
    expect((await prompt(app, token, meetingKey, 'decision')).status).toBe(200);
    expect(llm.requests.length - from).toBe(2);
    expect((await counters(app, email))[AI_GENERATION_KIND]).toBe(2);
  });

  it('keeps the use of a stream abandoned after its summary was stored; gives back one abandoned before', async () => {
    const email = 'abandon@example.com';
    const token = await app.signIn(email);
    const { meetingKey } = await seedMeeting(app, token, 'abandon', small);
    const user = await userOf(app, email);
    const from = llm.requests.length;

    const stored = streamSummary(app.deps, user, { meetKey: meetingKey, promptKey: 'summary' }, undefined);
    expect((await stored.next()).value).toMatchObject({ type: 'token' });
    // The subscriber stops reading; the generation goes on and stores the summary before it leaves.
    await expect.poll(() => app.deps.db.summary.count({ where: { meetingId: meetingKey } }), { timeout: 5000 }).toBe(1);
    await stored.return(undefined);
    const spent = reportedTokens(llm.requests[from]!);
    expect(await counters(app, email)).toEqual({ [AI_GENERATION_KIND]: 1, [AI_TOKENS_KIND]: spent });

    llm.enqueue({ stallAfterChunks: 2 });
    const cancelled = streamSummary(app.deps, user, { meetKey: meetingKey, promptKey: 'action' }, undefined);
    expect((await cancelled.next()).value).toMatchObject({ type: 'token' });
    await cancelled.return(undefined);
    expect(await app.deps.db.summary.count({ where: { meetingId: meetingKey } })).toBe(1);
    expect(await counters(app, email)).toEqual({ [AI_GENERATION_KIND]: 1, [AI_TOKENS_KIND]: spent });
  });

  it("stops an account at its day's token budget, before the LLM is asked, even with requests at once", async () => {
    const email = 'budget@example.com';
    const token = await app.signIn(email);
    await makePremium(app, email);
    const { meetingKey } = await seedMeeting(app, token, 'budget', small);
    const from = llm.requests.length;
    const keys = ['summary', 'goal', 'topic', 'purpose', 'decision', 'action', 'next', 'issue', 'missing', 'sentiment'];
    const answers = await Promise.all(keys.map((key) => prompt(app, token, meetingKey, key)));
    const passed = answers.filter((a) => a.status === 200).length;
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body.message)).toEqual(Array(keys.length - passed).fill(DAILY_LIMIT_REACHED));
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(keys.length);
    // Every refused generation was refused before the LLM was asked, and stored nothing.
    expect(llm.requests.length - from).toBe(passed);
    expect(await app.deps.db.summary.count({ where: { meetingId: meetingKey } })).toBe(passed);
    const spent = llm.requests.slice(from).reduce((n, r) => n + reportedTokens(r), 0);
    const { tokens, generations } = await usage(app, token);
    expect(tokens.used).toBe(spent);
    expect(tokens.used).toBeLessThanOrEqual(PREMIUM_TOKENS);
    // Premium has no count limit, only the token budget.
    expect(generations).toEqual({ used: passed, limit: null, left: null });

    // Regenerating one at a time goes on until the budget refuses; the day never passes its budget.
    const stored = await app.deps.db.summary.findFirstOrThrow({ where: { meetingId: meetingKey } });
    const regenerate = () => app.rest('PUT', `/v1/prompts/${stored.id}`, { token, body: { meetKey: meetingKey, promptKey: stored.promptKey } });
    let status = 200;
    for (let i = 0; i < keys.length && status === 200; i++) ({ status } = await regenerate());
    expect(status).toBe(429);
    expect((await usage(app, token)).tokens.used).toBeLessThanOrEqual(PREMIUM_TOKENS);
  });

  it('meters line fixes and signed-in summarizer tools per account, on their own counters', async () => {
    const email = 'tools@example.com';
    const token = await app.signIn(email);
    const { messages } = await seedMeeting(app, token, 'tools', small);
    await makePremium(app, email);
    const from = llm.requests.length;
    llm.setResponder(() => 'We fix the export bugs first.');
    const fixed = await app.rest('PUT', `/v1/p/message/ai-fix/${messages[2]!.key}`, { token });
    expect(fixed.status).toBe(200);
    const fixTokens = reportedTokens(llm.requests.at(-1)!, 'We fix the export bugs first.');
    llm.setResponder(() => ANSWER);
    expect((await app.rest('POST', '/v1/utils/summary', { token, body: { text: ARTICLE } })).status).toBe(200);
    const toolTokens = reportedTokens(llm.requests.at(-1)!);
    expect(llm.requests.length - from).toBe(2);
    expect(await counters(app, email)).toEqual({ [AI_GENERATION_KIND]: 1, [SUMMARIZER_KIND]: 1, [AI_TOKENS_KIND]: fixTokens + toolTokens });

    // A Basic account's summarizer uses are its own 10 a day.
    const basic = await app.signIn('tools-basic@example.com');
    for (let i = 0; i < 10; i++) expect((await app.rest('POST', '/v1/utils/summary', { token: basic, body: { text: ARTICLE } })).status).toBe(200);
    const over = await app.rest<ErrorBody>('POST', '/v1/utils/summary', { token: basic, body: { text: ARTICLE } });
    expect(over).toMatchObject({ status: 429, body: { message: DAILY_LIMIT_REACHED } });
    expect((await counters(app, 'tools-basic@example.com'))[SUMMARIZER_KIND]).toBe(10);
  });
});

describe('AI metering with the offline engine', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('does not count offline generations against the free plan, and shows no limit', async () => {
    const email = 'offline@example.com';
    const token = await app.signIn(email);
    const { meetingKey } = await seedMeeting(app, token, 'offline', small);
    const first = await prompt(app, token, meetingKey, 'summary');
    expect(first.status).toBe(200);
    for (let i = 0; i < 12; i++) {
      const again = await app.rest('PUT', `/v1/prompts/${first.body.docId}`, { token, body: { meetKey: meetingKey, promptKey: 'summary' } });
      expect(again.status, `regeneration ${i + 1}`).toBe(200);
    }
    for (let i = 0; i < 3; i++) expect((await ask(app, token, meetingKey, 'When do we launch?')).type).toBe('done');
    expect(await counters(app, email)).toEqual({});
    expect(await usage(app, token)).toMatchObject({
      generations: { used: 0, limit: null, left: null },
      tokens: { used: 0, limit: null, left: null },
    });
  });
});

describe('AI metering with the offline engine counted (AI_COUNT_OFFLINE)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ AI_COUNT_OFFLINE: true });
  });
  afterAll(() => app?.close());

  it("counts offline generations when the operator says so: the 11th is 429 'Daily limit reached'", async () => {
    const token = await app.signIn('counted@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'counted', small);
    const first = await prompt(app, token, meetingKey, 'summary');
    expect(first.status).toBe(200);
    for (let i = 0; i < 9; i++) {
      expect((await app.rest('PUT', `/v1/prompts/${first.body.docId}`, { token, body: { meetKey: meetingKey, promptKey: 'summary' } })).status).toBe(200);
    }
    expect((await usage(app, token)).generations).toEqual({ used: 10, limit: 10, left: 0 });
    const over = await prompt(app, token, meetingKey, 'goal');
    expect(over).toMatchObject({ status: 429, body: { message: DAILY_LIMIT_REACHED } });
    expect(await app.deps.db.summary.count({ where: { meetingId: meetingKey } })).toBe(1);
    // No LLM: no tokens.
    expect((await usage(app, token)).tokens).toEqual({ used: 0, limit: null, left: null });
  });
});
